/* `gpuplan refresh` below the command line: fetch the chosen feeds concurrently, parse, map
 * and normalise, and write each feed to the store in one transaction. */
#ifndef GP_PRICING_REFRESH_H
#define GP_PRICING_REFRESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/regions.h"
#include "pricing/feeds.h"
#include "pricing/http.h"
#include "store/refresh.h"
#include "store/store.h"

struct gp_refresh_options {
    const char *const *only; /* feed names to fetch (enabled or not); NULL: every enabled */
    size_t only_count;
    bool dry_run;                /* fetch and parse, write nothing, send no validators */
    double lock_wait_s;          /* how long to wait for another refresh, seconds */
    long stream_timeout_s;       /* whole-transfer timeout of streamed documents (the AWS offer
                                    file, gigabytes), seconds; 0 = http.timeout_s */
    double feed_deadline_s;      /* wall-clock limit of one feed, all its pages and retries,
                                    seconds; 0 = none */
    struct gp_http_options http; /* timeouts, retries, parallelism, insecure http */
    const struct gp_region_table *regions; /* resolves each offer's country and jurisdiction
                                              (borrowed); NULL: left unknown */
};

enum gp_refresh_status {
    GP_REFRESH_OK,          /* fetched and stored (or, in a dry run, fetched) */
    GP_REFRESH_UNCHANGED,   /* the server answered 304: the stored offers are confirmed */
    GP_REFRESH_FAILED,      /* the last good offers were kept; `reason` says why */
    GP_REFRESH_SKIPPED,     /* needs a key and has none: not a failure */
    GP_REFRESH_INTERRUPTED, /* stopped by SIGINT or SIGTERM; the last good offers were kept */
};

const char *gp_refresh_status_name(enum gp_refresh_status s);

/* The outcome of one feed. */
struct gp_refresh_result {
    char feed[32];
    char adapter[32];
    unsigned tiers; /* GP_FEED_TIER bits the adapter yields */
    enum gp_refresh_status status;
    char reason[1024];               /* why it failed or was skipped; never holds a key */
    struct gp_refresh_counts counts; /* offers held, prices changed, unmapped, rejected */
    size_t out_of_scope;             /* rows for accelerators outside the catalog */
    size_t pages;                    /* responses fetched */
    uint64_t bytes;                  /* body bytes received */
    double seconds;                  /* wall time of the feed, seconds */
    char unmapped_names[GP_FEED_MAX_NAMES][64];
    size_t unmapped_name_count;
    char first_rejection[256];
};

struct gp_refresh_report {
    struct gp_refresh_result *feeds; /* owned, `count` entries, in configuration order */
    size_t count;
    size_t failed; /* feeds with status GP_REFRESH_FAILED */
};

/*
 * Refresh the feeds of `cfg` selected by opts->only (unknown names: GP_EINVALID naming the
 * nearest feed). Takes the store's refresh lock (not in a dry run), closes runs a killed
 * refresh left open, and writes each feed as soon as it completes. A feed that fails does not
 * stop the others and is not an error of this function: see out->failed. Returns 0, or
 * GP_EINVALID, GP_EDB, GP_ENOMEM, GP_ERROR (lock held elsewhere). Release with
 * gp_refresh_report_release.
 */
int gp_refresh_run(struct gp_refresh_report *out, struct gp_store *store,
                   struct gp_feed_configs *cfg, const struct gp_catalog *catalog,
                   const struct gp_fx_table *fx, const struct gp_refresh_options *opts);

void gp_refresh_report_release(struct gp_refresh_report *report);

#endif
