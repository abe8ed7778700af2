/* Fuzz target: the command line's what-if parsers, `--sweep KEY=SPEC` (gp_sweep_parse) and
 * `--set KEY=VALUE` (gp_plan_apply), on an inference and a training workload. A sweep that
 * parses has 1 to GP_SWEEP_MAX_POINTS non-empty values; one that passes the check must set at
 * every point (checked up to 10,000 points); whatever is set must plan to finite numbers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planner/plan.h"
#include "planner/sweep.h"
#include "planner/workload.h"

#include "fuzz_planner.h"

static const char *const workloads[] = {
    "{\"kind\": \"inference\", \"name\": \"chat\", \"model\": \"llama-3.1-70b\", "
    "\"precision\": \"fp8\", \"kv_precision\": \"fp8\", \"input_tokens\": 1024, "
    "\"output_tokens\": 256, \"target\": {\"requests_per_s\": 20}, \"ttft_ms\": 2000, "
    "\"tpot_ms\": 50, \"memory_fraction\": 0.9}",
    "{\"kind\": \"training\", \"name\": \"train\", \"model\": \"llama-3.1-70b\", "
    "\"precision\": \"bf16\", \"tokens\": 1e9, \"deadline_hours\": 336, \"seq_len\": 8192, "
    "\"micro_batch\": 1, \"global_batch_tokens\": 16777216}",
};

enum { SPEC_MAX = 4096 };

/* Plan `in` on the fixture GPU; the row must hold only finite numbers. */
static void plan_one(const struct gp_plan_input *in)
{
    struct gp_gpu gpu;
    struct gp_efficiency eff;
    struct gp_price price = {true, false, false, 2.5, "on-demand", "fuzz", "2026-01-01", 0};
    struct gp_plan_row row;

    fixtures(&gpu, &eff);
    gp_plan_evaluate(&row, &in->workload, &in->assumptions, &gpu, &eff, &price);
    check_finite(&row);
}

/* The values a check looks at: every one of a sweep up to FULL_CHECK points; of a longer one
 * (a range, whose values are computed) the first, a middle and the last. */
enum { FULL_CHECK = 10000 };

static size_t value_index(const struct gp_sweep *s, size_t i)
{
    return s->count <= FULL_CHECK ? i : i == 0 ? 0 : i == 1 ? s->count / 2 : s->count - 1;
}

static void sweep(const struct gp_plan_input *base, const char *spec)
{
    struct gp_sweep s;
    char text[GP_SWEEP_VALUE_MAX];
    size_t checked;

    if (gp_sweep_parse(&s, spec))
        return;
    if (s.count < 1 || s.count > GP_SWEEP_MAX_POINTS)
        abort();
    checked = s.count <= FULL_CHECK ? s.count : 3;
    for (size_t i = 0; i < checked; i++) {
        const char *value = gp_sweep_value(&s, value_index(&s, i), text);
        size_t len = strnlen(value, GP_SWEEP_VALUE_MAX);
        if (len == 0 || len == GP_SWEEP_VALUE_MAX)
            abort();
    }
    if (s.count <= FULL_CHECK && gp_plan_sweep_check(base, &s) == 0) {
        /* the check promised every point sets; plan the first, a middle and the last */
        for (size_t v = 0; v < s.count; v++) {
            struct gp_plan_input point = *base;
            if (gp_plan_set(&point, s.key, gp_sweep_value(&s, v, text)))
                abort();
            if (v == 0 || v == s.count / 2 || v + 1 == s.count)
                plan_one(&point);
        }
    }
    gp_sweep_release(&s);
}

static void set(const struct gp_plan_input *base, char *spec)
{
    char *eq = strchr(spec, '=');
    struct gp_plan_input in = *base;

    if (!eq)
        return;
    *eq = '\0';
    if (gp_plan_apply(&in, spec, eq + 1) == 0)
        plan_one(&in);
    *eq = '=';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct gp_model_table models;
    static struct gp_plan_input bases[sizeof(workloads) / sizeof(workloads[0])];
    static int loaded;
    char spec[SPEC_MAX];

    if (!loaded) {
        if (gp_model_table_parse(&models, models_json, sizeof(models_json) - 1, "models.json"))
            abort();
        for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
            if (gp_workload_parse(&bases[i].workload, workloads[i], strlen(workloads[i]),
                                  "fuzz.json", &models))
                abort();
            gp_assumptions_init(&bases[i].assumptions);
        }
        loaded = 1;
    }
    if (size >= sizeof(spec))
        return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';
    for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
        sweep(&bases[i], spec);
        set(&bases[i], spec);
    }
    return 0;
}
