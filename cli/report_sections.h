/* The report's sections that come from the store and the run (offers, quotes, price history,
 * assumptions), built as tables for the renderers in report/. cli/ loads; report/ renders. */
#ifndef GP_CLI_REPORT_SECTIONS_H
#define GP_CLI_REPORT_SECTIONS_H

#include "cli/plan_run.h"
#include "report/report.h"
#include "store/store.h"

/* The offers each plan row was bought from: provider, instance, tier, term, original amount and
 * currency, observed date, age and source. Returns 0 or GP_ENOMEM / GP_EINVALID. */
int gp_cli_report_offers(struct gp_report *r, const struct gp_cli_plan_run *runs, size_t nruns);

/* The quotes in the database and their validity at `now`, with those that expire inside
 * `horizon_days` marked. Returns 0 or an error code. */
int gp_cli_report_quotes(struct gp_report *r, const struct gp_quote *quotes, size_t n,
                         double fx_per_usd, long horizon_days);

/* Per GPU of the plans, the cheapest on-demand and spot price per day of the history, as a
 * section and as r->history (*points is malloc'd and owned by the caller). */
int gp_cli_report_history(struct gp_report *r, struct gp_store *store,
                          const struct gp_cli_plan_run *runs, size_t nruns,
                          struct gp_report_price_point **points);

/* What the plans assumed: each workload as run, each GPU's efficiency source, the FX rates
 * and their dates, PUE and energy price, the version, database and generation time. */
int gp_cli_report_assumptions(struct gp_report *r, const struct gp_cli_plan_run *runs, size_t nruns,
                              const struct gp_fx_table *fx);

#endif
