/* Scaleway Instance types of one zone, from the Instance API's "List Instance types",
 * GET /instance/v1/zones/{zone}/products/servers
 * (https://www.scaleway.com/en/developers/api/instance/instance-types): {servers: {"<type>":
 * {hourly_price (EUR per instance-hour), gpu (GPUs per instance), gpu_info{gpu_name,
 * gpu_memory}, mig_profile, end_of_service, ...}}, total_count}, paged by page and per_page (at
 * most 100). Yields on-demand per instance-hour, the region being the zone the page's URL names. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"

#define DEFAULT_PER_PAGE 50 /* the API's page size when the request names none */
#define MAX_PAGE_NUMBER  1000

/* The zone the page's URL names ("…/zones/fr-par-2/products/servers" -> "fr-par-2") into
 * out[size]; "" when it names none (the offers then have no region). */
static void url_zone(char *out, size_t size, const char *url)
{
    const char *at = url ? strstr(url, "/zones/") : NULL;
    size_t n;

    out[0] = '\0';
    if (!at)
        return;
    at += strlen("/zones/");
    n = strcspn(at, "/?#");
    if (n == 0 || n >= size)
        return;
    memcpy(out, at, n);
    out[n] = '\0';
}

/* Page-number paging: the next page while this one was full, or while total_count (where the
 * body states it) says more types remain. A page that lists none ends the walk. */
static int next_page(struct gp_feed_ctx *ctx, const cJSON *root, size_t listed)
{
    long per_page = gp_feed_query_number(ctx->url, "per_page", DEFAULT_PER_PAGE);
    long page = gp_feed_query_number(ctx->url, "page", 1);
    const cJSON *total = cJSON_GetObjectItemCaseSensitive(root, "total_count");
    bool more = cJSON_IsNumber(total) ? (double)page * (double)per_page < total->valuedouble
                                      : listed >= (size_t)per_page;
    char value[24];

    if (listed == 0 || !more || page >= MAX_PAGE_NUMBER)
        return 0;
    snprintf(value, sizeof(value), "%ld", page + 1);
    return gp_feed_set_next_param(ctx, "page", value);
}

/* One Instance type, keyed by its commercial name ("H100-SXM-8-80G"): an offer when it has
 * GPUs, whole ones, and can still be ordered. */
static int parse_type(struct gp_feed_ctx *ctx, const cJSON *type, const char *zone)
{
    const char *name = type->string;
    const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(type, "gpu");
    const cJSON *mig = cJSON_GetObjectItemCaseSensitive(type, "mig_profile");
    struct gp_feed_row row = {0};
    double hourly;
    int gpus;

    if (!cJSON_IsObject(type)) {
        gp_feed_reject(ctx, "%s: an Instance type that is not an object", name ? name : "");
        return 0;
    }
    /* Types without GPUs are plain Instances. */
    if (!gpu || cJSON_IsNull(gpu) || (cJSON_IsNumber(gpu) && gpu->valuedouble == 0))
        return 0;
    gpus = gp_feed_json_count(gpu, 72);
    if (gpus < 1) {
        gp_feed_reject(ctx, "%s: gpu is not a whole number of GPUs", name);
        return 0;
    }
    /* A type at its end of service can no longer be ordered. */
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(type, "end_of_service")))
        return 0;
    /* A MIG profile is a slice of one GPU, not a GPU. */
    if (mig && !cJSON_IsNull(mig)) {
        ctx->out_of_scope++;
        return 0;
    }
    if (gp_feed_json_price(cJSON_GetObjectItemCaseSensitive(type, "hourly_price"), &hourly) != 0) {
        gp_feed_reject(ctx, "%s: hourly_price is not a number", name);
        return 0;
    }
    row.gpu_name = name;
    row.instance_type = name;
    row.region = zone;
    row.gpus = gpus;
    row.tier = GP_TIER_ON_DEMAND;
    row.amount = hourly;
    row.currency = "EUR"; /* the API prices in euros only */
    row.unit = GP_UNIT_INSTANCE_HOUR;
    return gp_feed_add(ctx, &row);
}

static int scaleway_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *servers, *type;
    char zone[64];
    size_t listed = 0;
    int rc = gp_json_parse(&root, body, len, ctx->url);

    ctx->next_url[0] = '\0';
    if (rc)
        return rc;
    servers = cJSON_GetObjectItemCaseSensitive(root, "servers");
    if (!cJSON_IsObject(servers)) {
        const char *msg = gp_feed_json_str(root, "message");
        rc = msg ? gp_error_set(GP_EINVALID, "%s: the API answered: %.200s", ctx->url, msg)
                 : gp_error_set(GP_EINVALID,
                                "%s: no servers object: not a Scaleway Instance types response",
                                ctx->url);
        goto done;
    }
    url_zone(zone, sizeof(zone), ctx->url);
    cJSON_ArrayForEach(type, servers)
    {
        listed++;
        rc = parse_type(ctx, type, zone);
        if (rc)
            goto done;
    }
    rc = next_page(ctx, root, listed);
done:
    cJSON_Delete(root);
    return rc;
}

const struct gp_feed_adapter gp_feed_scaleway = {
    .name = "scaleway",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND),
    .auth = GP_HTTP_AUTH_NONE,
    .max_page_bytes = (size_t)4 << 20,
    .max_pages = 10, /* 100 types a page: a zone lists fewer */
    .parse = scaleway_parse,
};
