/* Unit tests for the inference layouts (tp, dep, tep, dpa), mixture-of-experts as engines run it
 * (one grouped kernel per block, experts divided by every layout), the engines' memory rules and
 * the interactivity floor. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "planner/keys.h"
#include "planner/layout.h"
#include "planner/model.h"
#include "planner/workload.h"
#include "tests/unit/planner_fixture.h"
#include "util/error.h"

static struct gp_efficiency eff_for(const char *id)
{
    struct gp_efficiency e;
    gp_efficiency_resolve(&e, &effs, id);
    return e;
}

static void pin(struct gp_workload *w, enum gp_layout scheme, int gpus)
{
    w->inference.layout = scheme;
    w->inference.layout_gpus = gpus;
}

static struct gp_perf evaluate(const struct gp_workload *w, const char *gpu_id,
                               const struct gp_efficiency *eff)
{
    struct gp_perf p;
    gp_model_evaluate(&p, w, gpu(gpu_id), eff, 1.0, 0);
    return p;
}

static void test_layout_text(void **state)
{
    static const struct {
        const char *text;
        enum gp_layout scheme;
        int gpus;
    } good[] = {{"tp", GP_LAYOUT_TP, 0},      {"tp1", GP_LAYOUT_TP, 1},
                {"dep8", GP_LAYOUT_DEP, 8},   {"tep4", GP_LAYOUT_TEP, 4},
                {"dpa2", GP_LAYOUT_DPA, 2},   {"tp16", GP_LAYOUT_TP, 16},
                {"dep64", GP_LAYOUT_DEP, 64}, {"choose", GP_LAYOUT_CHOOSE, 0}};
    static const char *const bad[] = {"",     "tp3",  "tp128", "dep12", "tep88",
                                      "xep4", "TEP8", "dep-8", "dp8"};
    enum gp_layout scheme;
    int gpus;
    char text[GP_LAYOUT_TEXT_MAX];
    (void)state;

    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        assert_int_equal(gp_layout_parse(good[i].text, &scheme, &gpus), 0);
        assert_int_equal(scheme, good[i].scheme);
        assert_int_equal(gpus, good[i].gpus);
        gp_layout_format(text, sizeof(text), scheme, gpus);
        assert_string_equal(text, good[i].text);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(gp_layout_parse(bad[i], &scheme, &gpus), GP_EINVALID);
        assert_non_null(strstr(gp_error_last(), "must be tp, dep, tep or dpa"));
    }
}

/* Every layout splits a replica's GPUs both ways: attention tp x dp and experts tp x ep. */
static void test_layout_shapes(void **state)
{
    struct gp_layout_shape s;
    (void)state;

    gp_layout_shape(&s, GP_LAYOUT_TP, 8);
    assert_true(s.attention_tp == 8 && s.attention_dp == 1 && s.expert_tp == 8 && s.expert_ep == 1);
    gp_layout_shape(&s, GP_LAYOUT_DEP, 8);
    assert_true(s.attention_tp == 1 && s.attention_dp == 8 && s.expert_tp == 1 && s.expert_ep == 8);
    gp_layout_shape(&s, GP_LAYOUT_TEP, 4);
    assert_true(s.attention_tp == 4 && s.attention_dp == 1 && s.expert_tp == 1 && s.expert_ep == 4);
    gp_layout_shape(&s, GP_LAYOUT_DPA, 2);
    assert_true(s.attention_tp == 1 && s.attention_dp == 2 && s.expert_tp == 2 && s.expert_ep == 1);
    assert_true(gp_layout_valid_for(GP_LAYOUT_TP, 8, 1));
    assert_false(gp_layout_valid_for(GP_LAYOUT_DEP, 8, 1));
    assert_false(gp_layout_valid_for(GP_LAYOUT_TEP, 1, 256));
    assert_true(gp_layout_valid_for(GP_LAYOUT_DPA, 0, 256));
}

