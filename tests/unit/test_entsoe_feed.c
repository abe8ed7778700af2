/* The ENTSO-E adapter: day-ahead market documents read into dated zone prices (A01 curves,
 * A03 curves that hold a price until the next position, a zone at two resolutions at once),
 * "no matching data" read as an empty page, other refusals and documents that are not the
 * platform's refused, and rejected points counted. */
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
#include "util/timeutil.h"

static const char url[] = "https://web-api.tp.entsoe.eu/api?documentType=A44";

static const struct gp_feed_adapter *adapter(void)
{
    const struct gp_feed_adapter *a = gp_feed_adapter_find("entsoe");

    assert_non_null(a);
    assert_true(a->yields_energy);
    assert_true(a->key_required);
    assert_int_equal(a->auth, GP_HTTP_AUTH_QUERY);
    assert_string_equal(a->query_key, "securityToken");
    return a;
}

static void ctx_open(struct gp_feed_ctx *ctx)
{
    gp_feed_ctx_init(ctx, "entsoe", "entsoe", 1790000000, NULL, NULL);
    ctx->url = url;
    ctx->base_url = "https://web-api.tp.entsoe.eu";
}

/* Parse fixture `rel` into ctx (opened here, released by the caller). */
static int parse_fixture(struct gp_feed_ctx *ctx, const char *rel)
{
    ctx_open(ctx);
    return parse_fixture_with(ctx, adapter(), rel);
}

static int parse_text(struct gp_feed_ctx *ctx, const char *doc)
{
    ctx_open(ctx);
    return adapter()->parse(ctx, doc, strlen(doc));
}

static void quarter_hours_of_an_a01_curve(void **state)
{
    struct gp_feed_ctx ctx;

    (void)state;
    assert_int_equal(parse_fixture(&ctx, "entsoe/no1.xml"), 0);
    assert_int_equal(ctx.nenergy, 4);
    assert_int_equal(ctx.rows, 4);
    assert_int_equal(ctx.rejected, 0);
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(ctx.energy[i].zone, "NO1");
        assert_int_equal(ctx.energy[i].minutes, 15);
        assert_int_equal(ctx.energy[i].start, at("2026-11-30T23:00:00Z") + 900 * (int64_t)i);
    }
    assert_float_equal(ctx.energy[0].eur_mwh, 41.20, 1e-9);
    assert_float_equal(ctx.energy[3].eur_mwh, -1.05, 1e-9); /* negative prices are prices */
    assert_string_equal(ctx.next_url, "");
    gp_feed_ctx_release(&ctx);
}

static void an_a03_curve_holds_each_price_to_the_next_position(void **state)
{
    struct gp_feed_ctx ctx;

    (void)state;
    assert_int_equal(parse_fixture(&ctx, "entsoe/no2.xml"), 0);
    assert_int_equal(ctx.nenergy, 2); /* position 1 of two hours stands for both */
    assert_int_equal(ctx.rows, 1);
    assert_string_equal(ctx.energy[1].zone, "NO2");
    assert_int_equal(ctx.energy[1].start, at("2026-12-01T00:00:00Z"));
    assert_int_equal(ctx.energy[1].minutes, 60);
    assert_float_equal(ctx.energy[1].eur_mwh, 55.0, 0);
    gp_feed_ctx_release(&ctx);
}

/* A minimal A44 document of one TimeSeries: the fields given, then the points. */
static void document(char *out, size_t size, const char *eic, const char *currency,
                     const char *curve, const char *resolution, const char *start, const char *end,
                     const char *points)
{
    snprintf(out, size,
             "<Publication_MarketDocument><TimeSeries><in_Domain.mRID codingScheme=\"A01\">%s"
             "</in_Domain.mRID><currency_Unit.name>%s</currency_Unit.name>"
             "<price_Measure_Unit.name>MWH</price_Measure_Unit.name><curveType>%s</curveType>"
             "<Period><timeInterval><start>%s</start><end>%s</end></timeInterval>"
             "<resolution>%s</resolution>%s</Period></TimeSeries>"
             "</Publication_MarketDocument>",
             eic, currency, curve, start, end, resolution, points);
}

#define PT(pos, price)                                                                             \
    "<Point><position>" #pos "</position><price.amount>" price "</price.amount></Point>"

static void sparse_and_unordered_a03_points_fill_their_period(void **state)
{
    struct gp_feed_ctx ctx;
    char doc[2048];

    (void)state;
    /* four quarter-hours, positions given as 3 then 1: 1, 2 -> 10; 3, 4 -> 30 */
    document(doc, sizeof(doc), "10Y1001A1001A46L", "EUR", "A03", "PT15M", "2026-11-30T23:00Z",
             "2026-12-01T00:00Z", PT(3, "30") PT(1, "10"));
    assert_int_equal(parse_text(&ctx, doc), 0);
    assert_int_equal(ctx.nenergy, 4);
    assert_string_equal(ctx.energy[0].zone, "SE3");
    const double want[4] = {10, 10, 30, 30};
    for (size_t i = 0; i < 4; i++)
        assert_float_equal(ctx.energy[i].eur_mwh, want[i], 0);
    gp_feed_ctx_release(&ctx);
}

