/* Unit tests for store/: migrations, feed writes with history dedup, rollback, queries, quotes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "store/store.h"
#include "tests/unit/store_fixture.h"
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
    struct gp_offer_filter all = {NULL, NULL, -1, 0};
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

static void failed_write_changes_nothing(void **state)
{
    struct store_fixture *f = *state;
    struct gp_offer good[] = {offer("b200", "eu", 5.0, 100)};
    struct gp_offer bad[] = {offer("b200", "eu", 4.0, 200), offer("tpu-v5", "eu", 1.0, 200)};
    struct gp_offer_filter filter = {NULL, "acme", -1, 0};
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
    struct gp_offer_filter by_tier = {NULL, NULL, GP_TIER_SPOT, 0};
    struct gp_offer_filter by_gpu = {"h200-sxm", NULL, -1, 0};
    struct gp_offer_filter since = {NULL, NULL, -1, 250};
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

static void quotes_round_trip(void **state)
{
    struct store_fixture *f = *state;
    struct gp_quote q, *list = NULL;
    size_t n = 0;
    int64_t id = 0;

    memset(&q, 0, sizeof(q));
    q.offer = offer("mi325x", "", 2.25, 500);
    q.offer.tier = GP_TIER_QUOTE;
    q.valid_until = 1000;
    snprintf(q.note, sizeof(q.note), "64 GPUs, 1 year");
    assert_int_equal(gp_store_quote_add(f->store, &q, &id), 0);
    assert_true(id > 0);
    assert_int_equal(gp_store_quotes_list(f->store, &list, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(list[0].note, "64 GPUs, 1 year");
    assert_int_equal(list[0].valid_until, 1000);
    assert_int_equal(list[0].offer.tier, GP_TIER_QUOTE);
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
        cmocka_unit_test_setup_teardown(failed_write_changes_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(filters_apply, setup, teardown),
        cmocka_unit_test_setup_teardown(quotes_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(fx_rates_come_back, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
