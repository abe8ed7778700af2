/* The SQLite store: opening and migrating the database, and every query gpuplan makes.
 * This module is the only one that includes sqlite3.h; callers see plain structs. */
#ifndef GP_STORE_STORE_H
#define GP_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/fx.h"
#include "gpuplan/energy.h"
#include "gpuplan/gpu.h"
#include "gpuplan/offer.h"

struct gp_store; /* opaque; one open database connection */

enum gp_store_open_flags {
    GP_STORE_READ_ONLY = 1 << 0, /* never write, not even migrations (fails if some are due) */
};

/*
 * Resolve the database path: `flag_path` (from --db) if set, else $GPUPLAN_DB, else
 * $XDG_DATA_HOME/gpuplan/gpuplan.db (XDG_DATA_HOME defaulting to ~/.local/share).
 * Writes into out[size]; returns 0 or GP_EINVALID when no home directory is known.
 */
int gp_store_resolve_path(char *out, size_t size, const char *flag_path);

/*
 * Open (creating it and its parent folder if needed) and migrate the database at `path`.
 * WAL, foreign keys and a busy timeout are set, and the WAL files are kept after closing so
 * that readers who cannot create them in the folder can still open the database. A database
 * from a newer gpuplan, a file that is not a database, or a location that cannot be written
 * returns GP_EDB with a message, and nothing is written.
 * With GP_STORE_READ_ONLY nothing is ever written: the file is opened read-only (read as
 * immutable when it has no -shm file the reader could use and no -wal file with commits in
 * it), and a database whose schema is older than this build's returns GP_EDB.
 * *out is owned by the caller: gp_store_close.
 */
int gp_store_open(struct gp_store **out, const char *path, int flags);
void gp_store_close(struct gp_store *store);

/* Schema version this build writes (the number of migrations). */
int gp_store_schema_version(void);

/* Transactions: BEGIN IMMEDIATE (waits for other writers up to the busy timeout), COMMIT,
 * ROLLBACK. gp_store_rollback accepts a store with no open transaction. */
int gp_store_begin(struct gp_store *store);
int gp_store_commit(struct gp_store *store);
void gp_store_rollback(struct gp_store *store);

/* ---- seeding from the embedded data ----------------------------------------------------- */

/* The content hash of the data last seeded ("" if never); out[size >= 65]. */
int gp_store_seed_hash(struct gp_store *store, char *out, size_t size);

/*
 * Replace the GPU catalog, the "snapshot" feed's offers and the FX rates with the given data and
 * record `hash`, all in one transaction. Snapshot prices are appended to the history like any
 * feed's.
 */
int gp_store_seed(struct gp_store *store, const char *hash, const struct gp_catalog *catalog,
                  const struct gp_offer *offers, size_t offer_count, const struct gp_fx_table *fx);

/* ---- offers and history ----------------------------------------------------------------- */

struct gp_offer_filter {
    const char *gpu_id;       /* NULL = any */
    const char *provider;     /* NULL = any */
    int tier;                 /* an enum gp_tier, or -1 for all tiers */
    int64_t since;            /* only offers observed at or after this instant; 0 = any */
    const char *region;       /* a shell glob over region codes (GLOB); NULL = any */
    const char *jurisdiction; /* "eu", "eea" (which takes "eu" too), "us", ...; NULL = any */
    int64_t valid_at; /* gp_store_purchase_offers only: offers whose price still holds at this
                         instant (valid_until 0 or not before it), Unix seconds UTC; 0 = any */
};

/* What a feed write changed. */
struct gp_feed_write_stats {
    size_t offers;     /* current offers now held for the feed (one per offer key) */
    size_t new_prices; /* observations appended (first sighting or changed price) */
};

/*
 * In one transaction: replace the feed's current offers with `offers`, and append to the
 * history each one whose price (amount, currency, unit, GPUs per instance) differs from the
 * last one recorded for the same key (feed, provider, region, instance_type, gpu, tier), even
 * when the key had dropped out of the feed in between. Of offers sharing a key the one
 * gp_offer_kept_over chooses stands, whatever their order. Offers sorted by key write fastest. On
 * any error nothing is written: GP_EDB (an unknown GPU id, a value the schema rejects) or
 * GP_ENOMEM.
 */
int gp_store_feed_replace(struct gp_store *store, const char *feed, const struct gp_offer *offers,
                          size_t count, struct gp_feed_write_stats *stats);

/* Current offers matching `filter`, cheapest USD per GPU-hour first. *out is malloc'd
 * (free()); *count may be 0. */
int gp_store_offers_query(struct gp_store *store, const struct gp_offer_filter *filter,
                          struct gp_offer **out, size_t *count);

/* Call `each` with every current offer matching `filter`, cheapest first, holding one offer at a
 * time (the offer is borrowed for the call). A nonzero return from `each` stops the walk and is
 * returned; else 0, GP_EDB. */
