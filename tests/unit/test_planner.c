/* Unit tests for the planner: workload parsing and its errors, the performance model, fleet
 * sizing and cost, ranking, the --set/--sweep keys and the efficiency table. */
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
#include "planner/buy.h"
#include "planner/efficiency.h"
#include "planner/fleet.h"
#include "planner/model.h"
#include "planner/rent_own.h"
#include "planner/sweep.h"
#include "planner/workload.h"
#include "util/buf.h"
#include "tests/unit/planner_fixture.h"
#include "util/error.h"
#include "util/text.h"

static struct gp_efficiency eff_for(const char *id)
{
    struct gp_efficiency e;
    gp_efficiency_resolve(&e, &effs, id);
    return e;
}

static int parse(struct gp_workload *w, const char *json)
{
    return gp_workload_parse(w, json, strlen(json), "test.json", &models);
}

/* An inference workload on a preset, target max, no latency limits, 0.9 of HBM. */
static struct gp_workload inference(const char *model, enum gp_precision p, double in, double out)
{
    struct gp_workload w = fixture_inference(model, p, in, out);
    w.inference.memory_fraction = 0.9;
    return w;
}

/* A BF16 training workload on a preset: Adam (12 bytes a parameter), ZeRO-1, 4k sequences. */
static struct gp_workload training(const char *model, double tokens, int gpus, double batch)
{
    struct gp_workload w;
    memset(&w, 0, sizeof(w));
    w.kind = GP_WORKLOAD_TRAINING;
    w.model = *gp_model_table_find(&models, model);
    w.training = (struct gp_training){.precision = GP_BF16,
                                      .tokens = tokens,
                                      .gpus = gpus,
                                      .optimizer_bytes = 12,
                                      .zero_stage = 1,
                                      .seq_len = 4096,
                                      .micro_batch = 1,
                                      .global_batch_tokens = batch};
    return w;
}

/* ---- workloads ------------------------------------------------------------------------------ */

static void test_presets_parse(void **state)
{
    char **list = NULL;
    size_t count = 0;
    (void)state;
    assert_int_equal(gp_data_list(&list, &count, "workloads", ".json"), 0);
    assert_true(count >= 5);
    for (size_t i = 0; i < count; i++) {
        char *text;
        size_t len;
        struct gp_workload w;
        assert_int_equal(load_data(&text, &len, list[i]), 0);
        if (gp_workload_parse(&w, text, len, list[i], &models))
            fail_msg("%s: %s", list[i], gp_error_last());
        free(text);
    }
    gp_data_list_free(list, count);
}

static void test_parse_fields(void **state)
{
    struct gp_workload w;
    (void)state;
    assert_int_equal(parse(&w, "{\"kind\": \"inference\", \"model\": \"llama-3.1-70b\", "
                               "\"precision\": \"fp4\", \"input_tokens\": 512, "
                               "\"output_tokens\": 128, \"target\": {\"output_tokens_per_s\": "
                               "9000}, \"tpot_ms\": 40}"),
                     0);
    assert_string_equal(w.name, "test");
    assert_int_equal(w.inference.precision, GP_FP4);
    assert_int_equal(w.inference.kv_precision, GP_FP8); /* never narrower than fp8 by default */
    assert_int_equal(w.inference.load, GP_LOAD_OUTPUT_TOKENS);
    assert_true(w.inference.rate == 9000);
    assert_true(w.inference.memory_fraction == 0);
    assert_int_equal(w.model.layers, 80);
    assert_true(fabs(w.model.params - 70.55e9) / 70.55e9 < 0.01);
    assert_int_equal(w.inference.expert_parallel, 0); /* the planner chooses */
    assert_int_equal(parse(&w, "{\"kind\": \"inference\", \"model\": \"deepseek-r1\", "
                               "\"input_tokens\": 1024, \"output_tokens\": 1024, \"target\": "
                               "\"max\", \"expert_parallel\": 8}"),
                     0);
    assert_int_equal(w.inference.expert_parallel, 8);
    assert_int_equal(parse(&w, "{\"kind\": \"training\", \"model\": \"llama-2-70b\", "
                               "\"tokens\": 1e9, \"gpus\": 8, \"trainable_fraction\": 0.001, "
                               "\"critical_batch_tokens\": 1048576}"),
                     0);
    assert_true(w.training.trainable_fraction == 0.001);
    assert_true(w.training.critical_batch_tokens == 1048576);
}

struct bad_case {
    const char *json;
    const char *expect; /* substring of the message */
};

