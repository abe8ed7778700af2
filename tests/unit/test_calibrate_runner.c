/* Unit tests for the calibration runner on a synthetic device: an in-process backend that claims
 * to be an H200 and reports timings from a known efficiency curve. The runner must map it to
 * h200-sxm, measure the planned shapes, and its fits must give the curves back; a step that
 * reports more than the datasheet peak, or that the backend fails, must be listed as failed
 * instead of recorded, while the rest of the plan runs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "calibrate/calibrate.h"
#include "catalog/catalog.h"
#include "gpuplan/backend.h"
#include "util/error.h"

/* The synthetic device's truth: efficiency curves relative to the H200 datasheet, scaled. */
static struct {
    double gemm_eff_max, gemm_s_half; /* bf16, FLOP */
    double bw_eff_max, bw_s_half;     /* bytes moved per run */
    double scale;                     /* > 1 makes the device claim more than it can */
    double peak_bf16, peak_bw;        /* from the catalog, TFLOP/s and GB/s */
    int fail_m;                       /* a GEMM with this m fails in the backend; 0 none */
    int calls;
} truth;

static int fake_probe(char *reason, size_t size)
{
    snprintf(reason, size, "%s", "");
    return 100;
}

static int fake_init(void)
{
    return GP_BACKEND_OK;
}

static void fake_shutdown(void)
{
}

static int fake_device_count(void)
{
    return 1;
}

static int fake_device_info(int index, struct gp_device_info *out)
{
    (void)index;
    memset(out, 0, sizeof(*out));
    snprintf(out->name, sizeof(out->name), "NVIDIA H200");
    snprintf(out->vendor, sizeof(out->vendor), "nvidia");
    out->memory_bytes = 150754820096ull;
    out->llc_bytes = 50ull << 20;
    out->precisions = GP_BENCH_PRECISION_BIT(GP_BENCH_BF16);
    return GP_BACKEND_OK;
}

static int fake_bench(int device, const struct gp_bench_params *p, struct gp_bench_result *out)
{
    double work, rate;

    (void)device;
    truth.calls++;
    if (p->impl == GP_BENCH_IMPL_OWN)
        return GP_BACKEND_EUNSUPPORTED; /* a library-only device: own-kernel steps are skipped */
    if (p->kind == GP_BENCH_GEMM && p->m == truth.fail_m)
        return GP_BACKEND_EFAIL;
    if (p->kind == GP_BENCH_GEMM) {
        work = 2.0 * p->m * (double)p->n * p->k;
        rate = truth.peak_bf16 * 1e12 * truth.gemm_eff_max * work / (work + truth.gemm_s_half);
    } else {
        work = gp_bench_arrays_moved(p->kind) * (double)p->array_bytes;
        rate = truth.peak_bw * 1e9 * truth.bw_eff_max * work / (work + truth.bw_s_half);
    }
    rate *= truth.scale;
    out->samples = p->min_repetitions + 2;
    for (int i = 0; i < out->samples; i++) /* +-1% around the truth, symmetric */
        out->times_s[i] = work / rate * (1.0 + 0.01 * ((i % 3) - 1));
    out->warmups = 1;
    out->work = work;
    out->max_error = 0.0;
    out->checked = 1;
    snprintf(out->impl, sizeof(out->impl), "fake-lib");
    return GP_BACKEND_OK;
}

static const char *fake_last_error(void)
{
    return "injected failure";
}

static const struct gp_backend_ops fake_ops = {
    GP_BACKEND_ABI_VERSION,
    "fake",
    "synthetic H200",
    fake_probe,
    fake_init,
    fake_shutdown,
    fake_device_count,
    fake_device_info,
    fake_bench,
    fake_last_error,
};

struct fixture {
    struct gp_catalog catalog;
    struct gp_device_info info;
    struct gp_backend_candidate candidate;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    if (!f || gp_catalog_load(&f->catalog) != 0)
        return -1;
    const struct gp_gpu *h200 = gp_catalog_find(&f->catalog, "h200-sxm");
    if (!h200)
        return -1;
    truth.peak_bf16 = h200->peak_tflops[GP_BF16];
    truth.peak_bw = h200->hbm_tbs * 1000.0;
    truth.scale = 1.0;
    fake_device_info(0, &f->info);
    snprintf(f->candidate.name, sizeof(f->candidate.name), "fake");
    snprintf(f->candidate.path, sizeof(f->candidate.path), "in-process");
    f->candidate.loaded = 1;
    f->candidate.score = 100;
    f->candidate.ops = &fake_ops;
    f->candidate.devices = &f->info;
    f->candidate.device_count = 1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    gp_catalog_release(&f->catalog);
    free(f);
    return 0;
}

static const struct gp_calibration_fit *find_fit(const struct gp_calibration *c, const char *kernel)
{
    for (size_t i = 0; i < c->fit_count; i++)
        if (strcmp(c->fits[i].kernel, kernel) == 0)
            return &c->fits[i];
    return NULL;
}

