/* Section "rent-own-<n>": what owning the fleet cheapest to own and renting the fleet cheapest
 * to rent have cost by each month of an owned plan's horizon, with its line chart. */
#include <stdint.h>
#include <stdio.h>

#include "report/sections.h"
#include "util/error.h"

static const struct gp_column columns[] = {
    {"month", GP_CELL_INT, 0},
    {"owned", GP_CELL_NUMBER, 0},
    {"rented", GP_CELL_NUMBER, 0},
    {"cheaper", GP_CELL_TEXT, 0},
};

static const struct gp_column_look looks[] = {
    {"Month", "months from the purchase", GP_STYLE_COUNT, 0},
    {"Owned, cumulative", "capital, then energy and hosting less heat sold", GP_STYLE_CURRENCY, 0},
    {"Rented, cumulative", "rent", GP_STYLE_CURRENCY, 0},
    {"Cheaper so far", NULL, GP_STYLE_TEXT, 0},
};

static const struct gp_report_line_chart chart = {
    "month", {"owned", "rented", NULL}, "cumulative cost"};

static int add_month(struct gp_table *t, const struct gp_rent_own *ro, int month)
{
    double owned = gp_rent_own_owned_by(ro, month), rented = gp_rent_own_rented_by(ro, month);
    int rc = gp_table_add_row(t);

    rc = rc ? rc : gp_table_set_int(t, "month", month);
    rc = rc ? rc : gp_table_set_number(t, "owned", owned);
    rc = rc ? rc : gp_table_set_number(t, "rented", rented);
    return rc ? rc : gp_table_set_text(t, "cheaper", "%s", owned <= rented ? "own" : "rent");
}

/* The note: which fleets, and the month owning catches up. */
static void describe(struct gp_report_plan *p)
{
    const struct gp_rent_own *ro = &p->rent_own;
    char when[64];

    if (ro->break_even_months < 0)
        snprintf(when, sizeof(when), "renting stays cheaper");
    else
        snprintf(when, sizeof(when), "owning is cheaper from month %.1f", ro->break_even_months);
    snprintf(p->rent_own_note, sizeof(p->rent_own_note),
             "Owning %d x %s against renting %d x %s from %s, over %d months: %s.", ro->owned->gpus,
             ro->owned->gpu, ro->rented->gpus, ro->rented->gpu, ro->rented->rent_own.rented_from,
             ro->months, when);
}

int gp_report_add_rent_own(struct gp_report *r, struct gp_report_plan *p)
{
    const struct gp_plan_result *res = p->result;
    size_t point = res->best != SIZE_MAX ? res->best_point : 0;
    struct gp_report_section *s;
    char key[32], title[96];
    int rc = 0;

    gp_rent_own_pick(&p->rent_own, p->rows + point * res->per_point,
                     point * res->per_point < p->nrows ? res->per_point : 0);
    if (!p->rent_own.owned)
        return 0;
    snprintf(key, sizeof(key), "rent-own-%zu", r->nplans);
    snprintf(title, sizeof(title), "Rent against own: %.64s", p->workload);
    if (!(s = gp_report_add_section(r, key, title)))
        return GP_EINVALID;
    describe(p);
    s->note = p->rent_own_note;
    s->chart = &chart;
    gp_table_init(&s->table, columns, sizeof(columns) / sizeof(columns[0]));
    s->table.looks = looks;
    for (int m = 0; !rc && m <= p->rent_own.months; m++)
        rc = add_month(&s->table, &p->rent_own, m);
    return rc;
}