static void test_parse_errors(void **state)
{
    static const struct bad_case cases[] = {
        {"{\"kind\": \"inference\", \"model\": \"llama-3.1-70b\", \"input_tokenz\": 1}",
         "unknown key (did you mean 'input_tokens'?)"},
        {"{\"kind\": \"inferense\"}", "did you mean 'inference'"},
        {"{\"kind\": \"inference\", \"model\": \"llama-3.1-7b\", \"input_tokens\": 1, "
         "\"output_tokens\": 1, \"target\": \"max\"}",
         "unknown model 'llama-3.1-7b' (did you mean"},
        {"{\"kind\": \"inference\",\n \"model\": {\"layers\": 0, \"hidden\": 4096, \"heads\": 32, "
         "\"ffn\": 1, \"vocab\": 1},\n \"input_tokens\": 1, \"output_tokens\": 1, \"target\": "
         "\"max\"}",
         "test.json:2:"},
        {"{\"kind\": \"inference\", \"model\": {\"layers\": 0, \"hidden\": 4096, \"heads\": 32, "
         "\"ffn\": 1, \"vocab\": 1}, \"input_tokens\": 1, \"output_tokens\": 1, \"target\": "
         "\"max\"}",
         "model.layers: must be between 1"},
        {"{\"kind\": \"inference\", \"model\": \"llama-2-70b\", \"input_tokens\": -5, "
         "\"output_tokens\": 1, \"target\": \"max\"}",
         "input_tokens: must be between 1"},
        {"{\"kind\": \"inference\", \"model\": \"llama-2-70b\", \"precision\": \"fp9\", "
         "\"input_tokens\": 5, \"output_tokens\": 1, \"target\": \"max\"}",
         "did you mean 'fp8'"},
        {"{\"kind\": \"inference\", \"model\": \"llama-2-70b\", \"input_tokens\": 5, "
         "\"output_tokens\": 1}",
         "target: required field is missing"},
        {"{\"kind\": \"inference\", \"model\": \"llama-2-70b\", \"input_tokens\": 5, "
         "\"output_tokens\": 1, \"target\": {\"requests_per_s\": 0}}",
         "target.requests_per_s: must be greater than 0"},
        {"{\"kind\": \"inference\", \"model\": {\"layers\": 2, \"hidden\": 64, \"heads\": 8, "
         "\"kv_heads\": 3, \"ffn\": 1, \"vocab\": 1}, \"input_tokens\": 1, \"output_tokens\": 1, "
         "\"target\": \"max\"}",
         "model.kv_heads: must divide heads"},
        {"{\"kind\": \"training\", \"model\": \"llama-2-70b\", \"tokens\": 1e9, "
         "\"deadline_hours\": 10, \"gpus\": 8}",
         "give exactly one of deadline_hours and gpus"},
        {"{\"kind\": \"training\", \"model\": \"llama-2-70b\", \"tokens\": 1e9, \"gpus\": 8, "
         "\"zero_stage\": 4}",
         "zero_stage: must be between 0 and 3"},
        /* The ranges --set uses (planner/keys.c), not looser ones of their own. */
        {"{\"kind\": \"inference\", \"model\": \"llama-2-70b\", \"input_tokens\": 5, "
         "\"output_tokens\": 1, \"target\": \"max\", \"memory_fraction\": 0.005}",
         "memory_fraction: must be 0 (the engine's) or between 0.01 and 1"},
        {"{\"kind\": \"training\", \"model\": \"llama-2-70b\", \"tokens\": 1e9, "
         "\"deadline_hours\": 0.0005}",
         "deadline_hours: must be 0 (sized by gpus) or between 0.001 and 1e+06 h"},
        {"{\"kind\": \"training\", \"model\": \"llama-2-70b\", \"tokens\": 1e9, \"gpus\": 8, "
         "\"pipeline_parallel\": 3}",
         "pipeline_parallel: must be 0 (choose) or a power of 2 up to 65536"},
        {"{\"kind\": \"inference\", \"model\": \"llama-2-70b\", \"input_tokens\": 5, "
         "\"output_tokens\": 1, \"target\": \"max\", \"expert_parallel\": 4}",
         "expert_parallel: needs a mixture-of-experts model"},
        {"{\"kind\": \"inference\", \"model\": \"deepseek-r1\", \"input_tokens\": 5, "
         "\"output_tokens\": 1, \"target\": \"max\", \"expert_parallel\": 6}",
         "expert_parallel: must be 0 (choose) or a power of 2 up to 64 GPUs"},
        {"{\"kind\": \"inference\", \"model\": \"deepseek-r1\", \"input_tokens\": 5, "
         "\"output_tokens\": 1, \"target\": \"max\", \"expert_parallel\": 4, "
         "\"tensor_parallel\": 2}",
         "expert_parallel: must be 1, or equal tensor_parallel (2)"},
        {"{\"kind\": \"training\", \"model\": \"llama-2-70b\", \"tokens\": 1e9, \"gpus\": 8, "
         "\"trainable_fraction\": 1.5}",
         "trainable_fraction: must be between 0 (all) and 1"},
        {"{\"kind\": \"training\", \"model\": \"llama-2-70b\", \"tokens\": 1e9, \"gpus\": 8, "
         "\"critical_batch_tokens\": -1}",
         "critical_batch_tokens: must be between 0 (none assumed) and 1e+12 tokens"},
        {"{\"kind\": \"inference\", \"model\": {\"layers\": 2, \"hidden\": 64, \"heads\": 8, "
         "\"ffn\": 1, \"vocab\": 1, \"sliding_layers\": 3, \"sliding_window\": 8}, "
         "\"input_tokens\": 1, \"output_tokens\": 1, \"target\": \"max\"}",
         "model.sliding_layers: must be at most layers (2)"},
        {"{\"kind\": \"inference\", \"model\": {\"layers\": 2, \"hidden\": 64, \"heads\": 8, "
         "\"ffn\": 1, \"vocab\": 1, \"sliding_layers\": 1}, \"input_tokens\": 1, "
         "\"output_tokens\": 1, \"target\": \"max\"}",
         "model.sliding_window: must be at least 1 when sliding_layers is set"},
        {"{\"kind\": \"inference\", \"model\": {\"layers\": 2, \"hidden\": 64, \"heads\": 8, "
         "\"ffn\": 1, \"vocab\": 1, \"expert_weight_bits\": 40}, \"input_tokens\": 1, "
         "\"output_tokens\": 1, \"target\": \"max\"}",
         "model.expert_weight_bits: must be between 0"},
        {"{\"kind\": \"generic\", \"flops\": 0, \"bytes\": 0}", "a job needs flops or bytes"},
        {"[1, 2]", "must be a JSON object"},
        {"{\"kind\": ", "invalid JSON"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gp_workload w;
        assert_int_equal(parse(&w, cases[i].json), GP_EINVALID);
        if (!strstr(gp_error_last(), cases[i].expect))
            fail_msg("case %zu: '%s' lacks '%s'", i, gp_error_last(), cases[i].expect);
    }
}

static void test_architecture(void **state)
{
    const struct gp_model_arch *m = gp_model_table_find(&models, "mixtral-8x7b");
    const struct gp_model_arch *l = gp_model_table_find(&models, "llama-3.1-70b");
    (void)state;
    assert_true(fabs(m->params - 46.7e9) / 46.7e9 < 0.01);
    assert_true(fabs(gp_model_active_params(m) - 12.9e9) / 12.9e9 < 0.02);
    assert_true(gp_model_kv_bytes_per_token(l, GP_FP8) == 2.0 * 80 * 8 * 128);
    assert_true(gp_model_kv_bytes_per_token(l, GP_BF16) == 4.0 * 80 * 8 * 128);
    /* Without a window every layer holds the whole context. */
    assert_true(gp_model_kv_context(l, 5000) == 5000);
    assert_true(gp_model_expert_bytes(m, GP_FP8) == 1.0);
}

/* gpt-oss-120b as its config.json ships it: half the layers with a 128-token window, MXFP4
 * experts held at 4.25 bits whatever they compute in. */
static void test_sliding_window_and_stored_experts(void **state)
{
    const struct gp_model_arch *g = gp_model_table_find(&models, "gpt-oss-120b");
    struct gp_workload w = inference("gpt-oss-120b", GP_FP8, 1024, 1024);
    struct gp_efficiency e = eff_for("h200-sxm");
    struct gp_perf stored, wide;
    (void)state;
    assert_int_equal(g->sliding_layers, 18);
    assert_true(gp_model_kv_context(g, 100) == 100);   /* shorter than the window */
    assert_true(gp_model_kv_context(g, 4096) == 2112); /* (4096 + 128) / 2 */
    assert_true(gp_model_expert_bytes(g, GP_FP8) == 4.25 / 8.0);
    assert_true(gp_model_expert_bytes(g, GP_BF16) == 4.25 / 8.0);
    assert_true(gp_model_expert_bytes(g, GP_FP4) == 0.5); /* narrower than the stored width */
    /* On one H200 the 4.25-bit experts leave room for far more sequences than 8-bit ones. */
    w.inference.tensor_parallel = 1;
    w.inference.expert_parallel = 1;
    gp_model_evaluate(&stored, &w, gpu("h200-sxm"), &e, 1.0, 0);
    w.model.expert_weight_bits = 0;
    w.model.sliding_layers = 0;
    gp_model_evaluate(&wide, &w, gpu("h200-sxm"), &e, 1.0, 0);
    assert_true(stored.feasible && wide.feasible);
    assert_true(stored.batch > 4 * wide.batch);
    assert_true(stored.replica_rate > wide.replica_rate);
    /* Hopper has no FP4 path: the MXFP4 experts run as bf16 GEMMs, so long prompts, whose
     * prefill is compute-bound, take longer than on the same GPU given an FP4 path. */
    struct gp_perf upcast, native;
    struct gp_gpu with_fp4 = *gpu("h200-sxm");
    with_fp4.peak_tflops[GP_FP4] = 2.0 * with_fp4.peak_tflops[GP_FP8];
    w = inference("gpt-oss-120b", GP_FP8, 32768, 256);
    w.inference.tensor_parallel = 1;
    w.inference.expert_parallel = 1;
    gp_model_evaluate(&upcast, &w, gpu("h200-sxm"), &e, 1.0, 0);
    gp_model_evaluate(&native, &w, &with_fp4, &e, 1.0, 0);
    assert_true(upcast.feasible && native.feasible);
    assert_int_equal(upcast.batch, native.batch);
    assert_true(upcast.replica_rate < native.replica_rate);
}

/* ---- the model ------------------------------------------------------------------------------ */

static void test_precision_fallback(void **state)
{
    struct gp_workload w = inference("llama-2-70b", GP_FP4, 294, 292);
    struct gp_efficiency e = eff_for("h100-sxm");
    struct gp_perf p;
    (void)state;
    assert_int_equal(gp_model_precision(gpu("h100-sxm"), GP_FP4), GP_FP8);
    assert_int_equal(gp_model_precision(gpu("b200"), GP_FP4), GP_FP4);
    assert_int_equal(gp_model_precision(gpu("mi355x"), GP_FP4), GP_FP4);
    assert_int_equal(gp_model_precision(gpu("mi300x"), GP_FP4), GP_FP8);
    assert_int_equal(gp_model_precision(gpu("mi355x"), GP_TF32), GP_FP32);
    gp_model_evaluate(&p, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_true(p.feasible);
    assert_int_equal(p.precision, GP_FP8);
    assert_true(p.notes & GP_NOTE_UNSUPPORTED_PRECISION);
    e = eff_for("b200");
    gp_model_evaluate(&p, &w, gpu("b200"), &e, 1.0, 0);
    assert_int_equal(p.precision, GP_FP4);
    assert_false(p.notes & GP_NOTE_UNSUPPORTED_PRECISION);
}

static void test_memory_fit(void **state)
{
    struct gp_workload w = inference("llama-3.1-405b", GP_BF16, 1024, 256);
    struct gp_efficiency e = eff_for("h100-sxm");
    struct gp_perf p;
    (void)state;
    /* 811 GB of weights exceed 8 x 80 GB. */
    gp_model_evaluate(&p, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_false(p.feasible);
    assert_true(p.notes & GP_NOTE_DOES_NOT_FIT);
    /* 8 x 288 GB hold them; fewer than 4 GPUs do not. */
    e = eff_for("mi355x");
    gp_model_evaluate(&p, &w, gpu("mi355x"), &e, 1.0, 0);
    assert_true(p.feasible);
    assert_true(p.tp >= 4);
    /* A 8B model fits one GPU, and TP1 gives the best throughput per GPU there. */
    w = inference("llama-3.1-8b", GP_BF16, 1024, 256);
    e = eff_for("h100-sxm");
    gp_model_evaluate(&p, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_int_equal(p.tp, 1);
}

static void test_latency_targets(void **state)
{
    struct gp_workload w = inference("llama-3.1-70b", GP_FP8, 1024, 256);
    struct gp_efficiency e = eff_for("h200-sxm");
    struct gp_perf free_run, limited;
    (void)state;
    gp_model_evaluate(&free_run, &w, gpu("h200-sxm"), &e, 1.0, 0);
    w.inference.tpot_ms = 30;
    w.inference.ttft_ms = 500;
    gp_model_evaluate(&limited, &w, gpu("h200-sxm"), &e, 1.0, 0);
    assert_true(limited.feasible);
    assert_true(limited.tpot_ms <= 30.0 + 1e-9);
    assert_true(limited.ttft_ms <= 500.0 + 1e-9);
    assert_true(limited.batch < free_run.batch);
    assert_true(limited.replica_rate / limited.tp < free_run.replica_rate / free_run.tp);
    /* A target no batch can meet. */
    w.inference.tpot_ms = 0.5;
    gp_model_evaluate(&limited, &w, gpu("h200-sxm"), &e, 1.0, 0);
    assert_false(limited.feasible);
    assert_true(limited.notes & GP_NOTE_LATENCY_UNMET);
}

/* For a rate target, no fixed tensor-parallel degree needs fewer GPUs than the chosen one. */
static void test_tp_choice_for_rate(void **state)
{
    struct gp_assumptions a;
    struct gp_price price = {true, false, false, 2.0, "on-demand", "x", "2026-09-01", 0};
    (void)state;
    size_t feasible_types = 0;
    gp_assumptions_init(&a);
    for (size_t g = 0; g < cat.count; g++) {
        struct gp_workload w = inference("llama-3.1-70b", GP_FP8, 2048, 512);
        struct gp_efficiency e = eff_for(cat.gpus[g].id);
        struct gp_plan_row chosen, forced;
        int fewest = 0; /* GPUs of the smallest feasible fleet at any fixed degree */
        w.inference.load = GP_LOAD_REQUESTS;
        w.inference.rate = 7;
        w.inference.tpot_ms = 40;
        gp_plan_evaluate(&chosen, &w, &a, &cat.gpus[g], &e, &price);
        for (int t = 1; t <= 8; t *= 2) {
            w.inference.tensor_parallel = t;
            gp_plan_evaluate(&forced, &w, &a, &cat.gpus[g], &e, &price);
            if (forced.feasible && (fewest == 0 || forced.gpus < fewest))
                fewest = forced.gpus;
        }
        /* The free choice is feasible exactly when some degree is, and needs no more GPUs. */
        assert_int_equal(chosen.feasible, fewest > 0);
        assert_int_equal(chosen.feasible ? chosen.gpus : 0, fewest);
        feasible_types += chosen.feasible;
    }
    assert_true(feasible_types > 0);
}

static void test_decode_bounds(void **state)
{
    struct gp_workload w = inference("llama-3.1-8b", GP_BF16, 128, 2048);
    struct gp_efficiency e = eff_for("h100-sxm");
    struct gp_perf p;
    (void)state;
    /* One sequence at a time: decode reads every weight per token, so it is memory-bound and
     * cannot beat bandwidth / weight bytes. */
    w.inference.max_batch = 1;
    gp_model_evaluate(&p, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_int_equal(p.bound, GP_BOUND_MEMORY);
    double ceiling = gpu("h100-sxm")->hbm_tbs * 1e12 / (w.model.params * 2.0);
    assert_true(p.replica_rate < ceiling);
    assert_true(p.replica_rate > 0.4 * ceiling);
    /* Long prompts and big batches make it compute-bound. */
    w = inference("llama-3.1-8b", GP_BF16, 8192, 64);
    gp_model_evaluate(&p, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_int_equal(p.bound, GP_BOUND_COMPUTE);
}

static void test_efficiency_scale_monotonic(void **state)
{
    struct gp_workload w = inference("llama-2-70b", GP_FP8, 294, 292);
    (void)state;
    for (size_t i = 0; i < cat.count; i++) {
        struct gp_efficiency e = eff_for(cat.gpus[i].id);
        struct gp_perf lo, mid, hi;
        gp_model_evaluate(&lo, &w, &cat.gpus[i], &e, 0.8, 0);
        gp_model_evaluate(&mid, &w, &cat.gpus[i], &e, 1.0, 0);
        gp_model_evaluate(&hi, &w, &cat.gpus[i], &e, 1.2, 0);
        assert_true(mid.feasible);
        assert_true(lo.replica_rate / lo.tp <= mid.replica_rate / mid.tp + 1e-9);
        assert_true(mid.replica_rate / mid.tp <= hi.replica_rate / hi.tp + 1e-9);
    }
}

static void test_training(void **state)
{
    struct gp_workload w = training("llama-3.1-8b", 1e11, 64, 4194304);
    struct gp_efficiency e = eff_for("h100-sxm");
    struct gp_perf plain, recompute;
    (void)state;
    w.training.mfu = 0.4;
    w.training.pipeline_parallel = 1; /* no pipeline: the closed form below holds */
    gp_model_evaluate(&plain, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_true(plain.feasible);
    assert_int_equal(plain.gpus, 64);
    assert_int_equal(plain.pp, 1);
    /* 6 N D / (n * peak * mfu) is the floor; GEMM size, data-parallel traffic and the
     * optimizer update add a little on a 64-GPU run of an 8B model. */
    double ideal = 6.0 * w.model.params * 1e11 / (64 * 989.4e12 * 0.4) / 3600.0;
    assert_true(plain.train_hours >= ideal && plain.train_hours < 1.15 * ideal);
    w.training.recompute = true;
    gp_model_evaluate(&recompute, &w, gpu("h100-sxm"), &e, 1.0, 0);
    double ratio = recompute.train_hours / plain.train_hours;
    assert_int_equal(recompute.pp, plain.pp);
    assert_true(ratio > 1.2 && ratio <= 8.0 / 6.0 + 1e-9);
    w.training.pipeline_parallel = 0;
    /* A model too large for one node trains on stages across nodes: Llama 3.1 405B in FP8 on
     * 512 H100 without recomputation. */
    struct gp_workload big = w;
    struct gp_perf p405;
    big.model = *gp_model_table_find(&models, "llama-3.1-405b");
    big.training.precision = GP_FP8;
    big.training.recompute = false;
    big.training.gpus = 512;
    big.training.seq_len = 8192;
    big.training.global_batch_tokens = 16777216;
    gp_model_evaluate(&p405, &big, gpu("h100-sxm"), &e, 1.0, 0);
    assert_true(p405.feasible);
    assert_true(p405.tp * p405.pp * p405.cp > 8);
    /* Spread thinner, the same job gets less done per GPU (communication, batch). */
    struct gp_perf wide;
    w.training.recompute = false;
    w.training.gpus = 1024;
    gp_model_evaluate(&wide, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_true(wide.feasible && wide.mfu < plain.mfu);
    w.training.gpus = 64;
    /* A fixed parallel layout is honoured. */
    w.training.recompute = false;
    w.training.tensor_parallel = 4;
    w.training.pipeline_parallel = 2;
    gp_model_evaluate(&plain, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_true(plain.feasible);
    assert_int_equal(plain.tp, 4);
    assert_int_equal(plain.pp, 2);
    w.training.tensor_parallel = 0;
    w.training.pipeline_parallel = 0;
    /* A deadline sizes the fleet so it is met. */
    w.training.gpus = 0;
    w.training.deadline_hours = 100;
    gp_model_evaluate(&plain, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_true(plain.feasible);
    assert_true(plain.train_hours <= 100.0 + 1e-9);
    /* ... unless --max-gpus forbids it. */
    gp_model_evaluate(&plain, &w, gpu("h100-sxm"), &e, 1.0, 8);
    assert_false(plain.feasible);
    assert_true(plain.notes & GP_NOTE_OVER_MAX_GPUS);
}

static void test_generic_bounds(void **state)
{
    struct gp_workload w;
    struct gp_efficiency e = eff_for("h100-sxm");
    struct gp_perf p;
    (void)state;
    memset(&w, 0, sizeof(w));
    w.kind = GP_WORKLOAD_GENERIC;
    w.generic = (struct gp_generic){GP_BF16, 8.8e12, 1.6e9, 0};
    gp_model_evaluate(&p, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_int_equal(p.bound, GP_BOUND_COMPUTE);
    double seconds = 1.0 / p.replica_rate;
    assert_true(seconds > 8.8e12 / 989.4e12); /* never faster than the peak */
    w.generic = (struct gp_generic){GP_FP32, 2e9, 12.9e9, 0};
    gp_model_evaluate(&p, &w, gpu("h100-sxm"), &e, 1.0, 0);
    assert_int_equal(p.bound, GP_BOUND_MEMORY);
    assert_true(1.0 / p.replica_rate > 12.9e9 / 3.35e12);
}

/* Every preset on every GPU: finite numbers, whatever the outcome. */
static void test_all_finite(void **state)
{
    char **list = NULL;
    size_t count = 0;
    struct gp_assumptions a;
    struct gp_price price = {true, false, false, 2.5, "on-demand", "test", "2026-09-01", 0};
    (void)state;
    gp_assumptions_init(&a);
    assert_int_equal(gp_data_list(&list, &count, "workloads", ".json"), 0);
    for (size_t i = 0; i < count; i++) {
        char *text;
        size_t len;
        struct gp_workload w;
        assert_int_equal(load_data(&text, &len, list[i]), 0);
        assert_int_equal(gp_workload_parse(&w, text, len, list[i], &models), 0);
        free(text);
        for (size_t g = 0; g < cat.count; g++) {
            struct gp_efficiency e = eff_for(cat.gpus[g].id);
            struct gp_plan_row r;
            gp_plan_evaluate(&r, &w, &a, &cat.gpus[g], &e, &price);
            double v[] = {r.tokens_per_s,    r.tokens_per_s_per_gpu,
                          r.ttft_ms,         r.tpot_ms,
                          r.it_kw,           r.facility_kw,
                          r.cost_per_hour,   r.cost_per_month,
                          r.cost_per_mtok,   r.energy_cost_per_month,
                          r.train_hours,     r.gpu_hours,
                          r.total_cost,      r.mfu,
                          r.jobs_per_hour,   r.throughput_low,
                          r.throughput_high, r.cost_low,
                          r.cost_high};
            for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
                if (!isfinite(v[k]) || v[k] < 0)
                    fail_msg("%s on %s: field %zu = %g", list[i], cat.gpus[g].id, k, v[k]);
            assert_true(r.cost_low <= r.cost_high);
        }
    }
    gp_data_list_free(list, count);
}

/* ---- fleet, power and cost ----------------------------------------------------------------- */

static void test_fleet_sizing_and_cost(void **state)
{
    struct gp_workload w = inference("llama-3.1-70b", GP_FP8, 1024, 256);
    struct gp_efficiency e = eff_for("h200-sxm");
    struct gp_assumptions a;
    struct gp_price price = {true, false, false, 3.0, "on-demand", "x", "2026-09-01", 0};
    struct gp_perf perf;
    struct gp_plan_row r;
    const struct gp_gpu *g = gpu("h200-sxm");
    (void)state;
    gp_assumptions_init(&a);
    w.inference.load = GP_LOAD_REQUESTS;
    w.inference.rate = 40;
    gp_model_evaluate(&perf, &w, g, &e, 1.0, 0);
    gp_plan_evaluate(&r, &w, &a, g, &e, &price);
    double demand = 40 * 256.0;
    int replicas = (int)ceil(demand / perf.replica_rate);
    assert_int_equal(r.replicas, replicas);
    assert_int_equal(r.gpus, replicas * perf.tp);
    assert_int_equal(r.nodes, (r.gpus + 7) / 8);
    assert_true(r.tokens_per_s == demand);
    assert_true(fabs(r.cost_per_hour - 3.0 * r.gpus) < 1e-9);
    assert_true(fabs(r.cost_per_month - 730 * r.cost_per_hour) < 1e-6);
    assert_true(fabs(r.cost_per_mtok - r.cost_per_hour / (demand * 3600) * 1e6) < 1e-9);
    /* IT power lies between all GPUs idle and all at TDP, plus node overhead. */
    double idle = (r.gpus * g->tdp_w * e.idle_power + r.nodes * g->node_overhead_w) / 1000;
    double full = (r.gpus * g->tdp_w + r.nodes * g->node_overhead_w) / 1000;
    assert_true(r.it_kw >= idle && r.it_kw <= full);
    assert_true(fabs(r.facility_kw - 1.3 * r.it_kw) < 1e-9);
    assert_true(fabs(r.energy_kwh_per_month - r.facility_kw * 730) < 1e-9);
    assert_true(fabs(r.energy_cost_per_month - r.facility_kw * 730 * 0.083) < 1e-6);
    assert_true(r.feasible);
    assert_int_equal(r.notes, 0);

    /* Limits. */
    a.power_budget_kw = r.facility_kw / 2;
    gp_plan_evaluate(&r, &w, &a, g, &e, &price);
    assert_false(r.feasible);
    assert_true(r.notes & GP_NOTE_OVER_POWER_BUDGET);
    a.power_budget_kw = 0;
    a.max_gpus = 1;
    gp_plan_evaluate(&r, &w, &a, g, &e, &price);
    assert_false(r.feasible);
    assert_true(r.notes & GP_NOTE_OVER_MAX_GPUS);
}

static void test_prices(void **state)
{
    struct gp_workload w = inference("llama-3.1-8b", GP_BF16, 512, 128);
    struct gp_efficiency e = eff_for("h100-sxm");
    struct gp_assumptions a;
    struct gp_price none = {false, false, false, 0, "on-demand", "", "", 0};
    struct gp_price stale = {true, false, true, 2.0, "spot", "x", "2020-01-01", 0};
    struct gp_price owned = {false, true, false, 0, "owned", "capex", "", 0};
    struct gp_plan_row r;
    (void)state;
    gp_assumptions_init(&a);
    gp_plan_evaluate(&r, &w, &a, gpu("h100-sxm"), &e, &none);
    assert_false(r.price_known);
    assert_true(r.notes & GP_NOTE_NO_PUBLIC_PRICE);
    assert_true(r.cost_per_hour == 0);
    gp_plan_evaluate(&r, &w, &a, gpu("h100-sxm"), &e, &stale);
    assert_true(r.notes & GP_NOTE_STALE_PRICE);
    /* Owned without a capex: no price; with one: amortised capex plus energy, in any currency. */
    gp_plan_evaluate(&r, &w, &a, gpu("h100-sxm"), &e, &owned);
    assert_true(r.notes & GP_NOTE_NO_PUBLIC_PRICE);
    a.capex = 25000;
    gp_plan_evaluate(&r, &w, &a, gpu("h100-sxm"), &e, &owned);
    double energy = r.facility_kw * 0.083 / r.gpus;
    double expect = 25000 * 1.6 / (3 * 8760.0) + energy;
    assert_true(fabs(r.price_per_gpu_hour - expect) < 1e-9);
    a.fx_per_usd = 7.0; /* the same purchase typed in DKK */
    a.capex = 25000 * 7.0;
    a.kwh_price = 0.083 * 7.0;
    struct gp_plan_row dkk;
    gp_plan_evaluate(&dkk, &w, &a, gpu("h100-sxm"), &e, &owned);
    assert_true(fabs(dkk.price_per_gpu_hour - r.price_per_gpu_hour) < 1e-9);
}

static void test_rank(void **state)
{
    struct gp_plan_row rows[4];
    char notes[128];
    (void)state;
    memset(rows, 0, sizeof(rows));
    for (int i = 0; i < 4; i++) {
        rows[i].kind = GP_WORKLOAD_INFERENCE;
        rows[i].feasible = true;
        rows[i].price_known = true;
        snprintf(rows[i].gpu, sizeof(rows[i].gpu), "g%d", i);
    }
    rows[0].cost_per_mtok = 3;
    rows[1].price_known = false; /* unpriced: after the priced rows */
    rows[1].tokens_per_s_per_gpu = 100;
    rows[2].cost_per_mtok = 1;
    rows[3].feasible = false; /* last */
    rows[3].cost_per_mtok = 0.1;
    assert_int_equal(gp_plan_rank(rows, 4, 0), 0);
    assert_string_equal(rows[0].gpu, "g2");
    assert_string_equal(rows[1].gpu, "g0");
    assert_string_equal(rows[2].gpu, "g1");
    assert_string_equal(rows[3].gpu, "g3");
    assert_true(rows[0].notes & GP_NOTE_BEST);
    assert_false(rows[1].notes & GP_NOTE_BEST);
    /* A vendor claim keeps its place by its claimed cost but is never best, and the runner-up
     * to a row is another GPU type, measured. */
    rows[0].notes |= GP_NOTE_VENDOR_CLAIM;
    assert_int_equal(gp_plan_rank(rows, 4, 0), 0);
    assert_string_equal(rows[0].gpu, "g2");
    assert_false(rows[0].notes & GP_NOTE_BEST);
    assert_true(rows[1].notes & GP_NOTE_BEST);
    assert_false(gp_plan_row_runner_up_to(&rows[0], &rows[1])); /* a claim */
    assert_false(gp_plan_row_runner_up_to(&rows[1], &rows[1])); /* the same GPU */
    assert_false(gp_plan_row_runner_up_to(&rows[2], &rows[1])); /* unpriced */
    snprintf(rows[2].gpu, sizeof(rows[2].gpu), "g9");
    rows[2].price_known = true;
    assert_true(gp_plan_row_runner_up_to(&rows[2], &rows[1]));
    rows[0].notes &= ~(unsigned)GP_NOTE_VENDOR_CLAIM;
    gp_notes_format(notes, sizeof(notes), GP_NOTE_BEST | GP_NOTE_STALE_PRICE);
    assert_string_equal(notes, "best,stale-price");
    gp_notes_format(notes, sizeof(notes), GP_NOTE_UNSUPPORTED_PRECISION | GP_NOTE_DOES_NOT_FIT);
    assert_string_equal(notes, "does-not-fit,unsupported-precision");
    char narrow[17];
    gp_notes_format(narrow, sizeof(narrow), GP_NOTE_BEST | GP_NOTE_STALE_PRICE);
    assert_string_equal(narrow, "best,stale-price");
    gp_notes_format(narrow, sizeof(narrow) - 1, GP_NOTE_BEST | GP_NOTE_STALE_PRICE);
    assert_string_equal(narrow, "best");
    gp_notes_format(notes, sizeof(notes), GP_NOTE_TERM_UNKNOWN | GP_NOTE_BEST | 1u << 31);
    assert_string_equal(notes, "best,term-unknown"); /* the last name; unknown bits ignored */
    gp_notes_format(notes, sizeof(notes), 0);
    assert_string_equal(notes, "");
}

/* Row `i` of a ranking test: a class and a cost from a fixed pattern with many ties, its
 * number in `batch` to see where it went. */
static void rank_row(struct gp_plan_row *r, unsigned i)
{
    unsigned h = i * 2654435761u;

    memset(r, 0, sizeof(*r));
    r->kind = GP_WORKLOAD_INFERENCE;
    r->feasible = h % 7 != 0;
    r->price_known = h % 5 != 0;
    r->cost_per_mtok = (double)(h >> 8 & 7);
    r->tokens_per_s_per_gpu = (double)(h >> 12 & 3);
    r->batch = (int)i;
    r->notes = GP_NOTE_BEST; /* stale marks must go */
}

/* The order gp_plan_rank promises, by another way: for each class, cost or throughput, then
 * the original order. */
static int rank_reference(const void *pa, const void *pb)
{
    const struct gp_plan_row *a = pa, *b = pb;
    int ca = !a->feasible     ? 2
             : a->price_known ? 0
                              : 1,
        cb = !b->feasible     ? 2
             : b->price_known ? 0
                              : 1;
    double ka = ca == 0 ? a->cost_per_mtok : ca == 1 ? -a->tokens_per_s_per_gpu : 0;
    double kb = cb == 0 ? b->cost_per_mtok : cb == 1 ? -b->tokens_per_s_per_gpu : 0;

    if (ca != cb)
        return ca - cb;
    if (ka != kb)
        return ka < kb ? -1 : 1;
    return a->batch - b->batch;
}

/* Blocks of every size up to well past the on-stack scratch, and a last short block: the
 * order is the reference's, stable among ties, and only the first priced row is best. */
static void test_rank_blocks(void **state)
{
    enum { N = 1000 };
    static struct gp_plan_row rows[N], want[N];
    static const size_t groups[] = {0, 1, 2, 9, 16, 17, 64, 65, 300, 999};
    (void)state;

    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
        size_t group = groups[g] ? groups[g] : N;
        for (unsigned i = 0; i < N; i++)
            rank_row(&rows[i], i);
        memcpy(want, rows, sizeof(rows));
        for (size_t start = 0; start < N; start += group)
            qsort(want + start, start + group < N ? group : N - start, sizeof(want[0]),
                  rank_reference);
        assert_int_equal(gp_plan_rank(rows, N, groups[g]), 0);
        for (size_t i = 0; i < N; i++) {
            bool first = i % group == 0;
            assert_int_equal(rows[i].batch, want[i].batch);
            assert_int_equal(!!(rows[i].notes & GP_NOTE_BEST),
                             first && rows[i].feasible && rows[i].price_known);
        }
    }
}

/* A block laid out in any order, with each row's place before ranking given apart (as the
 * planner lays a point out in the order the last point ranked): ranked in place it is byte for
 * byte the block gp_plan_rank ranks from those places, and the places follow the rows. */
static void test_rank_in_place(void **state)
{
    enum { N = 40 };
    static const size_t sizes[] = {1, 2, 9, 16, 17, N};
    struct gp_plan_row rows[N], want[N];
    struct gp_rank_key keys[2 * N];
    size_t order[N];
    unsigned seed = 7;
    (void)state;

    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        size_t n = sizes[s];
        for (int round = 0; round < 20; round++) {
            unsigned base = 31u * (unsigned)round;
            for (size_t i = 0; i < n; i++) {
                rank_row(&want[i], (unsigned)i + base);
                order[i] = i;
            }
            assert_int_equal(gp_plan_rank(want, n, 0), 0);
            for (size_t i = n; round > 0 && i > 1; i--) { /* round 0: laid out as ranked */
                seed = seed * 1103515245u + 12345u;
                size_t j = (seed >> 16) % i, t = order[i - 1];
                order[i - 1] = order[j];
                order[j] = t;
            }
            for (size_t i = 0; round == 0 && i < n; i++)
                order[i] = (size_t)want[i].batch - base;
            for (size_t i = 0; i < n; i++)
                rank_row(&rows[i], (unsigned)order[i] + base);
            gp_plan_rank_in_place(rows, order, n, keys);
            assert_memory_equal(rows, want, n * sizeof(rows[0]));
            for (size_t i = 0; i < n; i++)
                assert_int_equal(order[i], (size_t)want[i].batch - base);
        }
    }
}

/* ---- what-if keys ---------------------------------------------------------------------------- */

struct set_case {
    const char *key, *value;
    int rc;
    const char *expect; /* substring of the message when rc != 0 */
};

/* Each case through gp_plan_set on `in`: its status, and its message when it fails. */
static void set_cases(struct gp_plan_input *in, const struct set_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int rc = gp_plan_set(in, cases[i].key, cases[i].value);
        if (rc != cases[i].rc)
            fail_msg("case %zu (%s=%s): rc %d: %s", i, cases[i].key, cases[i].value, rc,
                     gp_error_last());
        if (rc && !strstr(gp_error_last(), cases[i].expect))
            fail_msg("case %zu: '%s' lacks '%s'", i, gp_error_last(), cases[i].expect);
    }
}

static void test_set(void **state)
{
    static const struct set_case cases[] = {
        {"input_tokens", "2048", 0, NULL},
        {"precision", "fp4", 0, NULL},
        {"kv_precision", "bf16", 0, NULL},
        {"rate", "max", 0, NULL},
        {"requests_per_s", "12.5", 0, NULL},
        {"pue", "1.1", 0, NULL},
        {"kwh_price", "0.2", 0, NULL},
        {"years", "5", 0, NULL},
        {"layers", "40", 0, NULL},
        {"input_tokenz", "1", GP_EINVALID, "did you mean 'input_tokens'"},
        {"pue", "0.5", GP_EINVALID, "out of range"},
        {"pue", "abc", GP_EINVALID, "not a number"},
        {"precision", "fp5", GP_EINVALID, "unknown precision"},
        {"tokens", "1e9", GP_EINVALID, "applies to training workloads"},
        {"layers", "1.5", GP_EINVALID, "not a whole number"},
        {"tensor_parallel", "4", 0, NULL},
        {"tensor_parallel", "3", GP_EINVALID, "must be 0 (choose) or a power of 2 up to 64 GPUs"},
        {"memory_fraction", "0.005", GP_EINVALID, "must be 0 (the engine's) or between 0.01 and 1"},
        {"ttft_ms", "0", 0, NULL},
        {"max_gpus", "0", 0, NULL},
        {"max_gpus", "-1", GP_EINVALID, "must be 0 (no limit) or between 1 and 1e+09 GPUs"},
        {"pipeline_parallel", "2", GP_EINVALID, "applies to training workloads"},
        {"expert_parallel", "3", GP_EINVALID, "must be 0 (choose) or a power of 2 up to 64 GPUs"},
        {"expert_parallel", "128", GP_EINVALID, "expert_parallel: 128 is out of range"},
        {"expert_parallel", "16", 0, NULL},
        {"expert_parallel", "1", 0, NULL},
        {"trainable_fraction", "0.1", GP_EINVALID, "applies to training workloads"},
        {"critical_batch_tokens", "1e6", GP_EINVALID, "applies to training workloads"},
    };
    struct gp_plan_input in;
    (void)state;
    memset(&in, 0, sizeof(in));
    in.workload = inference("llama-3.1-70b", GP_FP8, 1024, 256);
    gp_assumptions_init(&in.assumptions);
    set_cases(&in, cases, sizeof(cases) / sizeof(cases[0]));
    assert_true(in.workload.inference.input_tokens == 2048);
    assert_int_equal(in.workload.inference.precision, GP_FP4);
    assert_int_equal(in.workload.inference.load, GP_LOAD_REQUESTS);
    assert_true(in.workload.inference.rate == 12.5);
    assert_true(in.assumptions.pue == 1.1);
    assert_int_equal(in.workload.model.layers, 40);
    assert_int_equal(in.workload.inference.tensor_parallel, 4);
    assert_int_equal(in.workload.inference.expert_parallel, 1);
    /* The parameter count follows the shape. */
    assert_true(in.workload.model.params < 40e9);
}

/* The training keys of --set, and what the model makes of them. */
static void test_set_training(void **state)
{
    static const struct set_case cases[] = {
        {"trainable_fraction", "0.001", 0, NULL},
        {"trainable_fraction", "1.5", GP_EINVALID, "trainable_fraction: 1.5 is out of range"},
        {"trainable_fraction", "-0.1", GP_EINVALID, "must be between 0 (all) and 1"},
        {"trainable_fraction", "x", GP_EINVALID, "trainable_fraction: 'x' is not a number"},
        {"critical_batch_tokens", "2.5", GP_EINVALID,
         "critical_batch_tokens: '2.5' is not a whole"},
        {"critical_batch_tokens", "-1", GP_EINVALID, "between 0 (none assumed) and 1e+12 tokens"},
        {"critical_batch_tokens", "1048576", 0, NULL},
        {"expert_parallel", "2", GP_EINVALID, "applies to inference workloads"},
    };
    struct gp_plan_input in;
    struct gp_efficiency e = eff_for("h100-sxm");
    struct gp_perf full, lora, critical;
    (void)state;
    memset(&in, 0, sizeof(in));
    in.workload = training("llama-3.1-8b", 1e10, 2048, 1048576);
    gp_assumptions_init(&in.assumptions);
    gp_model_evaluate(&full, &in.workload, gpu("h100-sxm"), &e, 1.0, 0);
    set_cases(&in, cases, 1);
    gp_model_evaluate(&lora, &in.workload, gpu("h100-sxm"), &e, 1.0, 0);
    set_cases(&in, cases + 1, sizeof(cases) / sizeof(cases[0]) - 1);
    assert_true(in.workload.training.trainable_fraction == 0.001);
    assert_true(in.workload.training.critical_batch_tokens == 1048576);
    assert_int_equal(gp_workload_validate(&in.workload), 0);
    /* Frozen weights skip their gradients: less work per token. */
    assert_true(full.feasible && lora.feasible);
    assert_true(lora.train_hours < full.train_hours);
    /* 2048 ranks need a batch of at least 2048 sequences, 8x the asked 1M tokens: past the
     * critical batch the same loss takes more tokens, so the run takes longer. */
    gp_model_evaluate(&critical, &in.workload, gpu("h100-sxm"), &e, 1.0, 0);
    assert_true(critical.feasible);
    assert_true(critical.train_hours > lora.train_hours * 1.5);
}

static void test_sweep_parse(void **state)
{
    struct gp_sweep s;
    (void)state;
    char text[GP_SWEEP_VALUE_MAX];
    assert_int_equal(gp_sweep_parse(&s, "input_tokens=128:1024:128"), 0);
    assert_int_equal(s.count, 8);
    assert_null(s.values); /* a range's values are computed when asked for */
    assert_string_equal(gp_sweep_value(&s, 0, text), "128");
    assert_string_equal(gp_sweep_value(&s, 7, text), "1024");
    gp_sweep_release(&s);
    assert_int_equal(gp_sweep_parse(&s, "pue=1.5:1.1:-0.1"), 0);
    assert_int_equal(s.count, 5);
    assert_string_equal(gp_sweep_value(&s, 4, text), "1.1");
    gp_sweep_release(&s);
    /* no cap on a range but a guard against a mistyped step: a million points hold nothing */
    assert_int_equal(gp_sweep_parse(&s, "rate=1:1000000:1"), 0);
    assert_int_equal(s.count, 1000000);
    assert_string_equal(gp_sweep_value(&s, 999999, text), "1000000");
    gp_sweep_release(&s);
    assert_int_equal(gp_sweep_parse(&s, "rate=1:1e12:1"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "more than 1000000000"));
    /* a list is as long as it is typed */
    assert_int_equal(gp_sweep_parse(&s, "precision=fp8"), 0);
    assert_int_equal(s.count, 1);
    assert_string_equal(gp_sweep_value(&s, 0, text), "fp8");
    gp_sweep_release(&s);
    assert_int_equal(gp_sweep_parse(&s, "precision=fp8,fp4"), 0);
    assert_int_equal(s.count, 2);
    assert_string_equal(s.key, "precision");
    gp_sweep_release(&s);
    assert_int_equal(gp_sweep_parse(&s, "pue=1:2:0"), GP_EINVALID);
    assert_int_equal(gp_sweep_parse(&s, "pue=1:2"), GP_EINVALID);
    assert_int_equal(gp_sweep_parse(&s, "pue=2:1:0.1"), GP_EINVALID);
    assert_int_equal(gp_sweep_parse(&s, "pue=1,,2"), GP_EINVALID);
    assert_int_equal(gp_sweep_parse(&s, "tpot=10,20"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "did you mean 'tpot_ms'"));
    assert_int_equal(gp_sweep_parse(&s, "=1,2"), GP_EINVALID);
}

/* A range's values are written as "%.10g" writes them: whole numbers as integers up to 10
 * digits, then with an exponent; fractions, negatives and zeros as printf has them. */
static void test_sweep_range_text(void **state)
{
    static const struct {
        const char *spec;
        double from, step;
    } ranges[] = {
        {"input_tokens=64:64000:64", 64, 64},
        {"pue=-3:3:0.5", -3, 0.5},
        {"pue=-2:2:1", -2, 1},
        {"input_tokens=9999999990:10000000010:5", 9999999990, 5},
        {"input_tokens=-10000000010:-9999999990:5", -10000000010, 5},
        {"input_tokens=123456789012:123456789112:25", 123456789012, 25},
        {"pue=0.1:0.9:0.1", 0.1, 0.1},
    };
    (void)state;

    for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
        struct gp_sweep s;
        assert_int_equal(gp_sweep_parse(&s, ranges[r].spec), 0);
        assert_true(s.count >= 5);
        for (size_t i = 0; i < s.count; i++) {
            char want[GP_SWEEP_VALUE_MAX];
            char text[GP_SWEEP_VALUE_MAX];
            snprintf(want, sizeof(want), "%.10g", ranges[r].from + (double)i * ranges[r].step);
            assert_string_equal(gp_sweep_value(&s, i, text), want);
        }
        gp_sweep_release(&s);
    }
}

/* ---- the efficiency table ------------------------------------------------------------------ */

/* The expert-parallel exchange latency is read from the network section, in microseconds, and a
 * value outside 0 to 100,000 us is refused with its field named. */
static void test_efficiency_alltoall_latency(void **state)
{
    static const char *const bad[] = {"-1", "200000", "\"fast\""};
    static const char key[] = "\"alltoall_latency_us\": 95.5";
    struct gp_buf text = {0};
    char origin[256];
    struct gp_efficiency e;
    (void)state;

    gp_efficiency_resolve(&e, &effs, "h200-sxm");
    assert_true(fabs(e.alltoall_latency_s - 95.5e-6) < 1e-15);
    assert_true(e.alltoall_latency_s > e.net_latency_s);
    assert_int_equal(gp_data_read(&text, "efficiency.json", origin, sizeof(origin)), 0);
    const char *at = strstr(text.data, key);
    assert_non_null(at);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct gp_efficiency_table t;
        size_t size = text.len + 32;
        char *edited = malloc(size);
        assert_non_null(edited);
        snprintf(edited, size, "%.*s\"alltoall_latency_us\": %s%s", (int)(at - text.data),
                 text.data, bad[i], at + strlen(key));
        assert_int_equal(gp_efficiency_table_parse(&t, edited, strlen(edited), "e.json"),
                         GP_EINVALID);
        assert_non_null(strstr(gp_error_last(), "defaults.network.alltoall_latency_us"));
        free(edited);
    }
    gp_buf_release(&text);
}

static void test_efficiency_table(void **state)
{
    struct gp_efficiency_table t;
    struct gp_efficiency e;
    struct gp_eff_override ov;
    static const char *bad = "{\"schema_version\": 1, \"defaults\": {\"gemm\": {}}, \"gpus\": []}";
    (void)state;
    assert_int_equal(gp_efficiency_table_parse(&t, bad, strlen(bad), "e.json"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "defaults.gemm.bf16"));
    /* Every GPU of the catalog has an entry with provenance, and resolves. */
    for (size_t i = 0; i < cat.count; i++) {
        gp_efficiency_resolve(&e, &effs, cat.gpus[i].id);
        assert_string_equal(e.source, "default");
        assert_true(gp_efficiency_gemm(&e, GP_BF16)->eff_max > 0);
        assert_true(e.uncertainty_low <= 1 && e.uncertainty_high >= 1);
    }
    /* ... and no entry names a GPU the catalog does not have (it would silently never apply). */
    for (size_t i = 0; i < effs.count; i++)
        if (!gp_catalog_find(&cat, effs.entries[i].gpu_id))
            fail_msg("efficiency.json entry '%s' is not in the catalog", effs.entries[i].gpu_id);
    /* "like" starts an entry from an earlier one: the rack systems share the B200's silicon. */
    struct gp_efficiency b200, gb200;
    gp_efficiency_resolve(&b200, &effs, "b200");
    gp_efficiency_resolve(&gb200, &effs, "gb200-nvl72");
    assert_true(gb200.gemm[GP_FP4].eff_max == b200.gemm[GP_FP4].eff_max);
    assert_true(gb200.mfu == b200.mfu && gb200.bandwidth.eff_max == b200.bandwidth.eff_max);
    /* ... and only from an entry above it. */
    struct gp_buf text = {0};
    struct gp_efficiency_table t2;
    char origin[256];
    assert_int_equal(gp_data_read(&text, "efficiency.json", origin, sizeof(origin)), 0);
    char *gpus = strstr(text.data, "\"gpus\": [");
    assert_non_null(gpus);
    char *bad_like = malloc(text.len + 128);
    assert_non_null(bad_like);
    snprintf(bad_like, text.len + 128,
             "%.*s\"gpus\": [{\"id\": \"b\", \"like\": \"b200\", "
             "\"provenance\": \"p\"},%s",
             (int)(gpus - text.data), text.data, gpus + 9);
    assert_int_equal(gp_efficiency_table_parse(&t2, bad_like, strlen(bad_like), "e.json"),
                     GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "gpus[0].like: 'b200' is not an entry above this one"));
    free(bad_like);
    gp_buf_release(&text);
    /* Calibrated curves replace the kernel-level ones and name their source. */
    gp_efficiency_resolve(&e, &effs, "h100-sxm");
    memset(&ov, 0, sizeof(ov));
    ov.gemm_set[GP_FP8] = true;
    ov.gemm[GP_FP8] = (struct gp_eff_curve){0.5, 1e9};
    snprintf(ov.source, sizeof(ov.source), "calibrated:node1:2026-11-01");
    gp_efficiency_apply(&e, &ov);
    assert_true(e.gemm[GP_FP8].eff_max == 0.5);
    assert_true(fabs(e.mfu - 0.40 * 0.5 / 0.71) < 1e-12); /* MFU follows the fp8 GEMM */
    assert_true(e.gemm[GP_BF16].eff_max == 0.80);
    assert_string_equal(e.source, "calibrated:node1:2026-11-01");
    assert_true(fabs(gp_eff_at(&e.gemm[GP_FP8], 1e9) - 0.25) < 1e-12);
    assert_true(gp_eff_at(&e.gemm[GP_FP8], 0) == 0);
}

/* ---- buying the fleet ------------------------------------------------------------------------ */

static void test_parse_buying(void **state)
{
    static const char *const bad[][2] = {
        {"\"demand_profile\": {\"baseline\": 9, \"peak\": 5, \"peak_hours_per_day\": 6}",
         "demand_profile.peak: must be above zero and at least the baseline"},
        {"\"demand_profile\": {\"baseline\": 1, \"peak\": 5, \"peak_hours_per_day\": 25}",
         "demand_profile.peak_hours_per_day: must be in (0, 24]"},
        {"\"demand_profile\": {\"baseline\": 1, \"peak\": 5, \"peak_hours_per_day\": 6, "
         "\"spot_shar\": 1}",
         "did you mean 'spot_share'?"},
        {"\"allow_mixed_providers\": 1", "allow_mixed_providers"},
    };
    static const char head[] = "{\"kind\": \"inference\", \"model\": \"llama-3.1-70b\", "
                               "\"input_tokens\": 512, \"output_tokens\": 128, "
                               "\"target\": {\"requests_per_s\": 10}, ";
    char json[512];
    struct gp_workload w;
    (void)state;

    snprintf(json, sizeof(json), "%s%s}", head,
             "\"allow_mixed_providers\": true, \"demand_profile\": {\"baseline\": 2, "
             "\"peak\": 10, \"peak_hours_per_day\": 6, \"spot_share\": 0.5}");
    assert_int_equal(parse(&w, json), 0);
    assert_true(w.buying.allow_mixed_providers && w.buying.profile);
    assert_true(w.buying.baseline_rate == 2 && w.buying.peak_rate == 10);
    assert_true(w.buying.peak_hours_per_day == 6 && w.buying.spot_share == 0.5);
    assert_true(w.buying.spot_factor == 0); /* the provider's default */
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(json, sizeof(json), "%s%s}", head, bad[i][0]);
        assert_int_equal(parse(&w, json), GP_EINVALID);
        if (!strstr(gp_error_last(), bad[i][1]))
            fail_msg("'%s' lacks '%s'", gp_error_last(), bad[i][1]);
    }
}

static struct gp_offer buy_offer(const char *provider, const char *type, int gpus, double usd,
                                 enum gp_tier tier)
{
    struct gp_offer o;
    memset(&o, 0, sizeof(o));
    snprintf(o.provider, sizeof(o.provider), "%s", provider);
    snprintf(o.instance_type, sizeof(o.instance_type), "%s", type);
    snprintf(o.gpu_id, sizeof(o.gpu_id), "b200");
    o.gpus_per_instance = gpus;
    o.tier = tier;
    o.usd_per_instance_hour = usd;
    o.usd_per_gpu_hour = usd / gpus;
    o.observed_at = 1790000000;
    return o;
}

/* The B200 offers of the purchase tests: Lambda's 8- and 1-GPU instances, RunPod's GPU. */
static void b200_offers(struct gp_offer *out, enum gp_tier runpod)
{
    out[0] = buy_offer("lambda", "gpu_8x_b200_sxm6", 8, 53.52, GP_TIER_ON_DEMAND);
    out[1] = buy_offer("lambda", "gpu_1x_b200_sxm6", 1, 6.99, GP_TIER_ON_DEMAND);
    out[2] = buy_offer("runpod", "B200 (secure cloud)", 1, 6.79, runpod);
}

/* What the purchase tests plan: the 70B chat model on B200, sized at a unit price. */
struct buy_fixture {
    struct gp_workload w;
    struct gp_efficiency e;
    struct gp_assumptions a;
    struct gp_price unit;
};

static void buy_fixture_init(struct buy_fixture *f)
{
    f->w = inference("llama-3.1-70b", GP_FP8, 1024, 256);
    f->e = eff_for("b200");
    gp_assumptions_init(&f->a);
    gp_plan_buy_unit_price(&f->unit);
}

/* A row sized at a unit price is bought in whole instances: cost, capacity, power, labels. */
static void test_buy_row(void **state)
{
    struct gp_offer offers[4];
    struct buy_fixture f;
    struct gp_buy_offers bought = {0};
    struct gp_buy_context ctx = {GP_PRICING_CHEAPEST, 1, NULL, NULL, 1790000000, 7, NULL};
    struct gp_plan_row row, sized;
    (void)state;

    buy_fixture_init(&f);
    b200_offers(offers, GP_TIER_ON_DEMAND);
    offers[3] = buy_offer("quote", "", 2, 8.0, GP_TIER_ON_DEMAND);
    f.w.inference.load = GP_LOAD_REQUESTS;
    f.w.inference.rate = 20;
    f.w.inference.ttft_ms = 2000;
    f.w.inference.tpot_ms = 50;
    struct gp_quote quotes[2] = {{.id = 7, .offer = offers[3]}, {.id = 8, .offer = offers[3]}};
    assert_int_equal(gp_buy_offers_collect(&bought, "b200", offers, 3, 1, NULL), 0);
    assert_int_equal(bought.count, 3);
    assert_true(gp_buy_offers_add_quote(&bought, &quotes[0], 0));
    assert_false(gp_buy_offers_add_quote(&bought, &quotes[1], 1)); /* no room left */
    assert_string_equal(bought.items[3].source, "quote:7");
    gp_plan_evaluate(&sized, &f.w, &f.a, gpu("b200"), &f.e, &f.unit);
    assert_true(sized.price_known && sized.cost_per_hour == sized.gpus);
    row = sized;
    gp_plan_buy(&row, &f.w, &f.a, gpu("b200"), &f.e, &bought, &ctx);
    assert_true(row.price_known);
    assert_int_equal(row.gpus_needed, sized.gpus);
    /* The quote's 2-GPU blocks at 8.0 (4.0 per GPU) win whole. */
    assert_string_equal(row.price_source, "quote:7");
    assert_string_equal(row.instance_type, "quote #7"); /* the quote named, not left empty */
    assert_int_equal(row.instances, (sized.gpus + 1) / 2);
    assert_true(fabs(row.cost_per_hour - row.instances * 8.0) < 1e-9);
    assert_true(fabs(row.cost_per_mtok -
                     sized.cost_per_mtok * row.cost_per_hour / sized.cost_per_hour) < 1e-9);
    assert_true(row.gpus >= sized.gpus && row.headroom >= 0);
    assert_true(row.it_kw >= sized.it_kw);
    assert_int_equal(row.nalternatives, 3);
    assert_true(fabs(row.alternatives[0].cost_per_hour - sized.gpus * 6.79) < 1e-9);
    /* The purchase line names the quote by its place among the inputs, with typed figures. */
    assert_int_equal(row.nlines, 1);
    assert_int_equal(row.lines[0].origin, GP_PLAN_FROM_QUOTE);
    assert_int_equal(row.lines[0].input, 0);
    assert_int_equal(row.lines[0].tier, GP_TIER_QUOTE);
    assert_int_equal(row.lines[0].instances, row.instances);
    assert_int_equal(row.lines[0].gpus_per_instance, 2);
    assert_true(fabs(row.lines[0].price_per_instance_hour - 8.0) < 1e-9);
    assert_true(fabs(row.lines[0].cost_per_hour - row.cost_per_hour) < 1e-9);
    assert_int_equal(row.cluster.nodes, 0); /* inference replicas are not a cluster */

    /* Without the quote: RunPod, the issue's $20.37 for 3 B200. */
    bought.count = 3;
    row = sized;
    gp_plan_buy(&row, &f.w, &f.a, gpu("b200"), &f.e, &bought, &ctx);
    assert_string_equal(row.provider, "runpod");
    assert_int_equal(row.lines[0].origin, GP_PLAN_FROM_OFFER);
    assert_string_equal(offers[row.lines[0].input].provider, "runpod");
    assert_true(fabs(row.cost_per_hour - sized.gpus * 6.79) < 1e-9);
    assert_string_equal(row.price_date, "2026-09-21");

    /* Spot asked for, none published: unpriced and labelled. */
    ctx.mode = GP_PRICING_SPOT;
    row = sized;
    gp_plan_buy(&row, &f.w, &f.a, gpu("b200"), &f.e, &bought, &ctx);
    assert_false(row.price_known);
    assert_true(row.notes & GP_NOTE_NO_SPOT_OFFER);
    assert_true(row.cost_per_hour == 0 && row.cost_per_mtok == 0);

    /* Prices older than the allowed age are stale. */
    ctx.mode = GP_PRICING_CHEAPEST;
    ctx.now += 30 * 86400;
    row = sized;
    gp_plan_buy(&row, &f.w, &f.a, gpu("b200"), &f.e, &bought, &ctx);
    assert_true(row.notes & GP_NOTE_STALE_PRICE);
    gp_buy_offers_release(&bought);
    gp_buy_offers_release(NULL);
}

/* Rows bought through a memo are the rows bought without one, over needs that share whole
 * groups (the headroom follows the fractional need) and when the mode or the offers change. */
static void test_buy_memo(void **state)
{
    struct gp_offer offers[3];
    struct buy_fixture f;
    struct gp_buy_offers bought = {0};
    struct gp_buy_memo memo = {0};
    struct gp_buy_context plain = {GP_PRICING_CHEAPEST, 1, NULL, NULL, 1790000000, 7, NULL};
    struct gp_buy_context kept = plain;
    struct gp_plan_row sized, with, without;
    int reused = 0;
    (void)state;

    buy_fixture_init(&f);
    kept.memo = &memo;
    b200_offers(offers, GP_TIER_SPOT);
    f.w.inference.load = GP_LOAD_REQUESTS;
    assert_int_equal(gp_buy_offers_collect(&bought, "b200", offers, 3, 0, NULL), 0);
    for (int i = 0; i < 120; i++) {
        f.w.inference.rate = 1.0 + i * 0.25;
        plain.mode = kept.mode = i % 40 < 30 ? GP_PRICING_CHEAPEST : GP_PRICING_SPOT;
        bought.count = i % 50 < 45 ? 3 : 2;
        gp_plan_evaluate(&sized, &f.w, &f.a, gpu("b200"), &f.e, &f.unit);
        bool hit =
            memo.valid && memo.count == bought.count && memo.opt.mode == kept.mode &&
            memo.groups ==
                (int)ceil(sized.tokens_per_s / (sized.tokens_per_s_per_gpu * sized.tp) - 1e-9);
        with = without = sized;
        gp_plan_buy(&with, &f.w, &f.a, gpu("b200"), &f.e, &bought, &kept);
        gp_plan_buy(&without, &f.w, &f.a, gpu("b200"), &f.e, &bought, &plain);
        assert_memory_equal(&with, &without, sizeof(with));
        reused += hit;
    }
    assert_true(reused > 60); /* most rows share their whole groups with the row before */
    gp_buy_offers_release(&bought);
}

/* Overlapping cost bands: the best row and the next say within-uncertainty. */
static void test_mark_uncertain(void **state)
{
    struct gp_plan_row rows[3];
    (void)state;

    memset(rows, 0, sizeof(rows));
    for (int i = 0; i < 3; i++) {
        rows[i].feasible = rows[i].price_known = true;
        rows[i].cost_low = 1.0 + i;
        rows[i].cost_high = 1.5 + i;
    }
    gp_plan_mark_uncertain(rows, 3, 3);
    assert_false(rows[0].notes & GP_NOTE_WITHIN_UNCERTAINTY);
    rows[1].cost_low = 1.4;
    gp_plan_mark_uncertain(rows, 3, 3);
    assert_true(rows[0].notes & GP_NOTE_WITHIN_UNCERTAINTY);
    assert_true(rows[1].notes & GP_NOTE_WITHIN_UNCERTAINTY);
    assert_false(rows[2].notes & GP_NOTE_WITHIN_UNCERTAINTY);

    /* Break-even: 8 GPUs at 30,000 x 1.6 against 20,000/month of rent. */
    struct gp_assumptions a;
    gp_assumptions_init(&a);
    rows[0].gpus = 8;
    rows[0].running_per_month = 2000; /* energy and hosting, as gp_plan_evaluate priced them */
    rows[1].cost_per_month = 20000;
    struct gp_capex_range capex = {25000, 30000, 40000};
    gp_text_copy(rows[1].provider, sizeof(rows[1].provider), "runpod");
    gp_plan_buy_break_even(&rows[0], &rows[1], &a, &capex, 36);
    assert_true(fabs(rows[0].break_even_months - 384000 / 18000.0) < 1e-9);
    /* over 36 months: the capital plus 36 months running, against 36 months of rent */
    const struct gp_plan_rent_own *ro = &rows[0].rent_own;
    assert_true(ro->set);
    assert_int_equal(ro->months, 36);
    assert_string_equal(ro->rented_from, "runpod");
    assert_true(fabs(ro->own_total - (384000 + 36 * 2000.0)) < 1e-6);
    assert_true(fabs(ro->rent_total - 36 * 20000.0) < 1e-6);
    assert_true(fabs(ro->break_even_low - 8 * 1.6 * 25000 / 18000.0) < 1e-9);
    assert_true(fabs(ro->break_even_high - 8 * 1.6 * 40000 / 18000.0) < 1e-9);
    /* rent below the running cost: owning never breaks even */
    rows[1].cost_per_month = 1500;
    gp_plan_buy_break_even(&rows[0], &rows[1], &a, &capex, 36);
    assert_true(rows[0].break_even_months == -1 && ro->break_even_low == -1);
    rows[1].price_known = false;
    gp_plan_buy_break_even(&rows[0], &rows[1], &a, &capex, 36);
    assert_true(rows[0].break_even_months == 0);
    assert_false(ro->set);
}

/* Rent against own: the fleet of least own_total and the fleet of least rent_total among the
 * feasible owned rows that could be rented, and their cumulative costs. */
static void test_rent_own_pick(void **state)
{
    struct gp_plan_row rows[4];
    struct gp_rent_own ro;
    (void)state;

    memset(rows, 0, sizeof(rows));
    for (int i = 0; i < 4; i++) {
        rows[i].feasible = rows[i].owned = rows[i].rent_own.set = true;
        rows[i].rent_own.months = 24;
        snprintf(rows[i].gpu, sizeof(rows[i].gpu), "gpu%d", i);
    }
    /* own totals 124,000 / 148,000 / 100,000 (infeasible); rents 6,000 / 4,000 / 1,000 a month */
    rows[0].upfront = 100000, rows[0].running_per_month = 1000, rows[0].rent_own.own_total = 124000;
    rows[1].upfront = 100000, rows[1].running_per_month = 2000, rows[1].rent_own.own_total = 148000;
    rows[2].rent_own.own_total = 100000, rows[2].feasible = false;
    rows[0].rent_own.rent_per_month = 6000, rows[0].rent_own.rent_total = 144000;
    rows[1].rent_own.rent_per_month = 4000, rows[1].rent_own.rent_total = 96000;
    rows[2].rent_own.rent_per_month = 1000, rows[2].rent_own.rent_total = 24000;
    rows[3].rent_own.set = false; /* could not be rented */
    gp_rent_own_pick(&ro, rows, 4);
    assert_ptr_equal(ro.owned, &rows[0]);
    assert_ptr_equal(ro.rented, &rows[1]);
    assert_int_equal(ro.months, 24);
    assert_true(fabs(ro.break_even_months - 100000 / 3000.0) < 1e-9);
    assert_true(gp_rent_own_owned_by(&ro, 0) == 100000 && gp_rent_own_rented_by(&ro, 0) == 0);
    assert_true(gp_rent_own_owned_by(&ro, 24) == 124000);
    assert_true(gp_rent_own_rented_by(&ro, 24) == 96000);
    rows[1].rent_own.rent_per_month = 900; /* renting stays cheaper than running */
    gp_rent_own_pick(&ro, rows, 4);
    assert_true(ro.break_even_months == -1);
    gp_rent_own_pick(&ro, rows, 0);
    assert_null(ro.owned);
    assert_null(ro.rented);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets_parse),
        cmocka_unit_test(test_rent_own_pick),
        cmocka_unit_test(test_parse_fields),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_architecture),
        cmocka_unit_test(test_sliding_window_and_stored_experts),
        cmocka_unit_test(test_precision_fallback),
        cmocka_unit_test(test_memory_fit),
        cmocka_unit_test(test_latency_targets),
        cmocka_unit_test(test_tp_choice_for_rate),
        cmocka_unit_test(test_decode_bounds),
        cmocka_unit_test(test_efficiency_scale_monotonic),
        cmocka_unit_test(test_training),
        cmocka_unit_test(test_generic_bounds),
        cmocka_unit_test(test_all_finite),
        cmocka_unit_test(test_fleet_sizing_and_cost),
        cmocka_unit_test(test_prices),
        cmocka_unit_test(test_rank),
        cmocka_unit_test(test_rank_blocks),
        cmocka_unit_test(test_rank_in_place),
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_set_training),
        cmocka_unit_test(test_sweep_parse),
        cmocka_unit_test(test_sweep_range_text),
        cmocka_unit_test(test_efficiency_table),
        cmocka_unit_test(test_efficiency_alltoall_latency),
        cmocka_unit_test(test_parse_buying),
        cmocka_unit_test(test_buy_row),
        cmocka_unit_test(test_buy_memo),
        cmocka_unit_test(test_mark_uncertain),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