static void test_recovers_the_device_curves(void **state)
{
    struct fixture *f = *state;
    struct gp_calibrate_options options = {0, 42, NULL, NULL};
    struct gp_calibration run;
    struct gp_calibrate_failed failed;
    int skinny = 0, squares = 0;

    truth.gemm_eff_max = 0.78;
    truth.gemm_s_half = 3.0e10;
    truth.bw_eff_max = 0.88;
    truth.bw_s_half = 2.0e7;
    truth.scale = 1.0;
    assert_int_equal(gp_calibrate_device(&run, &failed, &f->candidate, 0, &f->catalog, &options),
                     0);
    assert_int_equal(failed.count, 0);
    assert_string_equal(run.gpu_id, "h200-sxm");
    assert_string_equal(run.backend, "fake");
    assert_int_equal(strlen(run.fingerprint), 32);
    assert_non_null(strstr(run.conditions, "\"steps_planned\""));

    for (size_t i = 0; i < run.point_count; i++) {
        const struct gp_calibration_point *p = &run.points[i];
        assert_true(p->p10 <= p->median && p->median <= p->p90);
        assert_true(p->repetitions >= 3);
        if (strcmp(p->kernel, "gemm") == 0) {
            assert_string_equal(p->precision, "bf16");
            skinny += p->m <= 256 && p->n == p->k && p->n >= 4096 && p->m != p->n;
            squares += p->m == p->n && p->n == p->k;
        } else {
            /* Bandwidth arrays beat the cache: >= 1 GiB on a GPU, or windows of such arrays. */
            assert_true(p->bytes >= 64u * 1024u);
        }
    }
    assert_true(skinny >= 5);  /* LLM decode shapes, M = 1..256 */
    assert_true(squares >= 5); /* square sweep */

    const struct gp_calibration_fit *gemm = find_fit(&run, "gemm");
    const struct gp_calibration_fit *bw = find_fit(&run, "bandwidth");
    assert_non_null(gemm);
    assert_non_null(bw);
    assert_float_equal(gemm->peak, truth.peak_bf16, 1e-9);
    assert_true(fabs(gemm->eff_max / truth.gemm_eff_max - 1.0) < 0.02);
    assert_true(fabs(gemm->s_half / truth.gemm_s_half - 1.0) < 0.1);
    assert_true(gemm->r2 > 0.99);
    assert_float_equal(bw->peak, truth.peak_bw, 1e-9);
    assert_true(fabs(bw->eff_max / truth.bw_eff_max - 1.0) < 0.02);
    assert_true(fabs(bw->s_half / truth.bw_s_half - 1.0) < 0.1);
    gp_calibration_release(&run);
}

/* A rate above the datasheet fails its step, not the run: the record keeps the steps below
 * the peak and lists the others; when every step is above it, there is no record. */
static void test_above_peak_fails_the_step(void **state)
{
    struct fixture *f = *state;
    struct gp_calibrate_options options = {1, 42, NULL, NULL};
    struct gp_calibration run;
    struct gp_calibrate_failed failed;

    truth.scale = 1.4; /* 0.88 x 1.4 of the HBM bandwidth: 123% of the datasheet */
    assert_int_equal(gp_calibrate_device(&run, &failed, &f->candidate, 0, &f->catalog, &options),
                     0);
    assert_true(failed.count > 0);
    assert_int_equal(failed.first_code, GP_EINVALID);
    assert_non_null(strstr(failed.steps[0], "above the h200-sxm datasheet peak"));
    assert_non_null(strstr(run.conditions, "\"failed_steps\""));
    assert_true(run.point_count > 0);
    for (size_t i = 0; i < run.point_count; i++) {
        const struct gp_calibration_point *p = &run.points[i];
        assert_true(p->median <=
                    (strcmp(p->kernel, "gemm") == 0 ? truth.peak_bf16 : truth.peak_bw));
    }
    gp_calibration_release(&run);

    truth.scale = 1e6;
    assert_int_equal(gp_calibrate_device(&run, &failed, &f->candidate, 0, &f->catalog, &options),
                     GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "above the h200-sxm datasheet peak"));
    assert_null(run.points);
    assert_int_equal(run.point_count, 0);
    truth.scale = 1.0;
}

/* A step the backend fails is listed with the backend's message, and the plan goes on. */
static void test_failed_step_is_listed_and_the_plan_goes_on(void **state)
{
    struct fixture *f = *state;
    struct gp_calibrate_options options = {1, 42, NULL, NULL};
    struct gp_calibration run;
    struct gp_calibrate_failed failed;
    int after = 0;

    truth.fail_m = 32; /* the decode shape 32 x 8192 x 8192 */
    assert_int_equal(gp_calibrate_device(&run, &failed, &f->candidate, 0, &f->catalog, &options),
                     0);
    assert_int_equal(failed.count, 1);
    assert_int_equal(failed.first_code, GP_ERROR);
    assert_non_null(strstr(failed.steps[0], "gemm bf16 32x8192x8192 on fake: injected failure"));
    assert_non_null(strstr(run.conditions, "\"steps_failed\":1"));
    for (size_t i = 0; i < run.point_count; i++) {
        assert_false(strcmp(run.points[i].kernel, "gemm") == 0 && run.points[i].m == 32);
        after += strcmp(run.points[i].kernel, "gemm") == 0 && run.points[i].m == 256;
    }
    assert_int_equal(after, 1); /* the next decode shape still ran */
    assert_true(run.fit_count >= 2);
    gp_calibration_release(&run);
    truth.fail_m = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recovers_the_device_curves),
        cmocka_unit_test(test_above_peak_fails_the_step),
        cmocka_unit_test(test_failed_step_is_listed_and_the_plan_goes_on),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
