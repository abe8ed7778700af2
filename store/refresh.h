/* The store's side of `gpuplan refresh`: the run log (refresh_runs), HTTP validators per feed
 * URL (feed_http_state), the all-or-nothing write of one feed, and the lock that keeps two
 * refreshes of one database from running at once. */
#ifndef GP_STORE_REFRESH_H
#define GP_STORE_REFRESH_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/offer.h"
#include "store/store.h"

/* What one feed's refresh found, as recorded in refresh_runs. */
struct gp_refresh_counts {
    size_t offers;   /* current offers held for the feed after the run */
    size_t changed;  /* observations appended: new or changed prices */
    size_t unmapped; /* rows whose GPU name matched nothing */
    size_t rejected; /* rows dropped as nonsensical */
};

/* An HTTP validator pair for one URL of a feed. */
struct gp_http_validator {
    char url[2048];
    char etag[256];         /* "" if none */
    char last_modified[64]; /* "" if none */
};

/* One refresh_runs row. */
struct gp_refresh_run {
    int64_t id;
    char feed[32];
    int64_t started_at;  /* Unix seconds UTC */
    int64_t finished_at; /* Unix seconds UTC; 0 while running */
    char status[16];     /* running, ok, unchanged, failed */
    struct gp_refresh_counts counts;
    char error[512]; /* why it failed, "" otherwise */
};

/*
 * Take the refresh lock of the database: an fcntl lock on "<db>.refresh.lock". Waits up to
 * wait_s seconds (0: do not wait) for another refresh to finish, then fails with GP_ERROR
 * "another refresh ... is running (pid N)". *fd_out is released by
 * gp_store_refresh_unlock (also released by the kernel if the process dies).
 */
int gp_store_refresh_lock(struct gp_store *store, double wait_s, int *fd_out);
void gp_store_refresh_unlock(int fd);

/* Runs still 'running' were cut short (killed, power lost): mark them failed, "interrupted". */
int gp_store_refresh_recover(struct gp_store *store, int64_t now);

/* Record that a feed's refresh started; *id_out identifies the run. */
int gp_store_refresh_begin(struct gp_store *store, const char *feed, int64_t started_at,
                           int64_t *id_out);

/* Close a run that wrote no offers: status "failed" (with `error`) or "unchanged". For
 * "unchanged" the feed's current offers are confirmed: their observed_at becomes finished_at,
 * in the same transaction. counts->offers is set to the offers the feed still holds (its last
 * good ones) and recorded with the other counts. */
int gp_store_refresh_finish(struct gp_store *store, int64_t id, const char *feed,
                            const char *status, int64_t finished_at,
                            struct gp_refresh_counts *counts, const char *error);

/*
 * In one transaction: replace the feed's offers (appending new or changed prices to the
 * history), save the validators, and close the run as "ok" with `counts` (offers and changed
 * filled in from the write). On any error nothing is written and the run stays open.
 */
int gp_store_refresh_commit(struct gp_store *store, int64_t id, const char *feed,
                            const struct gp_offer *offers, size_t count,
                            const struct gp_http_validator *validators, size_t nvalidators,
                            int64_t finished_at, struct gp_refresh_counts *counts);

/*
 * The same for an exchange-rate feed: in one transaction, store the dated `rates` (a rate
 * already stored for a currency and day is replaced), save the validators and close the run as
 * "ok" (offers: the rates received; changed: the rates that were new or different). On any error
 * nothing is written and the run stays open.
 */
int gp_store_refresh_commit_rates(struct gp_store *store, int64_t id, const char *feed,
                                  const struct gp_fx_table *rates,
                                  const struct gp_http_validator *validators, size_t nvalidators,
                                  int64_t finished_at, struct gp_refresh_counts *counts);

/* The same for an electricity feed: store its prices as history (a period stored for the same
 * zone is replaced when its price differs; changed: periods new or different). */
int gp_store_refresh_commit_energy(struct gp_store *store, int64_t id, const char *feed,
                                   const struct gp_energy_price *prices, size_t count,
                                   const struct gp_http_validator *validators, size_t nvalidators,
                                   int64_t finished_at, struct gp_refresh_counts *counts);

/* The stored validators for (feed, url); both "" when none are stored. */
int gp_store_http_state_get(struct gp_store *store, const char *feed, const char *url,
                            struct gp_http_validator *out);

/* A current offer whose price is new or changed since some instant. */
struct gp_offer_change {
    struct gp_offer offer; /* as it stands now */
    double previous_usd;   /* the last price before the instant, USD per GPU-hour; 0 = the
                              offer was first seen after it */
};

/*
 * Current offers matching `filter` (its `since` is ignored) whose latest observation, a first
 * sighting or a price change, is at or after `since`; cheapest first. *out is malloc'd
 * (free()); *count may be 0. GP_EDB or GP_ENOMEM.
 */
int gp_store_offers_changed_since(struct gp_store *store, const struct gp_offer_filter *filter,
                                  int64_t since, struct gp_offer_change **out, size_t *count);

/* The latest run of each feed, by feed name. *out is malloc'd (free()). */
int gp_store_refresh_latest(struct gp_store *store, struct gp_refresh_run **out, size_t *count);

#endif
