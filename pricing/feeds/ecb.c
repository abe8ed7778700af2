/* The European Central Bank's euro reference rates from its data API, as CSV
 * (format=csvdata): a header naming CURRENCY, CURRENCY_DENOM, TIME_PERIOD and OBS_VALUE, then one
 * record per currency and day, in units of the currency per euro. Yields dated rates per US
 * dollar for each day that has a dollar rate: EUR = 1 / (USD per EUR), X = (X per EUR) /
 * (USD per EUR). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/text.h"
#include "util/timeutil.h"

enum { ECB_MAX_FIELDS = 64, ECB_MAX_LINE = 4096 };

enum ecb_col { COL_CURRENCY, COL_DENOM, COL_PERIOD, COL_VALUE, COL_COUNT };

static const char *const ecb_cols[COL_COUNT] = {"CURRENCY", "CURRENCY_DENOM", "TIME_PERIOD",
                                                "OBS_VALUE"};

/* One observation: units of `currency` per euro on `date`. */
struct ecb_obs {
    char currency[4];
    int64_t date;
    double per_eur;
};

struct ecb_parse {
    int col[COL_COUNT]; /* field index of each column; -1 until the header is read */
    struct ecb_obs *obs;
    size_t count, cap;
    size_t rejected;
};

static int read_header(struct ecb_parse *p, char **f, int n, const char *source)
{
    for (int c = 0; c < COL_COUNT; c++) {
        p->col[c] = -1;
        for (int i = 0; i < n; i++)
            if (strcmp(f[i], ecb_cols[c]) == 0)
                p->col[c] = i;
        if (p->col[c] < 0)
            return gp_error_set(GP_EINVALID, "%s: not ECB reference rates (no %s column)", source,
                                ecb_cols[c]);
    }
    return 0;
}

/* A data record: kept when it is a daily rate against the euro with a positive value. */
static int read_record(struct ecb_parse *p, char **f, int n)
{
    struct ecb_obs o;
    char *end = NULL;

    for (int c = 0; c < COL_COUNT; c++)
        if (p->col[c] >= n) {
            p->rejected++;
            return 0;
        }
    memset(&o, 0, sizeof(o));
    o.per_eur = strtod(f[p->col[COL_VALUE]], &end);
    if (strcmp(f[p->col[COL_DENOM]], "EUR") != 0 || strlen(f[p->col[COL_CURRENCY]]) != 3 ||
        strlen(f[p->col[COL_PERIOD]]) != 10 || gp_time_parse(f[p->col[COL_PERIOD]], &o.date) ||
        end == f[p->col[COL_VALUE]] || *end || !isfinite(o.per_eur) || o.per_eur <= 0) {
        p->rejected++;
        return 0;
    }
    memcpy(o.currency, f[p->col[COL_CURRENCY]], 4);
    if (p->count == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        struct ecb_obs *grown = realloc(p->obs, cap * sizeof(*grown));
        if (!grown)
            return gp_error_set(GP_ENOMEM, "out of memory reading exchange rates");
        p->obs = grown;
        p->cap = cap;
    }
    p->obs[p->count++] = o;
    return 0;
}

/* Split `text` into lines and records; the first non-empty line is the header. */
static int read_lines(struct ecb_parse *p, const char *text, size_t len, const char *source)
{
    char line[ECB_MAX_LINE], *f[ECB_MAX_FIELDS];
    bool header = false;
    int rc = 0;

    for (size_t at = 0; rc == 0 && at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        size_t keep = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
        memcpy(line, text + at, keep);
        line[keep] = '\0';
        if (keep && line[keep - 1] == '\r')
            line[keep - 1] = '\0';
        at += n + 1;
        if (!line[0])
            continue;
        int nf = n < sizeof(line) - 1 ? gp_feed_csv_split(line, f, ECB_MAX_FIELDS) : -1;
        if (!header) {
            rc = nf > 0 ? read_header(p, f, nf, source)
                        : gp_error_set(GP_EINVALID, "%s: not ECB reference rates", source);
            header = true;
        } else if (nf < 0) {
            p->rejected++;
        } else {
            rc = read_record(p, f, nf);
        }
    }
    if (rc == 0 && !header)
        rc = gp_error_set(GP_EINVALID, "%s: empty response, no reference rates", source);
    return rc;
}

static int add_rate(struct gp_fx_table *out, size_t *cap, const char *currency, int64_t date,
                    double per_usd, const char *source)
{
    struct gp_fx_rate *r;

    if (out->count == *cap) {
        size_t n = *cap ? *cap * 2 : 32;
        struct gp_fx_rate *grown = realloc(out->rates, n * sizeof(*grown));
        if (!grown)
            return gp_error_set(GP_ENOMEM, "out of memory reading exchange rates");
        out->rates = grown;
        *cap = n;
    }
    r = &out->rates[out->count++];
    memset(r, 0, sizeof(*r));
    memcpy(r->currency, currency, 4);
    r->date = date;
    r->per_usd = per_usd;
    gp_text_copy(r->source, sizeof(r->source), source);
    return 0;
}

/* Cross every day's rates through its dollar rate. */
static int cross_rates(const struct ecb_parse *p, struct gp_fx_table *out, const char *source)
{
    size_t cap = 0;
    int rc = 0;

    for (size_t i = 0; rc == 0 && i < p->count; i++) {
        const struct ecb_obs *usd = &p->obs[i];
        if (strcmp(usd->currency, "USD") != 0)
            continue;
        rc = add_rate(out, &cap, "EUR", usd->date, 1.0 / usd->per_eur, source);
        for (size_t j = 0; rc == 0 && j < p->count; j++)
            if (p->obs[j].date == usd->date && strcmp(p->obs[j].currency, "USD") != 0 &&
                strcmp(p->obs[j].currency, "EUR") != 0)
                rc = add_rate(out, &cap, p->obs[j].currency, usd->date,
                              p->obs[j].per_eur / usd->per_eur, source);
    }
    return rc;
}

int gp_fx_ecb_parse(struct gp_fx_table *out, const char *text, size_t len, const char *source,
                    size_t *rejected)
{
    struct ecb_parse p;
    int rc;

    memset(&p, 0, sizeof(p));
    out->rates = NULL;
    out->count = 0;
    rc = read_lines(&p, text, len, source ? source : "");
    if (rc == 0)
        rc = cross_rates(&p, out, source ? source : "");
    if (rejected)
        *rejected = p.rejected;
    free(p.obs);
    if (rc)
        gp_fx_release(out);
    return rc;
}

/* The feed's page parser: the rates of the page are added to the feed's. */
static int ecb_feed_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    struct gp_fx_table page;
    size_t rejected = 0;
    int rc = gp_fx_ecb_parse(&page, body, len, ctx->url, &rejected);

    ctx->next_url[0] = '\0';
    if (rc)
        return rc;
    ctx->rows += page.count;
    for (size_t i = 0; i < rejected; i++)
        gp_feed_reject(ctx, "a record that is no daily euro rate with a positive value");
    rc = gp_feed_add_rates(ctx, page.rates, page.count);
    gp_fx_release(&page);
    return rc;
}

const struct gp_feed_adapter gp_feed_ecb_fx = {
    .name = "ecb-fx",
    .tiers = 0,
    .auth = GP_HTTP_AUTH_NONE,
    .max_page_bytes = (size_t)4 << 20,
    .parse = ecb_feed_parse,
    .yields_rates = true,
};
