/* The report's assumptions section: what each plan assumed, the exchange rates, and where and
 * when the report was made. */
#include <stdio.h>
#include <string.h>

#include "planner/keys.h"
#include "report/sections.h"
#include "util/error.h"
#include "util/json.h"
#include "util/timeutil.h"

static const struct gp_column assumption_columns[] = {
    {"item", GP_CELL_TEXT, 0},
    {"value", GP_CELL_NUMBER, 4},
    {"unit", GP_CELL_TEXT, 0},
    {"detail", GP_CELL_TEXT, 0},
};
static const struct gp_column_look assumption_looks[] = {
    {"Item", NULL, GP_STYLE_TEXT, 0},
    {"Value", NULL, GP_STYLE_PLAIN, 0},
    {"Unit", NULL, GP_STYLE_TEXT, 0},
    {"Detail or source", NULL, GP_STYLE_TEXT, 0},
};

/* One row: `item`, a number when `has_value` with its unit, and the detail or source. */
static int fact(struct gp_table *t, const char *item, bool has_value, double value,
                const char *unit, const char *detail)
{
    int rc = gp_table_add_row(t);

    rc = rc ? rc : gp_table_set_text(t, "item", "%s", item);
    if (has_value)
        rc = rc ? rc : gp_table_set_number(t, "value", value);
    rc = rc ? rc : gp_table_set_text(t, "unit", "%s", unit);
    return rc ? rc : gp_table_set_text(t, "detail", "%s", detail);
}

/* Each field of the workload as run, a row each: numbers with the unit the key table gives them,
 * words as the detail. */
static int workload_facts(struct gp_table *t, const struct gp_report_plan *p)
{
    const cJSON *workload = cJSON_GetObjectItemCaseSensitive(p->document, "workload"), *field;
    char item[160];
    int rc = 0;

    cJSON_ArrayForEach(field, workload)
    {
        const struct gp_plan_key *key =
            cJSON_IsNumber(field) ? gp_plan_key_find(field->string) : NULL;
        snprintf(item, sizeof(item), "%s: %s", p->workload, field->string);
        if (cJSON_IsNumber(field))
            rc = fact(t, item, true, field->valuedouble, key ? key->unit : "", "workload");
        else if (cJSON_IsString(field))
            rc = fact(t, item, false, 0, "", field->valuestring);
        else if (cJSON_IsBool(field))
            rc = fact(t, item, false, 0, "", cJSON_IsTrue(field) ? "yes" : "no");
        if (rc)
            break;
    }
    return rc;
}

/* A site figure as a row: its value in `unit`, its source, and whether it is an estimate. */
static int site_fact(struct gp_table *t, const char *item, const struct gp_site_figure *f,
                     const char *unit)
{
    char detail[320];

    if (!f->known)
        return 0;
    snprintf(detail, sizeof(detail), "%s%.300s", f->estimate ? "estimate: " : "", f->source);
    return fact(t, item, true, f->value, unit, detail);
}

/* Where a plan at a site was priced: the site, its spot price and where that came from, its
 * levies, the all-in energy price the rows use, the PUE and rack limits by cooling, colocation
 * and heat where known, and the power budget of a power-first plan. These replace the
 * assumptions' PUE and energy price, which a site does not use. */
