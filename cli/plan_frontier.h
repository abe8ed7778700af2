/* `plan --frontier`: throughput per GPU against tokens per second per user, per GPU type. */
#ifndef GP_CLI_PLAN_FRONTIER_H
#define GP_CLI_PLAN_FRONTIER_H

#include "cli/cli.h"
#include "cli/plan_run.h"
#include "planner/frontier.h"

/* Trace the frontier of the prepared run's workload and print it in the cli's format. Prints
 * errors and returns an exit code (2 for a workload that is not inference, or when no GPU type
 * can run it). */
int gp_cli_plan_frontier(struct gp_cli *cli, struct gp_cli_plan_run *run);

#endif
