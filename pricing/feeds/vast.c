/* Vast.ai offer search: {offers: [{gpu_name, num_gpus, dph_total, min_bid}]}; a marketplace,
 * so each rentable offer is one sample and the feed yields the median per GPU and tier:
 * on-demand (dph_total) and spot (min_bid), per GPU-hour. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"

static int parse_offer(struct gp_feed_ctx *ctx, const cJSON *offer)
{
    const char *gpu = gp_feed_json_str(offer, "gpu_name");
    int num = gp_feed_json_count(cJSON_GetObjectItemCaseSensitive(offer, "num_gpus"), 64);
    const cJSON *bid = cJSON_GetObjectItemCaseSensitive(offer, "min_bid");
    struct gp_feed_row row = {0};
    double dph, min_bid;
    int rc;

    if (!gpu) {
        gp_feed_reject(ctx, "an offer without gpu_name");
        return 0;
    }
    if (num < 1) {
        gp_feed_reject(ctx, "%s: num_gpus is not a GPU count", gpu);
        return 0;
    }
    if (gp_feed_json_price(cJSON_GetObjectItemCaseSensitive(offer, "dph_total"), &dph) != 0) {
        gp_feed_reject(ctx, "%s: dph_total is not a number", gpu);
        return 0;
    }
    row.gpu_name = gpu;
    row.gpus = num;
    row.tier = GP_TIER_ON_DEMAND;
    row.amount = dph;
    row.currency = "USD";
    row.unit = GP_UNIT_INSTANCE_HOUR;
    rc = gp_feed_add(ctx, &row);
    if (rc || !bid || cJSON_IsNull(bid))
        return rc;
    if (gp_feed_json_price(bid, &min_bid) != 0) {
        gp_feed_reject(ctx, "%s: min_bid is not a number", gpu);
        return 0;
    }
    if (min_bid == 0)
        return 0;
    row.tier = GP_TIER_SPOT;
    row.amount = min_bid;
    return gp_feed_add(ctx, &row);
}

static int vast_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *offers, *offer;
    int rc = gp_feed_json_list(&root, &offers, ctx->url, body, len, "offers",
                               (const char *const[]){"msg", "error", NULL});

    ctx->next_url[0] = '\0';
    if (rc)
        goto done;
    cJSON_ArrayForEach(offer, offers)
    {
        rc = parse_offer(ctx, offer);
        if (rc)
            break;
    }
done:
    cJSON_Delete(root);
    return rc;
}

static int by_key_then_price(const void *a, const void *b)
{
    const struct gp_offer *x = a, *y = b;
    int c = strcmp(x->gpu_id, y->gpu_id);
    if (c)
        return c;
    if (x->tier != y->tier)
        return x->tier < y->tier ? -1 : 1;
    return (x->usd_per_gpu_hour > y->usd_per_gpu_hour) -
           (x->usd_per_gpu_hour < y->usd_per_gpu_hour);
}

static double median_usd(const struct gp_offer *o, size_t n)
{
    return n % 2 ? o[n / 2].usd_per_gpu_hour
                 : (o[n / 2 - 1].usd_per_gpu_hour + o[n / 2].usd_per_gpu_hour) / 2.0;
}

/* Replace the per-offer samples with one offer per (GPU, tier): the median per GPU-hour. */
static int vast_finish(struct gp_feed_ctx *ctx)
{
    size_t out = 0;

    if (ctx->count == 0)
        return 0;
    qsort(ctx->offers, ctx->count, sizeof(*ctx->offers), by_key_then_price);
    for (size_t i = 0; i < ctx->count;) {
        size_t j = i;
        while (j < ctx->count && strcmp(ctx->offers[j].gpu_id, ctx->offers[i].gpu_id) == 0 &&
               ctx->offers[j].tier == ctx->offers[i].tier)
            j++;
        struct gp_offer m = ctx->offers[i];
        m.usd_per_gpu_hour = median_usd(ctx->offers + i, j - i);
        m.amount = m.usd_per_gpu_hour; /* every sample is USD: the median is the amount */
        m.unit = GP_UNIT_GPU_HOUR;
        m.gpus_per_instance = 1;
        m.region[0] = '\0';
        m.instance_type[0] = '\0';
        ctx->offers[out++] = m;
        i = j;
    }
    ctx->count = out;
    return 0;
}

const struct gp_feed_adapter gp_feed_vast = {
    .name = "vast",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND) | GP_FEED_TIER(GP_TIER_SPOT),
    .auth = GP_HTTP_AUTH_BEARER,
    .max_page_bytes = (size_t)32 << 20,
    .parse = vast_parse,
    .finish = vast_finish,
};
