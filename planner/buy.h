/* Buying a plan row's fleet: one GPU type's offers and quotes as the purchase reads them, the
 * purchase of the sized fleet in whole instances, the row's cost, capacity and power from what
 * was bought, and the bands that overlap. Pure functions. */
#ifndef GP_PLANNER_BUY_H
#define GP_PLANNER_BUY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/capex.h"
#include "catalog/clusters.h"
#include "gpuplan/offer.h"
#include "planner/fleet.h"
#include "planner/purchase.h"

/* Where a purchase offer came from, and the cluster rule it falls under. */
struct gp_buy_origin {
    enum gp_plan_origin origin;
    size_t input;                          /* index into the request's offers or quotes */
    const struct gp_cluster_rule *cluster; /* borrowed from the cluster table; NULL: none */
};

/* One GPU type's offers and quotes, converted for the purchase. */
struct gp_buy_offers {
    struct gp_purchase_offer *items; /* owned, `count` of `room` */
    struct gp_buy_origin *origins;   /* owned, one per item */
    size_t count, room;
};

/*
 * Collect the offers of `gpu_id` among `offers[n]`, each in its real rentable unit and marked
 * as a cluster where `clusters` (NULL: none) says its nodes form one, with room for `quotes`
 * more. Returns 0 or GP_ENOMEM. Release with gp_buy_offers_release (accepts NULL and a zeroed
 * struct).
 */
int gp_buy_offers_collect(struct gp_buy_offers *out, const char *gpu_id,
                          const struct gp_offer *offers, size_t n, size_t quotes,
                          const struct gp_cluster_table *clusters);
/* Add the request's quote number `input`, `quote` (its source becomes "quote:<id>", its
 * instance type, when it names none, "quote #<id>"); false without room. */
bool gp_buy_offers_add_quote(struct gp_buy_offers *out, const struct gp_quote *quote, size_t input);
void gp_buy_offers_release(struct gp_buy_offers *o);

/*
 * The last purchase made from one GPU type's offers. A plan's offers do not change between its
 * rows, and a single-tier purchase depends on the need only through its whole TP groups (the
 * fractional need sets just the headroom), so rows that need the same are bought once.
 * Zero-initialise; nothing to release.
 */
struct gp_buy_memo {
    bool valid;
    const struct gp_buy_offers *offers; /* bought from (borrowed; must not change meanwhile) */
    size_t count;                       /* offers->count then */
    int groups;                         /* whole TP groups bought */
    struct gp_purchase_need need;       /* group_gpus and gpus_per_node as bought */
    struct gp_purchase_options opt;     /* as bought */
    struct gp_purchase_result result;
    bool described;                   /* `described_row` says what `result` bought */
    struct gp_plan_row described_row; /* the text fields a row of this purchase was given */
};

/* What the purchase of every row of a plan shares. */
struct gp_buy_context {
    enum gp_pricing mode;     /* single tier, or cheapest (blended with a demand profile) */
    int horizon_months;       /* >= 1 */
    const char *region;       /* glob, NULL = any */
    const char *jurisdiction; /* NULL = any */
    int64_t now;              /* Unix seconds UTC */
    long max_age_days;        /* older prices are stale */
    struct gp_buy_memo *memo; /* NULL, or the memo of the GPU type's offers (borrowed) */
};

/* The price rows are evaluated with before gp_plan_buy: 1 USD per GPU-hour, so that every cost
 * figure of the row is per GPU-hour of the fleet and scales to the purchase. */
void gp_plan_buy_unit_price(struct gp_price *out);

/*
 * Buy the fleet `row` sized (evaluated with gp_plan_buy_unit_price) from `offers` under `ctx`
 * and the workload's buying preferences: whole instances, the cost of what is bought, the
 * extra GPUs as capacity (headroom) and idle power, the runner-up fleets, and the label of why
 * nothing could be bought (the row is then unpriced). Rows that were not sized are left alone.
 */
void gp_plan_buy(struct gp_plan_row *row, const struct gp_workload *w,
                 const struct gp_assumptions *a, const struct gp_gpu *gpu,
                 const struct gp_efficiency *eff, const struct gp_buy_offers *offers,
                 const struct gp_buy_context *ctx);

/*
 * Owned rows: the month in which owning `owned`'s fleet (the typical capex_usd per GPU times the
 * server overhead, then its energy and hosting) has cost as much as renting `rented`, the same
 * plan bought by gp_plan_buy; -1 when renting never costs more, 0 when nothing can be rented.
 * Fills owned->rent_own: the rent, both totals over `months`, and the break-even month at the
 * capex range's low and high.
 */
void gp_plan_buy_break_even(struct gp_plan_row *owned, const struct gp_plan_row *rented,
                            const struct gp_assumptions *a, const struct gp_capex_range *capex_usd,
                            int months);

/* Within each run of `group` ranked rows: when the best row's cost band overlaps the next
 * priced feasible row's, both say within-uncertainty. */
void gp_plan_mark_uncertain(struct gp_plan_row *rows, size_t count, size_t group);

#endif
