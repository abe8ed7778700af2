/* OCI public price list: {items: [{displayName, metricName, currencyCodeLocalizations}]};
 * yields on-demand per GPU-hour (pay-as-you-go GPU parts; prices are global, no region). */
#include <stdio.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"

/* The pay-as-you-go price of one localisation, preferring USD. */
static int pick_price(const cJSON *locs, const char **currency, double *amount, bool *bad)
{
    const cJSON *loc;
    int found = -1;

    *bad = false;
    cJSON_ArrayForEach(loc, locs)
    {
        const char *code = gp_feed_json_str(loc, "currencyCode");
        const cJSON *prices = cJSON_GetObjectItemCaseSensitive(loc, "prices");
        const cJSON *p;
        if (!code || !cJSON_IsArray(prices))
            continue;
        cJSON_ArrayForEach(p, prices)
        {
            const char *model = gp_feed_json_str(p, "model");
            double v;
            if (!model || strcmp(model, "PAY_AS_YOU_GO") != 0)
                continue;
            if (gp_feed_json_price(cJSON_GetObjectItemCaseSensitive(p, "value"), &v) != 0) {
                *bad = true;
                continue;
            }
            /* a tiered part starts at rangeMin 0; later tiers are volume discounts */
            const cJSON *min = cJSON_GetObjectItemCaseSensitive(p, "rangeMin");
            if (cJSON_IsNumber(min) && min->valuedouble > 0)
                continue;
            if (found < 0 || strcmp(code, "USD") == 0) {
                *currency = code;
                *amount = v;
                found = 0;
            }
        }
        if (found == 0 && strcmp(*currency, "USD") == 0)
            break;
    }
    return found;
}

static int parse_item(struct gp_feed_ctx *ctx, const cJSON *item)
{
    const char *name = gp_feed_json_str(item, "displayName");
    const char *metric = gp_feed_json_str(item, "metricName");
    const char *part = gp_feed_json_str(item, "partNumber");
    struct gp_feed_row row = {0};
    const char *currency = NULL;
    double amount = 0;
    bool bad;

    if (!name || !metric)
        return 0;
    /* Only GPU parts are priced per GPU-hour; BYOL and other metrics are not GPU prices. */
    if (!strstr(name, "GPU") || strstr(name, "BYOL"))
        return 0;
    if (strcmp(metric, "GPU Per Hour") != 0) {
        gp_feed_reject(ctx, "%s: unknown unit '%s'", name, metric);
        return 0;
    }
    if (pick_price(cJSON_GetObjectItemCaseSensitive(item, "currencyCodeLocalizations"), &currency,
                   &amount, &bad) != 0) {
        gp_feed_reject(
            ctx, bad ? "%s: a price value is not a number" : "%s: no pay-as-you-go price", name);
        return 0;
    }
    row.gpu_name = name;
    row.instance_type = part;
    row.tier = GP_TIER_ON_DEMAND;
    row.amount = amount;
    row.currency = currency;
    row.unit = GP_UNIT_GPU_HOUR;
    row.gpus = 1;
    return gp_feed_add(ctx, &row);
}

static int oci_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *items, *item, *more, *links, *link;
    int rc = gp_feed_json_list(&root, &items, ctx->url, body, len, "items", NULL);

    ctx->next_url[0] = '\0';
    if (rc)
        goto done;
    cJSON_ArrayForEach(item, items)
    {
        rc = parse_item(ctx, item);
        if (rc)
            goto done;
    }
    /* ORDS paging, should the list ever be split: hasMore plus a "next" link. */
    more = cJSON_GetObjectItemCaseSensitive(root, "hasMore");
    links = cJSON_GetObjectItemCaseSensitive(root, "links");
    if (cJSON_IsTrue(more) && cJSON_IsArray(links)) {
        cJSON_ArrayForEach(link, links)
        {
            const char *rel = gp_feed_json_str(link, "rel");
            const char *href = gp_feed_json_str(link, "href");
            if (rel && href && strcmp(rel, "next") == 0)
                rc = gp_feed_set_next(ctx, href);
        }
    }
done:
    cJSON_Delete(root);
    return rc;
}

const struct gp_feed_adapter gp_feed_oci = {
    .name = "oci",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND),
    .auth = GP_HTTP_AUTH_NONE,
    .max_page_bytes = (size_t)16 << 20,
    .parse = oci_parse,
};
