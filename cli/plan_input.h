/* The planner's inputs as the plan and workloads commands load them: the efficiency and model
 * tables, a workload by file or preset name, and the documented --set keys. */
#ifndef GP_CLI_PLAN_INPUT_H
#define GP_CLI_PLAN_INPUT_H

#include <stdio.h>

#include "cli/cli.h"
#include "planner/bands.h"
#include "planner/efficiency.h"
#include "planner/stack.h"
#include "planner/workload.h"

/* Load data/efficiency.json and data/models.json (embedded or --data). Prints errors and
 * returns an exit code; on success the caller releases both tables. */
int gp_cli_plan_inputs(struct gp_cli *cli, struct gp_efficiency_table *effs,
                       struct gp_model_table *models);

/* Load data/stacks.json and data/bands.json (embedded or --data). Prints errors and returns
 * an exit code; on success the caller releases `stacks` (gp_stack_table_release). */
int gp_cli_plan_stacks(struct gp_cli *cli, struct gp_stack_table *stacks, struct gp_bands *bands);

/*
 * Load a workload: `name` is a file when it contains '/' or ends in ".json", else a preset
 * under data/workloads/. An unknown preset lists the presets with the nearest one. Prints
 * errors (file, JSON path, line and column) and returns an exit code.
 */
int gp_cli_workload_load(struct gp_cli *cli, const char *name, const struct gp_model_table *models,
                         struct gp_workload *out);

/* The --set/--sweep keys, one line each, for `gpuplan help plan`. */
void gp_cli_plan_keys_print(FILE *out);

#endif
