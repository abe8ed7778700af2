/* `gpuplan plan`: fleet size, power and cost per GPU type for a workload, with what-if
 * overrides (--set) and sensitivity sweeps (--sweep). This file parses, loads and renders;
 * every planning decision is in planner/plan.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/plan_frontier.h"
#include "cli/plan_input.h"
#include "cli/plan_meta.h"
#include "cli/plan_run.h"
#include "cli/plan_summary.h"
#include "planner/plan.h"
#include "report/plan_table.h"
#include "util/error.h"
#include "util/json.h"
#include "util/msg.h"

/* One `plan` run: the shared plan steps and how to show the rows. */
struct plan_run {
    struct gp_cli_plan_args args;
    const char *workload, *columns;
    bool wide, frontier;
    struct gp_cli_plan_run plan;
};

/* Say why no row could be planned, with the nearest miss. Returns GP_EXIT_USAGE. */
static int explain_infeasible(const struct gp_plan_result *res)
{
    const struct gp_assumptions *a = &res->used.assumptions;

    switch (res->infeasible) {
    case GP_PLAN_OVER_MAX_GPUS:
        gp_msg_error("no GPU type reaches the target within --max-gpus %d: the smallest fleet "
                     "needs %d x %s",
                     a->max_gpus, res->smallest->gpus, res->smallest->gpu);
        break;
    case GP_PLAN_OVER_FLEET_LIMIT:
        gp_msg_error("the target needs more than a billion GPUs of every selected type");
        break;
    case GP_PLAN_OVER_POWER_BUDGET:
        gp_msg_error("no fleet fits the power budget of %.1f kW", a->power_budget_kw);
        break;
    case GP_PLAN_LATENCY_UNMET:
        gp_msg_error("no GPU type meets the TTFT/TPOT targets; relax ttft_ms or tpot_ms");
        break;
    case GP_PLAN_DOES_NOT_FIT:
    case GP_PLAN_FEASIBLE:
        gp_msg_error("the workload does not fit any selected GPU type within one node");
        break;
    }
    return GP_EXIT_USAGE;
}

/* rows[nrows] (sweep point-major, `group` to a point) as a table of the chosen columns:
 * --columns, else every column (--wide, CSV and JSON), else the compact set. */
static int plan_view(struct gp_cli *cli, const struct plan_run *run, struct gp_plan_view *view,
                     const struct gp_plan_row *rows, size_t nrows, size_t group)
{
    const struct gp_plan_request *req = &run->plan.req;

    /* The planner converts the rows' money into the report currency: rate 1. */
    gp_plan_view_init(view, rows, nrows, req->base.workload.kind, req->currency, 1.0);
    if (run->plan.sweep.count)
        gp_plan_view_sweep(view, run->plan.sweep.key, run->plan.sweep.values[0],
                           sizeof(run->plan.sweep.values[0]), group);
    if (run->columns) {
        if (gp_plan_view_pick(view, run->columns))
            return gp_cli_input_error(cli, "--columns: %s", gp_error_last());
    } else if (cli->format == GP_FORMAT_TABLE && !run->wide) {
        gp_plan_view_compact(view, req->compare_stacks);
    }
    return GP_EXIT_OK;
}

/* The warnings after the rows; exit 2 when no GPU type can be planned. */
static int finish(const struct gp_plan_result *res)
{
    return res->infeasible != GP_PLAN_FEASIBLE ? explain_infeasible(res) : GP_EXIT_OK;
}

/* Render the rows with the workload and assumptions; exit 2 when no GPU type can be planned. */
static int render(struct gp_cli *cli, const struct plan_run *run)
{
    const struct gp_plan_result *res = &run->plan.res;
    struct gp_plan_view view;
    struct gp_table table;
    int rc = plan_view(cli, run, &view, res->rows, res->count, res->per_point);

    if (rc)
        return rc;
    gp_plan_view_table(&view, &table);
    table.row_json = gp_cli_plan_row_json;
    table.fit_hint = "--wide shows every column, --columns picks them";
    table.meta = cJSON_CreateObject();
    if (!gp_json_add_owned(table.meta, "workload",
                           gp_cli_plan_workload_json(&res->used.workload)) ||
        !gp_json_add_owned(table.meta, "assumptions",
                           gp_cli_plan_assumptions_json(res, &run->plan.sweep))) {
        gp_table_release(&table);
        gp_error_set(GP_ENOMEM, "out of memory describing the plan");
        return gp_cli_fail();
    }
    char conclusion[1024];
    /* JSON is read by programs: its text keeps the decimal point whatever --locale says. */
    if (gp_cli_plan_conclusion(conclusion, sizeof(conclusion), res, '.'))
        cJSON_AddStringToObject(table.meta, "conclusion", conclusion);
    gp_cli_plan_warn_stale(res);
    rc = gp_cli_output(cli, &table, res->best);
    if (rc == 0 && cli->format == GP_FORMAT_TABLE)
        gp_cli_plan_summary_print(stdout, res, cli->locale->decimal);
    if (rc == 0)
        rc = finish(res);
    gp_table_release(&table);
    return rc;
}

