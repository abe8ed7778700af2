/* The workload and the assumptions of a plan as JSON objects, for the plan command's JSON
 * output. */
#ifndef GP_CLI_PLAN_META_H
#define GP_CLI_PLAN_META_H

#include <cjson/cJSON.h>

#include "planner/plan.h"
#include "planner/workload.h"

/* The workload's kind, model and targets. Owned by the caller (cJSON_Delete); NULL when out
 * of memory. */
cJSON *gp_cli_plan_workload_json(const struct gp_workload *w);

/* The assumptions the plan used: currency, pricing, power, energy, owned-cost and limits, and
 * the swept key when `sweep` has values. Owned by the caller; NULL when out of memory. */
cJSON *gp_cli_plan_assumptions_json(const struct gp_plan_result *res, const struct gp_sweep *sweep);

#endif
