/* The workload and the assumptions of a plan as JSON objects: the meta section of the plan
 * command's JSON output. */
#include "cli/plan_meta.h"

#include "cli/plan_summary.h"

cJSON *gp_cli_plan_workload_json(const struct gp_workload *w)
{
    cJSON *o = cJSON_CreateObject();

    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "name", w->name);
    cJSON_AddStringToObject(o, "kind", gp_workload_kind_name(w->kind));
    cJSON_AddStringToObject(o, "description", w->description);
    if (w->kind != GP_WORKLOAD_GENERIC) {
        cJSON_AddStringToObject(o, "model", w->model.name);
        cJSON_AddNumberToObject(o, "params", w->model.params);
        cJSON_AddNumberToObject(o, "active_params", gp_model_active_params(&w->model));
    }
    if (w->kind == GP_WORKLOAD_INFERENCE) {
        const struct gp_inference *in = &w->inference;
        cJSON_AddStringToObject(o, "precision", gp_precision_name(in->precision));
        cJSON_AddStringToObject(o, "kv_precision", gp_precision_name(in->kv_precision));
        cJSON_AddNumberToObject(o, "input_tokens", in->input_tokens);
        cJSON_AddNumberToObject(o, "output_tokens", in->output_tokens);
        if (in->load == GP_LOAD_MAX)
            cJSON_AddStringToObject(o, "target", "max");
        else
            cJSON_AddNumberToObject(
                o, in->load == GP_LOAD_REQUESTS ? "requests_per_s" : "output_tokens_per_s",
                in->rate);
        cJSON_AddNumberToObject(o, "ttft_ms", in->ttft_ms);
        cJSON_AddNumberToObject(o, "tpot_ms", in->tpot_ms);
        cJSON_AddNumberToObject(o, "memory_fraction", in->memory_fraction);
    } else if (w->kind == GP_WORKLOAD_TRAINING) {
        const struct gp_training *t = &w->training;
        cJSON_AddStringToObject(o, "precision", gp_precision_name(t->precision));
        cJSON_AddNumberToObject(o, "tokens", t->tokens);
        cJSON_AddNumberToObject(o, "deadline_hours", t->deadline_hours);
        cJSON_AddNumberToObject(o, "gpus", t->gpus);
        cJSON_AddBoolToObject(o, "recompute", t->recompute);
        cJSON_AddNumberToObject(o, "zero_stage", t->zero_stage);
    } else {
        const struct gp_generic *g = &w->generic;
        cJSON_AddStringToObject(o, "precision", gp_precision_name(g->precision));
        cJSON_AddNumberToObject(o, "flops", g->flops);
        cJSON_AddNumberToObject(o, "bytes", g->bytes);
        cJSON_AddNumberToObject(o, "jobs_per_hour", g->jobs_per_hour);
    }
    return o;
}

cJSON *gp_cli_plan_assumptions_json(const struct gp_plan_result *res, const struct gp_sweep *sweep)
{
    const struct gp_assumptions *a = &res->used.assumptions;
    cJSON *o = cJSON_CreateObject();

    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "currency", res->currency);
    cJSON_AddStringToObject(o, "pricing", gp_pricing_name(res->pricing));
    cJSON_AddNumberToObject(o, "pue", a->pue);
    cJSON_AddNumberToObject(o, "kwh_price", a->kwh_price);
    cJSON_AddNumberToObject(o, "years", a->years);
    cJSON_AddNumberToObject(o, "capex", a->capex);
    cJSON_AddNumberToObject(o, "server_overhead", a->server_overhead);
    cJSON_AddNumberToObject(o, "max_age_days", (double)res->max_age_days);
    cJSON_AddNumberToObject(o, "max_gpus", a->max_gpus);
    cJSON_AddNumberToObject(o, "power_budget_kw", a->power_budget_kw);
    cJSON_AddNumberToObject(o, "hours_per_month", GP_HOURS_PER_MONTH);
    cJSON_AddNumberToObject(o, "horizon_months", res->horizon_months);
    if (res->region)
        cJSON_AddStringToObject(o, "region", res->region);
    if (res->jurisdiction)
        cJSON_AddStringToObject(o, "jurisdiction", res->jurisdiction);
    if (sweep && sweep->count)
        cJSON_AddStringToObject(o, "sweep", sweep->key);
    if (gp_cli_plan_prices_json(o, res)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}
