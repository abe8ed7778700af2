/* The report's planned spend as a FinOps FOCUS 1.x cost file: one CSV row per purchase line of
 * each workload's recommended fleet per month of the plan, with FOCUS column names and types,
 * so FinOps tools can import it as a forecast. A service is charged every month of the horizon,
 * a training run in the months it runs. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "util/error.h"
#include "util/timeutil.h"

/* FOCUS columns, in the specification's names; x_ columns are gpuplan's own. Money and
 * quantities are Decimal, periods DateTime (ISO 8601 UTC), the rest String. */
static const struct gp_column focus_columns[] = {
    {"BilledCost", GP_CELL_NUMBER, 6},
    {"EffectiveCost", GP_CELL_NUMBER, 6},
    {"ListCost", GP_CELL_NUMBER, 6},
    {"ContractedCost", GP_CELL_NUMBER, 6},
    {"BillingCurrency", GP_CELL_TEXT, 0},
    {"BillingPeriodStart", GP_CELL_TEXT, 0},
    {"BillingPeriodEnd", GP_CELL_TEXT, 0},
    {"ChargePeriodStart", GP_CELL_TEXT, 0},
    {"ChargePeriodEnd", GP_CELL_TEXT, 0},
    {"ChargeCategory", GP_CELL_TEXT, 0},
    {"ChargeFrequency", GP_CELL_TEXT, 0},
    {"ChargeDescription", GP_CELL_TEXT, 0},
    {"PricingCategory", GP_CELL_TEXT, 0},
    {"PricingUnit", GP_CELL_TEXT, 0},
    {"PricingQuantity", GP_CELL_NUMBER, 4},
    {"ListUnitPrice", GP_CELL_NUMBER, 6},
    {"ContractedUnitPrice", GP_CELL_NUMBER, 6},
    {"ConsumedUnit", GP_CELL_TEXT, 0},
    {"ConsumedQuantity", GP_CELL_NUMBER, 4},
    {"ProviderName", GP_CELL_TEXT, 0},
    {"PublisherName", GP_CELL_TEXT, 0},
    {"InvoiceIssuerName", GP_CELL_TEXT, 0},
    {"RegionId", GP_CELL_TEXT, 0},
    {"ServiceCategory", GP_CELL_TEXT, 0},
    {"ServiceName", GP_CELL_TEXT, 0},
    {"ResourceType", GP_CELL_TEXT, 0},
    {"SkuId", GP_CELL_TEXT, 0},
    {"CommitmentDiscountCategory", GP_CELL_TEXT, 0},
    {"CommitmentDiscountType", GP_CELL_TEXT, 0},
    {"x_Workload", GP_CELL_TEXT, 0},
    {"x_GpuType", GP_CELL_TEXT, 0},
    {"x_Gpus", GP_CELL_INT, 0},
    {"x_Role", GP_CELL_TEXT, 0},
    {"x_Tier", GP_CELL_TEXT, 0},
    {"x_PriceSource", GP_CELL_TEXT, 0},
};

/* How a tier is priced and committed, in FOCUS's words. */
static void tier_terms(enum gp_tier tier, const char **pricing, const char **frequency,
                       const char **commitment)
{
    *commitment = "";
    *frequency = "Usage-Based";
    switch (tier) {
    case GP_TIER_SPOT:
        *pricing = "Dynamic";
        return;
    case GP_TIER_RESERVED:
        *commitment = "Reserved";
        break;
    case GP_TIER_CAPACITY_BLOCK:
        *commitment = "Capacity block";
        break;
    case GP_TIER_QUOTE:
        *commitment = "Negotiated";
        break;
    default:
        *pricing = "Standard";
        return;
    }
    *pricing = "Committed";
    *frequency = "Recurring";
}

/* One month of one line: the charge, its period and what it buys. */
struct charge {
    const struct gp_report_plan *plan;
    const struct gp_plan_row *row;
    const struct gp_plan_line *line;
    int64_t start, end; /* the calendar month, Unix seconds UTC */
    double hours;       /* hours of the month the line is paid for */
};

static int charge_money(struct gp_table *t, const struct charge *c, double fx)
{
    double cost = c->line->cost_per_hour * c->hours * fx;
    double unit = c->line->price_per_instance_hour * fx;
    /* instance-hours paid: a blended peak line is rented part of each day, a committed term
     * paid over whole terms, so cost = unit price x quantity holds as FOCUS has it */
    double quantity = unit > 0 ? cost / unit : 0;
    int rc = 0;

    rc = rc ? rc : gp_table_set_number(t, "BilledCost", cost);
    rc = rc ? rc : gp_table_set_number(t, "EffectiveCost", cost);
    rc = rc ? rc : gp_table_set_number(t, "ListCost", cost);
    rc = rc ? rc : gp_table_set_number(t, "ContractedCost", cost);
    rc = rc ? rc : gp_table_set_number(t, "PricingQuantity", quantity);
    rc = rc ? rc : gp_table_set_number(t, "ListUnitPrice", unit);
    rc = rc ? rc : gp_table_set_number(t, "ContractedUnitPrice", unit);
    return rc ? rc
              : gp_table_set_number(t, "ConsumedQuantity", quantity * c->line->gpus_per_instance);
}

static int charge_period(struct gp_table *t, const struct charge *c)
{
    char start[32], end[32];
    int rc = 0;

    gp_time_format_stamp(c->start, start, sizeof(start));
    gp_time_format_stamp(c->end, end, sizeof(end));
    rc = rc ? rc : gp_table_set_text(t, "BillingPeriodStart", "%s", start);
    rc = rc ? rc : gp_table_set_text(t, "BillingPeriodEnd", "%s", end);
    rc = rc ? rc : gp_table_set_text(t, "ChargePeriodStart", "%s", start);
    return rc ? rc : gp_table_set_text(t, "ChargePeriodEnd", "%s", end);
}

