/* Vultr plans (bare metal and Cloud GPU): {plans_metal|plans: [...], meta{links{next}}} with
 * cursor paging; yields on-demand and spot (preemptible) per plan-hour. */
#include <ctype.h>
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

static int parse_plan(struct gp_feed_ctx *ctx, const cJSON *plan)
{
    const char *id = gp_feed_json_str(plan, "id");
    const char *gpu_type = gp_feed_json_str(plan, "gpu_type");
    const cJSON *vram = cJSON_GetObjectItemCaseSensitive(plan, "gpu_vram_gb");
    struct gp_feed_row row = {0};
    struct gp_gpu_name mapped;
    double hourly, preemptible;
    int rc;

    if (!id) {
        gp_feed_reject(ctx, "a plan without an id");
        return 0;
    }
    /* Plans without a GPU are not GPU offers. */
    if (!gpu_type && !strstr(id, "-gpu") && strncmp(id, "vcg-", 4) != 0)
        return 0;
    row.gpu_name = gpu_type ? gpu_type : id;
    row.instance_type = id;
    row.gpus = plan_gpus(id);
    row.currency = "USD";
    row.unit = GP_UNIT_INSTANCE_HOUR;

    /* A Cloud GPU plan with less memory than the card is a slice of a GPU, not a GPU. */
    if (cJSON_IsNumber(vram) && ctx->catalog &&
        gp_normalize_gpu_name(&mapped, ctx->provider, row.gpu_name) == GP_NAME_MAPPED) {
        const struct gp_gpu *g = gp_catalog_find(ctx->catalog, mapped.gpu_id);
        if (g && vram->valuedouble < 0.9 * g->hbm_gb * (row.gpus ? row.gpus : 1)) {
            ctx->out_of_scope++;
            return 0;
        }
        /* Cloud GPU ids do not spell the count: whole cards of memory do */
        if (g && row.gpus == 0 && g->hbm_gb > 0) {
            double cards = vram->valuedouble / (0.9 * g->hbm_gb);
            row.gpus = cards >= 1 && cards <= 72 ? (int)cards : 0;
        }
    }

    if (gp_feed_json_price(cJSON_GetObjectItemCaseSensitive(plan, "hourly_cost"), &hourly) != 0) {
        gp_feed_reject(ctx, "%s: hourly_cost is not a number", id);
    } else {
        row.tier = GP_TIER_ON_DEMAND;
        row.amount = hourly;
        rc = gp_feed_add(ctx, &row);
        if (rc)
            return rc;
    }
    /* 0 or absent: the plan has no preemptible rate. */
    const cJSON *pre = cJSON_GetObjectItemCaseSensitive(plan, "hourly_cost_preemptible");
    if (pre && !cJSON_IsNull(pre)) {
        if (gp_feed_json_price(pre, &preemptible) != 0) {
            gp_feed_reject(ctx, "%s: hourly_cost_preemptible is not a number", id);
        } else if (preemptible != 0) {
            row.tier = GP_TIER_SPOT;
            row.amount = preemptible;
            return gp_feed_add(ctx, &row);
        }
    }
    return 0;
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
    .parse = vultr_parse,
};
