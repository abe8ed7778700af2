/* Unit tests for software stack profiles (data/stacks.json): parsing and its errors, each
 * vendor's default, claims, and how a profile changes the model's answer; and for the
 * uncertainty bands (data/bands.json). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "planner/bands.h"
#include "planner/efficiency.h"
#include "planner/model.h"
#include "planner/stack.h"
#include "planner/workload.h"
#include "util/buf.h"
#include "util/error.h"

static struct gp_catalog cat;
static struct gp_efficiency_table effs;
static struct gp_model_table models;
static struct gp_stack_table stacks;

static int parse_data(const char *rel, int (*fn)(void *, const char *, size_t, const char *),
                      void *out)
{
    struct gp_buf buf;
    char origin[256];
    size_t len;
    gp_buf_init(&buf, 1 << 20);
    int rc = gp_data_read(&buf, rel, origin, sizeof(origin));
    char *text = gp_buf_detach(&buf, &len);
    if (!rc)
        rc = fn(out, text, len, rel);
    free(text);
    return rc;
}

static int eff_parse(void *o, const char *t, size_t n, const char *f)
{
    return gp_efficiency_table_parse(o, t, n, f);
}
static int model_parse(void *o, const char *t, size_t n, const char *f)
{
    return gp_model_table_parse(o, t, n, f);
}
static int stack_parse(void *o, const char *t, size_t n, const char *f)
{
    return gp_stack_table_parse(o, t, n, f);
}
static int bands_parse(void *o, const char *t, size_t n, const char *f)
{
    return gp_bands_parse(o, t, n, f);
}

static int setup(void **state)
{
    (void)state;
    if (gp_catalog_load(&cat) || parse_data("efficiency.json", eff_parse, &effs) ||
        parse_data("models.json", model_parse, &models) ||
        parse_data("stacks.json", stack_parse, &stacks))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gp_catalog_release(&cat);
    gp_efficiency_table_release(&effs);
    gp_model_table_release(&models);
    gp_stack_table_release(&stacks);
    return 0;
}

static int parse_text(const char *json)
{
    struct gp_stack_table t;
    int rc = gp_stack_table_parse(&t, json, strlen(json), "s.json");
    gp_stack_table_release(&t);
    return rc;
}

#define PROFILE(extra)                                                                             \
    "{\"schema_version\": 1, \"stacks\": [{\"name\": \"a\", \"stack\": \"A\", \"version\": "       \
    "\"1\", \"as_of\": \"2024-01-01\", \"vendors\": [\"nvidia\"], \"source\": \"s\", " extra "}]}"
#define PHASES(prefill)                                                                            \
    "\"phases\": {\"prefill\": " prefill ", \"decode\": {\"factor\": 0.8, \"fitted_on\": \"x\", "  \
    "\"confidence\": \"low\"}}"

static void test_parse_errors(void **state)
{
    (void)state;
    assert_int_equal(parse_text(PROFILE(PHASES("{\"factor\": 0.7, \"fitted_on\": \"x\", "
                                               "\"confidence\": \"low\"}"))),
                     0);
    assert_int_equal(parse_text(PROFILE(PHASES("{\"factor\": 1.5, \"fitted_on\": \"x\", "
                                               "\"confidence\": \"low\"}"))),
                     GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "stacks[0].phases.prefill.factor"));
    assert_int_equal(parse_text(PROFILE(PHASES("{\"factor\": 0.7, \"fitted_on\": \"\", "
                                               "\"confidence\": \"low\"}"))),
                     GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "fitted_on"));
    assert_int_equal(parse_text(PROFILE(PHASES("{\"factor\": 0.7, \"fitted_on\": \"x\", "
                                               "\"confidence\": \"sure\"}"))),
                     GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "not high, medium or low"));
    /* A profile with prefill, decode and one more phase at value v (a string). */
