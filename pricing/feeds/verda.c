/* Verda (formerly DataCrunch; Helsinki) instance types. Its catalogue, GET
 * /v1/instance-types?currency=usd, is public: a JSON array of
 *   {"id": ..., "instance_type": "8H200.141S.176V", "model": "H200",
 *    "gpu": {"number_of_gpus": 8, "description": "8x H200 SXM5 141GB"},
 *    "price_per_hour": "28.72", "spot_price": "11.49", "currency": "usd", ...}
 * priced per instance-hour, on demand and (where spot_price is set) on spot. It names no
 * location. With the API's client credentials the feed also reads GET /v1/instance-availability,
 * [{"location_code": "FIN-01", "availabilities": ["8H200.141S.176V", ...]}, ...]: each instance
 * type is then offered at every location that lists it, and stays once without a location
 * where none does. The catalogue must come first. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"

/* One priced tier of an instance type. */
static int add_tier(struct gp_feed_ctx *ctx, struct gp_feed_row *row, const cJSON *price,
                    enum gp_tier tier)
{
    double amount;

    if (gp_feed_json_price(price, &amount) != 0) {
        gp_feed_reject(ctx, "%s: a %s price that is not a number", row->instance_type,
                       tier == GP_TIER_SPOT ? "spot" : "per-hour");
        return 0;
    }
    row->tier = tier;
    row->amount = amount;
    return gp_feed_add(ctx, row);
}

static int read_type(struct gp_feed_ctx *ctx, const cJSON *item)
{
    const char *sku = gp_feed_json_str(item, "instance_type");
    const char *currency = gp_feed_json_str(item, "currency");
    const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(item, "gpu");
    const cJSON *spot = cJSON_GetObjectItemCaseSensitive(item, "spot_price");
    int gpus = gp_feed_json_count(cJSON_GetObjectItemCaseSensitive(gpu, "number_of_gpus"), 72);
    const char *name = gp_feed_json_str(gpu, "description");
    struct gp_feed_row row = {0};
    char code[4];
    int rc;

    if (!sku || !*sku) {
        gp_feed_reject(ctx, "an instance type without instance_type");
        return 0;
    }
    if (gpus == 0) /* CPU instances: nothing to price */
        return 0;
    if (gpus < 0 || !currency || strlen(currency) != 3) {
        gp_feed_reject(ctx, "%s: no gpu.number_of_gpus, or no three-letter currency", sku);
        return 0;
    }
    for (int i = 0; i < 4; i++)
        code[i] = (char)toupper((unsigned char)currency[i]);
    row.gpu_name = name && *name ? name : gp_feed_json_str(item, "model");
    row.instance_type = sku;
    row.gpus = gpus;
    row.currency = code;
    row.unit = GP_UNIT_INSTANCE_HOUR;
    if (!row.gpu_name) {
        gp_feed_note_unmapped(ctx, sku);
        return 0;
    }
    rc = add_tier(ctx, &row, cJSON_GetObjectItemCaseSensitive(item, "price_per_hour"),
                  GP_TIER_ON_DEMAND);
    /* no spot price, or zero: the type is not sold on spot */
    if (!rc && spot && !cJSON_IsNull(spot) && !(cJSON_IsString(spot) && !*spot->valuestring)) {
        double spot_amount;
        if (gp_feed_json_price(spot, &spot_amount) != 0 || spot_amount != 0)
            rc = add_tier(ctx, &row, spot, GP_TIER_SPOT);
    }
    return rc;
}

/* A located copy of every offer of instance type `sku` that has no location yet. */
static int locate(struct gp_feed_ctx *ctx, const char *sku, const char *location)
{
    size_t n = ctx->count;

    for (size_t i = 0; i < n; i++) {
        struct gp_offer copy = ctx->offers[i];
        int rc;
        if (copy.region[0] || strcmp(copy.instance_type, sku) != 0)
            continue;
        if (gp_text_copy(copy.region, sizeof(copy.region), location)) {
            gp_feed_reject(ctx, "a location_code longer than %zu bytes", sizeof(copy.region) - 1);
            return 0;
        }
        if ((rc = gp_feed_add_offer(ctx, &copy)))
            return rc;
    }
    return 0;
}

static int read_location(struct gp_feed_ctx *ctx, const cJSON *item)
{
    const char *location = gp_feed_json_str(item, "location_code");
    const cJSON *skus = cJSON_GetObjectItemCaseSensitive(item, "availabilities"), *sku;
    int rc = 0;

    if (!location || !*location || !cJSON_IsArray(skus)) {
        gp_feed_reject(ctx, "a location without location_code or availabilities");
        return 0;
    }
    cJSON_ArrayForEach(sku, skus)
    {
        if (cJSON_IsString(sku) && (rc = locate(ctx, sku->valuestring, location)))
            break;
    }
    return rc;
}

static int verda_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *item;
    int rc = gp_json_parse(&root, body, len, ctx->url);

    ctx->next_url[0] = '\0';
    if (rc)
        return rc;
    if (!cJSON_IsArray(root)) {
        const char *msg = gp_feed_json_str(root, "message");
        rc = msg ? gp_error_set(GP_EINVALID, "%s: the API answered: %.200s", ctx->url, msg)
                 : gp_error_set(GP_EINVALID, "%s: not a list: the response format changed",
                                ctx->url);
    }
    const cJSON *list = cJSON_IsArray(root) ? root : NULL;
    cJSON_ArrayForEach(item, list)
    {
        if (!cJSON_IsObject(item)) {
            gp_feed_reject(ctx, "an entry that is not an object");
            continue;
        }
        rc = cJSON_GetObjectItemCaseSensitive(item, "location_code") ? read_location(ctx, item)
                                                                     : read_type(ctx, item);
        if (rc)
            break;
    }
    cJSON_Delete(root);
    return rc;
}

/* After the availability page: an offer that got a location is not kept without one too. */
static int verda_finish(struct gp_feed_ctx *ctx)
{
    size_t kept = 0;

    for (size_t i = 0; i < ctx->count; i++) {
        const struct gp_offer *o = &ctx->offers[i];
        bool located_elsewhere = false;
        for (size_t j = 0; !o->region[0] && j < ctx->count && !located_elsewhere; j++)
            located_elsewhere = ctx->offers[j].region[0] && ctx->offers[j].tier == o->tier &&
                                strcmp(ctx->offers[j].instance_type, o->instance_type) == 0;
        if (!located_elsewhere)
            ctx->offers[kept++] = *o;
    }
    ctx->count = kept;
    return 0;
}

const struct gp_feed_adapter gp_feed_verda = {
    .name = "verda",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND) | GP_FEED_TIER(GP_TIER_SPOT),
    .auth = GP_HTTP_AUTH_BEARER,
    .token_path = "/v1/oauth2/token",
    .max_page_bytes = (size_t)8 << 20,
    .max_pages = 0,
    .parse = verda_parse,
    .finish = verda_finish,
};
