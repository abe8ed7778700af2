/* Sites: data/sites.json read and refused field by field, and a fleet priced at a site: the
 * all-in energy price, cooling and PUE, racks, heat sold, and power-first sizing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "catalog/sites.h"
#include "planner/energy.h"
#include "planner/site.h"
#include "util/error.h"

/* A figure as sites.json writes one. */
#define FIG(v)                                                                                     \
    "{\"value\": " #v ", \"date\": \"2026-01-01\", \"source\": \"https://example.org/x\"}"

/* One site with every figure; `extra` is spliced in before the closing brace. */
static void site_text(char *out, size_t size, const char *heat, const char *extra)
{
    snprintf(
        out, size,
        "{\"schema_version\": 1, \"sites\": [{\"id\": \"dk1\", \"name\": \"Denmark West\","
        " \"zone\": \"DK1\", \"country\": \"DK\", \"currency\": \"DKK\","
        " \"vat\": {\"rate\": 0.25, \"reclaimed\": true},"
        " \"spot\": {\"period\": \"2025\", \"mean_eur_mwh\": " FIG(80) ", \"p90_eur_mwh\": " FIG(
            150) "},"
                 " \"energy_tax_kwh\": " FIG(0.008) ", \"grid_tariff_kwh\": " FIG(
                     0.1) ", \"pue\": {\"air\": " FIG(1.3) ", \"liquid\": " FIG(1.15) "},"
                                                                                      " \"rack_"
                                                                                      "kw\": "
                                                                                      "{\"air\":"
                                                                                      " " FIG(20) ", \"liquid\": " FIG(
                                                                                          100) "},"
                                                                                               " \""
                                                                                               "flo"
                                                                                               "or_"
                                                                                               "m2_"
                                                                                               "per"
                                                                                               "_ra"
                                                                                               "ck"
                                                                                               "\":"
                                                                                               " " FIG(2.5) ", \"colocation_kw_month\": " FIG(
                                                                                                   700) "%s%s}]}",
        heat, extra);
}

#define HEAT ", \"heat\": {\"price_mwh\": " FIG(200) ", \"recovery\": " FIG(0.6) "}"

static void a_site_is_read_with_its_sources(void **state)
{
    struct gp_site_table t;
    char text[4096];
    const struct gp_site *s;

    (void)state;
    site_text(text, sizeof(text), HEAT, "");
    assert_int_equal(gp_sites_parse(&t, text, strlen(text), "sites.json"), 0);
    assert_int_equal(t.count, 1);
    s = gp_sites_find(&t, "DK1");
    assert_non_null(s);
    assert_string_equal(s->zone, "DK1");
    assert_string_equal(s->currency, "DKK");
    assert_true(s->vat_reclaimed);
    assert_float_equal(s->spot_mean_eur_mwh.value, 80, 1e-12);
    assert_float_equal(s->heat_recovery.value, 0.6, 1e-12);
    assert_true(s->colocation_kw_month.known);
    assert_string_equal(s->pue_liquid.source, "https://example.org/x");
    assert_null(gp_sites_find(&t, "dk2"));
    assert_int_equal(gp_sites_require(&t, "dk2", &s), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "did you mean 'dk1'"));
    gp_sites_release(&t);
}

