/* Vultr plans (bare metal, dedicated metal and Cloud GPU): {plans_metal|plans: [...],
 * meta{links{next}}} with cursor paging; yields on-demand and spot (preemptible) per plan-hour,
 * one offer per location the plan deploys in (at the location's own price where it has one),
 * and only the ways (deploy_ondemand, deploy_preemptible) the plan can be deployed. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "pricing/feeds/adapters.h"
#include "pricing/normalize.h"
#include "util/error.h"
#include "util/json.h"

/* GPUs in a metal plan id "vbm-256c-2048gb-8-mi300x-gpu": the number before the model; 0 if
 * the id does not say. */
static int plan_gpus(const char *id)
{
    const char *end = strstr(id, "-gpu");
    const char *model, *p;

    if (!end)
        return 0;
    for (model = end; model > id && model[-1] != '-'; model--)
        ;
    if (model <= id + 1)
        return 0;
    for (p = model - 1; p > id && isdigit((unsigned char)p[-1]); p--)
        ;
    if (p == model - 1 || p == id || p[-1] != '-')
        return 0;
    int n = 0;
    for (const char *d = p; d < model - 1; d++) {
        n = n * 10 + (*d - '0');
        if (n > 72)
            return 0;
    }
    return n;
}

/* GPU memory a plan id spells ("vcg-h100-216c-1914gb-640vram" -> 640 GB); 0 if it does not. */
static double id_vram(const char *id)
{
    const char *v = strstr(id, "vram");
    const char *p = v;

    if (!v || v[4] != '\0')
        return 0;
    while (p > id && isdigit((unsigned char)p[-1]))
        p--;
    return p < v && p > id && p[-1] == '-' ? strtod(p, NULL) : 0;
}

/* The GPUs of a plan: gpu_count where the API states it, else the count a metal id spells, else
 * whole cards of memory (gpu_vram_gb, or the "...vram" of the id). 0 when nothing says; -1 for
 * a slice of one card, which is not a GPU. */
static int plan_gpu_count(struct gp_feed_ctx *ctx, const cJSON *plan, const char *id,
                          const char *gpu_name)
{
    const cJSON *vram_item = cJSON_GetObjectItemCaseSensitive(plan, "gpu_vram_gb");
    double vram = cJSON_IsNumber(vram_item) ? vram_item->valuedouble : id_vram(id);
    int gpus = gp_feed_json_count(cJSON_GetObjectItemCaseSensitive(plan, "gpu_count"), 72);
    struct gp_gpu_name mapped;
    const struct gp_gpu *g = NULL;

    if (gpus < 1)
        gpus = plan_gpus(id);
    if (ctx->catalog && gp_normalize_gpu_name(&mapped, ctx->provider, gpu_name) == GP_NAME_MAPPED)
        g = gp_catalog_find(ctx->catalog, mapped.gpu_id);
    if (!g || g->hbm_gb <= 0 || vram <= 0)
        return gpus;
    /* less memory than the cards: a slice of a GPU */
    if (vram < 0.9 * g->hbm_gb * (gpus > 0 ? gpus : 1))
        return -1;
    if (gpus < 1) {
        double cards = vram / (0.9 * g->hbm_gb);
        gpus = cards >= 1 && cards <= 72 ? (int)cards : 0;
    }
    return gpus;
}

/* A deploy flag: absent (older payloads) counts as deployable when the plan has a price. */
static bool deployable(const cJSON *plan, const char *flag)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(plan, flag);
    return !cJSON_IsBool(item) || cJSON_IsTrue(item);
}

/* The price `key` of `plan` in `location`: location_cost[location][key] where the plan has a
 * price of its own there, else the plan's. 0 when the price is 0 or absent (none offered), -1
 * when it is not a number. */
static int location_price(const cJSON *plan, const char *location, const char *key, double *out)
{
    const cJSON *local = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(plan, "location_cost"), location);
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(local, key);

    if (!item)
        item = cJSON_GetObjectItemCaseSensitive(plan, key);
    *out = 0;
    if (!item || cJSON_IsNull(item))
        return 0;
    return gp_feed_json_price(item, out) == 0 ? 0 : -1;
}

/* The on-demand and spot offers of one plan in one location, each as far as the plan deploys
 * that way. */
