/* Unit tests for calibration records: exchange files round-trip, bad files fail with located
 * messages, the store de-duplicates by fingerprint, and the planner query returns the newest
 * curve per kernel and precision. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "calibrate/calibrate.h"
#include "calibrate/exchange.h"
#include "catalog/catalog.h"
#include "store/calibrations.h"
#include "store/store.h"
#include "tests/unit/store_fixture.h"
#include "util/error.h"

static int setup(void **state)
{
    *state = store_fixture_open("calib");
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    return store_fixture_close(*state);
}

/* A plausible H200 run: bandwidth points and bf16 square GEMMs, fitted for real. */
static void make_run(struct gp_calibration *c, const struct gp_catalog *cat, int64_t when,
                     double scale)
{
    static const int sizes[] = {512, 1024, 2048, 4096, 8192};
    const struct gp_gpu *h200 = gp_catalog_find(cat, "h200-sxm");

    memset(c, 0, sizeof(*c));
    snprintf(c->gpu_id, sizeof(c->gpu_id), "h200-sxm");
    snprintf(c->backend, sizeof(c->backend), "cuda");
    snprintf(c->device_name, sizeof(c->device_name), "NVIDIA H200");
    snprintf(c->host, sizeof(c->host), "node-%02d", (int)(when % 100));
    c->started_at = when;
    c->conditions = strdup("{\"memory_bytes\":150754820096,\"power_limit_w\":700}");
    c->points = calloc(9, sizeof(*c->points));
    for (int i = 0; i < 4; i++) {
        struct gp_calibration_point *p = &c->points[c->point_count++];
        snprintf(p->kernel, sizeof(p->kernel), "triad");
        snprintf(p->impl, sizeof(p->impl), "double2 x4 grid-stride");
        p->bytes = (uint64_t)1 << (20 + 3 * i);
        p->size = 3.0 * (double)p->bytes;
        p->median = scale * 4000.0 * p->size / (p->size + 2e7);
        p->p10 = p->median * 0.98;
        p->p90 = p->median * 1.01;
        p->cv = 0.01;
        p->repetitions = 20;
        p->warmups = 3;
        p->max_error = 0;
    }
    for (int i = 0; i < 5; i++) {
        struct gp_calibration_point *p = &c->points[c->point_count++];
        snprintf(p->kernel, sizeof(p->kernel), "gemm");
        snprintf(p->precision, sizeof(p->precision), "bf16");
        snprintf(p->impl, sizeof(p->impl), "cuBLASLt");
        p->m = p->n = p->k = sizes[i];
        p->size = 2.0 * sizes[i] * (double)sizes[i] * sizes[i];
        p->median = scale * 760.0 * p->size / (p->size + 3e10);
        p->p10 = p->median * 0.97;
        p->p90 = p->median * 1.02;
        p->cv = 0.02;
        p->repetitions = 10;
        p->warmups = 4;
        p->max_error = 0.01;
    }
    assert_int_equal(gp_calibrate_fit_all(c, h200), 0);
    gp_calibrate_fingerprint(c);
}

static void test_fit_all_on_a_run(void **state)
{
    struct store_fixture *f = *state;
    struct gp_calibration c;

    make_run(&c, &f->catalog, 1790000000, 1.0);
    assert_int_equal(c.fit_count, 2);
    const struct gp_calibration_fit *bw =
        strcmp(c.fits[0].kernel, "bandwidth") == 0 ? &c.fits[0] : &c.fits[1];
    const struct gp_calibration_fit *gemm = bw == &c.fits[0] ? &c.fits[1] : &c.fits[0];
    assert_string_equal(gemm->precision, "bf16");
    assert_float_equal(gemm->peak, 989.0, 1.0);
    assert_float_equal(gemm->eff_max, 760.0 / gemm->peak, 1e-3);
    assert_float_equal(gemm->s_half / 3e10, 1.0, 1e-3);
    assert_float_equal(bw->peak, 4800.0, 1.0);
    assert_float_equal(bw->eff_max, 4000.0 / 4800.0, 1e-3);
    assert_int_equal(strlen(c.fingerprint), 32);
    gp_calibration_release(&c);
}

