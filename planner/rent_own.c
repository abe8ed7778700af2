/* Rent against own over a horizon: the two fleets and their cumulative costs. */
#include "planner/rent_own.h"

#include "planner/purchase.h"

static bool comparable(const struct gp_plan_row *r)
{
    return r->feasible && r->owned && r->rent_own.set;
}

void gp_rent_own_pick(struct gp_rent_own *out, const struct gp_plan_row *rows, size_t n)
{
    *out = (struct gp_rent_own){NULL, NULL, 0, -1.0};
    for (size_t i = 0; i < n; i++) {
        const struct gp_plan_row *r = &rows[i];
        if (!comparable(r))
            continue;
        if (!out->owned || r->rent_own.own_total < out->owned->rent_own.own_total)
            out->owned = r;
        if (!out->rented || r->rent_own.rent_total < out->rented->rent_own.rent_total)
            out->rented = r;
    }
    if (!out->owned)
        return;
    out->months = out->owned->rent_own.months;
    out->break_even_months = gp_purchase_break_even_months(
        out->owned->upfront, out->owned->running_per_month, out->rented->rent_own.rent_per_month);
}

double gp_rent_own_owned_by(const struct gp_rent_own *ro, int month)
{
    return ro->owned ? ro->owned->upfront + ro->owned->running_per_month * month : 0.0;
}

double gp_rent_own_rented_by(const struct gp_rent_own *ro, int month)
{
    return ro->rented ? ro->rented->rent_own.rent_per_month * month : 0.0;
}
