/* Seeding the store: a mark of the data files (the build's digest of the embedded ones, else a
 * content hash) decides whether anything is written. */
#include "cli/seed.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "catalog/data.h"
#include "catalog/embedded.h"
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

/*
 * The seed mark of the data in use into want[]: the FNV hash of its files, followed, when every
 * file is the embedded copy, by " " and the digest the build computed of them. A store marked
 * with this build's digest is current without reading the files; any other is compared by the
 * hash, so that a --data folder holding the same files does not reseed.
 */
static int compare_mark(struct gp_store *store, char *want, size_t size, bool *current)
{
    char have[160];
    const char *digest = gp_data_embedded_only() ? gp_embedded_files_digest : NULL;
    const char *space;
    int rc = gp_store_seed_hash(store, have, sizeof(have));

    *current = false;
    if (rc)
        return rc;
    space = strchr(have, ' ');
    if (digest && space && strcmp(space + 1, digest) == 0) {
        *current = true;
        return 0;
    }
    rc = data_hash(want, size);
    if (rc)
        return rc;
    size_t hash_len = space ? (size_t)(space - have) : strlen(have);
    *current = strlen(want) == hash_len && memcmp(want, have, hash_len) == 0;
    if (digest)
        snprintf(want + strlen(want), size - strlen(want), " %s", digest);
    return 0;
}

int gp_cli_seed_current(struct gp_store *store, bool *current)
{
    char want[128];
    return compare_mark(store, want, sizeof(want), current);
}

int gp_cli_seed(struct gp_store *store, const struct gp_catalog *catalog)
{
    struct gp_fx_table fx = {NULL, 0};
    struct gp_region_table regions;
    struct gp_pricelist snapshot = {0};
    char want[128];
    bool current = false;
    int rc = compare_mark(store, want, sizeof(want), &current);

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
