/* Generic price lists for in-house, reseller or negotiated prices, read from https:// or
 * file://: the JSON format of pricing/pricelist.c and its CSV twin (docs/feeds.md). Each row
 * names its tier, so these feeds yield whatever tiers the list holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "pricing/pricelist.h"
#include "util/error.h"
#include "util/sanitize.h"
#include "util/text.h"
#include "util/timeutil.h"

static int json_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    struct gp_pricelist list = {0};
    int rc;

    ctx->next_url[0] = '\0';
    rc = gp_pricelist_parse(&list, body, len, ctx->url, ctx->feed, ctx->catalog, ctx->fx,
                            GP_PRICELIST_LENIENT);
    for (size_t i = 0; i < list.count && !rc; i++)
        rc = gp_feed_add_offer(ctx, &list.offers[i]);
    ctx->rows += list.count + list.rejected + list.unmapped + list.out_of_scope;
    ctx->unmapped += list.unmapped;
    ctx->out_of_scope += list.out_of_scope;
    if (list.rejected) {
        if (ctx->rejected == 0)
            gp_text_copy(ctx->first_rejection, sizeof(ctx->first_rejection),
                         "rows of the price list (see `gpuplan prices --data` to check the file)");
        ctx->rejected += list.rejected;
    }
    gp_pricelist_release(&list);
    return rc;
}

const struct gp_feed_adapter gp_feed_pricelist_json = {
    .name = "pricelist-json",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND) | GP_FEED_TIER(GP_TIER_SPOT) |
             GP_FEED_TIER(GP_TIER_RESERVED) | GP_FEED_TIER(GP_TIER_QUOTE),
    .auth = GP_HTTP_AUTH_BEARER,
    .allow_file = true,
    .max_page_bytes = (size_t)64 << 20,
    .parse = json_parse,
};

/* ---- CSV ----------------------------------------------------------------------------- */

enum col {
    COL_PROVIDER,
    COL_GPU,
    COL_TIER,
    COL_PRICE,
    COL_UNIT,
    COL_GPUS,
    COL_INSTANCE,
    COL_REGION,
    COL_CURRENCY,
    COL_OBSERVED,
    COL_SOURCE,
    COL_NOTE,
    COL_COUNT
};

static const char *const col_names[COL_COUNT + 1] = {
    "provider",          "gpu",           "tier",   "price",    "unit",
    "gpus_per_instance", "instance_type", "region", "currency", "observed",
    "source_url",        "note",          NULL,
};

static const bool col_required[COL_COUNT] = {
    [COL_GPU] = true,
    [COL_TIER] = true,
    [COL_PRICE] = true,
    [COL_UNIT] = true,
};

struct csv {
    int col[COL_COUNT];
    int width;
    long line;
};

static int csv_header(struct csv *c, struct gp_feed_ctx *ctx, char **f, int n)
{
    for (int k = 0; k < COL_COUNT; k++)
        c->col[k] = -1;
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < COL_COUNT && strcmp(f[i], col_names[k]) != 0)
            k++;
        if (k == COL_COUNT) {
            const char *near = gp_text_nearest(f[i], col_names);
            char shown[160];
            return gp_error_set(GP_EINVALID, "%s:%ld: unknown column '%s'%s%s%s", ctx->url, c->line,
                                gp_sanitize_quote(shown, sizeof(shown), f[i]),
                                near ? " (did you mean '" : "", near ? near : "",
                                near ? "'?)" : "");
        }
        c->col[k] = i;
    }
    for (int k = 0; k < COL_COUNT; k++)
        if (col_required[k] && c->col[k] < 0)
            return gp_error_set(GP_EINVALID, "%s:%ld: the header has no '%s' column", ctx->url,
                                c->line, col_names[k]);
    c->width = n;
    return 0;
}

static const char *cell(const struct csv *c, char **f, enum col k)
{
    return c->col[k] >= 0 ? f[c->col[k]] : "";
}

