/* Seeding the store: a content hash of the data files decides whether anything is written. */
#include "cli/seed.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "catalog/data.h"
#include "catalog/fx.h"
#include "catalog/regions.h"
#include "pricing/pricelist.h"
#include "util/buf.h"
#include "util/error.h"

/* FNV-1a, 64 bits: enough to notice that data files changed. */
static uint64_t fnv1a(uint64_t h, const void *bytes, size_t len)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static int hash_file(uint64_t *h, struct gp_buf *scratch, const char *relpath)
{
    char origin[4200];
    int rc;

    gp_buf_reset(scratch);
    rc = gp_data_read(scratch, relpath, origin, sizeof(origin));
    if (rc)
        return rc;
    *h = fnv1a(*h, relpath, strlen(relpath) + 1);
    *h = fnv1a(*h, gp_buf_str(scratch), scratch->len);
    return 0;
}

/* Hash of every data file the seed is built from, as hex into out[17+]. */
static int data_hash(char *out, size_t size)
{
    struct gp_buf scratch = GP_BUF_INIT;
    uint64_t h = 0xcbf29ce484222325ULL;
    char **prices = NULL;
    size_t count = 0;
    int rc = hash_file(&h, &scratch, "gpus.json");

    if (!rc)
        rc = hash_file(&h, &scratch, "fx.json");
    if (!rc)
        rc = hash_file(&h, &scratch, "regions.json");
    if (!rc)
        rc = gp_data_list(&prices, &count, "prices", ".json");
    for (size_t i = 0; rc == 0 && i < count; i++)
        rc = hash_file(&h, &scratch, prices[i]);
    snprintf(out, size, "%016llx", (unsigned long long)h);
    gp_data_list_free(prices, count);
    gp_buf_release(&scratch);
    return rc;
}

/* The hash of the data in use into want[], and whether the store holds the same. */
static int compare_hash(struct gp_store *store, char *want, size_t size, bool *current)
{
    char have[80];
    int rc = data_hash(want, size);

    if (!rc)
        rc = gp_store_seed_hash(store, have, sizeof(have));
    *current = rc == 0 && strcmp(want, have) == 0;
    return rc;
}

int gp_cli_seed_current(struct gp_store *store, bool *current)
{
    char want[32];
    return compare_hash(store, want, sizeof(want), current);
}

int gp_cli_seed(struct gp_store *store, const struct gp_catalog *catalog)
{
    struct gp_fx_table fx = {NULL, 0};
    struct gp_region_table regions;
    struct gp_pricelist snapshot = {0};
    char want[32];
    bool current = false;
    int rc = compare_hash(store, want, sizeof(want), &current);

    if (rc || current)
        return rc;
    rc = gp_fx_load(&fx);
    if (!rc)
        rc = gp_regions_load(&regions);
    if (!rc)
        rc = gp_pricelist_load_snapshot(&snapshot, catalog, &fx);
    if (!rc) {
        gp_regions_apply(&regions, snapshot.offers, snapshot.count);
        rc = gp_store_seed(store, want, catalog, snapshot.offers, snapshot.count, &fx);
    }
    gp_pricelist_release(&snapshot);
    gp_regions_release(&regions);
    gp_fx_release(&fx);
    return rc;
}