static void test_exchange_round_trip_and_store(void **state)
{
    struct store_fixture *f = *state;
    struct gp_calibration runs[2], *back = NULL, *stored = NULL;
    size_t n = 0, added = 0, skipped = 0;
    char *text = NULL;

    make_run(&runs[0], &f->catalog, 1790000000, 1.0);
    make_run(&runs[1], &f->catalog, 1790086400, 1.05);
    assert_int_equal(gp_exchange_format(&text, runs, 2), 0);
    assert_int_equal(gp_exchange_parse(&back, &n, text, strlen(text), "x.json", &f->catalog), 0);
    assert_int_equal(n, 2);
    for (size_t r = 0; r < 2; r++) {
        assert_string_equal(back[r].fingerprint, runs[r].fingerprint);
        assert_string_equal(back[r].host, runs[r].host);
        assert_int_equal(back[r].started_at, runs[r].started_at);
        assert_int_equal(back[r].point_count, runs[r].point_count);
        assert_int_equal(back[r].fit_count, runs[r].fit_count);
        for (size_t i = 0; i < back[r].point_count; i++) {
            assert_string_equal(back[r].points[i].kernel, runs[r].points[i].kernel);
            assert_int_equal(back[r].points[i].m, runs[r].points[i].m);
            assert_float_equal(back[r].points[i].median, runs[r].points[i].median, 1e-9);
            assert_float_equal(back[r].points[i].residual, runs[r].points[i].residual, 1e-12);
        }
        assert_float_equal(back[r].fits[0].eff_max, runs[r].fits[0].eff_max, 1e-12);
    }

    int flags[3] = {-1, -1, -1};
    assert_int_equal(gp_store_calibrations_insert(f->store, back, 1, flags, &added, &skipped), 0);
    assert_int_equal(added, 1);
    assert_int_equal(flags[0], 1);
    /* Run 0 again with run 1: only run 1 is new. */
    assert_int_equal(gp_store_calibrations_insert(f->store, runs, 2, flags, &added, &skipped), 0);
    assert_int_equal(added, 1);
    assert_int_equal(skipped, 1);
    assert_int_equal(flags[0], 0);
    assert_int_equal(flags[1], 1);
    assert_int_equal(gp_store_calibrations_insert(f->store, back, 2, NULL, &added, &skipped), 0);
    assert_int_equal(added, 0);
    assert_int_equal(skipped, 2);

    assert_int_equal(gp_store_calibrations_list(f->store, &stored, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(stored[1].point_count, runs[1].point_count);
    assert_string_equal(stored[1].conditions, runs[1].conditions);

    struct gp_calibration_curve *curves = NULL;
    assert_int_equal(gp_store_calibration_fits_for_gpu(f->store, "h200-sxm", &curves, &n), 0);
    /* Both runs' curves, the older run first; the planner picks among them. */
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(curves[i].started_at, i < 2 ? runs[0].started_at : 1790086400);
        assert_string_equal(curves[i].host, runs[i < 2 ? 0 : 1].host);
        assert_true(curves[i].eff_max > 0.0 && curves[i].eff_max <= 1.0);
    }
    free(curves);
    assert_int_equal(gp_store_calibration_fits_for_gpu(f->store, "mi300x", &curves, &n), 0);
    assert_int_equal(n, 0);
    free(curves);

    gp_calibrations_free(stored, 2);
    gp_calibrations_free(back, 2);
    gp_calibration_release(&runs[0]);
    gp_calibration_release(&runs[1]);
    free(text);
}

/* `text` with the first `find` replaced by `replace`, malloc'd; *len its length. */
static char *edit(const char *text, const char *find, const char *replace, size_t *len)
{
    const char *at = strstr(text, find);
    assert_non_null(at);
    size_t head = (size_t)(at - text), flen = strlen(find), rlen = strlen(replace);
    char *out = malloc(strlen(text) - flen + rlen + 1);
    assert_non_null(out);
    memcpy(out, text, head);
    memcpy(out + head, replace, rlen);
    memcpy(out + head + rlen, at + flen, strlen(at + flen) + 1);
    *len = strlen(out);
    return out;
}

static void test_bad_imports_are_located(void **state)
{
    struct store_fixture *f = *state;
    struct gp_calibration good, *out = NULL;
    size_t n = 0;
    char *text = NULL;
    /* Table: a text edit applied to a valid file, and what the message must name. */
    static const struct {
        const char *find, *replace, *expect;
    } cases[] = {
        {"\"median\"", "\"medain\"", "calibrations[0].points[0].medain"},
        {"\"kernel\":\t\"triad\"", "\"kernel\":\t\"triadd\"", "did you mean \"triad\""},
        {"\"gpu_id\":\t\"h200-sxm\"", "\"gpu_id\":\t\"h200\"", "calibrations[0].gpu_id"},
        {"\"schema_version\":\t2", "\"schema_version\":\t9",
         "schema_version: 9: the file was "
         "written by a newer gpuplan"},
        {"\"schema_version\":\t2", "\"schema_version\":\t0", "0 is not a schema version"},
        {"\"exported_by\":", "\"exported_as\":", "exported_as"},
        {"\"repetitions\":\t20", "\"repetitions\":\t-1", "points[0].repetitions"},
        {"\"started_at\":\t\"", "\"started_at\":\t\"yesterday", "started_at"},
        {"\"points\":\t[", "\"points\":\t[[", "invalid JSON"},
    };

    make_run(&good, &f->catalog, 1790000000, 1.0);
    assert_int_equal(gp_exchange_format(&text, &good, 1), 0);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t len = 0;
        char *bad = edit(text, cases[i].find, cases[i].replace, &len);
        assert_int_equal(gp_exchange_parse(&out, &n, bad, len, "bad.json", &f->catalog),
                         GP_EINVALID);
        assert_null(out);
        assert_non_null(strstr(gp_error_last(), "bad.json:"));
        if (!strstr(gp_error_last(), cases[i].expect))
            fail_msg("case %zu: \"%s\" lacks \"%s\"", i, gp_error_last(), cases[i].expect);
        free(bad);
    }
    free(text);
    gp_calibration_release(&good);
}

