/* Fuzz target: the data-file parsers a --data folder feeds (gpus.json, fx.json) and the JSON
 * path locator behind every located error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gp_catalog catalog;
    struct gp_fx_table fx;
    int line, col;

    if (gp_catalog_parse(&catalog, (const char *)data, size, "fuzz.json") == 0)
        gp_catalog_release(&catalog);
    if (gp_fx_parse(&fx, (const char *)data, size, "fuzz.json") == 0)
        gp_fx_release(&fx);
    gp_json_locate((const char *)data, size, "gpus[1].peak_tflops.fp8", &line, &col);
    gp_json_locate((const char *)data, size, "a.b[0][2].c", &line, &col);
    return 0;
}
