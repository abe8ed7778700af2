/* Unit tests for catalog/: the embedded GPU catalog, its validation, FX lookups, data listing,
 * purchase-price estimates and the --capex choice. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/capex.h"
#include "catalog/clusters.h"
#include "catalog/catalog.h"
#include "catalog/data.h"
#include "catalog/fx.h"
#include "catalog/regions.h"
#include "util/error.h"

static void embedded_catalog_is_complete(void **state)
{
    static const char *const ids[] = {"h100-pcie",     "h100-sxm",   "h200-sxm",    "h200-nvl",
                                      "b200",          "b300",       "gb200-nvl72", "gb300-nvl72",
                                      "mi300x",        "mi325x",     "mi350x",      "mi355x",
                                      "mi455x-helios", "vr200-nvl72"};
    const size_t nids = sizeof ids / sizeof ids[0];
    struct gp_catalog cat;
    (void)state;

    assert_int_equal(gp_catalog_load(&cat), 0);
    assert_int_equal(cat.count, nids);
    for (size_t i = 0; i < nids; i++) {
        const struct gp_gpu *g = gp_catalog_find(&cat, ids[i]);
        assert_non_null(g);
        assert_true(g->hbm_gb > 0 && g->hbm_tbs > 0 && g->tdp_w > 0);
        assert_true(g->peak_tflops[GP_BF16] > 0);
        /* dense tensor peaks: fp8 is twice bf16 on every catalog part */
        assert_true(g->peak_tflops[GP_FP8] > 1.99 * g->peak_tflops[GP_BF16]);
        assert_true(strstr(g->source, "https://") != NULL);
    }
    /* fp4 only on Blackwell and CDNA 4 */
    assert_true(gp_catalog_find(&cat, "h100-sxm")->peak_tflops[GP_FP4] == 0);
    assert_true(gp_catalog_find(&cat, "b200")->peak_tflops[GP_FP4] > 0);
    assert_true(gp_catalog_find(&cat, "mi355x")->peak_tflops[GP_FP4] > 0);
    assert_true(gp_catalog_find(&cat, "mi300x")->peak_tflops[GP_FP4] == 0);
    /* H100 SXM dense BF16 is 989.4 TFLOP/s, not the sparse 1979 */
    assert_true(gp_catalog_find(&cat, "h100-sxm")->peak_tflops[GP_BF16] < 1000);

    const struct gp_gpu *g;
    assert_int_equal(gp_catalog_require(&cat, "mi300", &g), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "did you mean 'mi300x'?"));
    gp_catalog_release(&cat);
    gp_catalog_release(NULL);
}

static void catalog_rejects_bad_entries(void **state)
{
    static const struct {
        const char *text;
        const char *message;
    } cases[] = {
        {"[]", "must be an object"},
        {"{\"gpus\": {}}", "gpus: must be an array"},
        {"{\"gpus\": [1]}", "gpus[0]: must be an object"},
        {"{\"gpus\": [{\"id\": \"H100\"}]}", "gpus[0].id: must be lower-case"},
        {"{\"gpus\": [{\"id\": \"x\", \"nmae\": 1}]}", "did you mean 'name'?"},
        {"{\"gpuz\": []}", "did you mean 'gpus'?"},
    };
    struct gp_catalog cat;
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int rc = gp_catalog_parse(&cat, cases[i].text, strlen(cases[i].text), "c.json");
        assert_int_equal(rc, GP_EINVALID);
        if (!strstr(gp_error_last(), cases[i].message))
            fail_msg("case %zu: '%s' lacks '%s'", i, gp_error_last(), cases[i].message);
    }
}

