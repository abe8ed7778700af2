/* `plan`'s rows on stdout: the result whole, or streamed point by point from the planner. */
#include "cli/plan_output.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/plan_meta.h"
#include "cli/plan_summary.h"
#include "planner/plan.h"
#include "report/csv.h"
#include "report/plan_table.h"
#include "util/error.h"
#include "util/json.h"
#include "util/msg.h"

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
        if (a->power_budget_mw > 0)
            gp_msg_error("not one server of a selected GPU type fits %g MW at the site's PUE",
                         a->power_budget_mw);
        else
            gp_msg_error("no fleet fits the power budget of %.1f kW", a->power_budget_kw);
        break;
    case GP_PLAN_RACK_POWER:
        gp_msg_error("every selected GPU type's server draws more than the site's rack limit "
                     "(rack_kw in data/sites.json)");
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

/* Exit 2, with why, when no GPU type can be planned. */
static int finish(const struct gp_plan_result *res)
{
    return res->infeasible != GP_PLAN_FEASIBLE ? explain_infeasible(res) : GP_EXIT_OK;
}

/* The rows a sweep point puts on show within --limit, `shown` being on show already. */
static size_t within_limit(const struct gp_cli_plan_output *out, size_t shown, size_t count)
{
    size_t room = out->limit > shown ? out->limit - shown : 0;

    return count < room ? count : room;
}

/* rows[nrows] (sweep point-major, `group` to a point; the point of row r swept to the text at
 * values + r / group * stride, values NULL without a sweep) as a table of the chosen columns. */
static int plan_view(struct gp_cli *cli, const struct gp_cli_plan_run *run,
                     const struct gp_cli_plan_output *out, struct gp_plan_view *view,
                     const struct gp_plan_row *rows, size_t nrows, size_t group, const char *values,
                     size_t stride)
{
    const struct gp_plan_request *req = &run->req;

    /* The planner converts the rows' money into the report currency: rate 1. */
    unsigned listing = (req->base.assumptions.site ? GP_PLAN_AT_SITE : 0) |
                       (req->pricing == GP_PRICING_OWNED ? GP_PLAN_WHEN_OWNED : 0);

    gp_plan_view_init_at(view, rows, nrows, req->base.workload.kind, req->currency, 1.0, listing);
    if (run->sweep.count)
        gp_plan_view_sweep(view, run->sweep.key, values, stride, group);
    if (out->columns) {
        if (gp_plan_view_pick(view, out->columns))
            return gp_cli_input_error(cli, "--columns: %s", gp_error_last());
    } else if (cli->format == GP_FORMAT_TABLE && !out->wide) {
        gp_plan_view_compact(view, req->compare_stacks);
    }
    return GP_EXIT_OK;
}

/* The members that describe the plan: the workload, the assumptions and the conclusion, each
 * when asked for, into `meta`. Returns 0 or GP_ENOMEM. */
static int describe(cJSON *meta, const struct gp_cli_plan_run *run, bool workload, bool rest)
{
    const struct gp_plan_result *res = &run->res;
    char conclusion[1024];

    if (!meta || (workload && !gp_json_add_owned(meta, "workload",
                                                 gp_cli_plan_workload_json(&res->used.workload))))
        return gp_error_set(GP_ENOMEM, "out of memory describing the plan");
    if (!rest)
        return 0;
    if (!gp_json_add_owned(meta, "assumptions", gp_cli_plan_assumptions_json(res, &run->sweep)))
        return gp_error_set(GP_ENOMEM, "out of memory describing the plan");
    /* JSON is read by programs: its text keeps the decimal point whatever --locale says. */
    if (gp_cli_plan_conclusion(conclusion, sizeof(conclusion), res, '.'))
        cJSON_AddStringToObject(meta, "conclusion", conclusion);
    return gp_cli_plan_announced_json(meta, &run->req);
}

/* Show rows[nrows] (as plan_view takes them) as a table or JSON document with the plan's
 * description, `best` emphasised (SIZE_MAX: none), then the summary under a table. */
