/* Internals shared by the store's own files: the connection struct and statement helpers.
 * Nothing outside store/ includes this header. */
#ifndef GP_STORE_STORE_INT_H
#define GP_STORE_STORE_INT_H

#include <sqlite3.h>

#include "store/store.h"

struct gp_store {
    sqlite3 *db;     /* owned connection */
    char path[4096]; /* file the connection is on, for messages */
};

/* Prepare `sql` on the store's connection; GP_EDB with SQLite's message on failure. */
int gp_store__prepare(struct gp_store *store, sqlite3_stmt **out, const char *sql);

/* Set GP_EDB with "database PATH: what: sqlite message" and return it. */
int gp_store__fail(struct gp_store *store, const char *what);

/* Run SQL with no result rows (schema, PRAGMA, BEGIN/COMMIT). */
int gp_store__exec(struct gp_store *store, const char *sql);

/* Bind a text column, binding NULL when `text` is NULL. */
int gp_store__bind_text(sqlite3_stmt *stmt, int index, const char *text);

/* Copy a text column into out[size] ("" for NULL). */
void gp_store__column_text(sqlite3_stmt *stmt, int col, char *out, size_t size);

/* Replace the feed's current offers and append changed prices to the history, inside the
 * caller's transaction. */
int gp_store__feed_write(struct gp_store *store, const char *feed, const struct gp_offer *offers,
                         size_t count, struct gp_feed_write_stats *stats);

#endif
