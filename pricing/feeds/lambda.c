/* Lambda Cloud instance types: {data: {<type>: {instance_type{...},
 * regions_with_capacity_available[{name}]}}}; yields on-demand per instance-hour, quoted in US
 * cents, one offer per region with capacity (one without a region when none has any). */
#include <stdio.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"

static int parse_type(struct gp_feed_ctx *ctx, const cJSON *entry)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(entry, "instance_type");
    const cJSON *specs = cJSON_GetObjectItemCaseSensitive(type, "specs");
    const cJSON *gpus_item = cJSON_GetObjectItemCaseSensitive(specs, "gpus");
    int gpus = gp_feed_json_count(gpus_item, 72);
    const char *name = gp_feed_json_str(type, "name");
    struct gp_feed_row row = {0};
    double cents;

    if (!cJSON_IsObject(type) || !name) {
        gp_feed_reject(ctx, "an instance type without instance_type.name");
        return 0;
    }
    /* CPU-only types have no GPUs: nothing to price. */
    if (gpus == 0)
        return 0;
    if (gpus_item && gpus < 0) {
        gp_feed_reject(ctx, "%s: specs.gpus is not a whole number", name);
        return 0;
    }
    if (gp_feed_json_price(cJSON_GetObjectItemCaseSensitive(type, "price_cents_per_hour"),
                           &cents) != 0) {
        gp_feed_reject(ctx, "%s: price_cents_per_hour is not a number", name);
        return 0;
    }
    row.gpu_name = name;
    row.instance_type = name;
    row.gpus = gpus > 0 ? gpus : 0;
    row.tier = GP_TIER_ON_DEMAND;
    row.amount = cents / 100.0;
    row.currency = "USD";
    row.unit = GP_UNIT_INSTANCE_HOUR;
    return gp_feed_add_regions(
        ctx, &row, cJSON_GetObjectItemCaseSensitive(entry, "regions_with_capacity_available"),
        "name");
}

static int lambda_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *data, *entry;
    int rc = gp_json_parse(&root, body, len, ctx->url);

    ctx->next_url[0] = '\0';
    if (rc)
        return rc;
    data = cJSON_GetObjectItemCaseSensitive(root, "data");
    if (!cJSON_IsObject(data)) {
        const char *msg =
            gp_feed_json_str(cJSON_GetObjectItemCaseSensitive(root, "error"), "message");
        rc = msg ? gp_error_set(GP_EINVALID, "%s: the API answered: %.200s", ctx->url, msg)
                 : gp_error_set(GP_EINVALID, "%s: no data object: the response format changed",
                                ctx->url);
        goto done;
    }
    cJSON_ArrayForEach(entry, data)
    {
        rc = parse_type(ctx, entry);
        if (rc)
            break;
    }
done:
    cJSON_Delete(root);
    return rc;
}

const struct gp_feed_adapter gp_feed_lambda = {
    .name = "lambda",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND),
    .auth = GP_HTTP_AUTH_BEARER,
    .key_required = true,
    .max_page_bytes = (size_t)4 << 20,
    .parse = lambda_parse,
};