#define WITH_PHASE(phase, v)                                                                       \
    PROFILE("\"phases\": {\"prefill\": {\"factor\": 0.7, \"fitted_on\": \"x\", "                   \
            "\"confidence\": \"low\"}, \"decode\": {\"factor\": 0.8, \"fitted_on\": \"x\", "       \
            "\"confidence\": \"low\"}, \"" phase "\": {\"factor\": " v ", \"fitted_on\": "         \
            "\"engine default\", \"confidence\": \"high\"}}")
    /* kv_reserve is a share of the answer, 0 (blocks as tokens come) to 1 (all of it). */
    assert_int_equal(parse_text(WITH_PHASE("kv_reserve", "0")), 0);
    assert_int_equal(parse_text(WITH_PHASE("kv_reserve", "1")), 0);
    assert_int_equal(parse_text(WITH_PHASE("kv_reserve", "1.5")), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "stacks[0].phases.kv_reserve.factor"));
    assert_int_equal(parse_text(WITH_PHASE("kv_reserve", "-0.1")), GP_EINVALID);
    /* layer_us is a time per layer in microseconds, 0 to 1000. */
    assert_int_equal(parse_text(WITH_PHASE("layer_us", "60")), 0);
    assert_int_equal(parse_text(WITH_PHASE("layer_us", "1000")), 0);
    assert_int_equal(parse_text(WITH_PHASE("layer_us", "1500")), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "stacks[0].phases.layer_us.factor"));
    assert_non_null(strstr(gp_error_last(), "between 0 and 1000"));
    assert_int_equal(parse_text(WITH_PHASE("layer_us", "-1")), GP_EINVALID);
#undef WITH_PHASE
    /* A profile without factors, or a claim without a measured base, says so. */
    assert_int_equal(parse_text(PROFILE("\"phases\": {}")), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "needs prefill and decode"));
    assert_int_equal(parse_text(PROFILE("\"claim\": {\"inference\": 2}")), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "stacks[0].base"));
    assert_int_equal(parse_text(PROFILE("\"claim\": {\"inference\": 2}, \"base\": \"b\"")),
                     GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "'b' is not a measured profile"));
    static const char *intel =
        "{\"schema_version\": 1, \"stacks\": [{\"name\": \"a\", \"stack\": \"A\", "
        "\"version\": \"1\", \"as_of\": \"2024-01-01\", \"vendors\": [\"intel\"], "
        "\"source\": \"s\"}]}";
    assert_int_equal(parse_text(intel), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "stacks[0].vendors[0]: 'intel' is not nvidia or amd"));
}

static void test_shipped_profiles(void **state)
{
    (void)state;
    assert_true(stacks.count >= 8);
    /* Defaults: the production profile of each vendor, though newer ones (atom) exist; claims
     * never. */
    assert_string_equal(gp_stack_default(&stacks, GP_VENDOR_NVIDIA, true)->name, "trtllm-2025");
    assert_string_equal(gp_stack_default(&stacks, GP_VENDOR_AMD, true)->name, "rocm-7");
    assert_string_equal(gp_stack_default(&stacks, GP_VENDOR_NVIDIA, false)->name, "nemo-24.09");
    assert_string_equal(gp_stack_default(&stacks, GP_VENDOR_AMD, false)->name, "rocm-7");
    assert_true(gp_stack_find(&stacks, "atom")->as_of[0] > 0);
    assert_true(strcmp(gp_stack_find(&stacks, "atom")->as_of, "2025-11-03") > 0);
    const struct gp_stack *claim = gp_stack_find(&stacks, "rocm-10-claim");
    assert_non_null(claim);
    assert_true(claim->claim && claim->claim_inference == 3.3 && claim->claim_training == 2.4);
    assert_string_equal(claim->base, "rocm-7");
    /* Every factor of every profile says what it was fitted on. */
    for (size_t i = 0; i < stacks.count; i++)
        for (int p = 0; p < GP_PHASE_COUNT; p++)
            if (stacks.stacks[i].phase[p].factor > 0)
                assert_true(strlen(stacks.stacks[i].phase[p].fitted_on) > 10);
}