static int parse(struct gp_workload *w, const char *fields)
{
    char json[512];
    snprintf(json, sizeof(json),
             "{\"kind\": \"inference\", \"model\": \"%s\", \"input_tokens\": 1024, "
             "\"output_tokens\": 1024, \"target\": \"max\"%s}",
             strstr(fields, "dense") ? "llama-3.1-70b" : "deepseek-r1",
             strstr(fields, "dense") ? strstr(fields, "dense") + 5 : fields);
    return gp_workload_parse(w, json, strlen(json), "w.json", &models);
}

/* Workload files pin a layout; one the model cannot run, or degrees that contradict it, are
 * refused naming the field. */
static void test_layout_in_workloads(void **state)
{
    static const struct {
        const char *fields, *error;
    } cases[] = {
        {", \"layout\": \"tep8\"", NULL},
        {", \"layout\": \"dpa\"", NULL},
        {", \"layout\": \"tep8\", \"tensor_parallel\": 8, \"expert_parallel\": 8", NULL},
        {", \"layout\": \"dep8\", \"tensor_parallel\": 1", NULL},
        {"dense, \"layout\": \"dep8\"", "w.json:1:"},
        {"dense, \"layout\": \"tp8\"", NULL},
        {", \"layout\": \"tep1\"", "layout: tep1 needs at least 2 GPUs"},
        {", \"layout\": \"tep9\"", "layout: 'tep9' is not a layout: must be tp, dep, tep or dpa"},
        {", \"layout\": 8", "layout"},
        {", \"layout\": \"tep8\", \"tensor_parallel\": 4",
         "tensor_parallel: is 4, but layout tep8 runs attention over 8 GPUs"},
        {", \"layout\": \"dep4\", \"expert_parallel\": 8",
         "expert_parallel: is 8, but layout dep4 spreads the experts over 4"},
        {", \"min_tokens_per_s_per_user\": -1", "min_tokens_per_s_per_user: must be"},
    };
    struct gp_workload w;
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int rc = parse(&w, cases[i].fields);
        if (!cases[i].error) {
            if (rc)
                fail_msg("case %zu: %s", i, gp_error_last());
            continue;
        }
        assert_int_equal(rc, GP_EINVALID);
        if (!strstr(gp_error_last(), cases[i].error))
            fail_msg("case %zu: '%s' lacks '%s'", i, gp_error_last(), cases[i].error);
    }
    assert_int_equal(parse(&w, "dense, \"layout\": \"dep8\""), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "layout: dep8 needs a mixture-of-experts model"));
    assert_int_equal(parse(&w, ", \"layout\": \"tep8\", \"min_tokens_per_s_per_user\": 40"), 0);
    assert_int_equal(w.inference.layout, GP_LAYOUT_TEP);
    assert_int_equal(w.inference.layout_gpus, 8);
    assert_true(w.inference.min_tokens_per_s_per_user == 40);
}

static void test_layout_key(void **state)
{
    struct gp_plan_input in;
    (void)state;

    memset(&in, 0, sizeof(in));
    in.workload = fixture_inference("deepseek-r1", GP_FP8, 1024, 1024);
    assert_int_equal(gp_plan_set(&in, "layout", "dpa8"), 0);
    assert_int_equal(in.workload.inference.layout, GP_LAYOUT_DPA);
    assert_int_equal(in.workload.inference.layout_gpus, 8);
    assert_int_equal(gp_plan_set(&in, "layout", "choose"), 0);
    assert_int_equal(in.workload.inference.layout, GP_LAYOUT_CHOOSE);
    assert_int_equal(gp_plan_set(&in, "layout", "tp12"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "layout: 'tp12' is not a layout"));
    assert_int_equal(gp_plan_set(&in, "min_tokens_per_s_per_user", "60"), 0);
    assert_true(in.workload.inference.min_tokens_per_s_per_user == 60);
    assert_int_equal(gp_plan_set(&in, "min_tokens_per_s_per_user", "-3"), GP_EINVALID);
    in.workload.kind = GP_WORKLOAD_TRAINING;
    assert_int_equal(gp_plan_set(&in, "layout", "tp8"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "applies to inference workloads"));
}

