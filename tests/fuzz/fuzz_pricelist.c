/* Fuzz target: the generic price-list parser (snapshot files, --data and in-house feeds). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "pricing/pricelist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct gp_catalog catalog;
    static struct gp_fx_table fx;
    static int loaded;
    struct gp_pricelist list = {0};

    if (!loaded) {
        if (gp_catalog_load(&catalog) || gp_fx_load(&fx))
            abort();
        loaded = 1;
    }
    gp_pricelist_parse(&list, (const char *)data, size, "fuzz.json", "fuzz", &catalog, &fx,
                       GP_PRICELIST_LENIENT);
    gp_pricelist_release(&list);
    gp_pricelist_parse(&list, (const char *)data, size, "fuzz.json", "fuzz", &catalog, &fx,
                       GP_PRICELIST_STRICT);
    gp_pricelist_release(&list);
    return 0;
}
