/* The report's section of announced systems: what each plan modelled for a part that does not
 * ship yet, apart from the parts a buyer can order, with the vendor's ship date and how sure
 * the figures under the rows are. */
#include <string.h>

#include "report/sections.h"
#include "util/error.h"

static const struct gp_column announced_columns[] = {
    {"workload", GP_CELL_TEXT, 0},
    {"gpu", GP_CELL_TEXT, 0},
    {"system", GP_CELL_TEXT, 0},
    {"ships", GP_CELL_TEXT, 0},
    {"confidence", GP_CELL_TEXT, 0},
    {"gpus", GP_CELL_INT, 0},
    {"tokens_per_s_per_gpu", GP_CELL_NUMBER, 1},
    {"throughput_low", GP_CELL_NUMBER, 1},
    {"throughput_high", GP_CELL_NUMBER, 1},
};
static const struct gp_column_look announced_looks[] = {
    {"Workload", NULL, GP_STYLE_TEXT, 0},        {"GPU", NULL, GP_STYLE_TEXT, 0},
    {"System", NULL, GP_STYLE_TEXT, 0},          {"Ships (vendor's words)", NULL, GP_STYLE_TEXT, 0},
    {"Figures", NULL, GP_STYLE_TEXT, 0},         {"GPUs", "GPUs", GP_STYLE_COUNT, 0},
    {"Work/s per GPU", NULL, GP_STYLE_PLAIN, 0}, {"Low", NULL, GP_STYLE_PLAIN, 0},
    {"High", NULL, GP_STYLE_PLAIN, 0},
};

static const struct gp_gpu *find_gpu(const struct gp_gpu *const *gpus, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(gpus[i]->id, id) == 0)
            return gpus[i];
    return NULL;
}

static int add_row(struct gp_table *t, const char *workload, const struct gp_plan_row *row,
                   const struct gp_gpu *g)
{
    int rc = gp_table_add_row(t);

    rc = rc ? rc : gp_table_set_text(t, "workload", "%s", workload);
    rc = rc ? rc : gp_table_set_text(t, "gpu", "%s", row->gpu);
    rc = rc ? rc : gp_table_set_text(t, "system", "%s", g->system);
    rc = rc ? rc : gp_table_set_text(t, "ships", "%s", g->ships);
    rc = rc ? rc
            : gp_table_set_text(t, "confidence", "%s",
                                gp_confidence_name(gp_gpu_throughput_confidence(g)));
    if (row->gpus > 0) {
        rc = rc ? rc : gp_table_set_int(t, "gpus", row->gpus);
        rc = rc ? rc : gp_table_set_number(t, "tokens_per_s_per_gpu", row->tokens_per_s_per_gpu);
        rc = rc ? rc : gp_table_set_number(t, "throughput_low", row->throughput_low);
        rc = rc ? rc : gp_table_set_number(t, "throughput_high", row->throughput_high);
    }
    return rc;
}

int gp_report_add_announced(struct gp_report *r, const struct gp_gpu *const *gpus, size_t n)
{
    struct gp_report_section *s = NULL;
    int rc = 0;

    for (size_t p = 0; rc == 0 && p < r->nplans; p++) {
        const struct gp_report_plan *plan = &r->plans[p];
        size_t per_point = plan->result->per_point;
        for (size_t i = 0; rc == 0 && i < plan->nrows && i < per_point; i++) {
            const struct gp_plan_row *row = &plan->rows[i];
            const struct gp_gpu *g = find_gpu(gpus, n, row->gpu);
            if (!(row->notes & GP_NOTE_ANNOUNCED) || !g)
                continue;
            if (!s) {
                if (!(s = gp_report_add_section(r, "announced", "Announced, not shipping")))
                    return GP_EINVALID;
                gp_table_init(&s->table, announced_columns,
                              sizeof(announced_columns) / sizeof(announced_columns[0]));
                s->table.looks = announced_looks;
                s->note = "Parts their vendors have announced but do not ship: never "
                          "recommended, their figures projections, their bands widened by how "
                          "sure those figures are. The plan rows above carry the note "
                          "announced.";
            }
            rc = add_row(&s->table, plan->workload, row, g);
        }
    }
    return rc ? gp_error_set(GP_ENOMEM, "out of memory listing the announced systems") : 0;
}
