/* Unit tests for calibrate/: statistics on known data, the curve fit on noisy synthetic points,
 * device-name mapping to GPU ids, and the shared input generator's exactness. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "calibrate/device_map.h"
#include "calibrate/fit.h"
#include "calibrate/stats.h"
#include "gpuplan/backend.h"
#include "kernels/common/bench_common.h"
#include "util/error.h"

static void test_stats_known_values(void **state)
{
    /* 1..10: median 5.5, type-7 p10 = 1.9, p90 = 9.1, mean 5.5, sample sd sqrt(55/6). */
    const double v[] = {7, 3, 10, 1, 5, 9, 2, 8, 4, 6};
    struct gp_stats s;

    (void)state;
    assert_int_equal(gp_stats_compute(&s, v, 10), 0);
    assert_int_equal(s.n, 10);
    assert_float_equal(s.min, 1.0, 1e-12);
    assert_float_equal(s.max, 10.0, 1e-12);
    assert_float_equal(s.median, 5.5, 1e-12);
    assert_float_equal(s.p10, 1.9, 1e-12);
    assert_float_equal(s.p90, 9.1, 1e-12);
    assert_float_equal(s.mean, 5.5, 1e-12);
    assert_float_equal(s.stddev, sqrt(55.0 / 6.0), 1e-12);
    assert_float_equal(s.cv, sqrt(55.0 / 6.0) / 5.5, 1e-12);
    /* The input is left in its order. */
    assert_float_equal(v[0], 7.0, 0.0);
}

static void test_stats_edge_cases(void **state)
{
    const double one[] = {4.25};
    const double odd[] = {3, 1, 2};
    const double bad[] = {1, NAN};
    struct gp_stats s;

    (void)state;
    assert_int_equal(gp_stats_compute(&s, one, 1), 0);
    assert_float_equal(s.median, 4.25, 0.0);
    assert_float_equal(s.p10, 4.25, 0.0);
    assert_float_equal(s.stddev, 0.0, 0.0);
    assert_float_equal(s.cv, 0.0, 0.0);
    assert_int_equal(gp_stats_compute(&s, odd, 3), 0);
    assert_float_equal(s.median, 2.0, 0.0);
    assert_float_equal(s.p90, 2.8, 1e-12);
    assert_int_equal(gp_stats_compute(&s, odd, 0), GP_EINVALID);
    assert_int_equal(gp_stats_compute(&s, bad, 2), GP_EINVALID);
}

