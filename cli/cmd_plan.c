/* `gpuplan plan`: fleet size, power and cost per GPU type for a workload, with what-if
 * overrides (--set) and sensitivity sweeps (--sweep). This file parses the options and picks
 * the path; the rows are shown by cli/plan_output.c, every planning decision is in
 * planner/plan.h. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/plan_frontier.h"
#include "cli/plan_input.h"
#include "cli/plan_output.h"
#include "cli/plan_run.h"
#include "report/plan_table.h"
#include "util/text.h"

/* One `plan` run: the shared plan steps and how to show the rows. */
struct plan_run {
    struct gp_cli_plan_args args;
    const char *workload, *limit;
    bool frontier;
    struct gp_cli_plan_output output;
    struct gp_cli_plan_run plan;
};

/* --limit: a count of rows, at least 1. */
static int parse_limit(struct gp_cli *cli, struct plan_run *run)
{
    long limit;

    run->output.limit = SIZE_MAX;
    if (!run->limit)
        return GP_EXIT_OK;
    if (gp_text_to_int(run->limit, 1, LONG_MAX, &limit))
        return gp_cli_usage_error(cli, "--limit '%s' is not a number of rows (1 or more)",
                                  run->limit);
    run->output.limit = (size_t)limit;
    return GP_EXIT_OK;
}

/* The columns for --columns, after the keys in `help plan`. */
static void print_columns(FILE *out)
{
    static const char *const kinds[] = {"inference", "training", "generic"};

    fputs("\ncolumns for --columns (name, header, unit, workload kinds; * in the compact table):\n",
          out);
    for (size_t i = 0; i < gp_plan_column_count; i++) {
        const struct gp_plan_column *d = &gp_plan_columns[i];
        char applies[40] = "", header[32];
        for (unsigned k = 0; k < 3 && d->kinds != GP_PLAN_ALL; k++)
            if (d->kinds & (1u << k))
                snprintf(applies + strlen(applies), sizeof(applies) - strlen(applies), "%s%s",
                         applies[0] ? "," : "", kinds[k]);
        gp_plan_column_header(header, sizeof(header), d, "CUR");
        fprintf(out, "  %-22s %-16s %-20s %s%s\n", d->column.name, header,
                d->look.unit ? d->look.unit : "", applies[0] ? applies : "any",
                d->look.fit_rank >= 0 ? " *" : "");
    }
}

int gp_cmd_plan(struct gp_cli *cli, int argc, char **argv)
{
    struct plan_run run = {0};
    struct gp_opt opts[GP_CLI_PLAN_OPTION_COUNT + 7] = {
        {"workload", 'w', GP_OPT_STRING, &run.workload, "FILE|PRESET",
         "workload file or preset name (see 'gpuplan workloads')"},
    };
    const struct gp_opt tail[] = {
        {"sweep", 0, GP_OPT_ONCE, &run.args.sweep, "KEY=SPEC",
         "one row per value and GPU type; SPEC is FROM:TO:STEP or A,B,C"},
        {"columns", 0, GP_OPT_STRING, &run.output.columns, "NAME,...",
         "only these columns, in this order (names as in CSV and JSON)"},
        {"wide", 0, GP_OPT_FLAG, &run.output.wide, NULL,
         "every column in the table format (default: the compact set)"},
        {"limit", 0, GP_OPT_STRING, &run.limit, "N",
         "show at most the first N rows; every point is still planned"},
        {"frontier", 0, GP_OPT_FLAG, &run.frontier, NULL,
         "per GPU type, tokens/s per GPU against tokens/s per user across layouts and batches"},
        GP_OPT_END,
    };
    int rc;

    gp_cli_plan_options(&run.args, &opts[1]);
    memcpy(&opts[1 + GP_CLI_PLAN_OPTION_COUNT], tail, sizeof(tail));
    rc = gp_cli_parse_options(cli, "plan", opts, argc, argv);
    if (rc) {
        if (rc < 0) {
            gp_cli_plan_keys_print(stdout);
            print_columns(stdout);
        }
        return rc < 0 ? GP_EXIT_OK : rc;
    }
    if (!run.workload)
        return gp_cli_usage_error(cli, "--workload is required (a file or a preset; see "
                                       "'gpuplan workloads')");
    if (run.frontier && (run.args.sweep || run.output.columns))
        return gp_cli_usage_error(cli, "--frontier traces batch and layout itself: give it "
                                       "without --sweep and --columns");
    if (run.frontier && run.limit)
        return gp_cli_usage_error(cli, "--frontier shows every batch and layout it traces: give "
                                       "it without --limit");
    if ((rc = parse_limit(cli, &run)) != GP_EXIT_OK)
        return rc;
    if (run.frontier) {
        rc = gp_cli_plan_prepare(cli, &run.plan, &run.args, run.workload);
        if (!rc)
            rc = gp_cli_plan_frontier(cli, &run.plan);
    } else if (cli->format == GP_FORMAT_CSV || run.args.sweep) {
        /* CSV and every sweep point by point: memory does not grow with the points */
        rc = gp_cli_plan_prepare(cli, &run.plan, &run.args, run.workload);
        if (!rc)
            rc = gp_cli_plan_stream(cli, &run.plan, &run.output);
    } else {
        rc = gp_cli_plan_execute(cli, &run.plan, &run.args, run.workload);
        if (!rc)
            rc = gp_cli_plan_show(cli, &run.plan, &run.output);
    }
    gp_cli_plan_run_release(&run.plan);
    return rc;
}