static void fx_picks_rate_in_force(void **state)
{
    static const char text[] =
        "{\"base\": \"USD\", \"rates\": ["
        "{\"date\": \"2026-01-01\", \"currency\": \"EUR\", \"per_usd\": 0.9},"
        "{\"date\": \"2026-06-01\", \"currency\": \"EUR\", \"per_usd\": 0.8}]}";
    struct gp_fx_table fx;
    double rate = 0;
    (void)state;

    assert_int_equal(gp_fx_parse(&fx, text, strlen(text), "fx.json"), 0);
    assert_int_equal(gp_fx_per_usd(&fx, "EUR", 1767225600 + 86400, &rate), 0); /* 2026-01-02 */
    assert_true(rate == 0.9);
    assert_int_equal(gp_fx_per_usd(&fx, "EUR", 1900000000, &rate), 0);
    assert_true(rate == 0.8);
    assert_int_equal(gp_fx_per_usd(&fx, "EUR", 0, &rate), 0); /* before all: earliest */
    assert_true(rate == 0.9);
    assert_int_equal(gp_fx_per_usd(&fx, "USD", 0, &rate), 0);
    assert_true(rate == 1.0);
    assert_int_equal(gp_fx_per_usd(&fx, "JPY", 0, &rate), GP_ENOTFOUND);
    gp_fx_release(&fx);

    assert_int_equal(gp_fx_load(&fx), 0);
    assert_int_equal(gp_fx_per_usd(&fx, "DKK", 1790000000, &rate), 0);
    assert_true(rate > 6.0 && rate < 8.0); /* about 7 DKK per USD in 2026 */
    gp_fx_release(&fx);
}

static void data_lists_embedded_prices(void **state)
{
    char **files = NULL;
    size_t n = 0;
    (void)state;

    assert_int_equal(gp_data_list(&files, &n, "prices", ".json"), 0);
    assert_true(n >= 5);
    for (size_t i = 1; i < n; i++)
        assert_true(strcmp(files[i - 1], files[i]) < 0);
    gp_data_list_free(files, n);
}

/* Every shipping GPU of the catalog has a sourced, ordered estimate; an
 * announced one has no price anyone can pay yet. */
static void capex_covers_catalog(void **state)
{
    struct gp_catalog cat;
    struct gp_capex_table capex;
    (void)state;

    assert_int_equal(gp_catalog_load(&cat), 0);
    assert_int_equal(gp_capex_load(&capex), 0);
    assert_int_equal(capex.count, 12);
    for (size_t i = 0; i < cat.count; i++) {
        const struct gp_capex_estimate *e = gp_capex_find(&capex, cat.gpus[i].id);
        if (cat.gpus[i].status == GP_STATUS_ANNOUNCED) {
            assert_null(e);
            continue;
        }
        if (!e)
            fail_msg("%s has no purchase-price estimate", cat.gpus[i].id);
        assert_true(e->per_gpu.low <= e->per_gpu.typical && e->per_gpu.typical <= e->per_gpu.high);
        /* A server costs more than its GPUs alone. */
        assert_true(e->per_server.typical > e->server_gpus * e->per_gpu.typical);
        assert_true(e->date > 0);
        assert_non_null(strstr(e->source_url, "https://"));
    }
    assert_null(gp_capex_find(&capex, "a100"));
    gp_capex_release(&capex);
    gp_capex_release(NULL);
    gp_catalog_release(&cat);
}

static void capex_rejects_bad_entries(void **state)
{
    static const struct {
        const char *text;
        const char *message;
    } cases[] = {
        {"{\"schema_version\": 1, \"currency\": \"EUR\", \"estimates\": []}",
         "currency: must be \"USD\""},
        {"{\"schema_version\": 1, \"currency\": \"USD\", \"estimates\": [{\"gpu\": \"b200\", "
         "\"date\": \"2026-01-01\", \"per_gpu\": {\"low\": 3, \"typical\": 2, \"high\": 4}}]}",
         "estimates[0].per_gpu: must hold 0 < low <= typical <= high"},
        {"{\"schema_version\": 1, \"currency\": \"USD\", \"estimates\": [{\"gpu\": \"b200\", "
         "\"date\": \"soon\"}]}",
         "estimates[0].date: 'soon' is not a date"},
        {"{\"schema_version\": 1, \"currency\": \"USD\", \"estimates\": [{\"gpu\": \"b200\", "
         "\"date\": \"2026-01-01\", \"per_gpu\": {\"low\": 1, \"typical\": 2, \"high\": 3}, "
         "\"per_server\": {\"gpus\": 0, \"low\": 1, \"typical\": 2, \"high\": 3}}]}",
         "estimates[0].per_server.gpus: must be at least 1"},
        {"{\"schema_version\": 1, \"currency\": \"USD\", \"estimatse\": []}",
         "did you mean 'estimates'?"},
    };
    struct gp_capex_table capex;
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int rc = gp_capex_parse(&capex, cases[i].text, strlen(cases[i].text), "capex.json");
        assert_int_equal(rc, GP_EINVALID);
        if (!strstr(gp_error_last(), cases[i].message))
            fail_msg("case %zu: '%s' lacks '%s'", i, gp_error_last(), cases[i].message);
    }
}

