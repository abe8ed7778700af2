/* Dated exchange rates from data/fx.json: units of a currency per US dollar. */
#ifndef GP_CATALOG_FX_H
#define GP_CATALOG_FX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gp_fx_rate {
    char currency[4]; /* ISO 4217 code */
    double per_usd;   /* units of `currency` per 1 USD */
    int64_t date;     /* day the rate applies from, Unix seconds UTC */
    char source[256]; /* where it comes from */
};

struct gp_fx_table {
    struct gp_fx_rate *rates; /* owned; `count` entries */
    size_t count;
};

/* The currencies a report may be in (--currency), NULL-terminated: USD and those fx.json has
 * rates for. Static storage. */
extern const char *const gp_fx_report_currencies[];

/* Whether `code` is one of gp_fx_report_currencies. */
bool gp_fx_is_report_currency(const char *code);

/* gp_fx_report_currencies joined as gp_text_join does ("USD, EUR or DKK"). */
void gp_fx_report_currencies_text(char *out, size_t size, const char *sep, const char *last);

/* Load fx.json through gp_data_read; errors name file, path, line and column. */
int gp_fx_load(struct gp_fx_table *out);
int gp_fx_parse(struct gp_fx_table *out, const char *text, size_t len, const char *origin);
void gp_fx_release(struct gp_fx_table *fx);

/* The latest rate for `currency` dated at or before `at` (or the earliest one if all are later).
 * "USD" is always 1. Returns 0 or GP_ENOTFOUND. */
int gp_fx_per_usd(const struct gp_fx_table *fx, const char *currency, int64_t at, double *out);

#endif
