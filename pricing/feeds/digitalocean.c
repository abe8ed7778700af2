/* DigitalOcean sizes: {sizes: [{slug, price_hourly, gpu_info, regions}], links{pages{next}}};
 * yields on-demand, spot ("-spot" slugs) and reserved ("-contracted" slugs: sold under a
 * contract, never on demand) per Droplet-hour, one offer per region the size is listed in. */
#include <stdio.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"

static int parse_size(struct gp_feed_ctx *ctx, const cJSON *size, void *payload)
{
    const char *slug = gp_feed_json_str(size, "slug");
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(size, "gpu_info");
    int count = gp_feed_json_count(cJSON_GetObjectItemCaseSensitive(info, "count"), 72);
    struct gp_feed_row row = {0};
    double hourly;

    (void)payload;
    if (!slug) {
        gp_feed_reject(ctx, "a size without a slug");
        return 0;
    }
    /* Sizes without GPUs are plain Droplets. */
    if (!cJSON_IsObject(info))
        return 0;
    if (count < 1) {
        gp_feed_reject(ctx, "%s: gpu_info.count is not a positive whole number", slug);
        return 0;
    }
    if (gp_feed_json_price(cJSON_GetObjectItemCaseSensitive(size, "price_hourly"), &hourly) != 0) {
        gp_feed_reject(ctx, "%s: price_hourly is not a number", slug);
        return 0;
    }
    row.gpu_name = slug;
    row.instance_type = slug;
    row.gpus = count;
    row.tier = strstr(slug, "-spot")         ? GP_TIER_SPOT
               : strstr(slug, "-contracted") ? GP_TIER_RESERVED
                                             : GP_TIER_ON_DEMAND;
    row.amount = hourly;
    row.currency = "USD";
    row.unit = GP_UNIT_INSTANCE_HOUR;
    return gp_feed_add_regions(ctx, &row, cJSON_GetObjectItemCaseSensitive(size, "regions"), NULL);
}

static int digitalocean_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *next;
    size_t count;
    int rc = gp_feed_json_items(&root, &count, ctx, body, len, "sizes",
                                (const char *const[]){"message", NULL}, parse_size, NULL);

    ctx->next_url[0] = '\0';
    if (rc)
        goto done;
    next = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "links"), "pages"),
        "next");
    if (cJSON_IsString(next) && count > 0)
        rc = gp_feed_set_next(ctx, next->valuestring);
done:
    cJSON_Delete(root);
    return rc;
}

const struct gp_feed_adapter gp_feed_digitalocean = {
    .name = "digitalocean",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND) | GP_FEED_TIER(GP_TIER_SPOT) |
             GP_FEED_TIER(GP_TIER_RESERVED),
    .auth = GP_HTTP_AUTH_BEARER,
    .key_required = true,
    .max_page_bytes = (size_t)8 << 20,
    .max_pages = 20, /* 200 sizes a page: the whole catalog is one or two */
    .parse = digitalocean_parse,
};