/* --capex: one price for all, or a map; bad parts are named. */
static void capex_choice_parses(void **state)
{
    static const struct {
        const char *text;
        const char *message; /* NULL: accepted */
    } bad[] = {
        {"0", "price '0' is not a price above zero"},
        {"cheap", "price 'cheap' is not a price above zero"},
        {"b200=", "b200 '' is not a price above zero"},
        {"=5", "'=5': expected GPU=PRICE"},
        {"b200=1,,mi355x=2", "expected GPU=PRICE,GPU=PRICE"},
        {"b200=1,b200=2", "'b200' is given twice"},
        {"b200=-3", "b200 '-3' is not a price above zero"},
    };
    struct gp_capex_choice c;
    (void)state;

    assert_int_equal(gp_capex_choice_parse(&c, "38000"), 0);
    assert_true(gp_capex_choice_price(&c, "b200") == 38000);
    assert_int_equal(gp_capex_choice_parse(&c, "b200=38000,mi355x=27000"), 0);
    assert_int_equal(c.count, 2);
    assert_true(gp_capex_choice_price(&c, "mi355x") == 27000);
    assert_true(gp_capex_choice_price(&c, "h100-sxm") == 0);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(gp_capex_choice_parse(&c, bad[i].text), GP_EINVALID);
        if (!strstr(gp_error_last(), bad[i].message))
            fail_msg("'%s': '%s' lacks '%s'", bad[i].text, gp_error_last(), bad[i].message);
    }
}

static struct gp_offer placed(const char *provider, const char *region)
{
    struct gp_offer o;

    memset(&o, 0, sizeof(o));
    snprintf(o.provider, sizeof(o.provider), "%s", provider);
    snprintf(o.region, sizeof(o.region), "%s", region);
    return o;
}

/* Region codes resolve to a country and jurisdiction: exact codes, globs, codes that are the
 * country itself; an unknown provider or code stays unknown. */
static void regions_resolve_places(void **state)
{
    static const struct {
        const char *provider, *region, *country, *jurisdiction;
    } cases[] = {
        {"aws", "eu-central-1", "DE", "eu"},
        {"azure", "norwayeast", "NO", "eea"},
        {"azure", "westeurope", "NL", "eu"},
        {"oci", "uk-london-1", "GB", "uk"},
        {"lambda", "us-south-2", "US", "us"},
        {"runpod", "EU-RO-1", "RO", "eu"},
        {"vast", "SE", "SE", "eu"},
        {"vast", "ZZ", "", ""},
        {"vultr", "fra", "DE", "eu"},
        {"digitalocean", "ams3", "NL", "eu"},
        {"scaleway", "fr-par-2", "FR", "eu"},
        {"scaleway", "pl-waw-2", "PL", "eu"},
        {"ovh", "GRA11", "FR", "eu"},
        {"ovh", "BHS5", "CA", "ca"},
        {"aws", "xx-nowhere-9", "", ""},
        {"tensorwave", "us-east", "", ""},
        {"aws", "", "", ""},
    };
    struct gp_region_table t;
    (void)state;

    assert_int_equal(gp_regions_load(&t), 0);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gp_offer o = placed(cases[i].provider, cases[i].region);
        gp_regions_resolve(&t, &o);
        if (strcmp(o.country, cases[i].country) || strcmp(o.jurisdiction, cases[i].jurisdiction))
            fail_msg("%s %s: %s/%s, expected %s/%s", cases[i].provider, cases[i].region, o.country,
                     o.jurisdiction, cases[i].country, cases[i].jurisdiction);
    }
    assert_true(gp_regions_knows_jurisdiction(&t, "eea"));
    assert_true(gp_regions_knows_jurisdiction(&t, "us"));
    assert_false(gp_regions_knows_jurisdiction(&t, "mars"));
    gp_regions_release(&t);
}

/* A region naming a country the table does not list, a bad country code or jurisdiction, and a
 * provider without its source are refused with the field named. */
