/* Reading offers: filtered lists, a row-by-row walk that holds one offer at a time, the history,
 * and the few offers per group that a purchase of one GPU type chooses among. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/error.h"

/* ?1 gpu, ?2 provider, ?3 tier, ?4 since, ?5 region glob, ?6 jurisdiction ("eea" takes "eu"). */
#define FILTER_WHERE                                                                               \
    " WHERE (?1 IS NULL OR gpu_id = ?1) AND (?2 IS NULL OR provider = ?2) "                        \
    "AND (?3 IS NULL OR tier = ?3) AND observed_at >= ?4 " PLACE_WHERE

#define PLACE_WHERE                                                                                \
    "AND (?5 IS NULL OR (region <> '' AND region GLOB ?5)) "                                       \
    "AND (?6 IS NULL OR (jurisdiction <> '' AND (jurisdiction = ?6 OR "                            \
    "(?6 = 'eea' AND jurisdiction = 'eu')))) "

static void bind_place(struct gp_store *store, sqlite3_stmt *stmt,
                       const struct gp_offer_filter *filter)
{
    gp_store__bind_text(store, stmt, 5, filter->region);
    gp_store__bind_text(store, stmt, 6, filter->jurisdiction);
}

static int prepare_filtered(struct gp_store *store, const char *sql,
                            const struct gp_offer_filter *filter, sqlite3_stmt **stmt)
{
    int rc = gp_store__prepare(store, stmt, sql);

    if (rc)
        return rc;
    gp_store__bind_text(store, *stmt, 1, filter->gpu_id);
    gp_store__bind_text(store, *stmt, 2, filter->provider);
    gp_store__bind_text(store, *stmt, 3,
                        filter->tier >= 0 ? gp_tier_name((enum gp_tier)filter->tier) : NULL);
    sqlite3_bind_int64(*stmt, 4, filter->since);
    bind_place(store, *stmt, filter);
    return 0;
}

static void read_offer_row(struct gp_store *store, sqlite3_stmt *stmt, void *row)
{
    gp_store__read_offer(store, stmt, row);
}

/* Run a SELECT of GP_STORE_OFFER_COLUMNS with FILTER_WHERE into a malloc'd array. */
static int query_offers(struct gp_store *store, const char *sql,
                        const struct gp_offer_filter *filter, struct gp_offer **out, size_t *count)
{
    sqlite3_stmt *stmt = NULL;
    int rc = prepare_filtered(store, sql, filter, &stmt);

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    rc = gp_store__collect(store, stmt, sizeof(**out), read_offer_row, (void **)out, count,
                           "offers");
    sqlite3_finalize(stmt);
    return rc;
}

/* The price list's order, cheapest first: its first four terms are the index feed_offers_price
 * (migration 008), which the walk follows; the rest, the offer's key, only orders ties. */
#define PRICE_ORDER                                                                                \
    " ORDER BY usd_per_gpu_hour, provider, region, instance_type, gpu_id, tier, term_months, "     \
    "term_days, feed"

static const char current_sql[] =
    "SELECT " GP_STORE_OFFER_COLUMNS " FROM offers" FILTER_WHERE PRICE_ORDER;

int gp_store_offers_query(struct gp_store *store, const struct gp_offer_filter *filter,
                          struct gp_offer **out, size_t *count)
{
    return query_offers(store, current_sql, filter, out, count);
}

