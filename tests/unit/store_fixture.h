/* The fixture of the unit tests that need a database: a fresh SQLite file under /tmp and the
 * catalog, removed again (with the WAL side files) after each test. */
#ifndef GP_TESTS_UNIT_STORE_FIXTURE_H
#define GP_TESTS_UNIT_STORE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "store/store.h"

struct store_fixture {
    char path[64];
    struct gp_store *store;    /* owned */
    struct gp_catalog catalog; /* owned */
};

/* Open /tmp/gpuplan-test-<name>-<pid>.db, emptied first, and load the catalog. Returns NULL
 * when either fails. */
static struct store_fixture *store_fixture_open(const char *name)
{
    struct store_fixture *f = calloc(1, sizeof(*f));

    if (!f)
        return NULL;
    snprintf(f->path, sizeof(f->path), "/tmp/gpuplan-test-%s-%d.db", name, (int)getpid());
    unlink(f->path);
    if (gp_store_open(&f->store, f->path, 0) || gp_catalog_load(&f->catalog))
        return NULL;
    return f;
}

/* Close the database, delete its files and free the fixture. */
static int store_fixture_close(struct store_fixture *f)
{
    static const char *const side_files[] = {"-wal", "-shm"};
    char side[80];

    gp_store_close(f->store);
    gp_catalog_release(&f->catalog);
    unlink(f->path);
    for (size_t i = 0; i < sizeof(side_files) / sizeof(side_files[0]); i++) {
        snprintf(side, sizeof(side), "%s%s", f->path, side_files[i]);
        unlink(side);
    }
    free(f);
    return 0;
}

#endif
