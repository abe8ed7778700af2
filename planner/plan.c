/* The planner's entry point: one plan from plain data, point by point and GPU type by GPU
 * type, ranked, in the report currency, with why nothing fits when nothing does. */
#include "planner/plan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static const char *const pricing_names[GP_PRICING_COUNT] = {"cheapest", "on-demand", "spot",
                                                            "quote", "owned"};

const char *gp_pricing_name(enum gp_pricing p)
{
    return (unsigned)p < GP_PRICING_COUNT ? pricing_names[p] : "?";
}

int gp_pricing_parse(const char *name)
{
    for (int p = 0; p < GP_PRICING_COUNT; p++)
        if (strcmp(pricing_names[p], name) == 0)
            return p;
    return -1;
}

int gp_plan_apply(struct gp_plan_input *in, const char *key, const char *value)
{
    int rc = gp_plan_set(in, key, value);

    return rc ? rc : gp_workload_validate(&in->workload);
}

int gp_plan_sweep_check(const struct gp_plan_input *base, const struct gp_sweep *sweep)
{
    for (size_t v = 0; sweep && v < sweep->count; v++) {
        struct gp_plan_input probe = *base;
        int rc = gp_plan_apply(&probe, sweep->key, sweep->values[v]);
        if (rc)
            return rc;
    }
    return 0;
}

/* Each GPU type's efficiencies (calibrated where measured) and price. */
static void prepare_gpu(struct gp_plan_gpu *out, const struct gp_plan_request *req,
                        const struct gp_gpu *gpu)
{
    out->gpu = gpu;
    gp_efficiency_resolve(&out->eff, req->efficiencies, gpu->id);
    gp_plan_calibration_choose(&out->eff, req->fits, req->fit_count, gpu->id);
    gp_plan_price_choose(&out->price, req->pricing, gpu->id, req->offers, req->offer_count,
                         req->quotes, req->quote_count, req->now, req->max_age_days);
    out->no_capex = req->pricing == GP_PRICING_OWNED && !(req->base.assumptions.capex > 0) &&
                    !(gpu->capex_usd > 0);
}

/* What a GPU type used, by the row's GPU id (rows are ranked, so no longer in GPU order). */
static const struct gp_plan_gpu *gpu_of(const struct gp_plan_result *res,
                                        const struct gp_plan_row *row)
{
    for (size_t g = 0; g < res->per_point; g++)
        if (strcmp(res->gpus[g].gpu->id, row->gpu) == 0)
            return &res->gpus[g];
    return NULL;
}

/* Rented prices convert at the rate of the day they were observed, the rest at today's. */
static void convert_rows(struct gp_plan_result *res, const struct gp_plan_request *req)
{
    for (size_t i = 0; i < res->count; i++) {
        const struct gp_plan_gpu *g = gpu_of(res, &res->rows[i]);
        double price_rate = res->fx_per_usd;
        if (g && !g->price.owned && g->price.observed_at > 0 &&
            gp_plan_rate_at(req->fx, req->currency, g->price.observed_at, &price_rate))
            price_rate = res->fx_per_usd;
        gp_plan_row_convert(&res->rows[i], price_rate, res->fx_per_usd);
    }
}

/* Why no row is feasible (GP_PLAN_FEASIBLE when one is), and the smallest sized fleet. */
static void explain(struct gp_plan_result *res)
{
    unsigned all = 0;
    bool feasible = false;

    res->best = SIZE_MAX;
    for (size_t i = 0; i < res->count; i++) {
        const struct gp_plan_row *r = &res->rows[i];
        all |= r->notes;
        feasible |= r->feasible;
        if (r->gpus > 0 && (!res->smallest || r->gpus < res->smallest->gpus))
            res->smallest = r;
        if (res->best == SIZE_MAX && (r->notes & GP_NOTE_BEST))
            res->best = i;
    }
    if (feasible)
        res->infeasible = GP_PLAN_FEASIBLE;
    else if ((all & GP_NOTE_OVER_MAX_GPUS) && res->smallest && res->used.assumptions.max_gpus > 0)
        res->infeasible = GP_PLAN_OVER_MAX_GPUS;
    else if (all & GP_NOTE_OVER_MAX_GPUS)
        res->infeasible = GP_PLAN_OVER_FLEET_LIMIT;
    else if (all & GP_NOTE_OVER_POWER_BUDGET)
        res->infeasible = GP_PLAN_OVER_POWER_BUDGET;
    else if (all & GP_NOTE_LATENCY_UNMET)
        res->infeasible = GP_PLAN_LATENCY_UNMET;
    else
        res->infeasible = GP_PLAN_DOES_NOT_FIT;
}

int gp_plan_run(struct gp_plan_result *out, const struct gp_plan_request *req)
{
    const struct gp_sweep *sweep = req->sweep && req->sweep->count ? req->sweep : NULL;
    size_t points = sweep ? sweep->count : 1, ngpus = req->gpu_count;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    out->rows = calloc(points * ngpus + 1, sizeof(*out->rows));
    out->gpus = calloc(ngpus + 1, sizeof(*out->gpus));
    if (!out->rows || !out->gpus) {
        rc = gp_error_set(GP_ENOMEM, "out of memory planning %zu rows", points * ngpus);
        goto done;
    }
    out->per_point = ngpus;
    out->used = req->base;
    memcpy(out->currency, req->currency, sizeof(out->currency));
    out->fx_per_usd = req->base.assumptions.fx_per_usd;
    out->pricing = req->pricing;
    out->max_age_days = req->max_age_days;
    for (size_t g = 0; g < ngpus; g++)
        prepare_gpu(&out->gpus[g], req, req->gpus[g]);
    for (size_t v = 0; v < points; v++) {
        struct gp_plan_input in = req->base;
        if (sweep && (rc = gp_plan_apply(&in, sweep->key, sweep->values[v])))
            goto done;
        for (size_t g = 0; g < ngpus; g++)
            gp_plan_evaluate(&out->rows[out->count++], &in.workload, &in.assumptions,
                             out->gpus[g].gpu, &out->gpus[g].eff, &out->gpus[g].price);
    }
    gp_plan_rank(out->rows, out->count, ngpus);
    convert_rows(out, req);
    explain(out);
done:
    if (rc)
        gp_plan_result_release(out);
    return rc;
}

void gp_plan_result_release(struct gp_plan_result *res)
{
    if (!res)
        return;
    free(res->rows);
    free(res->gpus);
    memset(res, 0, sizeof(*res));
}