static void bad_sites_are_refused_naming_the_field(void **state)
{
    static const struct {
        const char *from, *to, *says;
    } cases[] = {
        {"\"dk1\"", "\"DK 1\"", "lower-case"},
        {"\"DKK\"", "\"dkk\"", "ISO 4217"},
        {"\"rate\": 0.25", "\"rate\": 2", "vat.rate"},
        {"\"air\": {\"value\": 1.3", "\"air\": {\"value\": 0.9", "pue.air.value"},
        {"\"liquid\": {\"value\": 100", "\"liquid\": {\"value\": 10", "liquid is below air"},
        {"\"p90_eur_mwh\": {\"value\": 150", "\"p90_eur_mwh\": {\"value\": 50", "p90"},
        {"\"source\": \"https://example.org/x\"}, \"grid", "\"source\": \"\"}, \"grid",
         "energy_tax_kwh.source"},
        {"\"date\": \"2026-01-01\"", "\"date\": \"soon\"", "not a date"},
        {"\"recovery\": {\"value\": 0.6", "\"recovery\": {\"value\": 1.6", "heat.recovery"},
        {"\"zone\": \"DK1\"", "\"zone\": \"DK1\", \"zones\": 1", "zones"},
    };
    char text[4096], bad[4200];

    (void)state;
    site_text(text, sizeof(text), HEAT, "");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gp_site_table t;
        const char *at = strstr(text, cases[i].from);
        assert_non_null(at);
        snprintf(bad, sizeof(bad), "%.*s%s%s", (int)(at - text), text, cases[i].to,
                 at + strlen(cases[i].from));
        assert_int_equal(gp_sites_parse(&t, bad, strlen(bad), "sites.json"), GP_EINVALID);
        if (!strstr(gp_error_last(), cases[i].says))
            fail_msg("case %zu: '%s' does not say '%s'", i, gp_error_last(), cases[i].says);
        assert_non_null(strstr(gp_error_last(), "sites.json"));
        assert_null(t.sites);
    }
}

static void a_site_twice_is_refused(void **state)
{
    struct gp_site_table t;
    char one[4096], two[8400];

    (void)state;
    site_text(one, sizeof(one), "", "");
    const char *list = strstr(one, "[{") + 1;
    size_t site_len = strlen(list) - 2; /* up to "]}" */
    snprintf(two, sizeof(two), "%.*s%.*s, %s", (int)(list - one), one, (int)site_len, list, list);
    assert_int_equal(gp_sites_parse(&t, two, strlen(two), "sites.json"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "listed twice"));
}

/* EUR 0.9 and DKK 6.75 per USD. */
static struct gp_fx_table rates(struct gp_fx_rate *r)
{
    memset(r, 0, 2 * sizeof(*r));
    strcpy(r[0].currency, "EUR");
    r[0].per_usd = 0.9;
    strcpy(r[1].currency, "DKK");
    r[1].per_usd = 6.75;
    return (struct gp_fx_table){r, 2};
}

static void energy_is_priced_all_in(void **state)
{
    struct gp_site_table t;
    struct gp_site_terms terms;
    struct gp_fx_rate r[2];
    struct gp_fx_table fx = rates(r);
    char text[4096];

    (void)state;
    site_text(text, sizeof(text), HEAT, "");
    assert_int_equal(gp_sites_parse(&t, text, strlen(text), "sites.json"), 0);
    assert_int_equal(gp_site_terms_init(&terms, &t.sites[0], NULL, &fx, 0), 0);
    /* 80 EUR/MWh = 0.08 EUR/kWh = 0.0889 USD; levies 0.108 DKK = 0.016 USD */
    assert_float_equal(terms.spot_usd_kwh, 0.08 / 0.9, 1e-12);
    assert_float_equal(terms.levies_usd_kwh, 0.108 / 6.75, 1e-12);
    assert_float_equal(terms.energy_usd_kwh, 0.08 / 0.9 + 0.108 / 6.75, 1e-12);
    assert_float_equal(terms.energy_p90_usd_kwh, 0.15 / 0.9 + 0.108 / 6.75, 1e-12);
    assert_float_equal(terms.heat_usd_kwh, 0.2 / 6.75, 1e-12);
    assert_float_equal(terms.colocation_usd_kw_month, 700 / 6.75, 1e-12);
    /* VAT that is not reclaimed is a cost */
    t.sites[0].vat_reclaimed = false;
    assert_int_equal(gp_site_terms_init(&terms, &t.sites[0], NULL, &fx, 0), 0);
    assert_float_equal(terms.energy_usd_kwh, (0.08 / 0.9 + 0.108 / 6.75) * 1.25, 1e-12);
    /* a currency without a rate is refused, naming it */
    strcpy(t.sites[0].currency, "SEK");
    assert_int_equal(gp_site_terms_init(&terms, &t.sites[0], NULL, &fx, 0), GP_ENOTFOUND);
    assert_non_null(strstr(gp_error_last(), "SEK"));
    gp_sites_release(&t);
}

