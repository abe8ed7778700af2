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

/* One site figure: its value, and whether it is an estimate. */
static void add_figure(cJSON *o, const char *key, const struct gp_site_figure *f)
{
    cJSON *item = cJSON_AddObjectToObject(o, key);

    if (!item)
        return;
    cJSON_AddNumberToObject(item, "value", f->value);
    cJSON_AddBoolToObject(item, "estimate", f->estimate);
    cJSON_AddStringToObject(item, "source", f->source);
}

/* Where the site's spot price came from: the zone's stored prices over the window, or the site
 * file's reference period. */
static void add_spot(cJSON *site, const struct gp_site_terms *t)
{
    const struct gp_site *s = t->site;
    char from[24], to[24];

    cJSON_AddStringToObject(site, "spot_from", t->from_history ? "history" : "sites.json");
    if (!t->from_history) {
        cJSON_AddStringToObject(site, "spot_period", s->spot_period);
        add_figure(site, "spot_mean_eur_mwh", &s->spot_mean_eur_mwh);
        if (s->spot_p90_eur_mwh.known)
            add_figure(site, "spot_p90_eur_mwh", &s->spot_p90_eur_mwh);
        return;
    }
    gp_time_format_stamp(t->history.from, from, sizeof(from));
    gp_time_format_stamp(t->history.to, to, sizeof(to));
    cJSON_AddStringToObject(site, "spot_history_from", from);
    cJSON_AddStringToObject(site, "spot_history_to", to);
    cJSON_AddNumberToObject(site, "spot_history_hours", t->history.hours);
    cJSON_AddNumberToObject(site, "spot_mean_eur_mwh", t->history.mean);
    cJSON_AddNumberToObject(site, "spot_p90_eur_mwh", t->history.p90);
}

/* The site a plan was priced at, as data/sites.json gives it, and its all-in energy price in
 * the report currency. */
static void add_site(cJSON *o, const struct gp_site_terms *t, double fx_per_usd)
{
    const struct gp_site *s = t->site;
    cJSON *site = cJSON_AddObjectToObject(o, "site");

    if (!site)
        return;
    cJSON_AddStringToObject(site, "id", s->id);
    cJSON_AddStringToObject(site, "name", s->name);
    cJSON_AddStringToObject(site, "zone", s->zone);
    cJSON_AddStringToObject(site, "country", s->country);
    cJSON_AddStringToObject(site, "currency", s->currency);
    add_spot(site, t);
    add_figure(site, "energy_tax_kwh", &s->energy_tax_kwh);
    add_figure(site, "grid_tariff_kwh", &s->grid_tariff_kwh);
    cJSON_AddNumberToObject(site, "energy_price_kwh", t->energy_usd_kwh * fx_per_usd);
    add_figure(site, "pue_air", &s->pue_air);
    add_figure(site, "pue_liquid", &s->pue_liquid);
    add_figure(site, "rack_kw_air", &s->rack_kw_air);
    add_figure(site, "rack_kw_liquid", &s->rack_kw_liquid);
    add_figure(site, "floor_m2_per_rack", &s->floor_m2_per_rack);
    if (s->colocation_kw_month.known)
        add_figure(site, "colocation_kw_month", &s->colocation_kw_month);
    if (s->heat_price_mwh.known && s->heat_recovery.known) {
        add_figure(site, "heat_price_mwh", &s->heat_price_mwh);
        add_figure(site, "heat_recovery", &s->heat_recovery);
    }
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
    if (a->power_budget_mw > 0)
        cJSON_AddNumberToObject(o, "power_budget_mw", a->power_budget_mw);
    if (a->site)
        add_site(o, a->site, res->fx_per_usd);
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
