/* `gpuplan workloads`: the workload presets (data/workloads/, embedded or --data), one row
 * each. */
#include <stdio.h>
#include <string.h>

#include "catalog/data.h"
#include "cli/cli.h"
#include "cli/plan_input.h"
#include "util/error.h"

static void describe_target(char *out, size_t size, const struct gp_workload *w)
{
    const struct gp_inference *in = &w->inference;

    if (w->kind == GP_WORKLOAD_INFERENCE && in->load == GP_LOAD_MAX)
        snprintf(out, size, "max");
    else if (w->kind == GP_WORKLOAD_INFERENCE)
        snprintf(out, size, "%g %s", in->rate,
                 in->load == GP_LOAD_REQUESTS ? "requests/s" : "output tokens/s");
    else if (w->kind == GP_WORKLOAD_TRAINING && w->training.gpus > 0)
        snprintf(out, size, "%g tokens on %d GPUs", w->training.tokens, w->training.gpus);
    else if (w->kind == GP_WORKLOAD_TRAINING)
        snprintf(out, size, "%g tokens in %g h", w->training.tokens, w->training.deadline_hours);
    else if (w->generic.jobs_per_hour > 0)
        snprintf(out, size, "%g jobs/h", w->generic.jobs_per_hour);
    else
        snprintf(out, size, "max");
}

int gp_cmd_workloads(struct gp_cli *cli, int argc, char **argv)
{
    static const struct gp_opt opts[] = {GP_OPT_END};
    static const struct gp_column columns[] = {
        {"name", GP_CELL_TEXT, 0},   {"kind", GP_CELL_TEXT, 0},
        {"model", GP_CELL_TEXT, 0},  {"precision", GP_CELL_TEXT, 0},
        {"target", GP_CELL_TEXT, 0}, {"description", GP_CELL_TEXT, 0},
    };
    struct gp_efficiency_table effs = {0};
    struct gp_model_table models = {0};
    struct gp_table table;
    char **list = NULL;
    size_t count = 0;
    int rc = gp_cli_parse_options(cli, "workloads", opts, argc, argv);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    rc = gp_cli_plan_inputs(cli, &effs, &models);
    if (rc)
        return rc;
    gp_table_init(&table, columns, sizeof(columns) / sizeof(columns[0]));
    if (gp_data_list(&list, &count, "workloads", ".json")) {
        rc = gp_cli_fail();
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        struct gp_workload w;
        char target[96], name[128];
        const char *base = strrchr(list[i], '/');
        base = base ? base + 1 : list[i];
        size_t len = strlen(base);
        if (len > 5 && strcmp(base + len - 5, ".json") == 0)
            len -= 5;
        snprintf(name, sizeof(name), "%.*s", (int)len, base);
        rc = gp_cli_workload_load(cli, name, &models, &w);
        if (rc)
            goto done;
        enum gp_precision p = w.kind == GP_WORKLOAD_INFERENCE  ? w.inference.precision
                              : w.kind == GP_WORKLOAD_TRAINING ? w.training.precision
                                                               : w.generic.precision;
        describe_target(target, sizeof(target), &w);
        if (gp_table_add_row(&table) || gp_table_set_text(&table, "name", "%s", name) ||
            gp_table_set_text(&table, "kind", "%s", gp_workload_kind_name(w.kind)) ||
            (w.kind != GP_WORKLOAD_GENERIC &&
             gp_table_set_text(&table, "model", "%s", w.model.name)) ||
            gp_table_set_text(&table, "precision", "%s", gp_precision_name(p)) ||
            gp_table_set_text(&table, "target", "%s", target) ||
            gp_table_set_text(&table, "description", "%s", w.description)) {
            rc = gp_cli_fail(); /* out of memory: never a table with holes */
            goto done;
        }
    }
    rc = gp_cli_output(cli, &table, SIZE_MAX);
done:
    gp_data_list_free(list, count);
    gp_table_release(&table);
    gp_efficiency_table_release(&effs);
    gp_model_table_release(&models);
    return rc;
}