static void servers_sit_in_the_racks_their_cooling_allows(void **state)
{
    struct gp_site_table t;
    struct gp_site_terms terms;
    struct gp_fx_rate r[2];
    struct gp_fx_table fx = rates(r);
    struct gp_site_fit fit;
    struct gp_gpu hgx, rack;
    char text[4096];

    (void)state;
    site_text(text, sizeof(text), "", "");
    assert_int_equal(gp_sites_parse(&t, text, strlen(text), "sites.json"), 0);
    assert_int_equal(gp_site_terms_init(&terms, &t.sites[0], NULL, &fx, 0), 0);
    assert_float_equal(terms.heat_usd_kwh, 0, 0); /* no heat sold without a heat figure */
    memset(&hgx, 0, sizeof(hgx));
    hgx.gpus_per_node = 8;
    hgx.tdp_w = 700;
    hgx.node_overhead_w = 2500;
    /* 8.1 kW: air, two to a 20 kW rack */
    gp_site_fit(&fit, &terms, &hgx, 1.3);
    assert_int_equal(fit.cooling, GP_COOLING_AIR);
    assert_float_equal(fit.server_kw, 8.1, 1e-12);
    assert_float_equal(fit.pue, 1.3, 1e-12);
    assert_int_equal(fit.servers_per_rack, 2);
    /* 2 kW GPUs in a 23.4 kW server need liquid: 4 to a 100 kW rack */
    hgx.tdp_w = 2000;
    hgx.node_overhead_w = 7400;
    gp_site_fit(&fit, &terms, &hgx, 1.3);
    assert_int_equal(fit.cooling, GP_COOLING_LIQUID);
    assert_float_equal(fit.pue, 1.15, 1e-12);
    assert_int_equal(fit.servers_per_rack, 4);
    /* the catalog's rack caps it: 16 GPUs a rack is two servers */
    hgx.rack = (struct gp_rack){16, 46.8, GP_COOLING_LIQUID};
    gp_site_fit(&fit, &terms, &hgx, 1.3);
    assert_int_equal(fit.servers_per_rack, 2);
    /* a 120 kW rack system does not fit a 100 kW liquid rack */
    memset(&rack, 0, sizeof(rack));
    rack.gpus_per_node = 72;
    rack.tdp_w = 1200;
    rack.node_overhead_w = 33600;
    rack.rack = (struct gp_rack){72, 120, GP_COOLING_LIQUID};
    gp_site_fit(&fit, &terms, &rack, 1.3);
    assert_int_equal(fit.servers_per_rack, 0);
    /* without a site: the assumption's PUE, no racks */
    gp_site_fit(&fit, NULL, &rack, 1.4);
    assert_float_equal(fit.pue, 1.4, 1e-12);
    assert_int_equal(fit.cooling, GP_COOLING_UNKNOWN);
    gp_sites_release(&t);
}

static void the_power_holds_whole_servers(void **state)
{
    struct gp_site_fit fit = {GP_COOLING_AIR, 1.25, 8.0, 2};

    (void)state;
    /* 10 kW of servers each: 100 of them in 1 MW, 99 in a watt less */
    assert_int_equal(gp_site_servers_within(&fit, 1000.0), 100);
    assert_int_equal(gp_site_servers_within(&fit, 999.999), 99);
    assert_int_equal(gp_site_servers_within(&fit, 9.0), 0);
    assert_int_equal(gp_site_servers_within(&fit, 0.0), 0);
}

static void running_cost_counts_energy_colocation_and_heat(void **state)
{
    struct gp_site site;
    struct gp_site_terms terms = {.site = &site,
                                  .spot_usd_kwh = 0.09,
                                  .levies_usd_kwh = 0.01,
                                  .energy_usd_kwh = 0.1,
                                  .energy_p90_usd_kwh = 0.2,
                                  .heat_usd_kwh = 0.03,
                                  .heat_recovery = 0.5,
                                  .colocation_usd_kw_month = 146.0};
    struct gp_site_fit fit = {GP_COOLING_AIR, 1.2, 8.0, 2};

    (void)state;
    /* 100 kW IT: 120 kW at 0.1 = 12, colocation 146 * 100 / 730 = 20, heat 100 * 0.5 * 0.03 */
    assert_float_equal(gp_site_running_per_hour(&terms, &fit, 100.0), 12.0 + 20.0 - 1.5, 1e-9);
}

