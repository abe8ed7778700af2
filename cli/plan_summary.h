/* What a plan says beside its rows: the one-line conclusion, the summary lines under the table
 * (uncertainty, exchange rate and price ages), the stale-price warning, and each JSON row's
 * alternatives. */
#ifndef GP_CLI_PLAN_SUMMARY_H
#define GP_CLI_PLAN_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "planner/plan.h"
#include "report/table.h"

/* "cheapest purchasable fleet: ...; runner-up: ..." into out[size], numbers with the decimal
 * mark `decimal` ('.' or the locale's ','); false (out "") when no row is feasible and priced.
 * Money in the result's currency. */
bool gp_cli_plan_conclusion(char *out, size_t size, const struct gp_plan_result *res, char decimal);

/* The lines printed under the table: the conclusion, the uncertainty note, the exchange rate
 * and the age of the prices, numbers with the decimal mark `decimal`. */
void gp_cli_plan_summary_print(FILE *out, const struct gp_plan_result *res, char decimal);

/* The line under the table that lists the announced systems `req` planned, each with the date
 * its vendor says it ships and how sure its figures are; nothing when none. */
void gp_cli_plan_announced_print(FILE *out, const struct gp_plan_request *req);

/* The same as "announced": [{"gpu", "system", "ships", "confidence"}] in `meta`, only when
 * `req` planned one. Returns 0 or GP_ENOMEM. */
int gp_cli_plan_announced_json(cJSON *meta, const struct gp_plan_request *req);

/* One warning line (stderr) when some row uses a price older than the allowed age. */
void gp_cli_plan_warn_stale(const struct gp_plan_result *res);

/* The list each JSON row of a struct gp_plan_view carries: "alternatives", the next cheapest
 * purchasable fleets of its GPU type. */
extern const struct gp_table_list gp_cli_plan_alternatives;

/* The price and exchange-rate facts of `res` added to the assumptions object `o`. Returns 0
 * or GP_ENOMEM. */
int gp_cli_plan_prices_json(cJSON *o, const struct gp_plan_result *res);

#endif
