/* Currency conversion for a plan: the rate in force on a date, the planner's USD defaults in
 * the report currency, and a row's money from USD into it. */
#include <string.h>

#include "planner/plan.h"
#include "util/error.h"

int gp_plan_rate_at(const struct gp_fx_table *fx, const char *currency, int64_t at, double *out)
{
    static const struct gp_fx_table none = {NULL, 0};

    return gp_fx_per_usd(fx ? fx : &none, currency, at, out);
}

/* The defaults of gp_assumptions_init are US dollars; the user's money is in the report
 * currency, `per_usd` units of it per dollar. */
static void defaults_in_currency(struct gp_assumptions *a, double per_usd)
{
    gp_assumptions_init(a);
    a->fx_per_usd = per_usd;
    a->kwh_price *= per_usd;
    a->capex *= per_usd;
    a->hosting_per_kw_month *= per_usd;
}

int gp_plan_request_init(struct gp_plan_request *req, const struct gp_fx_table *fx,
                         const char *currency, int64_t now)
{
    double per_usd = 1.0;
    int rc;

    memset(req, 0, sizeof(*req));
    if (strlen(currency) != 3)
        return gp_error_set(GP_EINVALID, "currency '%s' is not a three-letter ISO 4217 code",
                            currency);
    if ((rc = gp_plan_rate_at(fx, currency, now, &per_usd)))
        return rc;
    memcpy(req->currency, currency, 4);
    req->fx = fx;
    req->now = now;
    req->pricing = GP_PRICING_CHEAPEST;
    req->max_age_days = GP_PLAN_DEFAULT_MAX_AGE_DAYS;
    req->horizon_months = 1;
    defaults_in_currency(&req->base.assumptions, per_usd);
    return 0;
}

void gp_plan_row_convert(struct gp_plan_row *row, double price_per_usd, double energy_per_usd)
{
    row->energy_cost_per_month *= energy_per_usd;
    row->running_per_month *= energy_per_usd;
    row->site.energy_price_kwh *= energy_per_usd;
    row->site.energy_cost_p90_per_month *= energy_per_usd;
    row->site.heat_credit_per_month *= energy_per_usd;
    row->site.colocation_per_month *= energy_per_usd;
    row->price_per_gpu_hour *= price_per_usd;
    row->cost_per_hour *= price_per_usd;
    row->cost_per_month *= price_per_usd;
    row->cost_per_mtok *= price_per_usd;
    row->total_cost *= price_per_usd;
    row->cost_low *= price_per_usd;
    row->cost_high *= price_per_usd;
    row->upfront *= price_per_usd;
    row->rent_own.rent_per_month *= energy_per_usd; /* owned rows: every figure at today's rate */
    row->rent_own.own_total *= energy_per_usd;
    row->rent_own.rent_total *= energy_per_usd;
    for (size_t i = 0; i < row->nalternatives; i++) {
        row->alternatives[i].cost_per_hour *= price_per_usd;
        row->alternatives[i].cost_per_month *= price_per_usd;
    }
    for (size_t i = 0; i < row->nlines; i++) {
        row->lines[i].price_per_instance_hour *= price_per_usd;
        row->lines[i].cost_per_hour *= price_per_usd;
        row->lines[i].upfront *= price_per_usd;
    }
}