/* A pinned layout is the one planned, with the degrees it implies. */
static void test_pinned_layouts_plan_as_pinned(void **state)
{
    struct gp_efficiency eff = eff_for("h200-sxm");
    static const enum gp_layout schemes[] = {GP_LAYOUT_TP, GP_LAYOUT_DEP, GP_LAYOUT_TEP,
                                             GP_LAYOUT_DPA};
    (void)state;

    for (size_t i = 0; i < 4; i++) {
        struct gp_workload w = fixture_inference("deepseek-r1", GP_FP8, 1024, 1024);
        struct gp_layout_shape sh;
        pin(&w, schemes[i], 8);
        struct gp_perf p = evaluate(&w, "h200-sxm", &eff);
        gp_layout_shape(&sh, schemes[i], 8);
        assert_true(p.feasible);
        assert_int_equal(p.layout, schemes[i]);
        assert_int_equal(p.replica_gpus, 8);
        assert_int_equal(p.tp, sh.attention_tp);
        assert_int_equal(p.ep, sh.expert_ep);
        assert_true(isfinite(p.tpot_ms) && p.tpot_ms > 0);
    }
    /* Chosen freely, the planner keeps the best of them. */
    struct gp_workload w = fixture_inference("deepseek-r1", GP_FP8, 1024, 1024);
    struct gp_perf best = evaluate(&w, "h200-sxm", &eff);
    for (size_t i = 0; i < 4; i++) {
        pin(&w, schemes[i], 8);
        struct gp_perf p = evaluate(&w, "h200-sxm", &eff);
        assert_true(p.replica_rate / p.replica_gpus <=
                    best.replica_rate / best.replica_gpus + 1e-9);
    }
    /* Layouts other than tp never reach a dense model. */
    struct gp_workload dense = fixture_inference("llama-3.1-70b", GP_FP8, 1024, 1024);
    struct gp_perf d = evaluate(&dense, "h200-sxm", &eff);
    assert_int_equal(d.layout, GP_LAYOUT_TP);
}

/* The routed experts of a block are one grouped kernel: a decode step of gpt-oss-120b on one
 * B200 grows with its batch through the tokens' own work and the experts they reach (4 of 128 a
 * layer at batch 1, all of them at 256), as engines show: well under 25 ms at 256, a few times
 * the batch-1 step, where a fixed cost per expert made it 120 ms. Short prompts keep the
 * prefills each step carries small. */
static void test_grouped_experts(void **state)
{
    struct gp_efficiency eff = eff_for("b200");
    struct gp_workload w = fixture_inference("gpt-oss-120b", GP_FP4, 128, 1024);
    (void)state;

    pin(&w, GP_LAYOUT_TP, 1);
    w.inference.max_batch = 1;
    struct gp_perf one = evaluate(&w, "b200", &eff);
    w.inference.max_batch = 256;
    struct gp_perf many = evaluate(&w, "b200", &eff);
    assert_true(one.feasible && many.feasible);
    assert_int_equal(many.batch, 256);
    assert_true(many.tpot_ms < 25.0);
    assert_true(many.tpot_ms / one.tpot_ms < 8.0);
    assert_true(many.replica_rate > 30.0 * one.replica_rate);
}

/* Tensor parallelism divides every expert: DeepSeek-R1 FP8 on 8 H200 at TP8 and batch 64 steps
 * in tens of milliseconds (engines: about 35 ms), not the 350 ms of a per-expert fixed cost. */
