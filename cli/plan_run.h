/* The steps `plan` and `report` share: the plan options as typed, the request they build
 * (flags, --set, --sweep), the catalog, efficiency and store data it is planned from, and the
 * planner's run over it. cli/ only parses and loads here; the decisions are in planner/. */
#ifndef GP_CLI_PLAN_RUN_H
#define GP_CLI_PLAN_RUN_H

#include <stdbool.h>

#include "catalog/capex.h"
#include "catalog/clusters.h"
#include "catalog/sites.h"
#include "cli/cli.h"
#include "planner/plan.h"

/* What the user asked for, as typed. */
struct gp_cli_plan_args {
    const char *gpus, *vendor, *max_gpus, *power_budget, *pue, *kwh_price, *pricing;
    const char *capex, *years, *max_age, *sweep, *horizon, *region, *jurisdiction, *stack;
    const char *site, *power_budget_mw;
    bool compare_stacks;
    bool include_announced; /* plan systems their vendors have only announced */
    struct gp_strlist set;
};

#define GP_CLI_PLAN_OPTION_COUNT 19

/* The options every planning command takes (--gpus ... --set), bound to `a`, into
 * out[GP_CLI_PLAN_OPTION_COUNT]. */
void gp_cli_plan_options(struct gp_cli_plan_args *a, struct gp_opt *out);

/* Everything one plan holds; gp_cli_plan_run_release frees it. */
struct gp_cli_plan_run {
    const struct gp_cli_plan_args *args; /* borrowed */
    const struct gp_catalog *catalog;    /* borrowed from the cli */
    struct gp_efficiency_table effs;
    struct gp_model_table models;
    struct gp_stack_table stacks; /* data/stacks.json */
    struct gp_bands bands;        /* data/bands.json */
    struct gp_sweep sweep;
    struct gp_plan_request req; /* borrows the arrays below */
    const struct gp_gpu **gpus;
    struct gp_offer *offers;
    struct gp_quote *quotes;
    struct gp_calibration_curve *fits;
    struct gp_serving_record *serving;   /* the user's serving calibrations */
    struct gp_cluster_table clusters;    /* data/clusters.json */
    struct gp_capex_table capex;         /* data/capex.json, for owned pricing */
    struct gp_capex_choice capex_prices; /* --capex GPU=PRICE,... */
    struct gp_site_table sites;          /* data/sites.json, when --site is given */
    struct gp_site_terms site_terms;     /* --site, in USD; borrowed by the request */
    struct gp_plan_result res;
};

/* Build the request for `workload` from the arguments, load what it is planned from, and run
 * the planner; warns about GPU types that cannot be priced as owned. Prints errors and
 * returns an exit code; release `run` in every case. */
int gp_cli_plan_execute(struct gp_cli *cli, struct gp_cli_plan_run *run,
                        const struct gp_cli_plan_args *args, const char *workload);

/* gp_cli_plan_execute up to the planner's run: the request and its data, for a caller that
 * runs the planner itself (gp_plan_stream). Prints errors and returns an exit code. */
int gp_cli_plan_prepare(struct gp_cli *cli, struct gp_cli_plan_run *run,
                        const struct gp_cli_plan_args *args, const char *workload);

/* Warn (stderr) about each GPU type of `res` that cannot be priced as owned. */
void gp_cli_plan_warn_capex(const struct gp_plan_result *res);

void gp_cli_plan_run_release(struct gp_cli_plan_run *run);

#endif
