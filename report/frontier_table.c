/* A frontier as a table: one row per point, each GPU type's in order of falling
 * interactivity, for `plan --frontier` and the report's frontier sections. */
#include "planner/layout.h"
#include "report/sections.h"

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

int gp_report_frontier_table(struct gp_table *t, const struct gp_frontier *f)
{
    int rc = 0;

    gp_table_init(t, columns, sizeof(columns) / sizeof(columns[0]));
    t->looks = looks;
    for (size_t i = 0; !rc && i < f->count; i++)
        rc = add_point(t, &f->points[i]);
    return rc;
}
