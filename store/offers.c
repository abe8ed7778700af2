/* Current offers per feed and the append-only price history. */
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/error.h"

#define OFFER_COLUMNS                                                                              \
    "feed, provider, region, instance_type, gpu_id, gpus_per_instance, tier, amount, currency, "   \
    "unit, usd_per_gpu_hour, observed_at, source_url"

static void bind_offer(sqlite3_stmt *stmt, const char *feed, const struct gp_offer *o)
{
    gp_store__bind_text(stmt, 1, feed);
    gp_store__bind_text(stmt, 2, o->provider);
    gp_store__bind_text(stmt, 3, o->region);
    gp_store__bind_text(stmt, 4, o->instance_type);
    gp_store__bind_text(stmt, 5, o->gpu_id);
    sqlite3_bind_int(stmt, 6, o->gpus_per_instance);
    gp_store__bind_text(stmt, 7, gp_tier_name(o->tier));
    sqlite3_bind_double(stmt, 8, o->amount);
    gp_store__bind_text(stmt, 9, o->currency);
    gp_store__bind_text(stmt, 10, gp_price_unit_name(o->unit));
    sqlite3_bind_double(stmt, 11, o->usd_per_gpu_hour);
    sqlite3_bind_int64(stmt, 12, o->observed_at);
    gp_store__bind_text(stmt, 13, o->source_url);
}

static void read_offer(sqlite3_stmt *stmt, struct gp_offer *o)
{
    char text[32];

    memset(o, 0, sizeof(*o));
    gp_store__column_text(stmt, 0, o->feed, sizeof(o->feed));
    gp_store__column_text(stmt, 1, o->provider, sizeof(o->provider));
    gp_store__column_text(stmt, 2, o->region, sizeof(o->region));
    gp_store__column_text(stmt, 3, o->instance_type, sizeof(o->instance_type));
    gp_store__column_text(stmt, 4, o->gpu_id, sizeof(o->gpu_id));
    o->gpus_per_instance = sqlite3_column_int(stmt, 5);
    gp_store__column_text(stmt, 6, text, sizeof(text));
    o->tier = (enum gp_tier)gp_tier_parse(text);
    o->amount = sqlite3_column_double(stmt, 7);
    gp_store__column_text(stmt, 8, o->currency, sizeof(o->currency));
    gp_store__column_text(stmt, 9, text, sizeof(text));
    o->unit = gp_price_unit_parse(text) == GP_UNIT_INSTANCE_HOUR ? GP_UNIT_INSTANCE_HOUR
                                                                 : GP_UNIT_GPU_HOUR;
    o->usd_per_gpu_hour = sqlite3_column_double(stmt, 10);
    o->observed_at = sqlite3_column_int64(stmt, 11);
    gp_store__column_text(stmt, 12, o->source_url, sizeof(o->source_url));
}

/* The three statements one offer write needs, prepared once per feed write. */
struct offer_writer {
    sqlite3_stmt *last_price; /* newest history row for the offer's key */
    sqlite3_stmt *append;     /* add a history row */
    sqlite3_stmt *upsert;     /* write the current offer */
};

static void writer_close(struct offer_writer *w)
{
    sqlite3_finalize(w->last_price);
    sqlite3_finalize(w->append);
    sqlite3_finalize(w->upsert);
}

static int writer_open(struct gp_store *store, struct offer_writer *w)
{
    static const char last_price[] =
        "SELECT amount, currency, unit, gpus_per_instance FROM price_observations "
        "WHERE feed = ?1 AND provider = ?2 AND region = ?3 AND instance_type = ?4 "
        "AND gpu_id = ?5 AND tier = ?6 ORDER BY observed_at DESC, id DESC LIMIT 1";
    static const char append[] = "INSERT INTO price_observations (" OFFER_COLUMNS
                                 ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)";
    /* Two rows of one feed with the same key keep the cheaper price. */
    static const char upsert[] =
        "INSERT INTO offers (" OFFER_COLUMNS
        ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13) "
        "ON CONFLICT (feed, provider, region, instance_type, gpu_id, tier) DO UPDATE SET "
        "gpus_per_instance = excluded.gpus_per_instance, amount = excluded.amount, "
        "currency = excluded.currency, unit = excluded.unit, "
        "usd_per_gpu_hour = excluded.usd_per_gpu_hour, observed_at = excluded.observed_at, "
        "source_url = excluded.source_url WHERE excluded.usd_per_gpu_hour < usd_per_gpu_hour";
    int rc;

    memset(w, 0, sizeof(*w));
    rc = gp_store__prepare(store, &w->last_price, last_price);
    if (!rc)
        rc = gp_store__prepare(store, &w->append, append);
    if (!rc)
        rc = gp_store__prepare(store, &w->upsert, upsert);
    if (rc)
        writer_close(w);
    return rc;
}

/* Whether the newest history row for the offer's key already holds this price. */
static int price_unchanged(struct gp_store *store, struct offer_writer *w, const char *feed,
                           const struct gp_offer *o, int *unchanged)
{
    sqlite3_stmt *stmt = w->last_price;
    int rc = 0, step;

    *unchanged = 0;
    sqlite3_reset(stmt);
    gp_store__bind_text(stmt, 1, feed);
    gp_store__bind_text(stmt, 2, o->provider);
    gp_store__bind_text(stmt, 3, o->region);
    gp_store__bind_text(stmt, 4, o->instance_type);
    gp_store__bind_text(stmt, 5, o->gpu_id);
    gp_store__bind_text(stmt, 6, gp_tier_name(o->tier));
    step = sqlite3_step(stmt);
    if (step == SQLITE_ROW) {
        const unsigned char *currency = sqlite3_column_text(stmt, 1);
        const unsigned char *unit = sqlite3_column_text(stmt, 2);
        *unchanged = sqlite3_column_double(stmt, 0) == o->amount && currency && unit &&
                     strcmp((const char *)currency, o->currency) == 0 &&
                     strcmp((const char *)unit, gp_price_unit_name(o->unit)) == 0 &&
                     sqlite3_column_int(stmt, 3) == o->gpus_per_instance;
    } else if (step != SQLITE_DONE) {
        rc = gp_store__fail(store, "cannot read the price history");
    }
    sqlite3_reset(stmt);
    return rc;
}