int gp_store_offers_each(struct gp_store *store, const struct gp_offer_filter *filter,
                         int (*each)(void *arg, const struct gp_offer *offer), void *arg)
{
    sqlite3_stmt *stmt = NULL;
    struct gp_offer offer;
    int rc = prepare_filtered(store, current_sql, filter, &stmt), step = SQLITE_DONE;

    while (rc == 0 && (step = gp_store__step(store, stmt)) == SQLITE_ROW) {
        gp_store__read_offer(store, stmt, &offer);
        rc = each(arg, &offer);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot read offers");
    sqlite3_finalize(stmt);
    return rc;
}

int gp_store_history_query(struct gp_store *store, const struct gp_offer_filter *filter,
                           struct gp_offer **out, size_t *count)
{
    return query_offers(store,
                        "SELECT " GP_STORE_OFFER_COLUMNS " FROM price_observations" FILTER_WHERE
                        "ORDER BY provider, region, instance_type, tier, term_months, term_days, "
                        "feed, observed_at, id",
                        filter, out, count);
}

/* ---- what a purchase reads ----------------------------------------------------------------- */

/* The purchase groups of one GPU type and tier (purchase_offers, kept by the triggers of
 * migration 005), each with its cheapest current offer, in the order of the purchase index. */
static const char groups_sql[] =
    "SELECT " GP_STORE_OFFER_COLUMNS " FROM purchase_cheapest WHERE gpu_id = ?1 AND tier = ?2 "
    "ORDER BY provider, gpus_per_instance, term_months, term_days";

/* A group's cheapest offers within the filter, when the group's cheapest alone does not answer. */
static const char cheapest_sql[] =
    "SELECT " GP_STORE_OFFER_COLUMNS " FROM offers WHERE gpu_id = ?1 AND tier = ?2 "
    "AND provider = ?3 AND gpus_per_instance = ?4 AND term_months = ?7 AND term_days = ?8 "
    "AND observed_at >= ?10 AND (valid_until = 0 OR valid_until >= ?11) " PLACE_WHERE
    "ORDER BY usd_per_gpu_hour LIMIT ?9";

/* The statements of one purchase read: the groups, and a group's cheapest offers within the
 * filter (when the group's cheapest alone does not answer). */
struct purchase_read {
    sqlite3_stmt *groups, *cheapest; /* cheapest: prepared when a group first needs it */
    const struct gp_offer_filter *filter;
    const char *tier; /* the tier being read */
    bool filtered;    /* a place, provider or date filter, or more than one offer per group */
    struct gp_offer *offers;
    size_t count, cap;
};

static struct gp_offer *next_slot(struct purchase_read *r)
{
    struct gp_offer *o = gp_store__grow((void **)&r->offers, &r->cap, r->count, sizeof(*r->offers));
    if (!o)
        gp_error_set(GP_ENOMEM, "out of memory reading offers");
    return o;
}

/* Append the `per_group` cheapest offers of group `g` that pass the filter. */
static int read_group(struct gp_store *store, struct purchase_read *r, const struct gp_offer *g,
                      size_t per_group)
{
    int step = SQLITE_DONE, rc = 0;

    if (!r->cheapest) {
        rc = gp_store__cached(store, GP_STMT_PURCHASE_CHEAPEST, cheapest_sql, &r->cheapest);
        if (rc)
            return rc;
        bind_place(store, r->cheapest, r->filter);
        sqlite3_bind_int64(r->cheapest, 10, r->filter->since);
        sqlite3_bind_int64(r->cheapest, 11, r->filter->valid_at);
    }
    gp_store__bind_text(store, r->cheapest, 1, r->filter->gpu_id);
    gp_store__bind_text(store, r->cheapest, 2, r->tier);
    gp_store__bind_text(store, r->cheapest, 3, g->provider);
    sqlite3_bind_int(r->cheapest, 4, g->gpus_per_instance);
    sqlite3_bind_int(r->cheapest, 7, g->term_months);
    sqlite3_bind_int(r->cheapest, 8, g->term_days);
    sqlite3_bind_int64(r->cheapest, 9, (sqlite3_int64)per_group);
    while ((step = gp_store__step(store, r->cheapest)) == SQLITE_ROW) {
        struct gp_offer *o = next_slot(r);
        if (!o) {
            rc = GP_ENOMEM;
            break;
        }
        gp_store__read_offer(store, r->cheapest, o);
        r->count++;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot read offers");
    sqlite3_reset(r->cheapest);
    return rc;
}

/* Every group of one tier: its cheapest offer answers unless the read is filtered. */
static int read_tier(struct gp_store *store, struct purchase_read *r,
                     const struct gp_offer_filter *filter, int tier, size_t per_group)
{
    struct gp_offer g;
    int step = SQLITE_DONE, rc = 0;

    r->tier = gp_tier_name((enum gp_tier)tier);
    gp_store__bind_text(store, r->groups, 1, filter->gpu_id);
    gp_store__bind_text(store, r->groups, 2, r->tier);
    while (rc == 0 && (step = gp_store__step(store, r->groups)) == SQLITE_ROW) {
        struct gp_offer *o;
        gp_store__read_offer(store, r->groups, &g);
        if (filter->provider && strcmp(filter->provider, g.provider) != 0)
            continue;
        if (r->filtered || (g.valid_until && g.valid_until < filter->valid_at))
            rc = read_group(store, r, &g, per_group); /* the group's cheapest no longer holds */
        else if ((o = next_slot(r)) != NULL)
            r->offers[r->count++] = g;
        else
            rc = GP_ENOMEM;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot read the purchase groups");
    sqlite3_reset(r->groups);
    return rc;
}

static void purchase_read_close(struct purchase_read *r)
{
    gp_store__release(r->groups);
    gp_store__release(r->cheapest);
}

int gp_store_purchase_offers(struct gp_store *store, const struct gp_offer_filter *filter,
                             size_t per_group, struct gp_offer **out, size_t *count)
{
    struct purchase_read r;
    bool own;
    int rc = 0;

    memset(&r, 0, sizeof(r));
    r.filter = filter;
    *out = NULL;
    *count = 0;
    if (!filter->gpu_id)
        return gp_error_set(GP_EINVALID, "a purchase's offers are read for one GPU");
    r.filtered = per_group > 1 || filter->since > 0 || filter->region || filter->jurisdiction;
    /* one read transaction for every statement: one lock and one page cache, not one each */
    own = sqlite3_get_autocommit(store->db) != 0;
    if (own)
        rc = gp_store__exec(store, "BEGIN");
    /* prepared once per connection: a plan reads every GPU type's groups, each sweep point */
    if (!rc)
        rc = gp_store__cached(store, GP_STMT_PURCHASE_GROUPS, groups_sql, &r.groups);
    for (int t = 0; rc == 0 && t < GP_TIER_COUNT; t++)
        if (t != GP_TIER_QUOTE && (filter->tier < 0 || filter->tier == t))
            rc = read_tier(store, &r, filter, t, per_group ? per_group : 1);
    purchase_read_close(&r);
    if (own && !sqlite3_get_autocommit(store->db) && gp_store__exec(store, "COMMIT") && !rc)
        rc = GP_EDB;
    if (rc) {
        free(r.offers);
        return rc;
    }
    *out = r.offers;
    *count = r.count;
    return 0;
}

/* Whether `o` is among offers[n] already (the same unit at the same price). */
static bool held(const struct gp_offer *offers, size_t n, const struct gp_offer *o)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(offers[i].provider, o->provider) && !strcmp(offers[i].region, o->region) &&
            !strcmp(offers[i].instance_type, o->instance_type) && offers[i].tier == o->tier &&
            offers[i].term_months == o->term_months && offers[i].term_days == o->term_days &&
            offers[i].usd_per_instance_hour == o->usd_per_instance_hour)
            return true;
    return false;
}

/* Append what `filter` reads to (*offers)[*count], leaving out those held since `first`. */
static int append_candidates(struct gp_store *store, const struct gp_offer_filter *filter,
                             struct gp_offer **offers, size_t *count, size_t first)
{
    struct gp_offer *read = NULL, *grown;
    size_t n = 0, have = *count;
    int rc = gp_store_purchase_offers(store, filter, 1, &read, &n);

    if (rc)
        return rc;
    grown = n ? realloc(*offers, (have + n) * sizeof(*grown)) : *offers;
    if (n && !grown) {
        free(read);
        return gp_error_set(GP_ENOMEM, "out of memory reading offers");
    }
    *offers = grown;
    /* one read returns each group once: only an earlier read (first..have) can hold it */
    for (size_t i = 0; i < n; i++)
        if (!held(*offers + first, have - first, &read[i]))
            (*offers)[(*count)++] = read[i];
    free(read);
    return 0;
}

int gp_store_purchase_candidates(struct gp_store *store, const char *gpu_id, const char *region,
                                 const char *jurisdiction, int64_t valid_at,
                                 struct gp_offer **offers, size_t *count)
{
    struct gp_offer_filter filter = {.gpu_id = gpu_id, .tier = -1, .valid_at = valid_at};
    size_t first = *count;
    int rc = append_candidates(store, &filter, offers, count, first);

    if (rc || (!region && !jurisdiction))
        return rc;
    filter.region = region;
    filter.jurisdiction = jurisdiction;
    return append_candidates(store, &filter, offers, count, first);
}

/* ---- the price list, row by row ------------------------------------------------------------- */

/* ?7: include the quotes. Quotes have no jurisdiction: a jurisdiction filter leaves them out. */
#define QUOTE_ROWS                                                                                 \
    "SELECT 'quote', provider, region, '', '', '', gpu_id, gpus_per_instance, 'quote', 0, 0, 0, "  \
    "min_term_hours, min_gpus, amount, currency, unit, usd_per_gpu_hour, "                         \
    "usd_per_gpu_hour * gpus_per_instance, created_at, valid_until, 'quote #' || id "              \
    "FROM quotes WHERE ?7 = 1 AND (?1 IS NULL OR gpu_id = ?1) AND (?2 IS NULL OR provider = ?2) "  \
    "AND (?3 IS NULL OR ?3 = 'quote') AND (?5 IS NULL OR (region <> '' AND region GLOB ?5)) "      \
    "AND ?6 IS NULL"

static const char price_rows_sql[] = "SELECT " GP_STORE_OFFER_COLUMNS " FROM offers" FILTER_WHERE
                                     " UNION ALL " QUOTE_ROWS PRICE_ORDER;

/* The rows of price_rows_sql per GPU. The offers are counted in one pass over the table in
 * storage order, not by the price order's index, which would look each offer up; the offers
 * view's join to their sources is left out, as every offer's source exists (a foreign key). */
static const char price_counts_sql[] =
    "SELECT gpu_id, count(*) FROM (SELECT gpu_id FROM feed_offers NOT INDEXED" FILTER_WHERE
    "AND listed = 1 UNION ALL SELECT gpu_id FROM (" QUOTE_ROWS ")) GROUP BY gpu_id ORDER BY gpu_id";

struct gp_offer_cursor {
    struct gp_store *store;
    sqlite3_stmt *stmt;
};

static int prepare_price_rows(struct gp_store *store, const char *sql,
                              const struct gp_offer_filter *filter, bool quotes,
                              sqlite3_stmt **stmt)
{
    int rc = prepare_filtered(store, sql, filter, stmt);

    if (!rc)
        sqlite3_bind_int(*stmt, 7, quotes ? 1 : 0);
    return rc;
}

int gp_store_offer_cursor_open(struct gp_store *store, const struct gp_offer_filter *filter,
                               bool quotes, struct gp_offer_cursor **out)
{
    struct gp_offer_cursor *c = calloc(1, sizeof(*c));
    int rc;

    *out = NULL;
    if (!c)
        return gp_error_set(GP_ENOMEM, "out of memory listing offers");
    c->store = store;
    rc = prepare_price_rows(store, price_rows_sql, filter, quotes, &c->stmt);
    if (rc) {
        gp_store_offer_cursor_close(c);
        return rc;
    }
    *out = c;
    return 0;
}

int gp_store_offer_cursor_next(struct gp_offer_cursor *c, struct gp_offer *out)
{
    int step = gp_store__step(c->store, c->stmt);

    if (step == SQLITE_ROW) {
        gp_store__read_offer(c->store, c->stmt, out);
        int rc = gp_store__check(c->store, "cannot read offers");
        return rc ? rc : 1;
    }
    return step == SQLITE_DONE ? 0 : gp_store__fail(c->store, "cannot read offers");
}

void gp_store_offer_cursor_rewind(struct gp_offer_cursor *c)
{
    sqlite3_reset(c->stmt);
}

void gp_store_offer_cursor_close(struct gp_offer_cursor *c)
{
    if (!c)
        return;
    sqlite3_finalize(c->stmt);
    free(c);
}

int gp_store_offer_counts(struct gp_store *store, const struct gp_offer_filter *filter, bool quotes,
                          struct gp_offer_count **out, size_t *count)
{
    sqlite3_stmt *stmt = NULL;
    size_t cap = 0;
    int rc = prepare_price_rows(store, price_counts_sql, filter, quotes, &stmt), step = 0;

    *out = NULL;
    *count = 0;
    while (rc == 0 && (step = gp_store__step(store, stmt)) == SQLITE_ROW) {
        struct gp_offer_count *n = gp_store__grow((void **)out, &cap, *count, sizeof(**out));
        if (!n) {
            rc = gp_error_set(GP_ENOMEM, "out of memory counting offers");
            break;
        }
        gp_store__column_text(store, stmt, 0, n->gpu_id, sizeof(n->gpu_id));
        n->offers = (size_t)sqlite3_column_int64(stmt, 1);
        (*count)++;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot count offers");
    sqlite3_finalize(stmt);
    if (rc) {
        free(*out);
        *out = NULL;
        *count = 0;
    }
    return rc;
}
