/* Internals shared by the store's own files: the connection struct and statement helpers.
 * Nothing outside store/ includes this header. */
#ifndef GP_STORE_STORE_INT_H
#define GP_STORE_STORE_INT_H

#include <sqlite3.h>

#include "store/store.h"

/* The statements a connection keeps prepared from first use until it closes (gp_store__cached):
 * those a command runs once per GPU type or sweep point. */
enum gp_store_statement {
    GP_STMT_PURCHASE_GROUPS,   /* a GPU type's purchase groups of one tier */
    GP_STMT_PURCHASE_CHEAPEST, /* one group's cheapest offers within a filter */
    GP_STMT_COUNT
};

struct gp_store {
    sqlite3 *db;                         /* owned connection */
    sqlite3_stmt *cached[GP_STMT_COUNT]; /* owned; prepared on first use, finalized on close */
    char path[4096];                     /* file the connection is on, for messages */
    int failed; /* SQLite code of a bind or column read that failed and is not reported yet
                   (SQLITE_NOMEM under memory pressure), 0 when none */
};

/* Prepare `sql` on the store's connection; GP_EDB with SQLite's message on failure. */
int gp_store__prepare(struct gp_store *store, sqlite3_stmt **out, const char *sql);

/* The connection's statement `which`, of `sql` (always the same text for one `which`), prepared
 * on first use and kept: *out is borrowed. The caller resets it and clears its bindings when it
 * is done (gp_store__release). GP_EDB or GP_ENOMEM with the message on failure. */
int gp_store__cached(struct gp_store *store, enum gp_store_statement which, const char *sql,
                     sqlite3_stmt **out);

/* Reset a cached statement and clear its bindings, for its next user. Accepts NULL. */
void gp_store__release(sqlite3_stmt *stmt);

/* Set GP_EDB (GP_ENOMEM when SQLite ran out of memory) with "database PATH: what: sqlite
 * message" and return it. A failure recorded by a bind or column read is reported and cleared. */
int gp_store__fail(struct gp_store *store, const char *what);

/* 0, or the failure a bind or column read recorded on the store, reported as gp_store__fail. */
int gp_store__check(struct gp_store *store, const char *what);

/* sqlite3_step, except that a failure recorded on the store and not yet reported makes it return
 * that code without stepping, so the caller's error path reports it. */
int gp_store__step(struct gp_store *store, sqlite3_stmt *stmt);

/* Run SQL with no result rows (schema, PRAGMA, BEGIN/COMMIT); refused while a failure is
 * recorded, so no COMMIT follows a bind that failed. */
int gp_store__exec(struct gp_store *store, const char *sql);

/* Bind a text column (a copy), binding NULL when `text` is NULL. A failed bind (out of memory)
 * is recorded on the store: the next gp_store__step fails with it. Returns SQLite's code. */
int gp_store__bind_text(struct gp_store *store, sqlite3_stmt *stmt, int index, const char *text);

/* The text of a column, owned by `stmt` until its next step; NULL for SQL NULL. A NULL that
 * SQLite returned because it could not allocate the text (the column is not NULL, or the
 * connection says SQLITE_NOMEM) is recorded on the store like a failed bind. */
const char *gp_store__column_str(struct gp_store *store, sqlite3_stmt *stmt, int col);

/* Copy a text column into out[size] ("" for NULL); a failed read is recorded as above. */
void gp_store__column_text(struct gp_store *store, sqlite3_stmt *stmt, int col, char *out,
                           size_t size);

/* Replace the feed's current offers and append changed prices to the history, inside the
 * caller's transaction. */
int gp_store__feed_write(struct gp_store *store, const char *feed, const struct gp_offer *offers,
                         size_t count, struct gp_feed_write_stats *stats);

/* Store dated exchange rates inside the caller's transaction; a rate stored for the same
 * currency and day is replaced. *changed (may be NULL): rates new or different. */
int gp_store__fx_write(struct gp_store *store, const struct gp_fx_table *fx, size_t *changed);

/* Store electricity prices inside the caller's transaction; a period stored for the same zone
 * is replaced when its price differs. *changed: periods new or different. */
int gp_store__energy_write(struct gp_store *store, const char *feed,
                           const struct gp_energy_price *prices, size_t count, size_t *changed);

/* Make room in *items (an array of `size`-byte elements holding n, with room for *cap) for one
 * more and return the slot for element n; NULL when out of memory (the array is kept). */
void *gp_store__grow(void **items, size_t *cap, size_t n, size_t size);

/*
 * Step `stmt` to the end, reading each row into a new `size`-byte element with `read`. On
 * success *out is a malloc'd array (NULL when there are no rows) of *count elements; on failure
 * nothing is returned and GP_EDB or GP_ENOMEM names `what`. The caller finalizes `stmt`.
 */
int gp_store__collect(struct gp_store *store, sqlite3_stmt *stmt, size_t size,
                      void (*read)(struct gp_store *store, sqlite3_stmt *stmt, void *row),
                      void **out, size_t *count, const char *what);

/* 1 when `sql` (a query of one parameter) finds `fingerprint`, 0 when not, or GP_EDB naming
 * `what`. */
int gp_store__known(struct gp_store *store, const char *sql, const char *fingerprint,
                    const char *what);

/* Records kept once by fingerprint: whether item i of `items` is stored (1, 0 or an error) and
 * how to write it (0 or an error). */
struct gp_store_unique {
    const void *items;
    int (*known)(struct gp_store *store, const void *items, size_t i);
    int (*insert)(struct gp_store *store, const void *items, size_t i);
};

/*
 * Write `count` items in one transaction, each unless it is already stored; `inserted` (NULL,
 * or `count` entries) says which were written, *added and *skipped (either may be NULL) how
 * many. On any error nothing is written and the error is returned.
 */
int gp_store__insert_new(struct gp_store *store, const struct gp_store_unique *u, size_t count,
                         int *inserted, size_t *added, size_t *skipped);

/* The columns of the offers and price_observations views that gp_store__read_offer reads, in
 * struct gp_offer's order. */
#define GP_STORE_OFFER_COLUMNS                                                                     \
    "feed, provider, region, country, jurisdiction, instance_type, gpu_id, gpus_per_instance, "    \
    "tier, term_months, term_days, upfront_share, min_term_hours, min_gpus, amount, currency, "    \
    "unit, usd_per_gpu_hour, usd_per_instance_hour, observed_at, valid_until, source_url"
enum { GP_STORE_OFFER_COLUMN_COUNT = 22 };

/* Read a row's first GP_STORE_OFFER_COLUMN_COUNT columns, GP_STORE_OFFER_COLUMNS. */
void gp_store__read_offer(struct gp_store *store, sqlite3_stmt *stmt, struct gp_offer *o);

#endif