/* CSV written point by point as the planner hands the rows over. */
struct csv_stream {
    struct gp_plan_view view; /* its rows: the point's being written */
    struct gp_table table;    /* reads the view, for the header line */
    struct gp_render_options options;
    struct gp_csv_style style;    /* of options.locale */
    const struct gp_sweep *sweep; /* borrowed; no values: no sweep */
};

/* gp_plan_sink over a struct csv_stream: the header before the first point, then its rows. */
static int put_point(void *ctx, size_t point, const struct gp_plan_row *rows, size_t count)
{
    struct csv_stream *s = ctx;
    int rc = 0;

    s->view.rows = rows;
    s->view.nrows = count;
    s->table.nrows = count;
    if (s->sweep->count) {
        s->view.sweep_values = s->sweep->values[point];
        s->view.group = count ? count : 1;
    }
    if (point == 0)
        rc = gp_render_csv_header(&s->table, &s->options, stdout);
    return rc ? rc : gp_plan_view_csv_rows(&s->view, &s->style, stdout);
}

/* --format csv: plan and write each sweep point's rows in turn, so that only one point's are
 * ever held; then the warnings and, when nothing is feasible, why. */
static int stream_csv(struct gp_cli *cli, struct plan_run *run)
{
    struct csv_stream *s = malloc(sizeof(*s));
    struct gp_plan_sink sink = {put_point, s};
    int rc;

    if (!s) {
        gp_error_set(GP_ENOMEM, "out of memory writing the plan");
        return gp_cli_fail();
    }
    s->sweep = &run->plan.sweep;
    s->options = (struct gp_render_options){false, 1, SIZE_MAX, cli->locale, 0, false};
    gp_csv_style_init(&s->style, cli->locale);
    rc = plan_view(cli, run, &s->view, NULL, 0, 1);
    if (!rc) {
        gp_plan_view_table(&s->view, &s->table);
        if (gp_plan_stream(&run->plan.res, &run->plan.req, &sink))
            rc = gp_cli_fail();
        gp_table_release(&s->table);
    }
    free(s);
    if (rc)
        return rc;
    gp_cli_plan_warn_capex(&run->plan.res);
    gp_cli_plan_warn_stale(&run->plan.res);
    return finish(&run->plan.res);
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
    struct gp_opt opts[GP_CLI_PLAN_OPTION_COUNT + 6] = {
        {"workload", 'w', GP_OPT_STRING, &run.workload, "FILE|PRESET",
         "workload file or preset name (see 'gpuplan workloads')"},
    };
    const struct gp_opt tail[] = {
        {"sweep", 0, GP_OPT_ONCE, &run.args.sweep, "KEY=SPEC",
         "one row per value and GPU type; SPEC is FROM:TO:STEP or A,B,C"},
        {"columns", 0, GP_OPT_STRING, &run.columns, "NAME,...",
         "only these columns, in this order (names as in CSV and JSON)"},
        {"wide", 0, GP_OPT_FLAG, &run.wide, NULL,
         "every column in the table format (default: the compact set)"},
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
    if (run.frontier && (run.args.sweep || run.columns))
        return gp_cli_usage_error(cli, "--frontier traces batch and layout itself: give it "
                                       "without --sweep and --columns");
    if (run.frontier) {
        rc = gp_cli_plan_prepare(cli, &run.plan, &run.args, run.workload);
        if (!rc)
            rc = gp_cli_plan_frontier(cli, &run.plan);
    } else if (cli->format == GP_FORMAT_CSV) {
        rc = gp_cli_plan_prepare(cli, &run.plan, &run.args, run.workload);
        if (!rc)
            rc = stream_csv(cli, &run);
    } else {
        rc = gp_cli_plan_execute(cli, &run.plan, &run.args, run.workload);
        if (!rc)
            rc = render(cli, &run);
    }
    gp_cli_plan_run_release(&run.plan);
    return rc;
}
