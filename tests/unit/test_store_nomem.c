/* Unit test for store/ when SQLite cannot allocate: with SQLite's allocator failing its Nth
 * allocation (lookaside off, so binds and column reads allocate too), N = 1, 2, 3, ... until a
 * read completes, each read of offers, the offer cursor, quotes and exchange rates fails with
 * GP_ENOMEM or returns exactly what it returns without a failure, never fewer or other rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h> /* only to make SQLite's own allocations fail */

#include "catalog/fx.h"
#include "store/store.h"
#include "tests/unit/store_fixture.h"
#include "util/error.h"

static sqlite3_mem_methods real_methods;
static long fail_at = -1; /* the SQLite allocation that fails; -1: none */
static long counted;      /* SQLite allocations since the read began */

static void *failing_malloc(int size)
{
    return fail_at > 0 && ++counted == fail_at ? NULL : real_methods.xMalloc(size);
}

static void *failing_realloc(void *p, int size)
{
    return fail_at > 0 && ++counted == fail_at ? NULL : real_methods.xRealloc(p, size);
}

/* SQLite's allocator, wrapped before SQLite starts. */
static int install_allocator(void)
{
    static sqlite3_mem_methods methods;

    if (sqlite3_shutdown() != SQLITE_OK ||
        sqlite3_config(SQLITE_CONFIG_GETMALLOC, &real_methods) != SQLITE_OK)
        return -1;
    methods = real_methods;
    methods.xMalloc = failing_malloc;
    methods.xRealloc = failing_realloc;
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) != SQLITE_OK ||
        sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0) != SQLITE_OK)
        return -1;
    return sqlite3_initialize() == SQLITE_OK ? 0 : -1;
}

static struct gp_offer offer(const char *gpu, const char *provider, const char *region, double usd)
{
    struct gp_offer o;

    memset(&o, 0, sizeof(o));
    snprintf(o.provider, sizeof(o.provider), "%s", provider);
    snprintf(o.region, sizeof(o.region), "%s", region);
    snprintf(o.gpu_id, sizeof(o.gpu_id), "%s", gpu);
    snprintf(o.instance_type, sizeof(o.instance_type), "%s-%s", gpu, region);
    snprintf(o.currency, sizeof(o.currency), "USD");
    o.gpus_per_instance = 1;
    o.amount = o.usd_per_gpu_hour = usd;
    o.observed_at = 100;
    return o;
}

/* A database with offers of two GPU types and one quote. */
static int setup(void **state)
{
    struct store_fixture *f = store_fixture_open("nomem");
    struct gp_offer offers[] = {
        offer("b200", "acme", "us-east", 5.0), offer("b200", "bravo", "eu-west", 4.5),
        offer("b200", "acme", "eu-north", 5.5), offer("h100-sxm", "acme", "us-east", 2.5),
        offer("h100-sxm", "bravo", "us-west", 2.0)};
    struct gp_quote q;
    struct gp_fx_table fx;
    int64_t id;

    memset(&q, 0, sizeof(q));
    q.offer = offer("b200", "charlie", "", 3.9);
    q.offer.tier = GP_TIER_QUOTE;
    snprintf(q.note, sizeof(q.note), "a year, 64 GPUs");
    if (!f || gp_fx_load(&fx))
        return -1;
    if (gp_store_seed(f->store, "test", &f->catalog, NULL, 0, &fx) ||
        gp_store_feed_replace(f->store, "acme", offers, 5, NULL) ||
        gp_store_quote_add(f->store, &q, &id))
        return -1;
    gp_fx_release(&fx);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    return store_fixture_close(*state);
}

static const struct gp_offer_filter b200 = {.gpu_id = "b200", .tier = -1};

/* One read of the store into a malloc'd image of its result, *size bytes. */
typedef int (*read_fn)(struct gp_store *store, void **image, size_t *size);

static int read_offers(struct gp_store *store, void **image, size_t *size)
{
    size_t n = 0;
    int rc = gp_store_offers_query(store, &b200, (struct gp_offer **)image, &n);

    *size = n * sizeof(struct gp_offer);
    return rc;
}

static int read_cursor(struct gp_store *store, void **image, size_t *size)
{
    struct gp_offer_cursor *c = NULL;
    struct gp_offer *rows = NULL, row;
    size_t n = 0;
    int rc = gp_store_offer_cursor_open(store, &b200, true, &c), more = 0;

    while (rc == 0 && (more = gp_store_offer_cursor_next(c, &row)) == 1) {
        struct gp_offer *grown = realloc(rows, (n + 1) * sizeof(*rows));
        assert_non_null(grown);
        rows = grown;
        rows[n++] = row;
    }
    gp_store_offer_cursor_close(c);
    *image = rows;
    *size = n * sizeof(*rows);
    return rc ? rc : more;
}

static int read_quotes(struct gp_store *store, void **image, size_t *size)
{
    size_t n = 0;
    int rc = gp_store_quotes_list(store, (struct gp_quote **)image, &n);

    *size = n * sizeof(struct gp_quote);
    return rc;
}

static int read_rates(struct gp_store *store, void **image, size_t *size)
{
    struct gp_fx_table fx;
    int rc = gp_store_fx_load(store, &fx);

    *image = fx.rates;
    *size = fx.count * sizeof(*fx.rates);
    return rc;
}

/* The read with SQLite's Nth allocation failing, for every N it reaches. */
static void sweep(struct gp_store *store, read_fn read)
{
    void *want = NULL, *got = NULL;
    size_t want_size = 0, got_size = 0;
    long n;
    int failures = 0;

    assert_int_equal(read(store, &want, &want_size), 0);
    assert_true(want_size > 0);
    for (n = 1;; n++) {
        counted = 0;
        fail_at = n;
        int rc = read(store, &got, &got_size);
        bool reached = counted >= n;
        fail_at = -1;
        if (rc) {
            assert_int_equal(rc, GP_ENOMEM);
            assert_true(reached);
            failures++;
        } else {
            assert_int_equal(got_size, want_size);
            assert_memory_equal(got, want, want_size);
        }
        free(got);
        got = NULL;
        if (!reached)
            break;
    }
    assert_true(failures > 0);
    free(want);
}

static void offers_fail_or_are_whole(void **state)
{
    sweep(((struct store_fixture *)*state)->store, read_offers);
}

static void the_cursor_fails_or_is_whole(void **state)
{
    sweep(((struct store_fixture *)*state)->store, read_cursor);
}

static void quotes_fail_or_are_whole(void **state)
{
    sweep(((struct store_fixture *)*state)->store, read_quotes);
}

static void rates_fail_or_are_whole(void **state)
{
    sweep(((struct store_fixture *)*state)->store, read_rates);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(offers_fail_or_are_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(the_cursor_fails_or_is_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(quotes_fail_or_are_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(rates_fail_or_are_whole, setup, teardown),
    };
    if (install_allocator() != 0) {
        fputs("cannot wrap SQLite's allocator\n", stderr);
        return 1;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
