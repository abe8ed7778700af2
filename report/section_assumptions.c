/* The report's assumptions section: what each plan assumed, the exchange rates, and where and
 * when the report was made. */
#include <stdio.h>

#include "report/sections.h"
#include "util/error.h"
#include "util/json.h"
#include "util/timeutil.h"

static const struct gp_column assumption_columns[] = {
    {"item", GP_CELL_TEXT, 0},
    {"value", GP_CELL_NUMBER, 4},
    {"detail", GP_CELL_TEXT, 0},
};
static const struct gp_column_look assumption_looks[] = {
    {"Item", NULL, GP_STYLE_TEXT, 0},
    {"Value", NULL, GP_STYLE_PLAIN, 0},
    {"Detail", NULL, GP_STYLE_TEXT, 0},
};

/* One row: `item`, a number when `has_value`, and the detail text. */
static int fact(struct gp_table *t, const char *item, bool has_value, double value,
                const char *detail)
{
    int rc = gp_table_add_row(t);

    rc = rc ? rc : gp_table_set_text(t, "item", "%s", item);
    if (has_value)
        rc = rc ? rc : gp_table_set_number(t, "value", value);
    return rc ? rc : gp_table_set_text(t, "detail", "%s", detail);
}

/* The workload as run (from the plan's document) and what its GPU types were planned with. */
static int plan_facts(struct gp_table *t, const struct gp_report_plan *p)
{
    const struct gp_plan_result *res = p->result;
    const struct gp_assumptions *a = &res->used.assumptions;
    char *text = gp_json_print(cJSON_GetObjectItemCaseSensitive(p->document, "workload"), false);
    char item[160], detail[160];
    int rc = text ? 0 : GP_ENOMEM;

    snprintf(item, sizeof(item), "Workload %s", p->workload);
    rc = rc ? rc : fact(t, item, false, 0, text);
    cJSON_free(text);
    snprintf(detail, sizeof(detail), "%s per kWh", res->currency);
    rc = rc ? rc : fact(t, "PUE", true, a->pue, "facility power / IT power");
    rc = rc ? rc : fact(t, "Energy price", true, a->kwh_price, detail);
    rc = rc ? rc : fact(t, "Pricing", false, 0, gp_pricing_name(res->pricing));
    rc = rc ? rc
            : fact(t, "Prices older than this are stale (days)", true, (double)res->max_age_days,
                   "");
    for (size_t g = 0; rc == 0 && g < res->per_point; g++) {
        snprintf(item, sizeof(item), "Efficiency of %s", res->gpus[g].gpu->id);
        rc = fact(t, item, false, 0, res->gpus[g].eff.source);
    }
    return rc;
}

int gp_report_add_assumptions(struct gp_report *r, const struct gp_fx_table *fx)
{
    struct gp_report_section *s = gp_report_add_section(r, "assumptions", "Assumptions");
    char when[32], item[64], detail[320];
    int rc = 0;

    if (!s)
        return GP_EINVALID;
    gp_table_init(&s->table, assumption_columns, 3);
    s->table.looks = assumption_looks;
    for (size_t i = 0; rc == 0 && i < r->nplans; i++)
        rc = plan_facts(&s->table, &r->plans[i]);
    for (size_t i = 0; rc == 0 && fx && i < fx->count; i++) {
        char date[16];
        gp_time_format_date(fx->rates[i].date, date, sizeof(date));
        snprintf(item, sizeof(item), "%s per USD", fx->rates[i].currency);
        snprintf(detail, sizeof(detail), "from %s, %.250s", date, fx->rates[i].source);
        rc = fact(&s->table, item, true, fx->rates[i].per_usd, detail);
    }
    gp_time_format_stamp(r->generated_at, when, sizeof(when));
    rc = rc ? rc : fact(&s->table, "gpuplan version", false, 0, r->version);
    rc = rc ? rc : fact(&s->table, "Database", false, 0, r->database);
    rc = rc ? rc : fact(&s->table, "Generated", false, 0, when);
    return rc ? gp_error_set(GP_ENOMEM, "out of memory listing the assumptions") : 0;
}
