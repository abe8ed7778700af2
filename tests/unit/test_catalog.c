/* Unit tests for catalog/: the embedded GPU catalog, its validation, FX lookups, data listing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "catalog/fx.h"
#include "util/error.h"

static void embedded_catalog_is_complete(void **state)
{
    static const char *const ids[] = {"h100-pcie", "h100-sxm", "h200-sxm", "h200-nvl", "b200",
                                      "mi300x",    "mi325x",   "mi350x",   "mi355x"};
    struct gp_catalog cat;
    (void)state;

    assert_int_equal(gp_catalog_load(&cat), 0);
    assert_int_equal(cat.count, 9);
    for (size_t i = 0; i < 9; i++) {
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(embedded_catalog_is_complete),
        cmocka_unit_test(catalog_rejects_bad_entries),
        cmocka_unit_test(fx_picks_rate_in_force),
        cmocka_unit_test(data_lists_embedded_prices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
