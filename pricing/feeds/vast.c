/* Vast.ai offer search: {offers: [{gpu_name, num_gpus, dph_total, min_bid, geolocation}]}; a
 * marketplace, so each rentable machine is one sample and the feed yields the median per GPU,
 * tier, machine size and country: on-demand (dph_total) and spot (min_bid), per machine-hour.
 * A machine is rented whole: an 8-GPU machine is not eight 1-GPU offers. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"

/* The country code a geolocation ends in ("Texas, US" -> "US"), in out[3]; "" if none. */
static const char *country_of(const char *geolocation, char *out)
{
    const char *comma = geolocation ? strrchr(geolocation, ',') : NULL;
    const char *code = comma ? comma + 1 : geolocation;

    out[0] = '\0';
    while (code && *code == ' ')
        code++;
    if (code && strlen(code) == 2 && isupper((unsigned char)code[0]) &&
        isupper((unsigned char)code[1]))
        memcpy(out, code, 3);
    return out;
}

static int parse_offer(struct gp_feed_ctx *ctx, const cJSON *offer, void *payload)
{
    const char *gpu = gp_feed_json_str(offer, "gpu_name");
    int num = gp_feed_json_count(cJSON_GetObjectItemCaseSensitive(offer, "num_gpus"), 64);
    const cJSON *bid = cJSON_GetObjectItemCaseSensitive(offer, "min_bid");
    struct gp_feed_row row = {0};
    char size[96], country[3];
    double dph, min_bid;
    int rc;

    (void)payload;
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
    snprintf(size, sizeof(size), "%dx %s", num, gpu);
    row.gpu_name = gpu;
    row.instance_type = size;
    row.region = country_of(gp_feed_json_str(offer, "geolocation"), country);
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
    size_t count;
    int rc = gp_feed_json_items(&root, &count, ctx, body, len, "offers",
                                (const char *const[]){"msg", "error", NULL}, parse_offer, NULL);

    ctx->next_url[0] = '\0';
    cJSON_Delete(root);
    return rc;
}

/* The median's group: GPU, tier, machine size (instance type) and country (region). */
static int group_of(const struct gp_offer *x, const struct gp_offer *y)
{
    int c = strcmp(x->gpu_id, y->gpu_id);

    if (c)
        return c;
    if (x->tier != y->tier)
        return x->tier < y->tier ? -1 : 1;
    if ((c = strcmp(x->instance_type, y->instance_type)))
        return c;
    return strcmp(x->region, y->region);
}

static int by_group_then_price(const void *a, const void *b)
{
    const struct gp_offer *x = a, *y = b;
    int c = group_of(x, y);

    if (c)
        return c;
    return (x->usd_per_gpu_hour > y->usd_per_gpu_hour) -
           (x->usd_per_gpu_hour < y->usd_per_gpu_hour);
}

static double median_usd(const struct gp_offer *o, size_t n)
{
    return n % 2 ? o[n / 2].usd_per_gpu_hour
                 : (o[n / 2 - 1].usd_per_gpu_hour + o[n / 2].usd_per_gpu_hour) / 2.0;
}

/* Replace the per-machine samples with one offer per group: the median machine-hour price. */
static int vast_finish(struct gp_feed_ctx *ctx)
{
    size_t out = 0;

    if (ctx->count == 0)
        return 0;
    qsort(ctx->offers, ctx->count, sizeof(*ctx->offers), by_group_then_price);
    for (size_t i = 0; i < ctx->count;) {
        size_t j = i;
        while (j < ctx->count && group_of(&ctx->offers[j], &ctx->offers[i]) == 0)
            j++;
        struct gp_offer m = ctx->offers[i];
        m.usd_per_gpu_hour = median_usd(ctx->offers + i, j - i);
        m.usd_per_instance_hour = m.usd_per_gpu_hour * m.gpus_per_instance;
        m.amount = m.usd_per_instance_hour; /* every sample is USD: the median is the amount */
        m.unit = GP_UNIT_INSTANCE_HOUR;
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
