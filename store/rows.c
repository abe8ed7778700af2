/* Reading a query's result rows into a growing array of structs. */
#include <stdio.h>
#include <stdlib.h>

#include "store/store_int.h"
#include "util/error.h"

void *gp_store__grow(void **items, size_t *cap, size_t n, size_t size)
{
    if (n == *cap) {
        size_t want = *cap ? *cap * 2 : 16;
        void *bigger = realloc(*items, want * size);
        if (!bigger)
            return NULL;
        *items = bigger;
        *cap = want;
    }
    return (char *)*items + n * size;
}

int gp_store__collect(struct gp_store *store, sqlite3_stmt *stmt, size_t size,
                      void (*read)(struct gp_store *store, sqlite3_stmt *stmt, void *row),
                      void **out, size_t *count, const char *what)
{
    void *rows = NULL;
    size_t n = 0, cap = 0;
    int step, rc = 0;

    while ((step = gp_store__step(store, stmt)) == SQLITE_ROW) {
        void *row = gp_store__grow(&rows, &cap, n, size);
        if (!row) {
            rc = gp_error_set(GP_ENOMEM, "out of memory reading %s", what);
            break;
        }
        read(store, stmt, row);
        n++;
    }
    if (rc == 0 && step != SQLITE_DONE) {
        char message[128];
        snprintf(message, sizeof(message), "cannot read %s", what);
        rc = gp_store__fail(store, message);
    }
    if (rc) {
        free(rows);
        return rc;
    }
    *out = rows;
    *count = n;
    return 0;
}