/* A schema 1 file (no exported_by) is read as it was written. */
static void test_older_schema_is_upgraded(void **state)
{
    struct store_fixture *f = *state;
    struct gp_calibration good, *out = NULL;
    size_t n = 0, len = 0;
    char *text = NULL, *v1 = NULL;

    make_run(&good, &f->catalog, 1790000000, 1.0);
    assert_int_equal(gp_exchange_format(&text, &good, 1), 0);
    v1 = edit(text, "\"schema_version\":\t2", "\"schema_version\":\t1", &len);
    char *by = strstr(v1, "\"exported_by\"");
    char *end = strchr(by, '\n');
    memmove(by, end + 1, strlen(end + 1) + 1);
    assert_int_equal(gp_exchange_parse(&out, &n, v1, strlen(v1), "v1.json", &f->catalog), 0);
    assert_int_equal(n, 1);
    assert_string_equal(out[0].fingerprint, good.fingerprint);
    assert_int_equal(out[0].point_count, good.point_count);
    gp_calibrations_free(out, n);
    free(v1);
    free(text);
    gp_calibration_release(&good);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fit_all_on_a_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exchange_round_trip_and_store, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_imports_are_located, setup, teardown),
        cmocka_unit_test_setup_teardown(test_older_schema_is_upgraded, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
