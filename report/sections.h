/* The report's sections beside the plans: the offers each purchase line was bought from, the
 * quotes held, the price history, the announced systems, the assumptions, and a frontier's
 * table. cli/ loads what they list from the store and the run; they are built here from the
 * plans and plain data. */
#ifndef GP_REPORT_SECTIONS_H
#define GP_REPORT_SECTIONS_H

#include <stddef.h>

#include "catalog/fx.h"
#include "gpuplan/offer.h"
#include "planner/frontier.h"
#include "report/report.h"

/* Section "offers": one row per purchase line of each plan's rows (the best row's sweep
 * point), read from the line's own offer or quote: provider, instance, region, tier, term,
 * original amount and currency, observed date, age and source, and what was bought of it.
 * Returns 0 or GP_ENOMEM / GP_EINVALID (the report is full). */
int gp_report_add_offers(struct gp_report *r);

/* Section "quotes": the quotes held and their validity at r->generated_at, with those that
 * expire inside `horizon_days` marked; prices at `fx_per_usd`. Returns 0 or an error code. */
int gp_report_add_quotes(struct gp_report *r, const struct gp_quote *quotes, size_t n,
                         double fx_per_usd, long horizon_days);

/* Start section "price-history" (before any gp_report_add_history). Returns 0 or GP_EINVALID. */
int gp_report_begin_history(struct gp_report *r);

/* Add one GPU type and tier's history from `obs[n]` (price observations grouped by offer key,
 * oldest first, as gp_store_history_query returns them): the cheapest price on each day a price
 * was seen, at `fx_per_usd`, as section rows and as r->history points. Returns 0 or GP_ENOMEM. */
/* `gpu` is borrowed: it names the GPU type's colour (r->gpus) and must outlive the report. */
int gp_report_add_history(struct gp_report *r, const char *gpu, enum gp_tier tier,
                          const struct gp_offer *obs, size_t n, double fx_per_usd);

/* Section "assumptions": what each plan assumed (its workload as run, PUE, energy price,
 * pricing, the age limit, each GPU type's efficiency source), the FX rates and their dates
 * (`fx`, NULL for none), the version, database and generation time. Returns 0 or GP_ENOMEM. */
int gp_report_add_assumptions(struct gp_report *r, const struct gp_fx_table *fx);

/* Section "announced", only when a plan has a row of an announced system: for each such row of
 * each plan's first sweep point, the workload, GPU type, system, the vendor's ship date, how
 * sure its throughput figures are (`gpus[n]`: the catalog entries planned), and what was
 * modelled: GPUs, work per second per GPU and its band. Returns 0 or an error code. */
int gp_report_add_announced(struct gp_report *r, const struct gp_gpu *const *gpus, size_t n);

/* Section "rent-own-<n>" after plan `p` (the n-th) when it is owned and some fleet of the best
 * row's sweep point can be rented: fills p->rent_own, and lists month by month over the
 * horizon what owning the fleet cheapest to own and renting the one cheapest to rent have cost,
 * with a line chart of both. Nothing for other plans. Returns 0, GP_ENOMEM or GP_EINVALID (the
 * report is full). */
int gp_report_add_rent_own(struct gp_report *r, struct gp_report_plan *p);

/* The frontier's points as a table (gpu, stack, layout, batch, tokens_per_s_per_user,
 * tokens_per_s_per_gpu, tpot_ms, ttft_ms) into *t, initialised here, for `plan --frontier` and
 * the report. Returns 0 or GP_ENOMEM; release *t in every case. */
int gp_report_frontier_table(struct gp_table *t, const struct gp_frontier *f);

#endif