static void test_tensor_parallel_divides_experts(void **state)
{
    struct gp_efficiency eff = eff_for("h200-sxm");
    struct gp_workload w = fixture_inference("deepseek-r1", GP_FP8, 1024, 1024);
    (void)state;

    pin(&w, GP_LAYOUT_TP, 8);
    w.inference.max_batch = 64;
    struct gp_perf p = evaluate(&w, "h200-sxm", &eff);
    assert_true(p.feasible);
    assert_int_equal(p.batch, 64);
    assert_true(p.tpot_ms < 80.0);
    pin(&w, GP_LAYOUT_TP, 4);
    struct gp_perf half = evaluate(&w, "h200-sxm", &eff);
    assert_false(half.feasible); /* 671 GB of FP8 weights do not fit 4 x 141 GB */
    assert_true(half.notes & GP_NOTE_DOES_NOT_FIT);
}

/* Layouts that exchange tokens between attention groups (dep's dispatch and combine, dpa's
 * gather and scatter) pay the exchange kernels' latency twice per MoE block in every step; tensor
 * parallelism's all-reduces do not. DeepSeek-R1 on 8 H200 at batch 64: 100 us more per exchange
 * is 58 MoE blocks x 2 x 100 us = 11.6 ms more per step. */
static void test_exchange_latency(void **state)
{
    static const enum gp_layout schemes[] = {GP_LAYOUT_DEP, GP_LAYOUT_DPA, GP_LAYOUT_TP};
    struct gp_efficiency eff = eff_for("h200-sxm");
    struct gp_workload w = fixture_inference("deepseek-r1", GP_FP8, 1024, 1024);
    double step_more_ms = 2.0 * gp_model_moe_layers(&w.model) * 0.1;
    (void)state;

    assert_true(fabs(step_more_ms - 11.6) < 1e-9);
    w.inference.max_batch = 64;
    for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
        struct gp_efficiency slower = eff;
        pin(&w, schemes[i], 8);
        slower.alltoall_latency_s = eff.alltoall_latency_s + 100e-6;
        struct gp_perf base = evaluate(&w, "h200-sxm", &eff);
        struct gp_perf more = evaluate(&w, "h200-sxm", &slower);
        assert_true(base.feasible && more.feasible);
        assert_int_equal(base.batch, 64);
        assert_int_equal(more.batch, 64);
        double grew = more.tpot_ms - base.tpot_ms;
        if (schemes[i] == GP_LAYOUT_TP) {
            assert_true(grew == 0.0);
        } else {
            /* a step pays it, and so does each prefill: one a step per 1024 answer tokens of
             * each of the 64 sequences */
            assert_true(fabs(grew - step_more_ms * (1.0 + 64.0 / 1024.0)) < 1e-6);
        }
    }
}

/* The routed tokens' activation traffic of DeepSeek-R1 (hidden 7168, experts 2048 wide, top-8, 58
 * MoE blocks) with fp8 experts: per routed copy 7168 x (1 + 4) + 4 x 7168 / 8 = 39,424 bytes in
 * hidden width and 2048 x (8 + 1) = 18,432 in expert width. Per sequence of a group on one of 8
 * GPUs: dep handles 8 copies of each width, tp 8 hidden-wide and one slice's worth of expert
 * width, dpa every group's copies in hidden width, tep 1/8 of everything; a dense model none. */
static void test_routed_traffic(void **state)
{
    struct gp_workload w = fixture_inference("deepseek-r1", GP_FP8, 1024, 1024);
    struct gp_workload dense = fixture_inference("llama-3.1-70b", GP_FP8, 1024, 1024);
    static const struct {
        enum gp_layout scheme;
        double hidden, wide; /* copies a GPU handles per sequence of a group */
    } cases[] = {
        {GP_LAYOUT_DEP, 8, 8}, {GP_LAYOUT_TP, 8, 1}, {GP_LAYOUT_DPA, 64, 8}, {GP_LAYOUT_TEP, 1, 1}};
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gp_layout_shape sh;
        gp_layout_shape(&sh, cases[i].scheme, 8);
        double want = 58.0 * (cases[i].hidden * 39424.0 + cases[i].wide * 18432.0);
        assert_true(fabs(gp_model_routed_traffic(&w.model, 1.0, &sh) - want) < 1e-6);
    }
    struct gp_layout_shape tp;
    gp_layout_shape(&tp, GP_LAYOUT_TP, 1);
    assert_true(gp_model_routed_traffic(&dense.model, 1.0, &tp) == 0.0);
}