static int site_facts(struct gp_table *t, const struct gp_plan_result *res)
{
    const struct gp_assumptions *a = &res->used.assumptions;
    const struct gp_site_terms *terms = a->site;
    const struct gp_site *s = terms->site;
    char per_kwh[32], local_kwh[32], local_mwh[32], local_kw[40], detail[320];
    int rc;

    snprintf(per_kwh, sizeof(per_kwh), "%s per kWh", res->currency);
    snprintf(local_kwh, sizeof(local_kwh), "%s per kWh", s->currency);
    snprintf(local_mwh, sizeof(local_mwh), "%s per MWh of heat", s->currency);
    snprintf(local_kw, sizeof(local_kw), "%s per IT kW-month", s->currency);
    snprintf(detail, sizeof(detail), "%s, zone %s, %s", s->name, s->zone, s->country);
    rc = fact(t, "Site", false, 0, "", detail);
    if (terms->from_history) {
        char from[16], to[16];
        gp_time_format_date(terms->history.from, from, sizeof(from));
        gp_time_format_date(terms->history.to, to, sizeof(to));
        snprintf(detail, sizeof(detail), "stored day-ahead prices, %s to %s, %.0f h", from, to,
                 terms->history.hours);
        rc =
            rc ? rc : fact(t, "Spot price, mean", true, terms->history.mean, "EUR per MWh", detail);
        rc = rc ? rc : fact(t, "Spot price, p90", true, terms->history.p90, "EUR per MWh", detail);
    } else {
        rc = rc ? rc : site_fact(t, "Spot price, mean", &s->spot_mean_eur_mwh, "EUR per MWh");
        rc = rc ? rc : site_fact(t, "Spot price, p90", &s->spot_p90_eur_mwh, "EUR per MWh");
    }
    rc = rc ? rc : site_fact(t, "Energy tax", &s->energy_tax_kwh, local_kwh);
    rc = rc ? rc : site_fact(t, "Grid tariff", &s->grid_tariff_kwh, local_kwh);
    snprintf(detail, sizeof(detail), "spot + tax + tariff%s",
             s->vat_reclaimed ? ", VAT reclaimed" : ", VAT included");
    rc = rc ? rc
            : fact(t, "Energy price, all in", true, terms->energy_usd_kwh * res->fx_per_usd,
                   per_kwh, detail);
    rc = rc ? rc : site_fact(t, "PUE, air cooling", &s->pue_air, "facility power / IT power");
    rc = rc ? rc : site_fact(t, "PUE, liquid cooling", &s->pue_liquid, "facility power / IT power");
    rc = rc ? rc : site_fact(t, "Rack limit, air cooling", &s->rack_kw_air, "kW IT");
    rc = rc ? rc : site_fact(t, "Rack limit, liquid cooling", &s->rack_kw_liquid, "kW IT");
    rc = rc ? rc : site_fact(t, "Floor per rack", &s->floor_m2_per_rack, "m2");
    rc = rc ? rc : site_fact(t, "Colocation", &s->colocation_kw_month, local_kw);
    if (terms->heat_usd_kwh > 0) {
        rc = rc ? rc : site_fact(t, "Heat sold, price", &s->heat_price_mwh, local_mwh);
        rc = rc ? rc : site_fact(t, "Heat sold, share of IT energy", &s->heat_recovery, "share");
    }
    if (a->power_budget_mw > 0)
        rc = rc ? rc
                : fact(t, "Power budget", true, a->power_budget_mw, "MW at the facility",
                       "each row is the largest fleet this holds (--power-budget-mw)");
    return rc;
}

/* The workload as run (from the plan's document) and what its GPU types were planned with. */
static int plan_facts(struct gp_table *t, const struct gp_report_plan *p)
{
    const struct gp_plan_result *res = p->result;
    const struct gp_assumptions *a = &res->used.assumptions;
    char item[160], unit[32];
    int rc = workload_facts(t, p);

    snprintf(unit, sizeof(unit), "%s per kWh", res->currency);
    if (a->site) {
        rc = rc ? rc : site_facts(t, res);
    } else {
        rc = rc ? rc : fact(t, "PUE", true, a->pue, "facility power / IT power", "assumption");
        rc = rc ? rc : fact(t, "Energy price", true, a->kwh_price, unit, "assumption");
    }
    rc = rc ? rc : fact(t, "Pricing", false, 0, "", gp_pricing_name(res->pricing));
    rc = rc ? rc
            : fact(t, "Prices older than this are stale", true, (double)res->max_age_days, "days",
                   "the plan's age limit (--max-age)");
    for (size_t g = 0; rc == 0 && g < res->per_point; g++) {
        snprintf(item, sizeof(item), "Efficiency of %s", res->gpus[g].gpu->id);
        rc = fact(t, item, false, 0, "", res->gpus[g].eff.source);
    }
    return rc;
}

/* The database by its file name alone: a report travels, the local folders do not. */
static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int gp_report_add_assumptions(struct gp_report *r, const struct gp_fx_table *fx)
{
    struct gp_report_section *s = gp_report_add_section(r, "assumptions", "Assumptions");
    char when[32], item[64], detail[320];
    int rc = 0;

    if (!s)
        return GP_EINVALID;
    gp_table_init(&s->table, assumption_columns,
                  sizeof(assumption_columns) / sizeof(assumption_columns[0]));
    s->table.looks = assumption_looks;
    for (size_t i = 0; rc == 0 && i < r->nplans; i++)
        rc = plan_facts(&s->table, &r->plans[i]);
    for (size_t i = 0; rc == 0 && fx && i < fx->count; i++) {
        char date[16], unit[32];
        gp_time_format_date(fx->rates[i].date, date, sizeof(date));
        snprintf(item, sizeof(item), "Exchange rate %s", fx->rates[i].currency);
        snprintf(unit, sizeof(unit), "%s per USD", fx->rates[i].currency);
        snprintf(detail, sizeof(detail), "from %s, %.250s", date, fx->rates[i].source);
        rc = fact(&s->table, item, true, fx->rates[i].per_usd, unit, detail);
    }
    gp_time_format_stamp(r->generated_at, when, sizeof(when));
    rc = rc ? rc : fact(&s->table, "gpuplan version", false, 0, "", r->version);
    rc = rc ? rc : fact(&s->table, "Database", false, 0, "", file_name(r->database));
    rc = rc ? rc : fact(&s->table, "Generated", false, 0, "", when);
    return rc ? gp_error_set(GP_ENOMEM, "out of memory listing the assumptions") : 0;
}
