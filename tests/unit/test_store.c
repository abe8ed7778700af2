/* Unit tests for store/: migrations and upgrades, feed writes with history dedup, rollback,
 * queries, quotes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h> /* only to build a database as an older gpuplan left it */

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "pricing/feed.h"
#include "store/store.h"
#include "tests/unit/store_fixture.h"
#include "util/buf.h"
#include "util/error.h"

static int setup(void **state)
{
    struct store_fixture *f = store_fixture_open("store");
    struct gp_fx_table fx;

    if (!f || gp_fx_load(&fx))
        return -1;
    if (gp_store_seed(f->store, "test", &f->catalog, NULL, 0, &fx))
        return -1;
    gp_fx_release(&fx);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    return store_fixture_close(*state);
}

static struct gp_offer offer(const char *gpu, const char *region, double usd, int64_t at)
{
    struct gp_offer o;
    memset(&o, 0, sizeof(o));
    snprintf(o.provider, sizeof(o.provider), "acme");
    snprintf(o.region, sizeof(o.region), "%s", region);
    snprintf(o.gpu_id, sizeof(o.gpu_id), "%s", gpu);
    snprintf(o.currency, sizeof(o.currency), "USD");
    o.gpus_per_instance = 1;
    o.amount = o.usd_per_gpu_hour = usd;
    o.observed_at = at;
    return o;
}

static void schema_is_current(void **state)
{
    struct store_fixture *f = *state;
    char hash[80];

    assert_true(gp_store_schema_version() >= 1);
    assert_int_equal(gp_store_seed_hash(f->store, hash, sizeof(hash)), 0);
    assert_string_equal(hash, "test");
}