/* tep differs from tp in the routed copies a GPU handles (those of its own experts, not every
 * copy for its slice of every expert), so it is searched: on 8 H200 DeepSeek-R1 runs faster
 * per GPU at tep8 than at tp8, and an open plan is at least as fast. A tensor-parallel degree
 * alone still pins tp. */
static void test_tep_searched(void **state)
{
    struct gp_efficiency eff = eff_for("h200-sxm");
    struct gp_workload w = fixture_inference("deepseek-r1", GP_FP8, 1024, 1024);
    (void)state;

    pin(&w, GP_LAYOUT_TP, 8);
    struct gp_perf tp = evaluate(&w, "h200-sxm", &eff);
    pin(&w, GP_LAYOUT_TEP, 8);
    struct gp_perf tep = evaluate(&w, "h200-sxm", &eff);
    assert_true(tp.feasible && tep.feasible);
    assert_true(tep.replica_rate > tp.replica_rate);
    pin(&w, GP_LAYOUT_CHOOSE, 0);
    struct gp_perf open = evaluate(&w, "h200-sxm", &eff);
    assert_true(open.replica_rate / open.replica_gpus >= tep.replica_rate / 8 - 1e-9);
    w.inference.tensor_parallel = 8;
    struct gp_perf pinned = evaluate(&w, "h200-sxm", &eff);
    assert_int_equal(pinned.layout, GP_LAYOUT_TP);
}

/* An engine that reserves a request's whole answer when it admits it (TensorRT-LLM's
 * GUARANTEED_NO_EVICT, kv_reserve 1) holds prompt plus answer per sequence; one that takes blocks
 * as tokens come holds prompt plus half the answer on average. Where memory sets the batch
 * (Qwen3-235B FP8 on 8 H100 at DEP8, 1k/8k) the batch shrinks by (1024 + 4096) / (1024 + 8192). */
static void test_kv_reserve(void **state)
{
    struct gp_efficiency eff = eff_for("h100-sxm");
    struct gp_workload w = fixture_inference("qwen3-235b-a22b", GP_FP8, 1024, 8192);
    (void)state;

    pin(&w, GP_LAYOUT_DEP, 8);
    eff.kv_reserve = 0;
    struct gp_perf paged = evaluate(&w, "h100-sxm", &eff);
    eff.kv_reserve = 1;
    struct gp_perf reserved = evaluate(&w, "h100-sxm", &eff);
    assert_true(paged.feasible && reserved.feasible);
    assert_true(paged.batch > 30);
    assert_true(fabs((double)reserved.batch / paged.batch - 5120.0 / 9216.0) < 0.03);
    assert_true(reserved.replica_rate < paged.replica_rate);
}

/* A latency target is met at the largest batch whose own experts' reads fit it, not refused
 * because reading every expert would not: DeepSeek-R1 at TP8 on MI300X under an engine that
 * reads HBM at 0.45 of the kernel rate and pays 320 us a layer (SGLang 0.5 on ROCm) takes about
 * 26 ms a token at batch 1, but reading all 84 GB of a GPU's weights takes longer than the
 * 50 ms target leaves. */
static void test_latency_batch_with_few_experts(void **state)
{
    struct gp_efficiency eff = eff_for("mi300x");
    struct gp_workload w = fixture_inference("deepseek-r1", GP_FP8, 1024, 1024);
    (void)state;

    eff.serve_memory = 0.45;
    eff.layer_overhead_s = 320e-6;
    pin(&w, GP_LAYOUT_TP, 8);
    w.inference.tpot_ms = 50;
    struct gp_perf p = evaluate(&w, "mi300x", &eff);
    assert_true(p.feasible);
    assert_true(p.batch >= 8 && p.tpot_ms <= 50.0);
    /* the largest such batch: one more sequence misses the target */
    w.inference.tpot_ms = 0;
    w.inference.max_batch = p.batch + 1;
    struct gp_perf more = evaluate(&w, "mi300x", &eff);
    assert_true(more.feasible && more.batch == p.batch + 1 && more.tpot_ms > 50.0);
    /* at the cap every expert is read, and that alone takes longer than the target */
    w.inference.max_batch = 2048;
    struct gp_perf full = evaluate(&w, "mi300x", &eff);
    assert_true(full.feasible && full.tpot_ms > 50.0);
}

