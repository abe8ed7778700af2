/* The frontier table: one row per point, each GPU type's in order of falling interactivity. */
#include "cli/plan_frontier.h"

#include <stdio.h>

#include "cli/plan_meta.h"
#include "planner/frontier.h"
#include "util/error.h"
#include "util/json.h"
#include "util/msg.h"

static const struct gp_column columns[] = {
    {"gpu", GP_CELL_TEXT, 0},
    {"stack", GP_CELL_TEXT, 0},
    {"layout", GP_CELL_TEXT, 0},
    {"batch", GP_CELL_INT, 0},
    {"tokens_per_s_per_user", GP_CELL_NUMBER, 1},
    {"tokens_per_s_per_gpu", GP_CELL_NUMBER, 1},
    {"tpot_ms", GP_CELL_NUMBER, 2},
    {"ttft_ms", GP_CELL_NUMBER, 1},
};

static const struct gp_column_look looks[] = {
    {"GPU", NULL, GP_STYLE_TEXT, 0},
    {"stack", NULL, GP_STYLE_TEXT, 0},
    {"layout", NULL, GP_STYLE_TEXT, 0},
    {"batch", "sequences", GP_STYLE_COUNT, 0},
    {"tok/s/user", "output tokens/s each user sees", GP_STYLE_PLAIN, 0},
    {"tok/s/GPU", "output tokens/s per GPU", GP_STYLE_PLAIN, 0},
    {"TPOT ms", "ms", GP_STYLE_PLAIN, 0},
    {"TTFT ms", "ms", GP_STYLE_PLAIN, 0},
};

static int add_point(struct gp_table *t, const struct gp_frontier_point *p)
{
    char layout[GP_LAYOUT_TEXT_MAX];
    int rc = gp_table_add_row(t);

    gp_layout_format(layout, sizeof(layout), p->layout, p->replica_gpus);
    if (!rc)
        rc = gp_table_set_text(t, "gpu", "%s", p->gpu);
    if (!rc)
        rc = gp_table_set_text(t, "stack", "%s", p->stack);
    if (!rc)
        rc = gp_table_set_text(t, "layout", "%s", layout);
    if (!rc)
        rc = gp_table_set_int(t, "batch", p->batch);
    if (!rc)
        rc = gp_table_set_number(t, "tokens_per_s_per_user", p->tokens_per_s_per_user);
    if (!rc)
        rc = gp_table_set_number(t, "tokens_per_s_per_gpu", p->tokens_per_s_per_gpu);
    if (!rc)
        rc = gp_table_set_number(t, "tpot_ms", p->tpot_ms);
    if (!rc)
        rc = gp_table_set_number(t, "ttft_ms", p->ttft_ms);
    return rc;
}

int gp_cli_frontier_table(struct gp_table *t, const struct gp_frontier *f)
{
    int rc = 0;

    gp_table_init(t, columns, sizeof(columns) / sizeof(columns[0]));
    t->looks = looks;
    for (size_t i = 0; !rc && i < f->count; i++)
        rc = add_point(t, &f->points[i]);
    return rc;
}

static int print_frontier(struct gp_cli *cli, const struct gp_frontier *f,
                          const struct gp_workload *w)
{
    struct gp_table table;
    int rc = gp_cli_frontier_table(&table, f);

    table.rows_key = "points";
    table.meta = cJSON_CreateObject();
    if (!rc && !gp_json_add_owned(table.meta, "workload", gp_cli_plan_workload_json(w)))
        rc = gp_error_set(GP_ENOMEM, "out of memory describing the frontier");
    rc = rc ? gp_cli_fail() : gp_cli_output(cli, &table, SIZE_MAX);
    gp_table_release(&table);
    return rc;
}

int gp_cli_plan_frontier(struct gp_cli *cli, struct gp_cli_plan_run *run)
{
    struct gp_frontier f;
    int rc = gp_plan_frontier(&f, &run->req);

    if (rc == GP_EINVALID)
        return gp_cli_input_error(cli, "--frontier: %s", gp_error_last());
    if (rc)
        return gp_cli_fail();
    if (f.count == 0) {
        gp_msg_error("--frontier: the workload runs on none of the selected GPU types within "
                     "one node");
        rc = GP_EXIT_USAGE;
    } else {
        rc = print_frontier(cli, &f, &run->req.base.workload);
    }
    gp_frontier_release(&f);
    return rc;
}