static void unchanged_prices_are_recorded_once(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer run1[] = {offer("b200", "us", 6.0, 100), offer("mi300x", "us", 2.5, 100)};
    struct gp_offer run2[] = {offer("b200", "us", 6.0, 200), offer("mi300x", "us", 2.2, 200)};
    struct gp_feed_write_stats stats;
    struct gp_offer_filter all = {.tier = -1};
    struct gp_offer *rows = NULL;
    size_t n = 0;

    assert_int_equal(gp_store_feed_replace(f->store, "acme", run1, 2, &stats), 0);
    assert_int_equal(stats.offers, 2);
    assert_int_equal(stats.new_prices, 2);
    assert_int_equal(gp_store_feed_replace(f->store, "acme", run2, 2, &stats), 0);
    assert_int_equal(stats.new_prices, 1); /* only mi300x changed */

    assert_int_equal(gp_store_history_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, 3);
    free(rows);
    assert_int_equal(gp_store_offers_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(rows[0].gpu_id, "mi300x"); /* cheapest first */
    assert_true(rows[0].usd_per_gpu_hour == 2.2);
    assert_int_equal(rows[1].observed_at, 200); /* current offer carries the last sighting */
    free(rows);

    /* A later run without mi300x drops it from the current offers, not from history. */
    assert_int_equal(gp_store_feed_replace(f->store, "acme", run2, 1, &stats), 0);
    assert_int_equal(gp_store_offers_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, 1);
    free(rows);
}

/* Duplicates of one key keep the same offer whatever order they come in, in the feed's
 * de-duplication and in the store's write alike: the cheapest, then the newest. */
static void duplicates_keep_one_offer_in_any_order(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer dup[3] = {offer("b200", "us", 2.0, 100), offer("b200", "us", 2.0, 200),
                              offer("b200", "us", 2.5, 300)};
    static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                     {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    struct gp_offer_filter all = {.tier = -1};

    for (int k = 0; k < 3; k++)
        snprintf(dup[k].source_url, sizeof(dup[k].source_url), "https://acme.example/%d", k);
    for (size_t o = 0; o < 6; o++) {
        struct gp_offer in[3], *rows = NULL;
        struct gp_feed_write_stats stats;
        struct gp_feed_ctx ctx;
        size_t n = 0;
        for (int k = 0; k < 3; k++)
            in[k] = dup[orders[o][k]];
        assert_int_equal(gp_store_feed_replace(f->store, "acme", in, 3, &stats), 0);
        assert_int_equal(stats.offers, 1);
        assert_int_equal(gp_store_offers_query(f->store, &all, &rows, &n), 0);
        assert_int_equal(n, 1);
        assert_string_equal(rows[0].source_url, "https://acme.example/1");
        free(rows);
        gp_feed_ctx_init(&ctx, "acme", "acme", 0, NULL, &f->catalog);
        for (int k = 0; k < 3; k++)
            assert_int_equal(gp_feed_add_offer(&ctx, &in[k]), 0);
        gp_feed_dedupe(&ctx);
        assert_int_equal(ctx.count, 1);
        assert_string_equal(ctx.offers[0].source_url, "https://acme.example/1");
        gp_feed_ctx_release(&ctx);
    }
}

static void failed_write_changes_nothing(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer good[] = {offer("b200", "eu", 5.0, 100)};
    struct gp_offer bad[] = {offer("b200", "eu", 4.0, 200), offer("tpu-v5", "eu", 1.0, 200)};
    struct gp_offer_filter filter = {.provider = "acme", .tier = -1};
    struct gp_offer *rows = NULL;
    size_t n = 0;

    assert_int_equal(gp_store_feed_replace(f->store, "other", good, 1, NULL), 0);
    /* unknown GPU: the foreign key fails, the whole feed write rolls back */
    assert_int_equal(gp_store_feed_replace(f->store, "other", bad, 2, NULL), GP_EDB);
    assert_int_equal(gp_store_offers_query(f->store, &filter, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_true(rows[0].usd_per_gpu_hour == 5.0);
    free(rows);
}

static void filters_apply(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer spot = offer("h200-sxm", "us", 1.5, 300);
    struct gp_offer_filter by_tier = {.tier = GP_TIER_SPOT};
    struct gp_offer_filter by_gpu = {.gpu_id = "h200-sxm", .tier = -1};
    struct gp_offer_filter since = {.tier = -1, .since = 250};
    struct gp_offer *rows = NULL;
    size_t n = 0;

    spot.tier = GP_TIER_SPOT;
    assert_int_equal(gp_store_feed_replace(f->store, "spotty", &spot, 1, NULL), 0);
    assert_int_equal(gp_store_offers_query(f->store, &by_tier, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(rows[0].tier, GP_TIER_SPOT);
    free(rows);
    assert_int_equal(gp_store_offers_query(f->store, &by_gpu, &rows, &n), 0);
    assert_int_equal(n, 1);
    free(rows);
    assert_int_equal(gp_store_offers_query(f->store, &since, &rows, &n), 0);
    assert_int_equal(n, 1);
    free(rows);
}

static void duplicate_keys_keep_the_cheaper_price(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer run[] = {offer("b200", "us", 6.0, 100), offer("b200", "us", 5.5, 100),
                             offer("b200", "us", 7.0, 100)};
    struct gp_feed_write_stats stats;
    struct gp_offer_filter all = {.tier = -1};
    struct gp_offer *rows = NULL;
    size_t n = 0;

    assert_int_equal(gp_store_feed_replace(f->store, "acme", run, 3, &stats), 0);
    assert_int_equal(stats.offers, 1);
    assert_int_equal(stats.new_prices, 1);
    assert_int_equal(gp_store_offers_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_true(rows[0].usd_per_gpu_hour == 5.5);
    free(rows);
    assert_int_equal(gp_store_history_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_true(rows[0].usd_per_gpu_hour == 5.5); /* the history holds what the offer says */
    free(rows);
}

static void a_returning_offer_at_its_last_price_is_not_recorded_again(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer both[] = {offer("b200", "us", 6.0, 100), offer("mi300x", "us", 2.5, 100)};
    struct gp_offer back[] = {offer("b200", "us", 6.0, 300), offer("mi300x", "us", 2.5, 300)};
    struct gp_feed_write_stats stats;
    struct gp_offer_filter all = {.tier = -1};
    struct gp_offer *rows = NULL;
    size_t n = 0;

    assert_int_equal(gp_store_feed_replace(f->store, "acme", both, 2, &stats), 0);
    assert_int_equal(gp_store_feed_replace(f->store, "acme", both, 1, &stats), 0);
    assert_int_equal(stats.new_prices, 0);
    assert_int_equal(gp_store_offers_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, 1);
    free(rows);
    assert_int_equal(gp_store_feed_replace(f->store, "acme", back, 2, &stats), 0);
    assert_int_equal(stats.offers, 2);
    assert_int_equal(stats.new_prices, 0);
    assert_int_equal(gp_store_offers_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(rows[0].observed_at, 300);
    assert_int_equal(rows[1].observed_at, 300);
    free(rows);
    assert_int_equal(gp_store_history_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, 2);
    free(rows);
}

/* More offers than one batch statement holds, a count that is not a multiple of it, and more
 * source URLs than the lookup starts with room for. */
static void large_writes_mix_new_changed_and_unchanged_offers(void **state)
{
    enum { FIRST = 150, SECOND = 221 };
    struct store_fixture *f = *state;
    struct gp_offer *run = calloc(SECOND, sizeof(*run));
    struct gp_feed_write_stats stats;
    struct gp_offer_filter all = {.tier = -1};
    struct gp_offer *rows = NULL;
    size_t n = 0, changed = 0;

    assert_non_null(run);
    for (int i = 0; i < SECOND; i++) {
        run[i] = offer(i % 2 ? "b200" : "h100-sxm", "us", 1.0 + i / 100.0, 100);
        snprintf(run[i].instance_type, sizeof(run[i].instance_type), "type-%03d", i);
        snprintf(run[i].source_url, sizeof(run[i].source_url), "https://x.invalid/%d", i % 70);
    }
    assert_int_equal(gp_store_feed_replace(f->store, "bulk", run, FIRST, &stats), 0);
    assert_int_equal(stats.offers, FIRST);
    assert_int_equal(stats.new_prices, FIRST);
    for (int i = 0; i < SECOND; i++) {
        run[i].observed_at = 200;
        if (i < FIRST && i % 3 == 0) {
            run[i].amount = run[i].usd_per_gpu_hour = run[i].amount + 0.5;
            changed++;
        }
    }
    assert_int_equal(gp_store_feed_replace(f->store, "bulk", run, SECOND, &stats), 0);
    assert_int_equal(stats.offers, SECOND);
    assert_int_equal(stats.new_prices, changed + (SECOND - FIRST));

    assert_int_equal(gp_store_offers_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, SECOND);
    for (size_t i = 0; i < n; i++) {
        int k = atoi(rows[i].instance_type + strlen("type-"));
        assert_true(rows[i].usd_per_gpu_hour == run[k].usd_per_gpu_hour);
        assert_string_equal(rows[i].source_url, run[k].source_url);
        assert_int_equal(rows[i].observed_at, 200);
    }
    free(rows);
    assert_int_equal(gp_store_history_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, FIRST + stats.new_prices);
    free(rows);
    free(run);
}

/* Run the SQL of migration `name` (from the source tree) on a raw connection. */
static void run_migration(sqlite3 *db, const char *name)
{
    const char *root = getenv("GPUPLAN_SOURCE_DIR");
    struct gp_buf sql = GP_BUF_INIT;
    char path[4096];

    snprintf(path, sizeof(path), "%s/store/migrations/%s", root ? root : ".", name);
    gp_buf_init(&sql, (size_t)1 << 20);
    assert_int_equal(gp_buf_read_file(&sql, path), 0);
    assert_int_equal(sqlite3_exec(db, sql.data, NULL, NULL, NULL), SQLITE_OK);
    gp_buf_release(&sql);
}

/* A database left by the schema-2 gpuplan: two feeds, a price change, an offer that dropped
 * out of its feed, then opened (and so migrated) by this one. */
static void a_schema_2_database_upgrades_with_its_history(void **state)
{
    static const char legacy[] =
        "INSERT INTO gpus VALUES ('b200', 'B200', 'nvidia', 'blackwell', 192, 8, 1000, '{}', 't'),"
        " ('mi300x', 'MI300X', 'amd', 'cdna3', 192, 5.3, 750, '{}', 't');"
        "INSERT INTO price_observations (id, feed, provider, region, instance_type, gpu_id, "
        "gpus_per_instance, tier, amount, currency, unit, usd_per_gpu_hour, observed_at, "
        "source_url) VALUES"
        " (1, 'acme', 'acme', 'us', 'big', 'b200', 8, 'on-demand', 48, 'USD', 'instance-hour',"
        "  6, 100, 'https://a.invalid/1'),"
        " (2, 'acme', 'acme', 'us', '', 'mi300x', 1, 'spot', 2.5, 'EUR', 'gpu-hour', 2.75, 100,"
        "  'https://a.invalid/1'),"
        " (3, 'acme', 'acme', 'us', 'big', 'b200', 8, 'on-demand', 40, 'USD', 'instance-hour',"
        "  5, 200, 'https://a.invalid/2'),"
        " (4, 'other', 'zeta', '', '', 'b200', 1, 'on-demand', 4, 'USD', 'gpu-hour', 4, 150, '');"
        "INSERT INTO offers VALUES"
        " ('acme', 'acme', 'us', 'big', 'b200', 8, 'on-demand', 40, 'USD', 'instance-hour', 5,"
        "  300, 'https://a.invalid/2'),"
        " ('other', 'zeta', '', '', 'b200', 1, 'on-demand', 4, 'USD', 'gpu-hour', 4, 150, '');"
        "PRAGMA user_version = 2;";
    char path[64], side[80];
    sqlite3 *db = NULL;
    struct gp_store *store = NULL;
    struct gp_offer_filter all = {.tier = -1};
    struct gp_offer *rows = NULL;
    struct gp_offer again[2];
    struct gp_feed_write_stats stats;
    size_t n = 0;

    (void)state;
    snprintf(path, sizeof(path), "/tmp/gpuplan-test-upgrade-%d.db", (int)getpid());
    unlink(path);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    run_migration(db, "001_initial.sql");
    run_migration(db, "002_calibration_details.sql");
    assert_int_equal(sqlite3_exec(db, legacy, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);

    assert_int_equal(gp_store_open(&store, path, 0), 0);

    assert_int_equal(gp_store_history_query(store, &all, &rows, &n), 0);
    assert_int_equal(n, 4);
    /* grouped by key, oldest first: acme's mi300x (no instance type), its b200 twice, zeta */
    assert_string_equal(rows[0].gpu_id, "mi300x");
    assert_string_equal(rows[0].currency, "EUR");
    assert_int_equal(rows[0].tier, GP_TIER_SPOT);
    assert_string_equal(rows[1].instance_type, "big");
    assert_true(rows[1].amount == 48 && rows[1].observed_at == 100);
    assert_true(rows[2].amount == 40 && rows[2].observed_at == 200);
    assert_string_equal(rows[2].source_url, "https://a.invalid/2");
    assert_int_equal(rows[2].gpus_per_instance, 8);
    assert_int_equal(rows[2].unit, GP_UNIT_INSTANCE_HOUR);
    assert_string_equal(rows[3].provider, "zeta");
    assert_string_equal(rows[3].source_url, "");
    free(rows);

    assert_int_equal(gp_store_offers_query(store, &all, &rows, &n), 0);
    assert_int_equal(n, 2); /* mi300x had dropped out of acme's offers */
    assert_string_equal(rows[0].provider, "zeta");
    assert_string_equal(rows[1].feed, "acme");
    assert_true(rows[1].usd_per_gpu_hour == 5);
    assert_int_equal(rows[1].observed_at, 300);
    again[0] = rows[1];
    free(rows);

    /* The carried-over prices are the last ones: seeing them again records nothing. */
    again[1] = offer("mi300x", "us", 2.75, 400);
    again[1].tier = GP_TIER_SPOT;
    again[1].amount = 2.5;
    snprintf(again[1].currency, sizeof(again[1].currency), "EUR");
    assert_int_equal(gp_store_feed_replace(store, "acme", again, 2, &stats), 0);
    assert_int_equal(stats.offers, 2);
    assert_int_equal(stats.new_prices, 0);
    again[0].amount = 36;
    again[0].usd_per_gpu_hour = 4.5;
    assert_int_equal(gp_store_feed_replace(store, "acme", again, 2, &stats), 0);
    assert_int_equal(stats.new_prices, 1);
    assert_int_equal(gp_store_history_query(store, &all, &rows, &n), 0);
    assert_int_equal(n, 5);
    free(rows);

    gp_store_close(store);
    unlink(path);
    snprintf(side, sizeof(side), "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", path);
    unlink(side);
}

/* Remove a test database and its WAL side files. */
static void remove_database(const char *path)
{
    char side[96];

    unlink(path);
    snprintf(side, sizeof(side), "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", path);
    unlink(side);
}

/* A database at `path` as the gpuplan of schema `version` left it: its migrations, then
 * `legacy` (rows in that schema's tables). */
static void legacy_database(const char *path, int version, const char *legacy)
{
    static const char *const migrations[] = {"001_initial.sql", "002_calibration_details.sql",
                                             "003_offer_keys.sql", "004_rentable_offers.sql"};
    sqlite3 *db = NULL;

    remove_database(path);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    for (int i = 0; i < version; i++)
        run_migration(db, migrations[i]);
    assert_int_equal(sqlite3_exec(db, legacy, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* A database left by the schema-3 gpuplan upgrades: its keys keep their ids and history, gain
 * the rentable unit's price, and the history stays append-only. */
static void a_schema_3_database_upgrades_to_rentable_offers(void **state)
{
    static const char legacy[] =
        "INSERT INTO gpus VALUES ('b200', 'B200', 'nvidia', 'blackwell', 192, 8, 1000, '{}', 't');"
        "INSERT INTO sources (id, url) VALUES (1, 'https://a.invalid/1');"
        "INSERT INTO feed_offers VALUES (7, 'acme', 'acme', 'us', 'big', 'b200', 'on-demand', 1,"
        " 8, 48, 'USD', 'instance-hour', 6, 100, 1);"
        "INSERT INTO price_history VALUES (3, 7, 8, 48, 'USD', 'instance-hour', 6, 100, 1);"
        "PRAGMA user_version = 3;";
    char path[64];
    sqlite3 *db = NULL;
    struct gp_store *store = NULL;
    struct gp_offer_filter all = {.tier = -1};
    struct gp_offer *rows = NULL, o;
    struct gp_feed_write_stats stats;
    size_t n = 0;

    (void)state;
    snprintf(path, sizeof(path), "/tmp/gpuplan-test-upgrade3-%d.db", (int)getpid());
    legacy_database(path, 3, legacy);

    assert_int_equal(gp_store_open(&store, path, 0), 0);
    assert_int_equal(gp_store_offers_query(store, &all, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(rows[0].gpus_per_instance, 8);
    assert_true(rows[0].usd_per_instance_hour == 48);
    assert_int_equal(rows[0].term_months, 0);
    o = rows[0];
    free(rows);
    /* the same price again records nothing: the key kept its id and latest price */
    assert_int_equal(gp_store_feed_replace(store, "acme", &o, 1, &stats), 0);
    assert_int_equal(stats.new_prices, 0);
    assert_int_equal(gp_store_history_query(store, &all, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_true(rows[0].usd_per_instance_hour == 48);
    free(rows);
    gp_store_close(store);

    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_not_equal(sqlite3_exec(db, "DELETE FROM price_history", NULL, NULL, NULL),
                         SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA foreign_key_check", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    remove_database(path);
}

/* An 8-GPU machine priced per GPU-hour, in a region of the EU, reserved for a year with half
 * paid upfront. */
static struct gp_offer reserved_machine(int term_months, double usd)
{
    struct gp_offer o = offer("b200", "eu-frankfurt-1", usd, 100);

    o.gpus_per_instance = 8;
    o.tier = GP_TIER_RESERVED;
    o.term_months = term_months;
    o.upfront_share = 0.5;
    o.min_term_hours = 730;
    o.valid_until = 5000;
    o.usd_per_instance_hour = usd * 8;
    snprintf(o.country, sizeof(o.country), "DE");
    snprintf(o.jurisdiction, sizeof(o.jurisdiction), "eu");
    return o;
}

/* Terms are part of an offer's key, and every rentable-unit field comes back. */
static void reserved_terms_are_separate_offers(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer in[3] = {reserved_machine(12, 4.0), reserved_machine(36, 3.0),
                             offer("b200", "", 9.0, 100)};
    struct gp_offer_filter all = {.tier = -1};
    struct gp_offer *rows = NULL;
    struct gp_feed_write_stats stats;
    size_t n = 0;

    in[2].tier = GP_TIER_CAPACITY_BLOCK;
    in[2].term_days = 7;
    assert_int_equal(gp_store_feed_replace(f->store, "acme", in, 3, &stats), 0);
    assert_int_equal(stats.offers, 3);
    assert_int_equal(gp_store_offers_query(f->store, &all, &rows, &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(rows[0].term_months, 36);
    assert_int_equal(rows[1].term_months, 12);
    assert_true(rows[1].upfront_share == 0.5);
    assert_true(rows[1].usd_per_instance_hour == 32);
    assert_int_equal(rows[1].min_term_hours, 730);
    assert_int_equal(rows[1].valid_until, 5000);
    assert_string_equal(rows[1].country, "DE");
    assert_string_equal(rows[1].jurisdiction, "eu");
    assert_int_equal(rows[2].tier, GP_TIER_CAPACITY_BLOCK);
    assert_int_equal(rows[2].term_days, 7);
    free(rows);
    /* a changed upfront share is written, though the price is the same */
    in[0].upfront_share = 1;
    assert_int_equal(gp_store_feed_replace(f->store, "acme", in, 3, &stats), 0);
    assert_int_equal(stats.new_prices, 0);
    assert_int_equal(gp_store_offers_query(f->store, &all, &rows, &n), 0);
    assert_true(rows[1].upfront_share == 1);
    free(rows);
}

static int count_offer(void *arg, const struct gp_offer *o)
{
    (void)o;
    ++*(size_t *)arg;
    return *(size_t *)arg == 2 ? 42 : 0;
}

/* Region globs and jurisdictions filter lists and walks; "eea" takes EU regions too. */
static void place_filters_apply(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer in[3] = {reserved_machine(12, 4.0), offer("b200", "us-east-1", 5.0, 100),
                             offer("b200", "", 6.0, 100)};
    struct gp_offer_filter eu = {.tier = -1, .jurisdiction = "eu"};
    struct gp_offer_filter eea = {.tier = -1, .jurisdiction = "eea"};
    struct gp_offer_filter us_glob = {.tier = -1, .region = "us-*"};
    struct gp_offer_filter all = {.tier = -1};
    struct gp_offer *rows = NULL;
    size_t n = 0, seen = 0;

    snprintf(in[1].jurisdiction, sizeof(in[1].jurisdiction), "us");
    assert_int_equal(gp_store_feed_replace(f->store, "acme", in, 3, NULL), 0);
    assert_int_equal(gp_store_offers_query(f->store, &eu, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].region, "eu-frankfurt-1");
    free(rows);
    assert_int_equal(gp_store_offers_query(f->store, &eea, &rows, &n), 0);
    assert_int_equal(n, 1);
    free(rows);
    assert_int_equal(gp_store_offers_query(f->store, &us_glob, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].region, "us-east-1");
    assert_true(gp_offer_in_place(&rows[0], "us-*", "us"));
    assert_false(gp_offer_in_place(&rows[0], "eu-*", NULL));
    assert_false(gp_offer_in_place(&rows[0], NULL, "eea"));
    free(rows);
    assert_true(gp_offer_in_place(&in[0], NULL, "eea"));
    assert_false(gp_offer_in_place(&in[2], "*", NULL)); /* no region: not in any glob */
    /* the walk sees every row, cheapest first, and stops when asked to */
    assert_int_equal(gp_store_offers_each(f->store, &all, count_offer, &seen), 42);
    assert_int_equal(seen, 2);
}

/* The purchase read returns the cheapest offers of each provider, unit and term only. */
static void purchase_offers_are_the_cheapest_per_group(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer in[7];
    struct gp_offer_filter b200 = {.gpu_id = "b200", .tier = -1};
    struct gp_offer_filter eu = {.gpu_id = "b200", .tier = -1, .jurisdiction = "eu"};
    struct gp_offer_filter none = {.tier = -1};
    struct gp_offer *rows = NULL;
    size_t n = 0;

    for (int i = 0; i < 4; i++) { /* four 1-GPU on-demand offers of acme in four regions */
        char region[16];
        snprintf(region, sizeof(region), "r%d", i);
        in[i] = offer("b200", region, 6.0 + i, 100);
    }
    in[4] = reserved_machine(12, 4.0);
    in[5] = reserved_machine(12, 4.5);
    snprintf(in[5].region, sizeof(in[5].region), "eu-paris-1");
    in[6] = offer("h200-sxm", "", 3.0, 100);
    assert_int_equal(gp_store_feed_replace(f->store, "acme", in, 7, NULL), 0);
    assert_int_equal(gp_store_purchase_offers(f->store, &b200, 2, &rows, &n), 0);
    assert_int_equal(n, 4); /* two of the four 1-GPU offers, both 8-GPU reserved offers */
    assert_true(rows[0].usd_per_gpu_hour == 6.0 && rows[1].usd_per_gpu_hour == 7.0);
    assert_int_equal(rows[2].tier, GP_TIER_RESERVED);
    assert_true(rows[2].usd_per_gpu_hour == 4.0);
    free(rows);
    /* one per group: each group's first index entry, its cheapest */
    assert_int_equal(gp_store_purchase_offers(f->store, &b200, 1, &rows, &n), 0);
    assert_int_equal(n, 2);
    assert_true(rows[0].usd_per_gpu_hour == 6.0 && rows[0].tier == GP_TIER_ON_DEMAND);
    assert_true(rows[1].usd_per_gpu_hour == 4.0 && rows[1].tier == GP_TIER_RESERVED);
    free(rows);
    assert_int_equal(gp_store_purchase_offers(f->store, &eu, 1, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].region, "eu-frankfurt-1");
    free(rows);
    assert_int_equal(gp_store_purchase_offers(f->store, &none, 1, &rows, &n), GP_EINVALID);

    /* The candidates: each group's cheapest anywhere, and inside the jurisdiction; the
     * reserved group's cheapest is in the EU already and is listed once. */
    rows = NULL;
    n = 0;
    assert_int_equal(gp_store_purchase_candidates(f->store, "b200", NULL, "eu", 0, &rows, &n), 0);
    assert_int_equal(n, 2);
    assert_true(rows[0].usd_per_gpu_hour == 6.0 && rows[1].usd_per_gpu_hour == 4.0);
    assert_int_equal(gp_store_purchase_candidates(f->store, "b200", "r2", NULL, 0, &rows, &n), 0);
    assert_int_equal(n, 2 + 3); /* appended: both groups' cheapest again, then r2's */
    assert_string_equal(rows[4].region, "r2");
    free(rows);
}

/* A group whose cheapest price has run out (valid_until passed) still offers its next one to a
 * purchase made after that instant; read with no instant, the cheapest stands. */
static void an_expired_cheapest_leaves_its_group_the_next(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer in[3] = {offer("b200", "r1", 4.0, 100), offer("b200", "r2", 5.0, 100),
                             offer("b200", "r3", 6.0, 100)};
    struct gp_offer_filter later = {.gpu_id = "b200", .tier = -1, .valid_at = 1000};
    struct gp_offer_filter any = {.gpu_id = "b200", .tier = -1};
    struct gp_offer *rows = NULL;
    size_t n = 0;

    in[0].valid_until = 500;  /* ran out before 1000 */
    in[1].valid_until = 2000; /* holds at 1000 */
    assert_int_equal(gp_store_feed_replace(f->store, "acme", in, 3, NULL), 0);
    assert_int_equal(gp_store_purchase_offers(f->store, &later, 1, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].region, "r2");
    free(rows);
    later.valid_at = 3000; /* both dated prices ran out: the open-ended one */
    assert_int_equal(gp_store_purchase_offers(f->store, &later, 1, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].region, "r3");
    free(rows);
    assert_int_equal(gp_store_purchase_offers(f->store, &any, 1, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].region, "r1");
    free(rows);
}

/* The cheapest offer of each group among `all[n]` (current offers of one GPU), by brute force:
 * the purchase read must return exactly these, in the same groups. */
static const struct gp_offer *group_cheapest(const struct gp_offer *all, size_t n,
                                             const struct gp_offer *g)
{
    const struct gp_offer *best = NULL;

    for (size_t i = 0; i < n; i++)
        if (all[i].tier == g->tier && strcmp(all[i].provider, g->provider) == 0 &&
            all[i].gpus_per_instance == g->gpus_per_instance &&
            all[i].term_months == g->term_months && all[i].term_days == g->term_days &&
            (!best || all[i].usd_per_gpu_hour < best->usd_per_gpu_hour))
            best = &all[i];
    return best;
}

/* Every group of the current offers appears once in the purchase read, with its cheapest. */
static void assert_groups_hold_the_cheapest(struct gp_store *store)
{
    struct gp_offer_filter all = {.gpu_id = "b200", .tier = -1};
    struct gp_offer *current = NULL, *groups = NULL;
    size_t n = 0, ngroups = 0, distinct = 0;

    assert_int_equal(gp_store_offers_query(store, &all, &current, &n), 0);
    assert_int_equal(gp_store_purchase_offers(store, &all, 1, &groups, &ngroups), 0);
    for (size_t i = 0; i < n; i++)
        distinct += group_cheapest(current, i + 1, &current[i]) == &current[i] &&
                    group_cheapest(current, n, &current[i]) == &current[i];
    assert_int_equal(ngroups, distinct);
    for (size_t i = 0; i < ngroups; i++) {
        const struct gp_offer *want = group_cheapest(current, n, &groups[i]);
        assert_non_null(want);
        assert_true(groups[i].usd_per_gpu_hour == want->usd_per_gpu_hour);
        assert_string_equal(groups[i].instance_type, want->instance_type);
        assert_string_equal(groups[i].region, want->region);
        assert_string_equal(groups[i].source_url, want->source_url);
        assert_int_equal(groups[i].observed_at, want->observed_at);
    }
    free(current);
    free(groups);
}

/* Feed writes that list, reprice, resize and drop offers of two feeds in many groups: after
 * each, the purchase groups (kept by the store's triggers) hold each group's cheapest offer. */
static void purchase_groups_follow_every_write(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer in[24];
    unsigned seed = 12345;

    for (int round = 0; round < 40; round++) {
        size_t n = 0;
        for (int k = 0; k < 24; k++) {
            seed = seed * 1103515245u + 12345u;
            if ((seed >> 16) % 4 == 0)
                continue; /* this key drops out of its feed this round */
            struct gp_offer *o = &in[n++];
            char region[16];
            snprintf(region, sizeof(region), "r%d", k % 6);
            /* distinct prices, so the cheapest of a group is one offer */
            *o = offer("b200", region, 1.0 + (double)((seed >> 8) % 997) / 100.0 + k * 1e-5,
                       100 + round);
            snprintf(o->provider, sizeof(o->provider), "p%d", k % 2);
            snprintf(o->source_url, sizeof(o->source_url), "https://a.invalid/%d", round % 3);
            o->gpus_per_instance = (seed >> 24) % 2 ? 8 : 1; /* a key may change its unit */
            o->usd_per_instance_hour = o->usd_per_gpu_hour * o->gpus_per_instance;
            o->tier = k % 3 == 0 ? GP_TIER_SPOT : GP_TIER_ON_DEMAND;
        }
        assert_int_equal(gp_store_feed_replace(f->store, round % 2 ? "acme" : "other", in, n, NULL),
                         0);
        assert_groups_hold_the_cheapest(f->store);
    }
    /* a feed that lists nothing any more leaves the groups of the other */
    assert_int_equal(gp_store_feed_replace(f->store, "acme", in, 0, NULL), 0);
    assert_groups_hold_the_cheapest(f->store);
    assert_int_equal(gp_store_feed_replace(f->store, "other", in, 0, NULL), 0);
    assert_groups_hold_the_cheapest(f->store);
}

/* A database left by the schema-4 gpuplan gains its purchase groups when opened: the cheapest
 * current offer of each group, an unlisted cheaper one left out. */
static void a_schema_4_database_upgrades_with_purchase_groups(void **state)
{
    static const char legacy[] =
        "INSERT INTO gpus VALUES ('b200', 'B200', 'nvidia', 'blackwell', 192, 8, 1000, '{}', 't');"
        "INSERT INTO sources (id, url) VALUES (1, 'https://a.invalid/1');"
        "INSERT INTO feed_offers (id, feed, provider, region, instance_type, gpu_id, tier, listed,"
        " gpus_per_instance, amount, currency, unit, usd_per_gpu_hour, usd_per_instance_hour,"
        " observed_at, source_id) VALUES"
        " (1, 'acme', 'acme', 'us', 'big', 'b200', 'on-demand', 1, 8, 48, 'USD',"
        " 'instance-hour', 6, 48, 100, 1),"
        " (2, 'acme', 'acme', 'eu', 'big', 'b200', 'on-demand', 1, 8, 40, 'USD',"
        " 'instance-hour', 5, 40, 100, 1),"
        " (3, 'acme', 'acme', 'ap', 'big', 'b200', 'on-demand', 0, 8, 8, 'USD',"
        " 'instance-hour', 1, 8, 100, 1),"
        " (4, 'acme', 'acme', 'us', 'one', 'b200', 'on-demand', 1, 1, 7, 'USD',"
        " 'instance-hour', 7, 7, 100, 1);"
        "PRAGMA user_version = 4;";
    char path[64];
    struct gp_store *store = NULL;
    struct gp_offer_filter b200 = {.gpu_id = "b200", .tier = -1};
    struct gp_offer *rows = NULL;
    size_t n = 0;

    (void)state;
    snprintf(path, sizeof(path), "/tmp/gpuplan-test-upgrade4-%d.db", (int)getpid());
    legacy_database(path, 4, legacy);

    assert_int_equal(gp_store_open(&store, path, 0), 0);
    assert_int_equal(gp_store_purchase_offers(store, &b200, 1, &rows, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(rows[0].gpus_per_instance, 1);
    assert_true(rows[0].usd_per_gpu_hour == 7);
    assert_int_equal(rows[1].gpus_per_instance, 8);
    assert_string_equal(rows[1].region, "eu");
    assert_true(rows[1].usd_per_instance_hour == 40);
    free(rows);
    assert_groups_hold_the_cheapest(store);
    gp_store_close(store);
    remove_database(path);
}

static void quotes_round_trip(void **state)
{
    struct store_fixture *f = *state;
    struct gp_quote q, *list = NULL;
    size_t n = 0;
    int64_t id = 0;

    memset(&q, 0, sizeof(q));
    q.offer = offer("mi325x", "", 2.25, 500);
    q.offer.tier = GP_TIER_QUOTE;
    q.offer.valid_until = 1000;
    q.offer.gpus_per_instance = 8;
    q.offer.min_term_hours = 8760;
    q.offer.min_gpus = 64;
    snprintf(q.note, sizeof(q.note), "64 GPUs, 1 year");
    assert_int_equal(gp_store_quote_add(f->store, &q, &id), 0);
    assert_true(id > 0);
    assert_int_equal(gp_store_quotes_list(f->store, &list, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(list[0].note, "64 GPUs, 1 year");
    assert_int_equal(list[0].offer.valid_until, 1000);
    assert_int_equal(list[0].offer.tier, GP_TIER_QUOTE);
    assert_int_equal(list[0].offer.gpus_per_instance, 8);
    assert_int_equal(list[0].offer.min_term_hours, 8760);
    assert_int_equal(list[0].offer.min_gpus, 64);
    assert_true(list[0].offer.usd_per_instance_hour == 18);
    free(list);
    assert_int_equal(gp_store_quote_remove(f->store, id), 0);
    assert_int_equal(gp_store_quote_remove(f->store, id), GP_ENOTFOUND);
}

static void fx_rates_come_back(void **state)
{
    struct store_fixture *f = *state;
    struct gp_fx_table fx;
    double rate = 0;

    assert_int_equal(gp_store_fx_load(f->store, &fx), 0);
    assert_true(fx.count >= 2);
    assert_int_equal(gp_fx_per_usd(&fx, "EUR", 1790000000, &rate), 0);
    assert_true(rate > 0.5 && rate < 1.5);
    gp_fx_release(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(schema_is_current, setup, teardown),
        cmocka_unit_test_setup_teardown(unchanged_prices_are_recorded_once, setup, teardown),
        cmocka_unit_test_setup_teardown(duplicates_keep_one_offer_in_any_order, setup, teardown),
        cmocka_unit_test_setup_teardown(failed_write_changes_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(filters_apply, setup, teardown),
        cmocka_unit_test_setup_teardown(duplicate_keys_keep_the_cheaper_price, setup, teardown),
        cmocka_unit_test_setup_teardown(a_returning_offer_at_its_last_price_is_not_recorded_again,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(large_writes_mix_new_changed_and_unchanged_offers, setup,
                                        teardown),
        cmocka_unit_test(a_schema_2_database_upgrades_with_its_history),
        cmocka_unit_test(a_schema_3_database_upgrades_to_rentable_offers),
        cmocka_unit_test_setup_teardown(reserved_terms_are_separate_offers, setup, teardown),
        cmocka_unit_test_setup_teardown(place_filters_apply, setup, teardown),
        cmocka_unit_test_setup_teardown(purchase_offers_are_the_cheapest_per_group, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(purchase_groups_follow_every_write, setup, teardown),
        cmocka_unit_test_setup_teardown(an_expired_cheapest_leaves_its_group_the_next, setup,
                                        teardown),
        cmocka_unit_test(a_schema_4_database_upgrades_with_purchase_groups),
        cmocka_unit_test_setup_teardown(quotes_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(fx_rates_come_back, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