/* TensorRT-LLM gives the KV cache a share of what the weights leave free, so DeepSeek-R1 FP8
 * fits 4 B200 at TP4 as engines serve it; a share of all HBM (vLLM's rule, or a workload's
 * memory_fraction) leaves no room. */
static void test_engine_memory_rules(void **state)
{
    struct gp_efficiency eff = eff_for("b200");
    struct gp_workload w = fixture_inference("deepseek-r1", GP_FP8, 1024, 1024);
    (void)state;

    pin(&w, GP_LAYOUT_TP, 4);
    eff.kv_free_fraction = 0.9;
    struct gp_perf trt = evaluate(&w, "b200", &eff);
    assert_true(trt.feasible);
    eff.kv_free_fraction = 0;
    eff.memory_fraction = 0.9;
    struct gp_perf vllm = evaluate(&w, "b200", &eff);
    assert_false(vllm.feasible);
    eff.kv_free_fraction = 0.9;
    w.inference.memory_fraction = 0.9; /* the workload's own share of HBM wins */
    struct gp_perf pinned = evaluate(&w, "b200", &eff);
    assert_false(pinned.feasible);
}

/* min_tokens_per_s_per_user caps the time per output token at its inverse, and the tighter of it
 * and tpot_ms applies. */
static void test_interactivity_floor(void **state)
{
    struct gp_efficiency eff = eff_for("h200-sxm");
    struct gp_workload w = fixture_inference("llama-3.1-70b", GP_FP8, 1024, 1024);
    (void)state;

    struct gp_perf free_run = evaluate(&w, "h200-sxm", &eff);
    w.inference.min_tokens_per_s_per_user = 50;
    struct gp_perf floor50 = evaluate(&w, "h200-sxm", &eff);
    assert_true(floor50.feasible);
    assert_true(floor50.tpot_ms <= 20.0 + 1e-9);
    assert_true(free_run.tpot_ms > 20.0);
    w.inference.tpot_ms = 15;
    struct gp_perf both = evaluate(&w, "h200-sxm", &eff);
    assert_true(both.tpot_ms <= 15.0 + 1e-9);
    w.inference.tpot_ms = 100;
    struct gp_perf loose = evaluate(&w, "h200-sxm", &eff);
    assert_true(loose.tpot_ms <= 20.0 + 1e-9);
    w.inference.min_tokens_per_s_per_user = 1e5; /* 10 us per token: nothing meets it */
    struct gp_perf none = evaluate(&w, "h200-sxm", &eff);
    assert_false(none.feasible);
    assert_true(none.notes & GP_NOTE_LATENCY_UNMET);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_text),
        cmocka_unit_test(test_layout_shapes),
        cmocka_unit_test(test_layout_in_workloads),
        cmocka_unit_test(test_layout_key),
        cmocka_unit_test(test_pinned_layouts_plan_as_pinned),
        cmocka_unit_test(test_grouped_experts),
        cmocka_unit_test(test_tensor_parallel_divides_experts),
        cmocka_unit_test(test_exchange_latency),
        cmocka_unit_test(test_tep_searched),
        cmocka_unit_test(test_kv_reserve),
        cmocka_unit_test(test_latency_batch_with_few_experts),
        cmocka_unit_test(test_routed_traffic),
        cmocka_unit_test(test_engine_memory_rules),
        cmocka_unit_test(test_interactivity_floor),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