static void regions_reject_bad_entries(void **state)
{
    static const struct {
        const char *text, *field;
    } bad[] = {
        {"{\"schema_version\": 1, \"countries\": {\"DE\": \"eu\"}, \"providers\": [{\"provider\": "
         "\"x\", \"source\": \"s\", \"regions\": {\"r1\": \"FR\"}}]}",
         "providers[0].regions.r1"},
        {"{\"schema_version\": 1, \"countries\": {\"Deu\": \"eu\"}, \"providers\": []}",
         "countries.Deu"},
        {"{\"schema_version\": 1, \"countries\": {\"DE\": \"EU\"}, \"providers\": []}",
         "countries.DE"},
        {"{\"schema_version\": 1, \"countries\": {}, \"providers\": [{\"provider\": \"x\", "
         "\"regions\": {}}]}",
         "source"},
    };
    struct gp_region_table t;
    (void)state;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(gp_regions_parse(&t, bad[i].text, strlen(bad[i].text), "r.json"),
                         GP_EINVALID);
        if (!strstr(gp_error_last(), bad[i].field))
            fail_msg("case %zu: '%s' does not name %s", i, gp_error_last(), bad[i].field);
        assert_null(t.rules);
    }
}

/* The bundled cluster table: bare-metal and InfiniBand shapes form clusters with their fabric;
 * pods and single machines do not; the first matching entry decides. */
static void clusters_say_which_offers_form_one(void **state)
{
    struct gp_cluster_table t;
    const struct gp_cluster_rule *r;
    (void)state;

    assert_int_equal(gp_clusters_load(&t), 0);
    r = gp_clusters_find(&t, "azure", "Standard_ND96isr_MI300X_v5");
    assert_non_null(r);
    assert_true(r->cluster && r->fabric_gbps == 3200);
    assert_string_equal(r->fabric, "InfiniBand");
    r = gp_clusters_find(&t, "oci", "BM.GPU.MI355X.8");
    assert_true(r && r->cluster && r->fabric_gbps == 0);
    r = gp_clusters_find(&t, "digitalocean", "gpu-mi325x8-2048gb-fabric-contracted");
    assert_true(r && r->cluster);
    r = gp_clusters_find(&t, "digitalocean", "gpu-mi300x8-1536gb");
    assert_true(r && !r->cluster);
    assert_false(gp_clusters_find(&t, "runpod", "B200 (secure cloud)")->cluster);
    assert_null(gp_clusters_find(&t, "nowhere", "x"));
    assert_null(gp_clusters_find(NULL, "oci", "BM.GPU.MI355X.8"));
    gp_clusters_release(&t);
}

/* A cluster without its fabric, a speed out of range, a fabric on a non-cluster, an unknown key
 * and an empty provider are refused with the field named. */
static void clusters_reject_bad_entries(void **state)
{
#define ENTRY(body) "{\"schema_version\": 1, \"offers\": [{\"source\": \"s\", " body "}]}"
    static const struct {
        const char *text, *field;
    } bad[] = {
        {ENTRY("\"provider\": \"a\", \"instance_type\": \"*\", \"cluster\": true"),
         "offers[0].fabric"},
        {ENTRY("\"provider\": \"a\", \"instance_type\": \"*\", \"cluster\": true, "
               "\"fabric\": \"IB\", \"fabric_gbps\": -4"),
         "offers[0].fabric_gbps"},
        {ENTRY("\"provider\": \"a\", \"instance_type\": \"*\", \"cluster\": false, "
               "\"fabric\": \"IB\""),
         "offers[0].fabric"},
        {ENTRY("\"provider\": \"a\", \"instance_type\": \"*\", \"clustr\": true"), "clustr"},
        {ENTRY("\"provider\": \"\", \"instance_type\": \"*\", \"cluster\": false"),
         "offers[0].provider"},
    };
#undef ENTRY
    struct gp_cluster_table t;
    (void)state;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(gp_clusters_parse(&t, bad[i].text, strlen(bad[i].text), "c.json"),
                         GP_EINVALID);
        if (!strstr(gp_error_last(), bad[i].field))
            fail_msg("case %zu: '%s' does not name %s", i, gp_error_last(), bad[i].field);
        assert_null(t.rules);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(embedded_catalog_is_complete),
        cmocka_unit_test(catalog_rejects_bad_entries),
        cmocka_unit_test(fx_picks_rate_in_force),
        cmocka_unit_test(data_lists_embedded_prices),
        cmocka_unit_test(capex_covers_catalog),
        cmocka_unit_test(capex_rejects_bad_entries),
        cmocka_unit_test(capex_choice_parses),
        cmocka_unit_test(regions_resolve_places),
        cmocka_unit_test(regions_reject_bad_entries),
        cmocka_unit_test(clusters_say_which_offers_form_one),
        cmocka_unit_test(clusters_reject_bad_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
