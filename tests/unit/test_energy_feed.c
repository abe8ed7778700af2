/* The Energi Data Service adapter: both datasets' records read into dated zone prices, paging
 * by offset, rejected records counted, and a page that is not the service's refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "feed_fixture.h"

#include "pricing/feed.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/timeutil.h"

/* Parse fixture `rel` as the page at `url`; the context is the caller's to release. */
static int parse_page(struct gp_feed_ctx *ctx, const char *rel, const char *url)
{
    const struct gp_feed_adapter *a = gp_feed_adapter_find("energidata");

    assert_non_null(a);
    assert_true(a->yields_energy);
    gp_feed_ctx_init(ctx, "energidata", "energinet", 1790000000, NULL, NULL);
    ctx->url = url;
    ctx->base_url = "https://api.energidataservice.dk";
    return parse_fixture_with(ctx, a, rel);
}

static void quarter_hours_of_the_current_dataset(void **state)
{
    struct gp_feed_ctx ctx;

    (void)state;
    assert_int_equal(parse_page(&ctx, "energidata/dayahead.json",
                                "https://api.energidataservice.dk/dataset/DayAheadPrices?limit=0"),
                     0);
    assert_int_equal(ctx.nenergy, 7); /* DK2's last quarter-hour has no EUR price */
    assert_int_equal(ctx.rows, 8);
    assert_int_equal(ctx.rejected, 1);
    assert_string_equal(ctx.energy[0].zone, "DK1");
    assert_int_equal(ctx.energy[0].start, at("2026-11-30T23:00:00Z"));
    assert_int_equal(ctx.energy[0].minutes, 15);
    assert_float_equal(ctx.energy[0].eur_mwh, 101.25, 0);
    assert_float_equal(ctx.energy[2].eur_mwh, -4.75, 0); /* negative prices are prices */
    assert_string_equal(ctx.next_url, "");
    gp_feed_ctx_release(&ctx);
}

static void hours_of_the_former_dataset(void **state)
{
    struct gp_feed_ctx ctx;

    (void)state;
    assert_int_equal(parse_page(&ctx, "energidata/elspot.json",
                                "https://api.energidataservice.dk/dataset/Elspotprices?limit=0"),
                     0);
    assert_int_equal(ctx.nenergy, 4);
    assert_string_equal(ctx.energy[3].zone, "DK2");
    assert_int_equal(ctx.energy[3].start, at("2025-09-30T21:00:00Z"));
    assert_int_equal(ctx.energy[3].minutes, 60);
    assert_float_equal(ctx.energy[3].eur_mwh, 75.75, 0);
    gp_feed_ctx_release(&ctx);
}

static void a_page_cut_at_its_limit_continues_at_the_next_offset(void **state)
{
    struct gp_feed_ctx ctx;

    (void)state;
    /* 8 records of a total of 8 at limit 8: the last page */
    assert_int_equal(parse_page(&ctx, "energidata/dayahead.json",
                                "https://api.energidataservice.dk/dataset/DayAheadPrices?"
                                "limit=8"),
                     0);
    assert_string_equal(ctx.next_url, "");
    gp_feed_ctx_release(&ctx);
    /* 8 records at limit 8 from offset 0 while the total says 20 would be: read on */
    struct gp_buf body = {0};
    const struct gp_feed_adapter *a = gp_feed_adapter_find("energidata");
    read_fixture(&body, "energidata/dayahead.json");
    char *total = strstr(body.data, "\"total\": 8");
    assert_non_null(total);
    memcpy(total, "\"total\":20", 10);
    gp_feed_ctx_init(&ctx, "energidata", "energinet", 1790000000, NULL, NULL);
    ctx.base_url = "https://api.energidataservice.dk";
    ctx.url = "https://api.energidataservice.dk/dataset/DayAheadPrices?start=now-P30D&limit=8";
    assert_int_equal(a->parse(&ctx, body.data, body.len), 0);
    assert_string_equal(ctx.next_url, "https://api.energidataservice.dk/dataset/"
                                      "DayAheadPrices?start=now-P30D&limit=8&offset=8");
    gp_feed_ctx_release(&ctx);
    gp_buf_release(&body);
}

static void pages_that_are_not_the_service_are_refused(void **state)
{
    struct gp_feed_ctx ctx;

    (void)state;
    assert_int_equal(parse_page(&ctx, "energidata/not-json.html", "https://x/dataset/D"),
                     GP_EINVALID);
    gp_feed_ctx_release(&ctx);
    assert_int_equal(parse_page(&ctx, "fx/rates.csv", "https://x/dataset/D"), GP_EINVALID);
    gp_feed_ctx_release(&ctx);
    /* JSON, but records of some other dataset: every one rejected, none kept */
    const struct gp_feed_adapter *a = gp_feed_adapter_find("energidata");
    static const char other[] =
        "{\"total\":2,\"records\":[{\"Minutes5UTC\":\"2026-01-01T00:00:00\",\"PriceArea\":\"DK1\"},"
        "{\"HourUTC\":\"2026-01-01T00:00:00+01:00\",\"PriceArea\":\"DK1\",\"SpotPriceEUR\":1}]}";
    gp_feed_ctx_init(&ctx, "energidata", "energinet", 1790000000, NULL, NULL);
    ctx.url = "https://x/dataset/D";
    assert_int_equal(a->parse(&ctx, other, sizeof(other) - 1), 0);
    assert_int_equal(ctx.nenergy, 0);
    assert_int_equal(ctx.rejected, 2);
    gp_feed_ctx_release(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quarter_hours_of_the_current_dataset),
        cmocka_unit_test(hours_of_the_former_dataset),
        cmocka_unit_test(a_page_cut_at_its_limit_continues_at_the_next_offset),
        cmocka_unit_test(pages_that_are_not_the_service_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
