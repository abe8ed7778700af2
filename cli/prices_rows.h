/* Turning offers and quotes into rows of the price tables of `prices`, its subcommands and
 * `quote`. */
#ifndef GP_CLI_PRICES_ROWS_H
#define GP_CLI_PRICES_ROWS_H

#include <stdint.h>

#include "gpuplan/offer.h"
#include "report/table.h"

/* Columns of `prices` and `prices history`. */
extern const struct gp_column gp_price_columns[];
extern const size_t gp_price_column_count;

struct gp_price_row_context {
    double per_usd;       /* output currency units per USD */
    const char *currency; /* output currency code */
    int64_t now;          /* Unix seconds UTC */
    long max_age_days;    /* older offers are marked stale-price */
};

/* Set the cells every price table has on the last row: provider, gpu, the price per GPU-hour
 * in the output currency (`per_usd` units per USD, code `currency`) and the offer's original
 * terms: amount, currency, unit, GPUs per instance and region. */
int gp_price_row_set_terms(struct gp_table *t, const struct gp_offer *offer, double per_usd,
                           const char *currency);

/* Append a row for `offer`; `extra_note` (may be NULL) is added to the notes. */
int gp_price_row_add(struct gp_table *t, const struct gp_price_row_context *ctx,
                     const struct gp_offer *offer, const char *extra_note);

/* Append a row saying the GPU has no public price. */
int gp_price_row_add_unpriced(struct gp_table *t, const char *gpu_id);

#endif
