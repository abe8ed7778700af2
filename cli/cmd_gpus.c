/* `gpuplan gpus`: the spec catalog, one row per system (a GPU in its platform), with its
 * figures' citations in JSON. */
#include <stdint.h>

#include "catalog/citations.h"
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
    {"system", GP_CELL_TEXT, 0},       {"status", GP_CELL_TEXT, 0},
    {"ships", GP_CELL_TEXT, 0},        {"rack_gpus", GP_CELL_INT, 0},
    {"rack_kw", GP_CELL_NUMBER, 1},    {"cooling", GP_CELL_TEXT, 0},
    {"confidence", GP_CELL_TEXT, 0},
};

/* JSON rows carry their figures' citations: what each source says, and how sure it is. */
static const struct gp_column citation_columns[] = {
    {"figure", GP_CELL_TEXT, 0},     {"value", GP_CELL_NUMBER, 0}, {"says", GP_CELL_TEXT, 0},
    {"confidence", GP_CELL_TEXT, 0}, {"source", GP_CELL_TEXT, 0},  {"note", GP_CELL_TEXT, 0},
};

/* Citation `item` of catalog entry `row`; NULL past the last. Citations are in entry order. */
static const struct gp_citation *citation_of(const struct gp_catalog *cat, size_t row, size_t item)
{
    for (size_t i = 0; i < cat->ncitations; i++)
        if (cat->citations[i].gpu == row && item-- == 0)
            return &cat->citations[i];
    return NULL;
}

static size_t citation_count(const void *source, size_t row)
{
    size_t n = 0;

    while (citation_of(source, row, n))
        n++;
    return n;
}

static void set_text_value(struct gp_value *out, const char *text)
{
    *out = text[0] ? (struct gp_value){GP_CELL_TEXT, 0.0, text}
                   : (struct gp_value){GP_CELL_EMPTY, 0.0, NULL};
}

static void citation_read(const void *source, size_t row, size_t item, size_t col,
                          struct gp_value *out)
{
    const struct gp_catalog *cat = source;
    const struct gp_citation *c = citation_of(cat, row, item);

    switch (col) {
    case 0:
        set_text_value(out, gp_figure_name(c->figure));
        break;
    case 1:
        *out = (struct gp_value){GP_CELL_NUMBER, gp_gpu_figure(&cat->gpus[row], c->figure), NULL};
        break;
    case 2:
        set_text_value(out, c->says);
        break;
    case 3:
        set_text_value(out, gp_confidence_name(c->confidence));
        break;
    case 4:
        set_text_value(out, c->source);
        break;
    default:
        set_text_value(out, c->note);
    }
}

static const struct gp_table_list citations_list = {
    "citations", citation_columns, sizeof(citation_columns) / sizeof(citation_columns[0]),
    citation_count, citation_read};

/* The platform and its rack: what a buyer needs to house it, and how sure the figures are. */
static int add_system_cells(struct gp_table *t, const struct gp_gpu *g)
{
    int rc = g->system[0] ? gp_table_set_text(t, "system", "%s", g->system) : 0;

    if (!rc)
        rc = gp_table_set_text(t, "status", "%s", gp_status_name(g->status));
    if (!rc && g->ships[0])
        rc = gp_table_set_text(t, "ships", "%s", g->ships);
    if (!rc && g->rack.gpus > 0)
        rc = gp_table_set_int(t, "rack_gpus", g->rack.gpus);
    if (!rc && g->rack.gpus > 0)
        rc = gp_table_set_number(t, "rack_kw", g->rack.kw);
    if (!rc && g->rack.gpus > 0)
        rc = gp_table_set_text(t, "cooling", "%s", gp_cooling_name(g->rack.cooling));
    if (!rc)
        rc = gp_table_set_text(t, "confidence", "%s",
                               gp_confidence_name(gp_gpu_throughput_confidence(g)));
    return rc;
}

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
    return rc ? rc : add_system_cells(t, g);
}

int gp_cmd_gpus(struct gp_cli *cli, int argc, char **argv)
{
    static const struct gp_opt opts[] = {GP_OPT_END};
    const struct gp_catalog *catalog = NULL;
    struct gp_table table;
    int rc = gp_cli_parse_options(cli, "gpus", opts, argc, argv);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    rc = gp_cli_catalog_cited(cli, &catalog);
    if (rc)
        return rc;
    gp_table_init(&table, gpu_columns, sizeof(gpu_columns) / sizeof(gpu_columns[0]));
    table.source = catalog; /* the citations list reads the catalog; the cells hold the rest */
    table.list = &citations_list;
    for (size_t i = 0; rc == 0 && i < catalog->count; i++)
        rc = add_gpu_row(&table, &catalog->gpus[i]) ? gp_cli_fail() : 0;
    if (rc == 0)
        rc = gp_cli_output(cli, &table, SIZE_MAX);
    gp_table_release(&table);
    return rc;
}
