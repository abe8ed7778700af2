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

/* Store dated exchange rates inside the caller's transaction; a rate stored for the same
 * currency and day is replaced. *changed (may be NULL): rates new or different. */
int gp_store__fx_write(struct gp_store *store, const struct gp_fx_table *fx, size_t *changed);

/* Make room in *items (an array of `size`-byte elements holding n, with room for *cap) for one
 * more and return the slot for element n; NULL when out of memory (the array is kept). */
void *gp_store__grow(void **items, size_t *cap, size_t n, size_t size);

/*
 * Step `stmt` to the end, reading each row into a new `size`-byte element with `read`. On
 * success *out is a malloc'd array (NULL when there are no rows) of *count elements; on failure
 * nothing is returned and GP_EDB or GP_ENOMEM names `what`. The caller finalizes `stmt`.
 */
int gp_store__collect(struct gp_store *store, sqlite3_stmt *stmt, size_t size,
                      void (*read)(sqlite3_stmt *stmt, void *row), void **out, size_t *count,
                      const char *what);

/* The columns of the offers and price_observations views that gp_store__read_offer reads, in
 * struct gp_offer's order. */
#define GP_STORE_OFFER_COLUMNS                                                                     \
    "feed, provider, region, country, jurisdiction, instance_type, gpu_id, gpus_per_instance, "    \
    "tier, term_months, term_days, upfront_share, min_term_hours, min_gpus, amount, currency, "    \
    "unit, usd_per_gpu_hour, usd_per_instance_hour, observed_at, valid_until, source_url"
enum { GP_STORE_OFFER_COLUMN_COUNT = 22 };

/* Read a row's first GP_STORE_OFFER_COLUMN_COUNT columns, GP_STORE_OFFER_COLUMNS. */
void gp_store__read_offer(sqlite3_stmt *stmt, struct gp_offer *o);

#endif
