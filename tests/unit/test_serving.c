/* Unit tests for serving calibration: reading vLLM, SGLang and InferenceX results, their
 * errors, matching models, GPUs and profiles, the fit against the model and its application. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "calibrate/serving.h"
#include "planner/model.h"
#include "planner/serving_fit.h"
#include "planner/stack.h"
#include "tests/unit/planner_fixture.h"
#include "util/error.h"

static int parse(struct gp_serving_file *f, const char *text)
{
    return gp_serving_file_parse(f, text, strlen(text), "r.json");
}

#define BENCH                                                                                      \
    "\"max_concurrency\": 64, \"completed\": 100, \"total_input_tokens\": 102400, "                \
    "\"total_output_tokens\": 51200, \"output_throughput\": 2000"

static void test_formats(void **state)
{
    struct gp_serving_file f;
    (void)state;

    /* vLLM: one pretty-printed object with a model id. */
    assert_int_equal(parse(&f, "{\n  \"model_id\": \"openai/gpt-oss-120b\",\n  \"date\": "
                               "\"20261101-000000\",\n  " BENCH "\n}\n"),
                     0);
    assert_int_equal(f.count, 1);
    assert_int_equal(f.runs[0].format, GP_SERVING_VLLM);
    assert_string_equal(f.runs[0].model_id, "openai/gpt-oss-120b");
    assert_int_equal(f.runs[0].concurrency, 64);
    assert_true(f.runs[0].input_tokens == 1024 && f.runs[0].output_tokens == 512);
    assert_true(f.runs[0].output_tok_s == 2000);
    gp_serving_file_release(&f);
    /* SGLang: JSON lines with blank lines and CRLF between them, line numbers kept. */
    assert_int_equal(parse(&f, "{\"backend\": \"sglang\", " BENCH "}\r\n\r\n{\"backend\": "
                               "\"sglang\", \"dataset_name\": \"random\", " BENCH "}\n"),
                     0);
    assert_int_equal(f.count, 2);
    assert_int_equal(f.runs[0].format, GP_SERVING_SGLANG);
    assert_int_equal(f.runs[1].line, 3);
    gp_serving_file_release(&f);
    /* InferenceX: per-GPU throughput and the deployment; latencies in seconds. */
    assert_int_equal(parse(&f, "{\"hw\": \"b200-nb\", \"tp\": 4, \"ep\": 4, \"dp_attention\": "
                               "\"true\", \"conc\": 256, \"model\": \"x/y\", \"framework\": "
                               "\"trt\", \"precision\": \"fp4\", \"output_tput_per_gpu\": 5000, "
                               "\"mean_tpot\": 0.05}"),
                     0);
    assert_int_equal(f.runs[0].format, GP_SERVING_INFERENCEX);
    assert_true(f.runs[0].tp == 4 && f.runs[0].ep == 4 && f.runs[0].dp_attention == 1);
    assert_true(f.runs[0].output_per_gpu == 5000 && fabs(f.runs[0].mean_tpot_ms - 50) < 1e-9);
    assert_string_equal(f.runs[0].hw, "b200-nb");
    gp_serving_file_release(&f);
}

static void test_errors(void **state)
{
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"", "r.json: is empty"},
        {"{\"a\": 1}", "is no serving result"},
        {"[1, 2]", "must be a benchmark result object"},
        {"{\"max_concurrency\": null, \"output_throughput\": 1}", "no concurrency limit"},
        {"{\"max_concurrency\": 0.5, \"output_throughput\": 1}",
         "max_concurrency: must be a whole"},
        {"{\"max_concurrency\": 8, \"completed\": 0, \"total_input_tokens\": 0, "
         "\"total_output_tokens\": 0, \"output_throughput\": 1}",
         "completed: no request completed"},
        {"{\"max_concurrency\": 8, \"completed\": 10, \"total_input_tokens\": 10, "
         "\"total_output_tokens\": 5, \"output_throughput\": 1}",
         "total_output_tokens: must be at least one token a request"},
        {"{\"max_concurrency\": 8, \"completed\": 10, \"total_input_tokens\": 10, "
         "\"total_output_tokens\": 50, \"output_throughput\": -1}",
         "output_throughput: must be a finite number, not negative"},
        {"{\"max_concurrency\": 8, \"completed\": 10, \"total_input_tokens\": 10, "
         "\"total_output_tokens\": 50, \"output_throughput\": 1, \"model_id\": 7}",
         "model_id: must be a string"},
        {"{\"conc\": 8, \"output_tput_per_gpu\": 0}", "output_tput_per_gpu: must be greater"},
        {"{\"conc\": 8, \"output_tput_per_gpu\": 10, \"tp\": 3.5}", "tp: must be a whole number"},
        {"{\"conc\": 8, \"output_tput_per_gpu\": 10, \"dp_attention\": \"yes\"}",
         "dp_attention: must be true or false"},
        {"{\"backend\": \"sglang\", " BENCH "}\n{\"backend\": \"sglang\"}\n",
         "r.json:2:1: (document): is no serving result"},
        {"{\"backend\": \"sglang\", " BENCH "}\n{nope\n", "r.json:2"},
    };
    struct gp_serving_file f;
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(parse(&f, cases[i].text), GP_EINVALID);
        if (!strstr(gp_error_last(), cases[i].error))
            fail_msg("case %zu: '%s' lacks '%s'", i, gp_error_last(), cases[i].error);
        assert_null(f.runs);
    }
    assert_int_equal(gp_serving_file_parse(&f, "{\"a\"\0}", 6, "r.json"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "NUL byte"));
}