/* The claim multiplies its base's answer; calibration still replaces the kernel-level curves. */
static void test_claim_and_calibration(void **state)
{
    struct gp_workload w;
    struct gp_efficiency base, claim;
    struct gp_perf pb, pc;
    const struct gp_gpu *g = gp_catalog_find(&cat, "mi300x");
    (void)state;
    memset(&w, 0, sizeof(w));
    w.kind = GP_WORKLOAD_INFERENCE;
    w.model = *gp_model_table_find(&models, "llama-3.1-70b");
    w.inference = (struct gp_inference){.precision = GP_FP8,
                                        .kv_precision = GP_FP8,
                                        .input_tokens = 1024,
                                        .output_tokens = 1024,
                                        .memory_fraction = 0.9};
    gp_efficiency_resolve(&base, &effs, g->id);
    claim = base;
    gp_stack_apply(&base, &stacks, gp_stack_find(&stacks, "rocm-7"));
    gp_stack_apply(&claim, &stacks, gp_stack_find(&stacks, "rocm-10-claim"));
    assert_string_equal(claim.stack, "rocm-10-claim");
    assert_true(claim.vendor_claim && !base.vendor_claim);
    assert_true(claim.serve_compute == base.serve_compute);
    gp_model_evaluate(&pb, &w, g, &base, 1.0, 0);
    gp_model_evaluate(&pc, &w, g, &claim, 1.0, 0);
    assert_true(pb.feasible && pc.feasible);
    assert_true(fabs(pc.replica_rate / pb.replica_rate - 3.3) < 1e-9);
    /* An older stack is slower on the same GPU. */
    struct gp_efficiency old;
    struct gp_perf po;
    gp_efficiency_resolve(&old, &effs, "h100-sxm");
    struct gp_efficiency newer = old;
    gp_stack_apply(&old, &stacks, gp_stack_find(&stacks, "vllm-cuda"));
    gp_stack_apply(&newer, &stacks, gp_stack_find(&stacks, "trtllm-2025"));
    gp_model_evaluate(&po, &w, gp_catalog_find(&cat, "h100-sxm"), &old, 1.0, 0);
    gp_model_evaluate(&pb, &w, gp_catalog_find(&cat, "h100-sxm"), &newer, 1.0, 0);
    assert_true(po.replica_rate < pb.replica_rate);
    /* A profile's per-layer latency replaces the default and slows a step at batch 1: SGLang
     * on ROCm pays 320 us a layer, against the 20 us of data/efficiency.json. */
    struct gp_efficiency plain, sgl;
    struct gp_perf pp, ps;
    gp_efficiency_resolve(&plain, &effs, g->id);
    sgl = plain;
    gp_stack_apply(&sgl, &stacks, gp_stack_find(&stacks, "sglang-rocm-0.5"));
    assert_true(fabs(sgl.layer_overhead_s - 320e-6) < 1e-12);
    assert_true(fabs(plain.layer_overhead_s - 20e-6) < 1e-12);
    sgl.serve_memory = plain.serve_memory; /* the layer time alone */
    w.inference.max_batch = 1;
    gp_model_evaluate(&pp, &w, g, &plain, 1.0, 0);
    gp_model_evaluate(&ps, &w, g, &sgl, 1.0, 0);
    assert_true(pp.feasible && ps.feasible);
    assert_true(ps.tpot_ms - pp.tpot_ms > 0.9 * w.model.layers * 0.300);
    w.inference.max_batch = 0;
    /* Calibration after the stack keeps the stack's factors. */
    struct gp_eff_override ov;
    memset(&ov, 0, sizeof(ov));
    ov.bandwidth_set = true;
    ov.bandwidth = (struct gp_eff_curve){0.5, 1e6};
    gp_efficiency_apply(&newer, &ov);
    assert_true(newer.bandwidth.eff_max == 0.5);
    assert_string_equal(newer.stack, "trtllm-2025");
}