static int show_rows(struct gp_cli *cli, const struct gp_cli_plan_run *run,
                     const struct gp_cli_plan_output *out, const struct gp_plan_row *rows,
                     size_t nrows, const char *values, size_t stride, size_t best)
{
    const struct gp_plan_result *res = &run->res;
    struct gp_plan_view view;
    struct gp_table table;
    int rc = plan_view(cli, run, out, &view, rows, nrows, res->per_point, values, stride);

    if (rc)
        return rc;
    gp_plan_view_table(&view, &table);
    table.list = &gp_cli_plan_alternatives;
    table.fit_hint = "--wide shows every column, --columns picks them";
    table.meta = cJSON_CreateObject();
    if (describe(table.meta, run, true, true)) {
        gp_table_release(&table);
        return gp_cli_fail();
    }
    gp_cli_plan_warn_stale(res);
    rc = gp_cli_output(cli, &table, best < nrows ? best : SIZE_MAX);
    if (rc == 0 && cli->format == GP_FORMAT_TABLE) {
        gp_cli_plan_summary_print(stdout, res, cli->locale->decimal);
        gp_cli_plan_announced_print(stdout, &run->req);
    }
    if (rc == 0)
        rc = finish(res);
    gp_table_release(&table);
    return rc;
}

int gp_cli_plan_show(struct gp_cli *cli, const struct gp_cli_plan_run *run,
                     const struct gp_cli_plan_output *out)
{
    const struct gp_plan_result *res = &run->res;

    return show_rows(cli, run, out, res->rows, within_limit(out, 0, res->count), NULL, 0,
                     res->best);
}

/* ---- point by point ------------------------------------------------------------------------ */

/* A plan streamed from the planner: each point's rows written (CSV, JSON) or kept (the table). */
struct point_stream {
    struct gp_cli *cli;
    struct gp_cli_plan_run *run;
    const struct gp_cli_plan_output *out;
    struct gp_plan_view view; /* CSV, JSON: its rows are the point's being written */
    struct gp_table table;    /* reads the view */
    struct gp_render_options options;
    struct gp_csv_style style;               /* of options.locale */
    struct gp_json_rows *json_rows;          /* JSON: owned, opened at the first point */
    char value[GP_SWEEP_VALUE_MAX];          /* the point's swept value, when computed */
    size_t shown;                            /* rows written or kept so far */
    struct gp_plan_row *kept;                /* the table: owned, `shown` rows */
    char (*kept_values)[GP_SWEEP_VALUE_MAX]; /* owned, the swept value of each kept point */
    size_t kept_cap;                         /* rows `kept` has room for */
};

/* The table's rows: each point's within --limit, copied with its swept value; a table longer
 * than GP_CLI_PLAN_TABLE_MAX_ROWS is refused at the first point, and one of more than
 * GP_CLI_PLAN_NOTICE_POINTS points is announced there. */
static int keep_rows(struct point_stream *s, size_t point, const struct gp_plan_row *rows, size_t n,
                     size_t count)
{
    const struct gp_sweep *sweep = &s->run->sweep;
    size_t points = sweep->count ? sweep->count : 1,
           total = within_limit(s->out, 0, points * count);

    if (point == 0 && total > GP_CLI_PLAN_TABLE_MAX_ROWS)
        return gp_error_set(GP_EINVALID,
                            "--sweep: a table of %zu rows (%zu points x %zu) is more than the %d "
                            "it shows; --limit N shows the first N, --format csv or json streams "
                            "them all",
                            total, points, count, GP_CLI_PLAN_TABLE_MAX_ROWS);
    if (point == 0 && points > GP_CLI_PLAN_NOTICE_POINTS)
        gp_msg_info("the table shows %zu rows (%zu points x %zu)%s", total, points, count,
                    total < points * count ? ", as --limit asks" : "; --limit N shows fewer");
    if (s->shown + n > s->kept_cap) {
        size_t cap = s->kept_cap ? s->kept_cap : count ? count : 1;
        while (cap < s->shown + n)
            cap *= 2;
        struct gp_plan_row *grown = realloc(s->kept, cap * sizeof(*grown));
        if (grown)
            s->kept = grown;
        char(*values)[GP_SWEEP_VALUE_MAX] = realloc(s->kept_values, cap * sizeof(*values));
        if (values)
            s->kept_values = values;
        if (!grown || !values)
            return gp_error_set(GP_ENOMEM, "out of memory keeping %zu rows", cap);
        s->kept_cap = cap;
    }
    if (n == 0)
        return 0;
    memcpy(s->kept + s->shown, rows, n * sizeof(*rows));
    if (sweep->count) {
        const char *value = gp_sweep_value(sweep, point, s->value);
        memmove(s->kept_values[point], value, GP_SWEEP_VALUE_MAX);
    }
    s->shown += n;
    return 0;
}