static void periods_are_weighted_by_their_length(void **state)
{
    /* DK1: four quarter-hours at 100 and one hour at 40; SE3: one hour at 30 */
    struct gp_energy_price p[6] = {
        {"DK1", 0, 15, 100},    {"DK1", 900, 15, 100}, {"DK1", 1800, 15, 100},
        {"DK1", 2700, 15, 100}, {"DK1", 3600, 60, 40}, {"SE3", 0, 60, 30},
    };
    struct gp_energy_summary *s;
    size_t n;

    (void)state;
    assert_int_equal(gp_energy_summarize(&s, &n, p, 6), 0);
    assert_int_equal(n, 2);
    assert_string_equal(s[0].zone, "DK1");
    assert_int_equal(s[0].periods, 5);
    assert_float_equal(s[0].hours, 2.0, 1e-12);
    assert_float_equal(s[0].mean, 70.0, 1e-12); /* (1 h x 100 + 1 h x 40) / 2 h */
    assert_float_equal(s[0].p10, 40.0, 0);
    assert_float_equal(s[0].p90, 100.0, 0);
    assert_int_equal(s[0].from, 0);
    assert_int_equal(s[0].to, 7200);
    assert_float_equal(s[1].mean, 30.0, 0);
    free(s);
    assert_int_equal(gp_energy_summarize(&s, &n, p, 0), 0);
    assert_int_equal(n, 0);
    free(s);
}

static void a_week_of_history_replaces_the_reference_price(void **state)
{
    struct gp_site_table t;
    struct gp_site_terms terms;
    struct gp_fx_rate r[2];
    struct gp_fx_table fx = rates(r);
    struct gp_energy_summary week = {.zone = "DK1", .hours = 168, .mean = 50, .p90 = 90};
    char text[4096];

    (void)state;
    site_text(text, sizeof(text), "", "");
    assert_int_equal(gp_sites_parse(&t, text, strlen(text), "sites.json"), 0);
    assert_int_equal(gp_site_terms_init(&terms, &t.sites[0], &week, &fx, 0), 0);
    assert_true(terms.from_history);
    assert_float_equal(terms.spot_usd_kwh, 0.05 / 0.9, 1e-12);
    assert_float_equal(terms.energy_p90_usd_kwh, 0.09 / 0.9 + 0.108 / 6.75, 1e-12);
    /* less than a week: the site's reference figures stand */
    week.hours = 167;
    assert_int_equal(gp_site_terms_init(&terms, &t.sites[0], &week, &fx, 0), 0);
    assert_false(terms.from_history);
    assert_float_equal(terms.spot_usd_kwh, 0.08 / 0.9, 1e-12);
    gp_sites_release(&t);
}

static void the_embedded_sites_are_read(void **state)
{
    struct gp_site_table t;

    (void)state;
    assert_int_equal(gp_sites_load(&t), 0);
    /* every Nordic bidding zone */
    static const char *const zones[] = {"dk1", "dk2", "no1", "no2", "no3", "no4",
                                        "no5", "se1", "se2", "se3", "se4", "fi"};
    for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
        if (!gp_sites_find(&t, zones[i]))
            fail_msg("data/sites.json has no site '%s'", zones[i]);
    for (size_t i = 0; i < t.count; i++)
        assert_true(t.sites[i].spot_mean_eur_mwh.known && t.sites[i].pue_air.known);
    gp_sites_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_site_is_read_with_its_sources),
        cmocka_unit_test(bad_sites_are_refused_naming_the_field),
        cmocka_unit_test(a_site_twice_is_refused),
        cmocka_unit_test(energy_is_priced_all_in),
        cmocka_unit_test(servers_sit_in_the_racks_their_cooling_allows),
        cmocka_unit_test(the_power_holds_whole_servers),
        cmocka_unit_test(running_cost_counts_energy_colocation_and_heat),
        cmocka_unit_test(periods_are_weighted_by_their_length),
        cmocka_unit_test(a_week_of_history_replaces_the_reference_price),
        cmocka_unit_test(the_embedded_sites_are_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