int gp_store_offers_each(struct gp_store *store, const struct gp_offer_filter *filter,
                         int (*each)(void *arg, const struct gp_offer *offer), void *arg);

/*
 * The current offers a purchase of one GPU type chooses among: for filter->gpu_id (required)
 * and filter->tier (-1: every tier but quote, which lives in the quotes table), the `per_group`
 * (0 taken as 1) cheapest offers per group of provider, GPUs per instance and term, that match
 * the filter's provider, region, jurisdiction, since and valid_at. Groups come in tier,
 * provider, GPUs per instance and term order, each cheapest USD per GPU-hour first. The read
 * takes each group's cheapest from purchase_offers, one row per group, and seeks the purchase
 * index once per group only where the filter or an expired cheapest asks for more: its cost
 * grows with the groups, not with the offers held. *out is malloc'd (free()); GP_EDB,
 * GP_ENOMEM, GP_EINVALID without a GPU.
 */
int gp_store_purchase_offers(struct gp_store *store, const struct gp_offer_filter *filter,
                             size_t per_group, struct gp_offer **out, size_t *count);

/*
 * The candidates a purchase of `gpu_id` chooses among, the store's whole pre-filter: of every
 * group (tier, provider, GPUs per instance, term) the cheapest offer whose price holds at
 * `valid_at`, wherever it is; and with a `region` glob or `jurisdiction` also the group's
 * cheapest inside them, so the purchase can buy there and name what it could not use. An offer
 * that both reads return is listed once. Which of them to buy is the planner's decision
 * (planner/purchase.c). Appends to *offers (malloc'd, `*count` held; realloc'd here, the
 * caller's to free, also on error). Returns 0, GP_EDB or GP_ENOMEM.
 */
int gp_store_purchase_candidates(struct gp_store *store, const char *gpu_id, const char *region,
                                 const char *jurisdiction, int64_t valid_at,
                                 struct gp_offer **offers, size_t *count);

/*
 * A walk over the price list row by row, holding one row at a time: the current offers matching
 * `filter` and, with `quotes`, the quotes (as offers of feed "quote", tier quote, source
 * "quote #ID"; a jurisdiction filter leaves quotes out, their place is not resolved), cheapest
 * USD per GPU-hour first. *out is the caller's: gp_store_offer_cursor_close. GP_EDB, GP_ENOMEM.
 */
struct gp_offer_cursor;
int gp_store_offer_cursor_open(struct gp_store *store, const struct gp_offer_filter *filter,
                               bool quotes, struct gp_offer_cursor **out);
/* The next row into *out: 1, or 0 at the end, or GP_EDB or GP_ENOMEM. */
int gp_store_offer_cursor_next(struct gp_offer_cursor *cursor, struct gp_offer *out);
/* Back to before the first row. */
void gp_store_offer_cursor_rewind(struct gp_offer_cursor *cursor);
void gp_store_offer_cursor_close(struct gp_offer_cursor *cursor);

/* How many rows a cursor of the same arguments walks, per GPU. */
struct gp_offer_count {
    char gpu_id[GP_GPU_ID_MAX];
    size_t offers;
};
/* The rows per GPU (GPUs with none are not listed), by GPU id. *out is malloc'd (free()). */
int gp_store_offer_counts(struct gp_store *store, const struct gp_offer_filter *filter, bool quotes,
                          struct gp_offer_count **out, size_t *count);

/* Every observation matching `filter`, oldest first, grouped by offer key. */
int gp_store_history_query(struct gp_store *store, const struct gp_offer_filter *filter,
                           struct gp_offer **out, size_t *count);

/* ---- quotes ------------------------------------------------------------------------------ */

/* struct gp_quote is in gpuplan/offer.h. */
int gp_store_quote_add(struct gp_store *store, const struct gp_quote *quote, int64_t *id_out);
/* All quotes, newest first. *out is malloc'd (free()). */
int gp_store_quotes_list(struct gp_store *store, struct gp_quote **out, size_t *count);
/* GP_ENOTFOUND when no quote has that id. */
int gp_store_quote_remove(struct gp_store *store, int64_t id);

/* ---- exchange rates ---------------------------------------------------------------------- */

/* The stored FX rates (seeded from data/fx.json). Release with gp_fx_release. */
int gp_store_fx_load(struct gp_store *store, struct gp_fx_table *out);

/* ---- electricity prices ------------------------------------------------------------------ */

/* The stored prices of `zone` (NULL: every zone) whose periods start in [from, to), by zone and
 * start. *out is malloc'd (free()). */
int gp_store_energy_list(struct gp_store *store, const char *zone, int64_t from, int64_t to,
                         struct gp_energy_price **out, size_t *count);

#endif