static int run_offer_statement(struct gp_store *store, sqlite3_stmt *stmt, const char *feed,
                               const struct gp_offer *o, const char *what)
{
    int rc = 0;

    sqlite3_reset(stmt);
    bind_offer(stmt, feed, o);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        rc = gp_store__fail(store, what);
    sqlite3_reset(stmt);
    return rc;
}

static int writer_write(struct gp_store *store, struct offer_writer *w, const char *feed,
                        const struct gp_offer *o, int *appended)
{
    int unchanged = 0;
    int rc = price_unchanged(store, w, feed, o, &unchanged);

    *appended = 0;
    if (rc == 0 && !unchanged) {
        rc = run_offer_statement(store, w->append, feed, o, "cannot record a price");
        *appended = rc == 0;
    }
    if (rc == 0)
        rc = run_offer_statement(store, w->upsert, feed, o, "cannot store an offer");
    return rc;
}

int gp_store__feed_write(struct gp_store *store, const char *feed, const struct gp_offer *offers,
                         size_t count, struct gp_feed_write_stats *stats)
{
    struct offer_writer w;
    sqlite3_stmt *clear = NULL;
    int rc = gp_store__prepare(store, &clear, "DELETE FROM offers WHERE feed = ?1");

    memset(stats, 0, sizeof(*stats));
    if (rc)
        return rc;
    gp_store__bind_text(clear, 1, feed);
    if (sqlite3_step(clear) != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot clear the feed's offers");
    sqlite3_finalize(clear);
    if (rc)
        return rc;
    rc = writer_open(store, &w);
    if (rc)
        return rc;
    for (size_t i = 0; rc == 0 && i < count; i++) {
        int appended = 0;
        rc = writer_write(store, &w, feed, &offers[i], &appended);
        stats->new_prices += (size_t)appended;
    }
    writer_close(&w);
    stats->offers = count;
    return rc;
}

int gp_store_feed_replace(struct gp_store *store, const char *feed, const struct gp_offer *offers,
                          size_t count, struct gp_feed_write_stats *stats)
{
    struct gp_feed_write_stats totals;
    int rc = gp_store_begin(store);

    if (rc)
        return rc;
    rc = gp_store__feed_write(store, feed, offers, count, &totals);
    if (rc == 0)
        rc = gp_store_commit(store);
    if (rc) {
        gp_store_rollback(store);
        return rc;
    }
    if (stats)
        *stats = totals;
    return 0;
}

/* Run a SELECT of OFFER_COLUMNS filtered by ?1 gpu, ?2 provider, ?3 tier, ?4 since. */
static int query_offers(struct gp_store *store, const char *sql,
                        const struct gp_offer_filter *filter, struct gp_offer **out, size_t *count)
{
    sqlite3_stmt *stmt = NULL;
    struct gp_offer *list = NULL;
    size_t n = 0, cap = 0;
    int rc = gp_store__prepare(store, &stmt, sql), step;

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    gp_store__bind_text(stmt, 1, filter->gpu_id);
    gp_store__bind_text(stmt, 2, filter->provider);
    gp_store__bind_text(stmt, 3, filter->tier >= 0 ? gp_tier_name(filter->tier) : NULL);
    sqlite3_bind_int64(stmt, 4, filter->since);
    while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 32;
            struct gp_offer *grown = realloc(list, ncap * sizeof(*grown));
            if (!grown) {
                rc = gp_error_set(GP_ENOMEM, "out of memory reading offers");
                goto done;
            }
            list = grown;
            cap = ncap;
        }
        read_offer(stmt, &list[n++]);
    }
    if (step != SQLITE_DONE) {
        rc = gp_store__fail(store, "cannot read offers");
        goto done;
    }
    *out = list;
    *count = n;
    list = NULL;
done:
    free(list);
    sqlite3_finalize(stmt);
    return rc;
}

#define FILTER_WHERE                                                                               \
    " WHERE (?1 IS NULL OR gpu_id = ?1) AND (?2 IS NULL OR provider = ?2) "                        \
    "AND (?3 IS NULL OR tier = ?3) AND observed_at >= ?4 "

int gp_store_offers_query(struct gp_store *store, const struct gp_offer_filter *filter,
                          struct gp_offer **out, size_t *count)
{
    return query_offers(store,
                        "SELECT " OFFER_COLUMNS " FROM offers" FILTER_WHERE
                        "ORDER BY usd_per_gpu_hour, provider, region, instance_type",
                        filter, out, count);
}

int gp_store_history_query(struct gp_store *store, const struct gp_offer_filter *filter,
                           struct gp_offer **out, size_t *count)
{
    return query_offers(store,
                        "SELECT " OFFER_COLUMNS " FROM price_observations" FILTER_WHERE
                        "ORDER BY provider, region, instance_type, tier, feed, observed_at, id",
                        filter, out, count);
}