static void points_and_series_that_make_no_sense_are_rejected(void **state)
{
    static const struct {
        const char *eic, *currency, *curve, *resolution, *start, *end, *points;
        size_t kept, rejected;
    } cases[] = {
        /* a zone gpuplan does not name */
        {"10YDE-RWENET---I", "EUR", "A01", "PT60M", "2026-11-30T23:00Z", "2026-12-01T00:00Z",
         PT(1, "50"), 0, 1},
        /* not EUR, an unknown curve, an unknown resolution */
        {"10YFI-1--------U", "NOK", "A01", "PT60M", "2026-11-30T23:00Z", "2026-12-01T00:00Z",
         PT(1, "50"), 0, 1},
        {"10YFI-1--------U", "EUR", "A02", "PT60M", "2026-11-30T23:00Z", "2026-12-01T00:00Z",
         PT(1, "50"), 0, 1},
        {"10YFI-1--------U", "EUR", "A01", "P1D", "2026-11-30T23:00Z", "2026-12-01T23:00Z",
         PT(1, "50"), 0, 1},
        /* an interval that is not whole periods, or runs backwards */
        {"10YFI-1--------U", "EUR", "A01", "PT60M", "2026-11-30T23:00Z", "2026-11-30T23:30Z",
         PT(1, "50"), 0, 1},
        {"10YFI-1--------U", "EUR", "A01", "PT60M", "2026-12-01T00:00Z", "2026-11-30T23:00Z",
         PT(1, "50"), 0, 1},
        /* a position past the end, twice, zero; a price that is no number or absurd */
        {"10YFI-1--------U", "EUR", "A01", "PT60M", "2026-11-30T23:00Z", "2026-12-01T00:00Z",
         PT(1, "50") PT(2, "51"), 1, 1},
        {"10YFI-1--------U", "EUR", "A01", "PT60M", "2026-11-30T23:00Z", "2026-12-01T01:00Z",
         PT(1, "50") PT(1, "52") PT(2, "53"), 2, 1},
        {"10YFI-1--------U", "EUR", "A01", "PT60M", "2026-11-30T23:00Z", "2026-12-01T00:00Z",
         PT(0, "50") PT(1, "5O") PT(1, "1e9") PT(1, ""), 0, 4},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gp_feed_ctx ctx;
        char doc[2048];
        document(doc, sizeof(doc), cases[i].eic, cases[i].currency, cases[i].curve,
                 cases[i].resolution, cases[i].start, cases[i].end, cases[i].points);
        assert_int_equal(parse_text(&ctx, doc), 0);
        if (ctx.nenergy != cases[i].kept || ctx.rejected != cases[i].rejected)
            fail_msg("case %zu: kept %zu, rejected %zu (%s)", i, ctx.nenergy, ctx.rejected,
                     ctx.first_rejection);
        gp_feed_ctx_release(&ctx);
    }
}

static void a_zone_at_two_resolutions_keeps_the_finer(void **state)
{
    struct gp_feed_ctx ctx;

    (void)state;
    assert_int_equal(parse_fixture(&ctx, "entsoe/no5.xml"), 0);
    assert_int_equal(ctx.nenergy, 5);
    assert_int_equal(adapter()->finish(&ctx), 0);
    assert_int_equal(ctx.nenergy, 4);
    assert_int_equal(ctx.rejected, 1);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(ctx.energy[i].minutes, 15);
    assert_float_equal(ctx.energy[3].eur_mwh, 62.25, 0);
    /* the same period given twice (two pages of one zone) is kept once */
    struct gp_energy_price again = ctx.energy[0];
    assert_int_equal(gp_feed_add_energy(&ctx, &again), 0);
    assert_int_equal(adapter()->finish(&ctx), 0);
    assert_int_equal(ctx.nenergy, 4);
    gp_feed_ctx_release(&ctx);
}

static void no_matching_data_is_an_empty_page(void **state)
{
    struct gp_feed_ctx ctx;

    (void)state;
    assert_int_equal(parse_fixture(&ctx, "entsoe/no-data.xml"), 0);
    assert_int_equal(ctx.nenergy, 0);
    assert_int_equal(ctx.rows, 0);
    gp_feed_ctx_release(&ctx);
}

/* `rel` is refused with a message containing `why`. */
static void refused(const char *rel, const char *why)
{
    struct gp_feed_ctx ctx;

    assert_int_equal(parse_fixture(&ctx, rel), GP_EINVALID);
    if (!strstr(gp_error_last(), why))
        fail_msg("%s: '%s' does not say '%s'", rel, gp_error_last(), why);
    assert_int_equal(ctx.nenergy, 0);
    gp_feed_ctx_release(&ctx);
}

static void refusals_and_other_documents_fail_the_page(void **state)
{
    struct gp_feed_ctx ctx;

    (void)state;
    refused("entsoe/refused.xml", "ENTSO-E refused the request: 999: The amount of requested");
    refused("entsoe/truncated.xml", "not an ENTSO-E market document: line ");
    refused("entsoe/not-xml.html", "not an ENTSO-E market document");
    refused("energidata/dayahead.json", "not an ENTSO-E market document");
    assert_int_equal(parse_text(&ctx, "<GL_MarketDocument></GL_MarketDocument>"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "root <GL_MarketDocument>"));
    gp_feed_ctx_release(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quarter_hours_of_an_a01_curve),
        cmocka_unit_test(an_a03_curve_holds_each_price_to_the_next_position),
        cmocka_unit_test(sparse_and_unordered_a03_points_fill_their_period),
        cmocka_unit_test(points_and_series_that_make_no_sense_are_rejected),
        cmocka_unit_test(a_zone_at_two_resolutions_keeps_the_finer),
        cmocka_unit_test(no_matching_data_is_an_empty_page),
        cmocka_unit_test(refusals_and_other_documents_fail_the_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