/* What the line buys and from whom. */
static int charge_item(struct gp_table *t, const struct charge *c)
{
    const struct gp_offer *o = gp_report_line_offer(&c->plan->inputs, c->line);
    const char *pricing, *frequency, *commitment, *provider = o ? o->provider : c->row->provider;
    char instance[128];
    int rc = 0;

    tier_terms((enum gp_tier)c->line->tier, &pricing, &frequency, &commitment);
    gp_report_line_instance(instance, sizeof(instance), &c->plan->inputs, c->line);
    rc = rc ? rc : gp_table_set_text(t, "ChargeCategory", "Usage");
    rc = rc ? rc : gp_table_set_text(t, "ChargeFrequency", "%s", frequency);
    rc = rc ? rc
            : gp_table_set_text(t, "ChargeDescription", "%d x %s for %s (planned)",
                                c->line->instances, instance, c->plan->workload);
    rc = rc ? rc : gp_table_set_text(t, "PricingCategory", "%s", pricing);
    rc = rc ? rc : gp_table_set_text(t, "PricingUnit", "Hours");
    rc = rc ? rc : gp_table_set_text(t, "ConsumedUnit", "GPU-Hours");
    rc = rc ? rc : gp_table_set_text(t, "ProviderName", "%s", provider);
    rc = rc ? rc : gp_table_set_text(t, "PublisherName", "%s", provider);
    rc = rc ? rc : gp_table_set_text(t, "InvoiceIssuerName", "%s", provider);
    rc = rc ? rc : gp_table_set_text(t, "RegionId", "%s", o ? o->region : "");
    rc = rc ? rc : gp_table_set_text(t, "ServiceCategory", "AI and Machine Learning");
    rc = rc ? rc : gp_table_set_text(t, "ServiceName", "GPU compute");
    rc = rc ? rc : gp_table_set_text(t, "ResourceType", "GPU instance");
    rc = rc ? rc : gp_table_set_text(t, "SkuId", "%s", instance);
    if (commitment[0]) {
        rc = rc ? rc : gp_table_set_text(t, "CommitmentDiscountCategory", "Usage");
        rc = rc ? rc : gp_table_set_text(t, "CommitmentDiscountType", "%s", commitment);
    }
    rc = rc ? rc : gp_table_set_text(t, "x_Workload", "%s", c->plan->workload);
    rc = rc ? rc : gp_table_set_text(t, "x_GpuType", "%s", c->row->gpu);
    rc = rc ? rc : gp_table_set_int(t, "x_Gpus", c->line->gpus);
    rc = rc ? rc : gp_table_set_text(t, "x_Role", "%s", gp_purchase_role_name(c->line->role));
    rc = rc ? rc : gp_table_set_text(t, "x_Tier", "%s", gp_tier_name((enum gp_tier)c->line->tier));
    return rc ? rc : gp_table_set_text(t, "x_PriceSource", "%s", o ? o->source_url : "");
}

/* The months a plan is charged for and the hours of each: a service GP_HOURS_PER_MONTH a
 * month over the horizon; a training run its hours, GP_HOURS_PER_MONTH a month until done. */
static int plan_months(const struct gp_report_plan *p, const struct gp_plan_row *best)
{
    if (p->kind == GP_WORKLOAD_TRAINING)
        return best->train_hours > 0 ? (int)ceil(best->train_hours / GP_HOURS_PER_MONTH) : 0;
    return p->result->horizon_months > 0 ? p->result->horizon_months : 1;
}

static double month_hours(const struct gp_report_plan *p, const struct gp_plan_row *best, int m)
{
    if (p->kind != GP_WORKLOAD_TRAINING)
        return GP_HOURS_PER_MONTH;
    double left = best->train_hours - (double)m * GP_HOURS_PER_MONTH;
    return left < GP_HOURS_PER_MONTH ? left : GP_HOURS_PER_MONTH;
}

/* The rows of one plan: its recommended fleet's lines, month by month. */
static int plan_rows(struct gp_table *t, const struct gp_report *r, const struct gp_report_plan *p)
{
    const struct gp_plan_row *best = p->result->best < p->nrows ? &p->rows[p->result->best] : NULL;
    int months = best ? plan_months(p, best) : 0, rc = 0;

    for (int m = 0; rc == 0 && m < months; m++)
        for (size_t i = 0; rc == 0 && i < best->nlines; i++) {
            struct charge c = {p,
                               best,
                               &best->lines[i],
                               gp_time_month_start(r->generated_at, m + 1),
                               gp_time_month_start(r->generated_at, m + 2),
                               month_hours(p, best, m)};
            rc = gp_table_add_row(t);
            rc = rc ? rc : gp_table_set_text(t, "BillingCurrency", "%s", r->currency);
            rc = rc ? rc : charge_money(t, &c, r->fx);
            rc = rc ? rc : charge_period(t, &c);
            rc = rc ? rc : charge_item(t, &c);
        }
    return rc;
}

int gp_report_render_focus(const struct gp_report *r, FILE *out)
{
    struct gp_table t;
    int rc = 0;

    gp_table_init(&t, focus_columns, sizeof(focus_columns) / sizeof(focus_columns[0]));
    for (size_t i = 0; rc == 0 && i < r->nplans; i++)
        rc = plan_rows(&t, r, &r->plans[i]);
    if (rc == 0)
        rc = gp_render_csv(&t, NULL, out);
    else
        gp_error_set(GP_ENOMEM, "out of memory listing the planned spend");
    gp_table_release(&t);
    return rc ? rc : (ferror(out) ? gp_error_set(GP_ERROR, "cannot write the FOCUS file") : 0);
}
