/* Unit tests for the fleet view and the fleet median (planner/fleetcal.c), table-driven: curves
 * in, rows, medians, suspects and bands out. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "planner/fleetcal.h"
#include "util/error.h"

static const struct gp_fleet_options defaults = {GP_FLEET_MAX_BELOW, GP_FLEET_MAX_CV};

/* A bf16 GEMM curve of an H100 on `host` with driver "550". */
static struct gp_fleet_curve gemm(const char *host, int device, double eff, double cv, int64_t at)
{
    struct gp_fleet_curve c = {host, device, "h100-sxm", "550/12.4", "gemm", "bf16", eff,
                               1e9,  989.0,  0.98,       1.01,       cv,     at};
    return c;
}

static const struct gp_fleet_row *find_row(const struct gp_fleet_row *rows, size_t n,
                                           const struct gp_fleet_curve *curves, const char *host,
                                           const char *kernel)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(curves[rows[i].newest].host, host) == 0 &&
            strcmp(curves[rows[i].newest].kernel, kernel) == 0)
            return &rows[i];
    return NULL;
}

static void test_quantile(void **state)
{
    static const struct {
        double values[5];
        size_t n;
        double q, want;
    } cases[] = {
        {{0}, 0, 0.5, 0.0},
        {{3}, 1, 0.1, 3.0},
        {{4, 1, 3, 2}, 4, 0.5, 2.5},
        {{5, 1, 4, 2, 3}, 5, 0.5, 3.0},
        {{5, 1, 4, 2, 3}, 5, 0.1, 1.4},
        {{5, 1, 4, 2, 3}, 5, 1.0, 5.0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        double v[5];
        memcpy(v, cases[i].values, sizeof(v));
        assert_true(fabs(gp_fleet_quantile(v, cases[i].n, cases[i].q) - cases[i].want) < 1e-12);
    }
}

/* Four nodes, one 20% low: only it is suspect, and it deviates by about -20%. */
static void test_view_flags_low_node(void **state)
{
    struct gp_fleet_curve curves[] = {
        gemm("n1", 0, 0.80, 0.01, 100),
        gemm("n2", 0, 0.81, 0.01, 100),
        gemm("n3", 0, 0.64, 0.01, 100),
        gemm("n4", 0, 0.79, 0.01, 100),
    };
    struct gp_fleet_row *rows = NULL;
    size_t n = 0;
    (void)state;

    assert_int_equal(gp_fleet_view(&rows, &n, curves, 4, &defaults), 0);
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++) {
        const struct gp_fleet_curve *c = &curves[rows[i].newest];
        assert_int_equal(rows[i].group, 4);
        assert_true(fabs(rows[i].median - 0.795) < 1e-12);
        assert_int_equal(rows[i].low, strcmp(c->host, "n3") == 0);
        assert_false(rows[i].unstable);
    }
    const struct gp_fleet_row *low = find_row(rows, n, curves, "n3", "gemm");
    assert_non_null(low);
    assert_true(fabs(low->deviation - (0.64 / 0.795 - 1.0)) < 1e-12);
    assert_true(fabs(low->eff_p10 - 0.64 * 0.98) < 1e-12);
    free(rows);
}

/* Runs of one GPU that disagree make it unstable; the newest run is the row's value; a
 * threshold decides how far below is too far. */
static void test_view_runs_and_thresholds(void **state)
{
    static const struct {
        double max_below, max_cv;
        bool n2_low, n1_unstable;
    } cases[] = {
        {0.07, 0.05, false, true},
        {0.01, 0.05, true, true},
        {0.07, 0.50, false, false},
    };
    struct gp_fleet_curve curves[] = {
        gemm("n1", 0, 0.60, 0.01, 100),
        gemm("n1", 0, 0.80, 0.01, 200),
        gemm("n2", 0, 0.78, 0.01, 100),
        gemm("n3", 0, 0.80, 0.01, 100),
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gp_fleet_options opt = {cases[i].max_below, cases[i].max_cv};
        struct gp_fleet_row *rows = NULL;
        size_t n = 0;
        assert_int_equal(gp_fleet_view(&rows, &n, curves, 4, &opt), 0);
        assert_int_equal(n, 3);
        const struct gp_fleet_row *n1 = find_row(rows, n, curves, "n1", "gemm");
        const struct gp_fleet_row *n2 = find_row(rows, n, curves, "n2", "gemm");
        assert_int_equal(n1->runs, 2);
        assert_int_equal(n1->newest, 1);
        assert_true(fabs(n1->eff_max - 0.80) < 1e-12);
        assert_true(n1->cv > 0.2);
        assert_int_equal(n1->unstable, cases[i].n1_unstable);
        assert_int_equal(n2->low, cases[i].n2_low);
        free(rows);
    }
}

/* Different software or GPU types are separate groups; a one-GPU group is never low. */
static void test_view_groups(void **state)
{
    struct gp_fleet_curve curves[] = {
        gemm("n1", 0, 0.80, 0.01, 100),
        gemm("n2", 0, 0.80, 0.01, 100),
        gemm("n3", 0, 0.50, 0.01, 100),
        gemm("n1", 1, 0.80, 0.01, 100),
    };
    struct gp_fleet_row *rows = NULL;
    size_t n = 0;
    (void)state;

    curves[2].software = "535/12.2";
    assert_int_equal(gp_fleet_view(&rows, &n, curves, 4, &defaults), 0);
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++) {
        assert_false(rows[i].low);
        assert_int_equal(rows[i].group, rows[i].newest == 2 ? 1 : 3);
    }
    free(rows);
    struct gp_fleet_options bad = {-0.1, 0.05};
    assert_int_equal(gp_fleet_view(&rows, &n, curves, 4, &bad), GP_EINVALID);
    assert_int_equal(gp_fleet_view(&rows, &n, curves, 0, &defaults), 0);
    assert_int_equal(n, 0);
    free(rows);
}

/* The fleet median uses each GPU's newest run, counts nodes and GPUs, and gives the band. */
static void test_estimate(void **state)
{
    struct gp_fleet_curve curves[] = {
        gemm("n1", 0, 0.50, 0.01, 100), gemm("n1", 0, 0.80, 0.01, 200),
        gemm("n1", 1, 0.82, 0.01, 200), gemm("n2", 0, 0.78, 0.01, 300),
        gemm("n3", 0, 0.60, 0.01, 150),
    };
    struct gp_fleet_estimate e;
    (void)state;

    curves[4].software = "535/12.2"; /* software does not split the planner's estimate */
    assert_int_equal(gp_fleet_estimate(&e, curves, 5, "h100-sxm", "gemm", "bf16"), 0);
    assert_int_equal(e.nodes, 3);
    assert_int_equal(e.gpus, 4);
    assert_true(fabs(e.eff_max - 0.79) < 1e-12);
    assert_int_equal(e.newest, 300);
    assert_true(fabs(e.low - (0.60 + 0.3 * (0.78 - 0.60)) / 0.79) < 1e-12);
    assert_true(e.high > 1.0 && e.high < 0.82 / 0.79 + 1e-12);
    assert_int_equal(gp_fleet_estimate(&e, curves, 5, "h100-sxm", "gemm", "fp8"), GP_ENOTFOUND);
    assert_int_equal(e.gpus, 0);
    assert_int_equal(gp_fleet_estimate(&e, curves, 5, "b200", "gemm", "bf16"), GP_ENOTFOUND);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantile),
        cmocka_unit_test(test_view_flags_low_node),
        cmocka_unit_test(test_view_runs_and_thresholds),
        cmocka_unit_test(test_view_groups),
        cmocka_unit_test(test_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
