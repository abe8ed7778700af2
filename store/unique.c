/* Writing records that are kept once: one transaction over all of them, each skipped when a
 * record with its fingerprint is already stored. */
#include "store/store_int.h"

#include "util/error.h"

int gp_store__known(struct gp_store *store, const char *sql, const char *fingerprint,
                    const char *what)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, sql);

    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, fingerprint);
    int step = gp_store__step(store, stmt);
    if (step == SQLITE_ROW)
        rc = 1;
    else if (step != SQLITE_DONE)
        rc = gp_store__fail(store, what);
    sqlite3_finalize(stmt);
    return rc;
}

int gp_store__insert_new(struct gp_store *store, const struct gp_store_unique *u, size_t count,
                         int *inserted, size_t *added, size_t *skipped)
{
    size_t n_added = 0, n_skipped = 0;
    int rc = gp_store_begin(store);

    if (rc)
        return rc;
    for (size_t i = 0; i < count && rc == 0; i++) {
        rc = u->known(store, u->items, i);
        if (inserted)
            inserted[i] = rc == 0;
        if (rc == 1) {
            n_skipped++;
            rc = 0;
            continue;
        }
        if (rc == 0 && (rc = u->insert(store, u->items, i)) == 0)
            n_added++;
    }
    if (rc == 0)
        rc = gp_store_commit(store);
    if (rc) {
        gp_store_rollback(store);
        return rc;
    }
    if (added)
        *added = n_added;
    if (skipped)
        *skipped = n_skipped;
    return 0;
}