static void test_bands(void **state)
{
    struct gp_bands b;
    double e[] = {0.9, 0.05, 0.1, 0.0, 0.05, 0.1, 0.12, 0.2, 0.3, 0.25}, q = 0;
    static const char *dup = "{\"schema_version\": 1, \"coverage\": 0.8, \"bands\": [{\"class\": "
                             "\"inference-moe\", \"low\": 0.5, \"high\": 2, \"cases\": 4}, "
                             "{\"class\": \"inference-moe\", \"low\": 0.5, \"high\": 2, "
                             "\"cases\": 4}]}";
    (void)state;
    /* The ceil(11 x 0.8) = 9th smallest of 10 absolute errors; all 10 for 0.9; too few for 0.95
     * (the 11th of 10) and for 0.8 of 3 cases (the 4th of 3). */
    assert_int_equal(gp_bands_conformal(e, 10, 0.8, &q), 0);
    assert_true(q == 0.3);
    assert_int_equal(gp_bands_conformal(e, 10, 0.9, &q), 0);
    assert_true(q == 0.9);
    assert_int_equal(gp_bands_conformal(e, 10, 0.95, &q), -1);
    assert_int_equal(gp_bands_conformal(e, 3, 0.8, &q), -1);
    assert_int_equal(gp_bands_conformal(e, 0, 0.8, &q), -1);
    assert_int_equal(gp_bands_parse(&b, dup, strlen(dup), "b.json"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "duplicate class"));
    /* The shipped bands: every class with cases, and no band narrower than a point. */
    assert_int_equal(parse_data("bands.json", bands_parse, &b), 0);
    assert_true(b.coverage == 0.8);
    for (int c = 0; c < GP_BAND_COUNT; c++)
        if (b.band[c].cases > 0)
            assert_true(b.band[c].low < b.band[c].high);
    struct gp_workload w;
    memset(&w, 0, sizeof(w));
    w.kind = GP_WORKLOAD_TRAINING;
    assert_int_equal(gp_band_class_of(&w, 8, 8), GP_BAND_TRAINING_NODE);
    assert_int_equal(gp_band_class_of(&w, 16, 8), GP_BAND_TRAINING_SCALE);
    w.kind = GP_WORKLOAD_INFERENCE;
    w.model = *gp_model_table_find(&models, "mixtral-8x7b");
    assert_int_equal(gp_band_class_of(&w, 1, 8), GP_BAND_INFERENCE_MOE);
    w.kind = GP_WORKLOAD_GENERIC;
    assert_int_equal(gp_band_class_of(&w, 1, 8), -1);
}

/* A plan's band: the model's error and the engine spread in quadrature, the optimistic end
 * widened by the drift for each year of the evidence's age; bad spreads and drifts refused. */
static void test_band_widening(void **state)
{
    struct gp_bands b;
    static const char *bad_spread = "{\"schema_version\": 1, \"coverage\": 0.8, \"bands\": "
                                    "[{\"class\": \"inference-moe\", \"low\": 0.5, \"high\": 2, "
                                    "\"cases\": 4, \"engine_spread\": -0.1}]}";
    static const char *bad_drift = "{\"schema_version\": 1, \"coverage\": 0.8, "
                                   "\"drift_per_year\": 7, \"bands\": []}";
    (void)state;

    struct gp_band band = {.low = exp(-0.3), .high = exp(0.4), .cases = 5, .spread = 0.4};
    gp_band_widen(&band, 0.25, 2.0);
    assert_float_equal(log(band.low), -0.5, 1e-12); /* sqrt(0.09 + 0.16) */
    assert_float_equal(log(band.high), sqrt(0.32) + 0.5, 1e-12);
    struct gp_band fresh = {.low = exp(-0.3), .high = exp(0.4), .cases = 5};
    gp_band_widen(&fresh, 0.25, -1.0); /* evidence from the future ages nothing */
    assert_float_equal(log(fresh.low), -0.3, 1e-12);
    assert_float_equal(log(fresh.high), 0.4, 1e-12);
    struct gp_band none = {0};
    gp_band_widen(&none, 0.25, 3.0);
    assert_true(none.low == 0 && none.high == 0);
    assert_int_equal(gp_bands_parse(&b, bad_spread, strlen(bad_spread), "b.json"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "engine_spread: must be between 0 and 5"));
    assert_int_equal(gp_bands_parse(&b, bad_drift, strlen(bad_drift), "b.json"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "drift_per_year: must be between 0 and 5"));
    assert_int_equal(parse_data("bands.json", bands_parse, &b), 0);
    assert_true(b.drift_per_year > 0);
    assert_true(b.band[GP_BAND_INFERENCE_MOE].spread > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_errors),          cmocka_unit_test(test_shipped_profiles),
        cmocka_unit_test(test_claim_and_calibration), cmocka_unit_test(test_bands),
        cmocka_unit_test(test_band_widening),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