/* CSV and JSON: the head before the first point (the CSV header; the JSON document up to its
 * rows, with the workload), then the point's rows. */
static int write_rows(struct point_stream *s, size_t point, const struct gp_plan_row *rows,
                      size_t n, size_t count)
{
    bool json = s->cli->format == GP_FORMAT_JSON;
    int rc = 0;

    s->view.rows = rows;
    s->view.nrows = n;
    s->table.nrows = n;
    if (s->run->sweep.count) {
        s->view.sweep_values = gp_sweep_value(&s->run->sweep, point, s->value);
        s->view.group = count ? count : 1;
    }
    if (point == 0 && json) {
        rc = describe(s->table.meta = cJSON_CreateObject(), s->run, true, false);
        if (!rc)
            rc = gp_render_json_head(&s->table, &s->options, stdout);
        if (!rc && !(s->json_rows = gp_json_rows_open(&s->table)))
            rc = GP_ENOMEM;
    } else if (point == 0) {
        rc = gp_render_csv_header(&s->table, &s->options, stdout);
    }
    if (!rc)
        rc = json ? gp_json_rows_write(s->json_rows, &s->table, s->shown == 0, stdout)
                  : gp_plan_view_csv_rows(&s->view, &s->style, stdout);
    s->shown += n;
    return rc;
}

/* gp_plan_sink over a struct point_stream. */
static int put_point(void *ctx, size_t point, const struct gp_plan_row *rows, size_t count)
{
    struct point_stream *s = ctx;
    size_t n = within_limit(s->out, s->shown, count);

    return s->cli->format == GP_FORMAT_TABLE ? keep_rows(s, point, rows, n, count)
                                             : write_rows(s, point, rows, n, count);
}

/* After the last point: the table shown, or the JSON document's members known only now. */
static int close_stream(struct point_stream *s)
{
    const struct gp_plan_result *res = &s->run->res;
    cJSON *after;
    int rc;

    gp_cli_plan_warn_capex(res);
    if (s->cli->format == GP_FORMAT_TABLE)
        return show_rows(s->cli, s->run, s->out, s->kept, s->shown, s->kept_values[0],
                         sizeof(s->kept_values[0]), res->best_point * res->per_point + res->best);
    gp_cli_plan_warn_stale(res);
    if (s->cli->format == GP_FORMAT_JSON) {
        after = cJSON_CreateObject();
        rc = describe(after, s->run, false, true);
        if (!rc)
            rc = gp_render_json_tail(after, stdout);
        cJSON_Delete(after);
        if (rc)
            return gp_cli_fail();
    }
    return finish(res);
}

int gp_cli_plan_stream(struct gp_cli *cli, struct gp_cli_plan_run *run,
                       const struct gp_cli_plan_output *out)
{
    struct point_stream *s = calloc(1, sizeof(*s));
    struct gp_plan_sink sink = {put_point, s};
    int rc;

    if (!s || !(s->kept_values = calloc(1, sizeof(*s->kept_values)))) {
        free(s);
        gp_error_set(GP_ENOMEM, "out of memory writing the plan");
        return gp_cli_fail();
    }
    s->cli = cli;
    s->run = run;
    s->out = out;
    s->options = (struct gp_render_options){false, 1, SIZE_MAX, cli->locale, 0, false};
    gp_csv_style_init(&s->style, cli->locale);
    rc = plan_view(cli, run, out, &s->view, NULL, 0, 1, NULL, 0);
    if (!rc) {
        gp_plan_view_table(&s->view, &s->table);
        s->table.list = &gp_cli_plan_alternatives;
        if (gp_plan_stream(&run->res, &run->req, &sink))
            rc = gp_cli_fail();
        else
            rc = close_stream(s);
        gp_table_release(&s->table);
    }
    gp_json_rows_close(s->json_rows);
    free(s->kept);
    free(s->kept_values);
    free(s);
    return rc;
}