static int parse_location(struct gp_feed_ctx *ctx, const cJSON *plan, struct gp_feed_row *row,
                          const char *location)
{
    static const struct {
        const char *price, *flag;
        enum gp_tier tier;
    } ways[] = {{"hourly_cost", "deploy_ondemand", GP_TIER_ON_DEMAND},
                {"hourly_cost_preemptible", "deploy_preemptible", GP_TIER_SPOT}};
    int rc = 0;

    row->region = location;
    for (size_t w = 0; rc == 0 && w < sizeof(ways) / sizeof(ways[0]); w++) {
        double price = 0;
        if (!deployable(plan, ways[w].flag))
            continue;
        if (location_price(plan, location, ways[w].price, &price) != 0) {
            gp_feed_reject(ctx, "%s: %s is not a number", row->instance_type, ways[w].price);
            continue;
        }
        if (price == 0)
            continue; /* no rate this way */
        row->tier = ways[w].tier;
        row->amount = price;
        rc = gp_feed_add(ctx, row);
    }
    return rc;
}

static int parse_plan(struct gp_feed_ctx *ctx, const cJSON *plan)
{
    const char *id = gp_feed_json_str(plan, "id");
    const char *gpu_type = gp_feed_json_str(plan, "gpu_type");
    const cJSON *locations = cJSON_GetObjectItemCaseSensitive(plan, "locations"), *loc;
    struct gp_feed_row row = {0};
    int rc = 0;

    if (!id) {
        gp_feed_reject(ctx, "a plan without an id");
        return 0;
    }
    /* Plans without a GPU are not GPU offers. */
    if (!gpu_type && !strstr(id, "-gpu") && strncmp(id, "vcg-", 4) != 0)
        return 0;
    row.gpu_name = gpu_type ? gpu_type : id;
    row.instance_type = id;
    row.gpus = plan_gpu_count(ctx, plan, id, row.gpu_name);
    row.currency = "USD";
    row.unit = GP_UNIT_INSTANCE_HOUR;
    if (row.gpus < 0) {
        ctx->out_of_scope++;
        return 0;
    }
    /* A plan listed with no location cannot be deployed anywhere. */
    if (!cJSON_IsArray(locations) || cJSON_GetArraySize(locations) == 0) {
        gp_feed_reject(ctx, "%s: listed without a location to deploy in", id);
        return 0;
    }
    cJSON_ArrayForEach(loc, locations)
    {
        if (cJSON_IsString(loc) && *loc->valuestring)
            rc = parse_location(ctx, plan, &row, loc->valuestring);
        if (rc)
            break;
    }
    return rc;
}

static int vultr_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *plans, *plan, *next;
    int rc = gp_json_parse(&root, body, len, ctx->url);

    ctx->next_url[0] = '\0';
    if (rc)
        return rc;
    plans = cJSON_GetObjectItemCaseSensitive(root, "plans_metal");
    if (!plans)
        plans = cJSON_GetObjectItemCaseSensitive(root, "plans");
    if (!cJSON_IsArray(plans)) {
        const char *err = gp_feed_json_str(root, "error");
        rc = err ? gp_error_set(GP_EINVALID, "%s: the API answered: %.200s", ctx->url, err)
                 : gp_error_set(GP_EINVALID,
                                "%s: no plans or plans_metal array: the response format changed",
                                ctx->url);
        goto done;
    }
    cJSON_ArrayForEach(plan, plans)
    {
        rc = parse_plan(ctx, plan);
        if (rc)
            goto done;
    }
    next = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "meta"), "links"),
        "next");
    if (cJSON_IsString(next) && *next->valuestring && cJSON_GetArraySize(plans) > 0)
        rc = gp_feed_set_next_param(ctx, "cursor", next->valuestring);
done:
    cJSON_Delete(root);
    return rc;
}

const struct gp_feed_adapter gp_feed_vultr = {
    .name = "vultr",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND) | GP_FEED_TIER(GP_TIER_SPOT),
    .auth = GP_HTTP_AUTH_BEARER,
    .max_page_bytes = (size_t)8 << 20,
    .max_pages = 20, /* 500 plans a page: each plan type is one page */
    .parse = vultr_parse,
};
