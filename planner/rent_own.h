/* Rent against own over a horizon: of an owned plan's rows, the fleet cheapest to own and the
 * fleet cheapest to rent, and what each has cost by every month. */
#ifndef GP_PLANNER_RENT_OWN_H
#define GP_PLANNER_RENT_OWN_H

#include <stddef.h>

#include "planner/fleet.h"

struct gp_rent_own {
    const struct gp_plan_row *owned;  /* borrowed: the row of least own_total, or NULL */
    const struct gp_plan_row *rented; /* borrowed: the row whose fleet rented has the least
                                         rent_total, or NULL */
    int months;                       /* the horizon both are compared over */
    double break_even_months;         /* when owning `owned` has cost as much as renting
                                         `rented`; -1 never */
};

/* The pick among rows[n] (one sweep point of an owned plan, money in one currency): feasible
 * rows whose same fleet could be rented. Both NULL when there is none. */
void gp_rent_own_pick(struct gp_rent_own *out, const struct gp_plan_row *rows, size_t n);

/* What owning `ro->owned` (capital at month 0, then its running cost) and renting
 * `ro->rented` have cost by the end of `month`, in the rows' currency. */
double gp_rent_own_owned_by(const struct gp_rent_own *ro, int month);
double gp_rent_own_rented_by(const struct gp_rent_own *ro, int month);

#endif