static int csv_row(struct csv *c, struct gp_feed_ctx *ctx, char **f, int n)
{
    struct gp_feed_row row = {0};
    const char *gpus = cell(c, f, COL_GPUS);
    const char *observed = cell(c, f, COL_OBSERVED);
    long count = 0;
    int tier, unit;
    char shown[160]; /* a quoted cell */

    if (n != c->width) {
        gp_feed_reject(ctx, "line %ld: %d fields, the header has %d", c->line, n, c->width);
        return 0;
    }
    tier = gp_tier_parse(cell(c, f, COL_TIER));
    unit = gp_price_unit_parse(cell(c, f, COL_UNIT));
    if (tier < 0 || unit < 0) {
        gp_feed_reject(ctx, "line %ld: unknown %s '%s'", c->line, tier < 0 ? "tier" : "unit",
                       gp_sanitize_quote(shown, sizeof(shown),
                                         tier < 0 ? cell(c, f, COL_TIER) : cell(c, f, COL_UNIT)));
        return 0;
    }
    if (gp_text_to_double(cell(c, f, COL_PRICE), &row.amount) != 0 ||
        (*gpus && gp_text_to_int(gpus, 1, 72, &count) != 0)) {
        gp_feed_reject(ctx, "line %ld: price or gpus_per_instance is malformed", c->line);
        return 0;
    }
    if (*observed && gp_time_parse_price(observed, &row.observed_at) != 0) {
        gp_feed_reject(ctx,
                       "line %ld: observed '%s' is not a date from " GP_TIME_EARLIEST_TEXT " on",
                       c->line, gp_sanitize_quote(shown, sizeof(shown), observed));
        return 0;
    }
    row.provider = cell(c, f, COL_PROVIDER);
    row.gpu_name = cell(c, f, COL_GPU);
    row.instance_type = cell(c, f, COL_INSTANCE);
    row.region = cell(c, f, COL_REGION);
    row.gpus = (int)count;
    row.tier = (enum gp_tier)tier;
    row.unit = (enum gp_price_unit)unit;
    row.currency = *cell(c, f, COL_CURRENCY) ? cell(c, f, COL_CURRENCY) : "USD";
    return gp_feed_add(ctx, &row);
}

static int csv_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    struct csv c = {.width = 0, .line = 0};
    const char *p = body, *end = body + len;
    char *line = NULL;
    size_t line_cap = 0;
    char *f[COL_COUNT + 1];
    int rc = 0;

    ctx->next_url[0] = '\0';
    while (p < end && !rc) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        int fields;

        c.line++;
        if (n && p[n - 1] == '\r')
            n--;
        if (n == 0 || p[0] == '#') {
            p = nl ? nl + 1 : end;
            continue;
        }
        if (n + 1 > line_cap) {
            char *grown = realloc(line, n + 1);
            if (!grown) {
                rc = gp_error_set(GP_ENOMEM, "out of memory reading %s", ctx->url);
                break;
            }
            line = grown;
            line_cap = n + 1;
        }
        memcpy(line, p, n);
        line[n] = '\0';
        p = nl ? nl + 1 : end;
        fields = gp_feed_csv_split(line, f, COL_COUNT + 1);
        if (c.width == 0) {
            rc = fields < 0
                     ? gp_error_set(GP_EINVALID, "%s:%ld: malformed header", ctx->url, c.line)
                     : csv_header(&c, ctx, f, fields);
        } else if (fields < 0) {
            gp_feed_reject(ctx, "line %ld: unterminated quote", c.line);
        } else {
            rc = csv_row(&c, ctx, f, fields);
        }
    }
    if (!rc && c.width == 0)
        rc = gp_error_set(GP_EINVALID, "%s: no header line", ctx->url);
    free(line);
    return rc;
}

const struct gp_feed_adapter gp_feed_pricelist_csv = {
    .name = "pricelist-csv",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND) | GP_FEED_TIER(GP_TIER_SPOT) |
             GP_FEED_TIER(GP_TIER_RESERVED) | GP_FEED_TIER(GP_TIER_QUOTE),
    .auth = GP_HTTP_AUTH_BEARER,
    .allow_file = true,
    .max_page_bytes = (size_t)64 << 20,
    .parse = csv_parse,
};