/* Deterministic normal noise (Box-Muller over the shared hash). */
static double noise(uint64_t i)
{
    double u1 = ((double)(gp_bench_hash(11, i) >> 11) + 0.5) / 9007199254740992.0;
    double u2 = ((double)(gp_bench_hash(12, i) >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static void test_fit_recovers_parameters(void **state)
{
    /* Table: true curve, the size range, relative noise, and the tolerance on the parameters. */
    static const struct {
        double eff_max, s_half, s_lo, s_hi, noise, tol_e, tol_h;
    } cases[] = {
        {0.78, 3.0e10, 1.0e8, 1.0e13, 0.01, 0.02, 0.15},     /* GEMM-like, FLOP */
        {0.92, 4.0e6, 6.0e4, 4.0e9, 0.01, 0.02, 0.15},       /* bandwidth-like, bytes */
        {310.0, 2.0e8, 1.0e6, 1.0e11, 0.02, 0.03, 0.25},     /* absolute rate, GFLOP/s */
        {0.55, 1.0e9, 1.0e9, 1.0e9 * 4096, 0.0, 1e-6, 1e-4}, /* exact data */
    };
    double sizes[24], eff[24], resid[24];

    (void)state;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const size_t n = 24;
        for (size_t i = 0; i < n; i++) {
            sizes[i] = cases[c].s_lo * pow(cases[c].s_hi / cases[c].s_lo, (double)i / (n - 1));
            double truth = gp_fit_eval(cases[c].eff_max, cases[c].s_half, sizes[i]);
            eff[i] = truth * (1.0 + cases[c].noise * noise(c * 100 + i));
        }
        struct gp_fit_result fr;
        assert_int_equal(gp_fit_saturating(&fr, sizes, eff, n, resid), 0);
        assert_true(fabs(fr.eff_max / cases[c].eff_max - 1.0) < cases[c].tol_e);
        assert_true(fabs(fr.s_half / cases[c].s_half - 1.0) < cases[c].tol_h);
        assert_int_equal(fr.points, n);
        assert_true(fr.r2 > 0.98);
        double sse = 0.0;
        for (size_t i = 0; i < n; i++) {
            /* residual = data - curve at the fitted parameters */
            double r = eff[i] - gp_fit_eval(fr.eff_max, fr.s_half, sizes[i]);
            assert_true(fabs(r - resid[i]) < 1e-9 * fabs(cases[c].eff_max));
            sse += r * r;
        }
        assert_true(fabs(sqrt(sse / n) - fr.rmse) < 1e-9 * cases[c].eff_max);
        if (cases[c].noise > 0) {
            /* The standard errors are of the size of the noise, not zero or huge. */
            assert_true(fr.eff_max_se > 0 && fr.eff_max_se < 0.05 * cases[c].eff_max);
            assert_true(fr.s_half_se > 0 && fr.s_half_se < cases[c].s_half);
        }
    }
}

static void test_fit_rejects_bad_input(void **state)
{
    const double s[] = {1, 2, 3}, e[] = {0.1, 0.2, 0.3};
    const double s_neg[] = {1, -2, 3}, e_zero[] = {0, 0, 0}, e_nan[] = {0.1, NAN, 0.3};
    struct gp_fit_result fr;

    (void)state;
    assert_int_equal(gp_fit_saturating(&fr, s, e, 2, NULL), GP_EINVALID);
    assert_int_equal(gp_fit_saturating(&fr, s_neg, e, 3, NULL), GP_EINVALID);
    assert_int_equal(gp_fit_saturating(&fr, s, e_zero, 3, NULL), GP_EINVALID);
    assert_int_equal(gp_fit_saturating(&fr, s, e_nan, 3, NULL), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "not finite"));
}

static void test_device_map(void **state)
{
    static const struct {
        const char *name;
        double gib;
        const char *id; /* NULL: no id */
    } cases[] = {
        {"NVIDIA H200", 140.4, "h200-sxm"},
        {"NVIDIA H200 NVL", 140.4, "h200-nvl"},
        {"NVIDIA H100 80GB HBM3", 79.6, "h100-sxm"},
        {"NVIDIA H100 PCIe", 79.6, "h100-pcie"},
        {"NVIDIA H100 NVL", 93.6, NULL},
        {"NVIDIA B200", 178.4, "b200"},
        {"NVIDIA GB200", 184.0, "gb200-nvl72"},
        {"NVIDIA B300 SXM6 AC", 268.6, "b300"},
        {"NVIDIA GB300", 268.6, "gb300-nvl72"},
        {"NVIDIA GB200", 94.0, NULL}, /* half the memory: not a part the catalog knows */
        {"AMD Instinct MI300X", 191.98, "mi300x"},
        {"AMD Instinct MI300X", 23.99, NULL}, /* CPX partition: one XCD */
        {"AMD Instinct MI325X", 255.98, "mi325x"},
        {"AMD Instinct MI350X", 287.98, "mi350x"},
        {"AMD Instinct MI355X", 287.98, "mi355x"},
        {"NVIDIA A100-SXM4-80GB", 79.2, NULL},
        {"AMD EPYC 9654 96-Core Processor", 1536.0, NULL},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *got =
            gp_calibrate_map_device(cases[i].name, (uint64_t)(cases[i].gib * 1073741824.0));
        if (cases[i].id)
            assert_string_equal(got, cases[i].id);
        else
            assert_null(got);
    }
}

static void test_generator_exact_in_formats(void **state)
{
    /* Values are k * 2^-bits in [-1, 1] and spread over the whole range. */
    static const int bits[] = {23, 10, 7, 3};
    (void)state;
    for (size_t b = 0; b < sizeof(bits) / sizeof(bits[0]); b++) {
        double lo = 1, hi = -1;
        for (uint64_t i = 0; i < 4096; i++) {
            double v = gp_bench_value(5, i, bits[b]);
            double scaled = v * (double)(1u << bits[b]);
            assert_true(v >= -1.0 && v <= 1.0);
            assert_float_equal(scaled, nearbyint(scaled), 0.0);
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
        assert_true(lo < -0.9 && hi > 0.9);
    }
    /* Bandwidth expectations are exact in double. */
    assert_float_equal(gp_bench_stream_expect(GP_BENCH_TRIAD, 9, 0, 77),
                       gp_bench_value(10, 77, 23) + 3.0 * gp_bench_value(11, 77, 23), 0.0);
    assert_true(gp_bench_settled((const double[]){1.0, 1.01, 0.99}, 3, 0.05));
    assert_false(gp_bench_settled((const double[]){1.0, 1.2, 0.99}, 3, 0.05));
    assert_false(gp_bench_settled((const double[]){1.0, 1.0}, 2, 0.05));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_known_values),
        cmocka_unit_test(test_stats_edge_cases),
        cmocka_unit_test(test_fit_recovers_parameters),
        cmocka_unit_test(test_fit_rejects_bad_input),
        cmocka_unit_test(test_device_map),
        cmocka_unit_test(test_generator_exact_in_formats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
