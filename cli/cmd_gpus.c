/* `gpuplan gpus`: the spec catalog, one row per GPU. */
#include <stdint.h>

#include "cli/cli.h"

static const struct gp_column gpu_columns[] = {
    {"gpu", GP_CELL_TEXT, 0},          {"vendor", GP_CELL_TEXT, 0},
    {"name", GP_CELL_TEXT, 0},         {"arch", GP_CELL_TEXT, 0},
    {"hbm_gb", GP_CELL_NUMBER, 0},     {"hbm_tbs", GP_CELL_NUMBER, 2},
    {"fp64", GP_CELL_NUMBER, 1},       {"fp32", GP_CELL_NUMBER, 1},
    {"tf32", GP_CELL_NUMBER, 1},       {"bf16", GP_CELL_NUMBER, 1},
    {"fp16", GP_CELL_NUMBER, 1},       {"fp8", GP_CELL_NUMBER, 1},
    {"fp6", GP_CELL_NUMBER, 1},        {"fp4", GP_CELL_NUMBER, 1},
    {"int8", GP_CELL_NUMBER, 1},       {"tdp_w", GP_CELL_INT, 0},
    {"scaleup_gbs", GP_CELL_INT, 0},   {"scaleout_gbps", GP_CELL_INT, 0},
    {"gpus_per_node", GP_CELL_INT, 0}, {"node_overhead_w", GP_CELL_INT, 0},
    {"llc_mb", GP_CELL_NUMBER, 1},     {"source", GP_CELL_TEXT, 0},
};

static int add_gpu_row(struct gp_table *t, const struct gp_gpu *g)
{
    int rc = gp_table_add_row(t);

    if (!rc)
        rc = gp_table_set_text(t, "gpu", "%s", g->id);
    if (!rc)
        rc = gp_table_set_text(t, "vendor", "%s", gp_vendor_name(g->vendor));
    if (!rc)
        rc = gp_table_set_text(t, "name", "%s", g->name);
    if (!rc)
        rc = gp_table_set_text(t, "arch", "%s", g->arch);
    if (!rc)
        rc = gp_table_set_number(t, "hbm_gb", g->hbm_gb);
    if (!rc)
        rc = gp_table_set_number(t, "hbm_tbs", g->hbm_tbs);
    for (int p = 0; rc == 0 && p < GP_PRECISION_COUNT; p++)
        if (g->peak_tflops[p] > 0) /* a precision without a path stays empty (null in JSON) */
            rc = gp_table_set_number(t, gp_precision_name((enum gp_precision)p), g->peak_tflops[p]);
    if (!rc)
        rc = gp_table_set_int(t, "tdp_w", (long long)g->tdp_w);
    if (!rc)
        rc = gp_table_set_int(t, "scaleup_gbs", (long long)g->scaleup_gbs);
    if (!rc)
        rc = gp_table_set_int(t, "scaleout_gbps", (long long)g->scaleout_gbps);
    if (!rc)
        rc = gp_table_set_int(t, "gpus_per_node", g->gpus_per_node);
    if (!rc)
        rc = gp_table_set_int(t, "node_overhead_w", (long long)g->node_overhead_w);
    if (!rc)
        rc = gp_table_set_number(t, "llc_mb", g->llc_mb);
    if (!rc)
        rc = gp_table_set_text(t, "source", "%s", g->source);
    return rc;
}

int gp_cmd_gpus(struct gp_cli *cli, int argc, char **argv)
{
    static const struct gp_opt opts[] = {GP_OPT_END};
    const struct gp_catalog *catalog = NULL;
    struct gp_table table;
    int rc = gp_cli_parse_options(cli, "gpus", opts, argc, argv);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    rc = gp_cli_catalog(cli, &catalog);
    if (rc)
        return rc;
    gp_table_init(&table, gpu_columns, sizeof(gpu_columns) / sizeof(gpu_columns[0]));
    for (size_t i = 0; rc == 0 && i < catalog->count; i++)
        rc = add_gpu_row(&table, &catalog->gpus[i]) ? gp_cli_fail() : 0;
    if (rc == 0)
        rc = gp_cli_output(cli, &table, SIZE_MAX);
    gp_table_release(&table);
    return rc;
}