static void test_matching(void **state)
{
    (void)state;
    assert_string_equal(gp_serving_model_for(&models, "deepseek-ai/DeepSeek-R1-0528")->name,
                        "deepseek-r1");
    assert_string_equal(gp_serving_model_for(&models, "openai/GPT-OSS-120B")->name, "gpt-oss-120b");
    assert_string_equal(gp_serving_model_for(&models, "meta-llama/Llama-3.3-70B-Instruct")->name,
                        "llama-3.3-70b");
    assert_null(gp_serving_model_for(&models, "someone/unknown"));
    assert_null(gp_serving_model_for(&models, ""));
    assert_string_equal(gp_serving_gpu_for(&cat, "b200-nb")->id, "b200");
    assert_string_equal(gp_serving_gpu_for(&cat, "h200")->id, "h200-sxm");
    assert_string_equal(gp_serving_gpu_for(&cat, "MI355X_amd")->id, "mi355x");
    assert_null(gp_serving_gpu_for(&cat, "tpu-v5"));
    assert_null(gp_serving_gpu_for(&cat, "-x"));
}

/* A measurement at exactly the model's prediction fits a factor of 1; twice it, 2; the median of
 * several factors is what a plan applies, and it names them. */
static void test_fit_and_apply(void **state)
{
    struct gp_efficiency eff;
    struct gp_serving_fit fit;
    struct gp_serving_measure m = {
        .model = gp_model_table_find(&models, "llama-3.1-70b"),
        .precision = GP_FP8,
        .kv_precision = GP_FP8,
        .layout = GP_LAYOUT_TP,
        .replica_gpus = 2,
        .gpus = 8,
        .concurrency = 64,
        .input_tokens = 1024,
        .output_tokens = 1024,
        .measured_per_gpu = 1,
    };
    (void)state;

    gp_efficiency_resolve(&eff, &effs, "h200-sxm");
    assert_int_equal(gp_serving_fit(&fit, &m, gpu("h200-sxm"), &eff), 0);
    assert_int_equal(fit.batch, 16); /* 64 in flight over 4 replicas */
    m.measured_per_gpu = fit.predicted_per_gpu * 2;
    assert_int_equal(gp_serving_fit(&fit, &m, gpu("h200-sxm"), &eff), 0);
    assert_float_equal(fit.factor, 2.0, 1e-12);
    m.gpus = 7;
    assert_int_equal(gp_serving_fit(&fit, &m, gpu("h200-sxm"), &eff), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "7 GPUs are not whole replicas of layout tp2"));
    m.gpus = 8;
    m.layout = GP_LAYOUT_DEP;
    assert_int_equal(gp_serving_fit(&fit, &m, gpu("h200-sxm"), &eff), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "layout dep2 cannot run llama-3.1-70b"));
    m.layout = GP_LAYOUT_TP;
    m.replica_gpus = 1;
    m.precision = GP_BF16;
    m.model = gp_model_table_find(&models, "llama-3.1-405b");
    assert_int_equal(gp_serving_fit(&fit, &m, gpu("h200-sxm"), &eff), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "does not fit h200-sxm"));

    struct gp_workload w = fixture_inference("llama-3.1-70b", GP_FP8, 1024, 1024);
    struct gp_perf plain, scaled;
    gp_model_evaluate(&plain, &w, gpu("h200-sxm"), &eff, 1.0, 0);
    const double factors[] = {0.9, 0.5, 0.7};
    gp_serving_apply(&eff, factors, 3);
    assert_float_equal(eff.serving_factor, 0.7, 1e-12);
    assert_string_equal(eff.source, "default+serving:3 runs:x0.70");
    gp_model_evaluate(&scaled, &w, gpu("h200-sxm"), &eff, 1.0, 0);
    assert_float_equal(scaled.replica_rate, 0.7 * plain.replica_rate, 1e-6 * plain.replica_rate);
    assert_float_equal(scaled.tpot_ms, plain.tpot_ms / 0.7, 1e-9 * plain.tpot_ms);
    gp_serving_apply(&eff, factors, 0); /* nothing to apply changes nothing */
    assert_float_equal(eff.serving_factor, 0.7, 1e-12);
    assert_string_equal(gp_serving_class(&w.model), "dense");
    assert_string_equal(gp_serving_class(gp_model_table_find(&models, "kimi-k2")), "moe");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_matching),
        cmocka_unit_test(test_fit_and_apply),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
