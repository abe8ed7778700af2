/* Fuzz target: the data-file parsers a --data folder feeds (gpus.json, citations.json against
 * the embedded catalog, fx.json, capex.json, regions.json with a region lookup, clusters.json
 * with a rule lookup), sites.json with a site lookup, the --capex choice, a citation's words read
 * against every figure, and the JSON path locator behind every located error. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/capex.h"
#include "catalog/catalog.h"
#include "catalog/citations.h"
#include "catalog/clusters.h"
#include "catalog/fx.h"
#include "catalog/regions.h"
#include "catalog/sites.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gp_catalog catalog;
    struct gp_fx_table fx;
    struct gp_capex_table capex;
    struct gp_capex_choice choice;
    struct gp_region_table regions;
    struct gp_cluster_table clusters;
    struct gp_site_table sites;
    char flag[128];
    int line, col;

    static struct gp_catalog embedded;
    static bool embedded_loaded;

    if (gp_catalog_parse(&catalog, (const char *)data, size, "fuzz.json") == 0)
        gp_catalog_release(&catalog);
    if (!embedded_loaded)
        embedded_loaded = gp_catalog_load(&embedded) == 0;
    if (embedded_loaded)
        gp_citations_parse(&embedded, (const char *)data, size, "fuzz.json");
    if (gp_fx_parse(&fx, (const char *)data, size, "fuzz.json") == 0)
        gp_fx_release(&fx);
    if (gp_capex_parse(&capex, (const char *)data, size, "fuzz.json") == 0)
        gp_capex_release(&capex);
    if (gp_regions_parse(&regions, (const char *)data, size, "fuzz.json") == 0) {
        struct gp_offer o;
        memset(&o, 0, sizeof(o));
        memcpy(o.provider, "vast", 5);
        memcpy(o.region, "US", 3);
        gp_regions_resolve(&regions, &o);
        gp_regions_release(&regions);
    }
    if (gp_sites_parse(&sites, (const char *)data, size, "fuzz.json") == 0) {
        const struct gp_site *site;
        gp_sites_require(&sites, "dk1", &site);
        gp_sites_release(&sites);
    }
    if (gp_clusters_parse(&clusters, (const char *)data, size, "fuzz.json") == 0) {
        gp_clusters_find(&clusters, "oci", "BM.GPU.MI300X.8");
        gp_clusters_release(&clusters);
    }
    if (size < sizeof(flag)) {
        struct gp_gpu rack = {.gpus_per_node = 72, .rack = {.gpus = 72}};
        char why[160];
        double value;
        memcpy(flag, data, size);
        flag[size] = '\0';
        gp_capex_choice_parse(&choice, flag);
        for (int f = 0; f < GP_FIGURE_COUNT; f++)
            gp_citation_value(flag, (enum gp_figure)f, &rack, &value, why, sizeof(why));
    }
    gp_json_locate((const char *)data, size, "gpus[1].peak_tflops.fp8", &line, &col);
    gp_json_locate((const char *)data, size, "a.b[0][2].c", &line, &col);
    return 0;
}
