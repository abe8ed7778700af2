/* RunPod REST v2 GPU catalog: {gpus: [{id, price{secure, community}, dataCenters[{id}]}]};
 * yields on-demand per GPU-hour, one offer per cloud (secure, community) the card is sold in,
 * and in the secure cloud one per data centre that lists it (its region is the data centre's
 * id, "EU-RO-1"; community hosts have no data centre). */
#include <stdio.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"

static int add_cloud(struct gp_feed_ctx *ctx, const cJSON *gpu, const char *id, const char *cloud)
{
    const cJSON *offered = cJSON_GetObjectItemCaseSensitive(gpu, cloud);
    const cJSON *price =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(gpu, "price"), cloud);
    struct gp_feed_row row = {0};
    double amount;

    /* Not sold in this cloud, or no price: a community figure on a secure-only card means
     * nothing. */
    if (cJSON_IsFalse(offered) || !price || cJSON_IsNull(price))
        return 0;
    if (gp_feed_json_price(price, &amount) != 0) {
        gp_feed_reject(ctx, "%s: price.%s is not a number", id, cloud);
        return 0;
    }
    if (amount == 0)
        return 0; /* RunPod's way of saying "not offered" */
    row.gpu_name = id;
    row.instance_type = cloud;
    row.tier = GP_TIER_ON_DEMAND;
    row.amount = amount;
    row.currency = "USD";
    row.unit = GP_UNIT_GPU_HOUR;
    row.gpus = 1;
    if (strcmp(cloud, "secure") == 0)
        return gp_feed_add_regions(ctx, &row, cJSON_GetObjectItemCaseSensitive(gpu, "dataCenters"),
                                   "id");
    return gp_feed_add(ctx, &row);
}

static int parse_gpu(struct gp_feed_ctx *ctx, const cJSON *gpu, void *payload)
{
    const char *id = gp_feed_json_str(gpu, "id");
    int rc;

    (void)payload;
    if (!id) {
        gp_feed_reject(ctx, "a GPU without an id");
        return 0;
    }
    rc = add_cloud(ctx, gpu, id, "secure");
    if (!rc)
        rc = add_cloud(ctx, gpu, id, "community");
    return rc;
}

static int runpod_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    size_t count;
    int rc = gp_feed_json_items(&root, &count, ctx, body, len, "gpus", NULL, parse_gpu, NULL);

    ctx->next_url[0] = '\0';
    cJSON_Delete(root);
    return rc;
}

const struct gp_feed_adapter gp_feed_runpod = {
    .name = "runpod",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND),
    .auth = GP_HTTP_AUTH_BEARER,
    .key_required = true,
    .max_page_bytes = (size_t)4 << 20,
    .parse = runpod_parse,
};
