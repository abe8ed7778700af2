/* The --set/--sweep key table: which workload or assumption field each key changes, its unit
 * and range, and the parser for sweep specifications. */
#include "planner/sweep.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"

enum scope { ANY_WORKLOAD, INFERENCE, TRAINING, GENERIC, MODEL, ASSUMPTION };
enum vtype { NUMBER, WHOLE, INTEGER, PRECISION, BOOLEAN, RATE, PARALLEL };

struct key_def {
    struct gp_plan_key doc;
    enum scope scope;
    enum vtype type;
    size_t offset; /* into struct gp_plan_input; unused for ANY_WORKLOAD and RATE */
    double min, max;
};

#define IN(f) offsetof(struct gp_plan_input, workload.inference.f)
#define TR(f) offsetof(struct gp_plan_input, workload.training.f)
#define GE(f) offsetof(struct gp_plan_input, workload.generic.f)
#define MO(f) offsetof(struct gp_plan_input, workload.model.f)
#define AS(f) offsetof(struct gp_plan_input, assumptions.f)

static const struct key_def keys[] = {
    {{"precision", "any", "format", "weight/matmul precision: fp32 tf32 bf16 fp16 fp8 fp6 fp4"},
     ANY_WORKLOAD,
     PRECISION,
     0,
     0,
     0},
    {{"kv_precision", "inference", "format", "KV cache element format"},
     INFERENCE,
     PRECISION,
     IN(kv_precision),
     0,
     0},
    {{"input_tokens", "inference", "tokens", "mean prompt length per request"},
     INFERENCE,
     WHOLE,
     IN(input_tokens),
     1,
     1e7},
    {{"output_tokens", "inference", "tokens", "mean generated length per request"},
     INFERENCE,
     WHOLE,
     IN(output_tokens),
     1,
     1e7},
    {{"rate", "inference", "workload unit",
      "target load in the workload's unit (requests/s or output tokens/s), or max"},
     INFERENCE,
     RATE,
     0,
     0,
     1e12},
    {{"requests_per_s", "inference", "requests/s", "target load as requests per second"},
     INFERENCE,
     RATE,
     0,
     0,
     1e12},
    {{"output_tokens_per_s", "inference", "tokens/s", "target load as output tokens per second"},
     INFERENCE,
     RATE,
     0,
     0,
     1e12},
    {{"ttft_ms", "inference", "ms", "time-to-first-token limit (0 = none)"},
     INFERENCE,
     NUMBER,
     IN(ttft_ms),
     0,
     1e9},
    {{"tpot_ms", "inference", "ms", "time-per-output-token limit (0 = none)"},
     INFERENCE,
     NUMBER,
     IN(tpot_ms),
     0,
     1e9},
    {{"memory_fraction", "inference", "share", "share of HBM the serving engine may use"},
     INFERENCE,
     NUMBER,
     IN(memory_fraction),
     0.01,
     1},
    {{"tensor_parallel", "model", "GPUs", "fixed tensor-parallel degree (0 = choose)"},
     MODEL,
     PARALLEL,
     0,
     0,
     8},
    {{"pipeline_parallel", "training", "stages", "fixed pipeline stages (0 = choose)"},
     TRAINING,
     INTEGER,
     TR(pipeline_parallel),
     0,
     65536},
    {{"max_batch", "inference", "sequences", "engine limit on sequences per step (0 = default)"},
     INFERENCE,
     INTEGER,
     IN(max_batch),
     0,
     1000000},
    {{"tokens", "training", "tokens", "training tokens"}, TRAINING, WHOLE, TR(tokens), 1, 1e16},
    {{"deadline_hours", "training", "h", "wall-clock limit; sizes the fleet (clears gpus)"},
     TRAINING,
     NUMBER,
     TR(deadline_hours),
     0.001,
     1e6},
    {{"gpus", "training", "GPUs", "fixed training fleet (clears deadline_hours)"},
     TRAINING,
     INTEGER,
     TR(gpus),
     1,
     1e7},
    {{"recompute", "training", "bool", "full activation recomputation"},
     TRAINING,
     BOOLEAN,
     TR(recompute),
     0,
     1},
    {{"optimizer_bytes", "training", "bytes/param", "optimizer state per parameter"},
     TRAINING,
     NUMBER,
     TR(optimizer_bytes),
     0,
     64},
    {{"zero_stage", "training", "stage", "ZeRO/FSDP sharding stage 0-3"},
     TRAINING,
     INTEGER,
     TR(zero_stage),
     0,
     3},
    {{"mfu", "training", "share", "model FLOPs utilisation override (0 = default)"},
     TRAINING,
     NUMBER,
     TR(mfu),
     0,
     1},
    {{"seq_len", "training", "tokens", "tokens per training sequence"},
     TRAINING,
     INTEGER,
     TR(seq_len),
     1,
     1e7},
    {{"micro_batch", "training", "sequences", "sequences per micro-batch per GPU"},
     TRAINING,
     INTEGER,
     TR(micro_batch),
     1,
     65536},
    {{"global_batch_tokens", "training", "tokens", "tokens per optimizer step"},
     TRAINING,
     WHOLE,
     TR(global_batch_tokens),
     1,
     1e12},
    {{"flops", "generic", "FLOP", "floating-point operations per job"},
     GENERIC,
     NUMBER,
     GE(flops),
     0,
     1e24},
    {{"bytes", "generic", "bytes", "HBM traffic per job"}, GENERIC, NUMBER, GE(bytes), 0, 1e21},
    {{"jobs_per_hour", "generic", "jobs/h", "target rate (0 = one GPU at full speed)"},
     GENERIC,
     NUMBER,
     GE(jobs_per_hour),
     0,
     1e12},
    {{"params", "model", "parameters", "total parameters"}, MODEL, WHOLE, MO(params), 1, 1e15},
    {{"layers", "model", "count", "transformer blocks"}, MODEL, INTEGER, MO(layers), 1, 10000},
    {{"hidden", "model", "width", "model width"}, MODEL, INTEGER, MO(hidden), 1, 1e6},
    {{"heads", "model", "count", "attention heads"}, MODEL, INTEGER, MO(heads), 1, 1e6},
    {{"kv_heads", "model", "count", "key/value heads"}, MODEL, INTEGER, MO(kv_heads), 1, 1e6},
    {{"head_dim", "model", "width", "width of one head"}, MODEL, INTEGER, MO(head_dim), 1, 65536},
    {{"ffn", "model", "width", "FFN inner width"}, MODEL, INTEGER, MO(ffn), 1, 1e7},
    {{"vocab", "model", "tokens", "vocabulary size"}, MODEL, INTEGER, MO(vocab), 1, 1e8},
    {{"experts", "model", "count", "experts per MoE layer (1 = dense)"},
     MODEL,
     INTEGER,
     MO(experts),
     1,
     4096},
    {{"active_experts", "model", "count", "experts per token"},
     MODEL,
     INTEGER,
     MO(active_experts),
     1,
     4096},
    {{"pue", "any", "ratio", "facility power / IT power"}, ASSUMPTION, NUMBER, AS(pue), 1, 5},
    {{"kwh_price", "any", "currency/kWh", "energy price"},
     ASSUMPTION,
     NUMBER,
     AS(kwh_price),
     0,
     100},
    {{"years", "any", "years", "amortisation period of owned GPUs"},
     ASSUMPTION,
     NUMBER,
     AS(years),
     0.1,
     50},
    {{"capex", "any", "currency/GPU", "purchase price per GPU (owned pricing)"},
     ASSUMPTION,
     NUMBER,
     AS(capex),
     0,
     1e8},
    {{"server_overhead", "any", "ratio", "server and network cost as a multiple of GPU capex"},
     ASSUMPTION,
     NUMBER,
     AS(server_overhead),
     1,
     20},
    {{"hosting_per_kw_month", "any", "currency/kW-month", "owned: space and cooling"},
     ASSUMPTION,
     NUMBER,
     AS(hosting_per_kw_month),
     0,
     1e6},
    {{"max_gpus", "any", "GPUs", "largest fleet considered (0 = no limit)"},
     ASSUMPTION,
     INTEGER,
     AS(max_gpus),
     0,
     1e9},
    {{"power_budget_kw", "any", "kW", "facility power available (0 = no limit)"},
     ASSUMPTION,
     NUMBER,
     AS(power_budget_kw),
     0,
     1e9},
};

#define KEY_COUNT (sizeof(keys) / sizeof(keys[0]))

const struct gp_plan_key *gp_plan_keys(size_t *count)
{
    static struct gp_plan_key docs[KEY_COUNT];

    for (size_t i = 0; i < KEY_COUNT; i++)
        docs[i] = keys[i].doc;
    *count = KEY_COUNT;
    return docs;
}

static const struct key_def *find_key(const char *name)
{
    for (size_t i = 0; i < KEY_COUNT; i++)
        if (strcmp(keys[i].doc.name, name) == 0)
            return &keys[i];
    return NULL;
}

static int unknown_key(const char *name)
{
    const char *names[KEY_COUNT + 1];

    for (size_t i = 0; i < KEY_COUNT; i++)
        names[i] = keys[i].doc.name;
    names[KEY_COUNT] = NULL;
    const char *hint = gp_text_nearest(name, names);
    if (hint)
        return gp_error_set(GP_EINVALID, "unknown key '%s' (did you mean '%s'?)", name, hint);
    return gp_error_set(GP_EINVALID, "unknown key '%s'; `gpuplan help plan` lists the keys", name);
}

static int parse_precision(const char *key, const char *value, enum gp_precision *out)
{
    const char *names[GP_PRECISION_COUNT + 1];
    int p = gp_precision_parse(value);

    if (p >= 0) {
        *out = (enum gp_precision)p;
        return 0;
    }
    for (int i = 0; i < GP_PRECISION_COUNT; i++)
        names[i] = gp_precision_name((enum gp_precision)i);
    names[GP_PRECISION_COUNT] = NULL;
    const char *hint = gp_text_nearest(value, names);
    return gp_error_set(GP_EINVALID, "%s: unknown precision '%s'%s%s%s", key, value,
                        hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
}

static int parse_number(const struct key_def *k, const char *value, double *out)
{
    if (gp_text_to_double(value, out))
        return gp_error_set(GP_EINVALID, "%s: '%s' is not a number", k->doc.name, value);
    if (*out < k->min || *out > k->max)
        return gp_error_set(GP_EINVALID, "%s: %s is out of range [%g, %g] %s", k->doc.name, value,
                            k->min, k->max, k->doc.unit);
    return 0;
}

static int set_rate(struct gp_inference *in, const struct key_def *k, const char *value)
{
    double v;

    if (strcmp(value, "max") == 0) {
        if (strcmp(k->doc.name, "rate"))
            return gp_error_set(GP_EINVALID, "%s: use rate=max for the best throughput per GPU",
                                k->doc.name);
        in->load = GP_LOAD_MAX;
        return 0;
    }
    int rc = parse_number(k, value, &v);
    if (rc)
        return rc;
    if (!(v > 0))
        return gp_error_set(GP_EINVALID, "%s: must be greater than 0 (or rate=max)", k->doc.name);
    if (strcmp(k->doc.name, "requests_per_s") == 0)
        in->load = GP_LOAD_REQUESTS;
    else if (strcmp(k->doc.name, "output_tokens_per_s") == 0)
        in->load = GP_LOAD_OUTPUT_TOKENS;
    else if (in->load == GP_LOAD_MAX)
        in->load = GP_LOAD_REQUESTS;
    in->rate = v;
    return 0;
}

static bool applies(enum scope scope, enum gp_workload_kind kind)
{
    switch (scope) {
    case ANY_WORKLOAD:
    case ASSUMPTION:
        return true;
    case INFERENCE:
        return kind == GP_WORKLOAD_INFERENCE;
    case TRAINING:
        return kind == GP_WORKLOAD_TRAINING;
    case GENERIC:
        return kind == GP_WORKLOAD_GENERIC;
    case MODEL:
        return kind != GP_WORKLOAD_GENERIC;
    }
    return false;
}

int gp_plan_set(struct gp_plan_input *in, const char *key, const char *value)
{
    const struct key_def *k = find_key(key);
    struct gp_workload *w = &in->workload;
    char *base = (char *)in;
    double v = 0;
    int rc = 0;

    if (!k)
        return unknown_key(key);
    if (!applies(k->scope, w->kind))
        return gp_error_set(GP_EINVALID, "%s applies to %s workloads; '%s' is a %s workload", key,
                            k->scope == MODEL ? "inference and training" : k->doc.applies_to,
                            w->name, gp_workload_kind_name(w->kind));
    switch (k->type) {
    case PRECISION: {
        enum gp_precision p = GP_BF16;
        rc = parse_precision(key, value, &p);
        if (rc)
            return rc;
        if (k->scope != ANY_WORKLOAD)
            *(enum gp_precision *)(base + k->offset) = p;
        else if (w->kind == GP_WORKLOAD_INFERENCE)
            w->inference.precision = p;
        else if (w->kind == GP_WORKLOAD_TRAINING)
            w->training.precision = p;
        else
            w->generic.precision = p;
        break;
    }
    case RATE:
        rc = set_rate(&w->inference, k, value);
        break;
    case BOOLEAN:
        if (!strcmp(value, "true") || !strcmp(value, "1") || !strcmp(value, "yes"))
            *(bool *)(base + k->offset) = true;
        else if (!strcmp(value, "false") || !strcmp(value, "0") || !strcmp(value, "no"))
            *(bool *)(base + k->offset) = false;
        else
            rc = gp_error_set(GP_EINVALID, "%s: '%s' is not true or false", key, value);
        break;
    case PARALLEL: {
        long n;
        if (gp_text_to_int(value, 0, 8, &n) || (n & (n - 1)))
            return gp_error_set(GP_EINVALID, "%s: '%s' is not 0 (choose), 1, 2, 4 or 8", key,
                                value);
        if (w->kind == GP_WORKLOAD_INFERENCE)
            w->inference.tensor_parallel = (int)n;
        else
            w->training.tensor_parallel = (int)n;
        break;
    }
    case INTEGER: {
        long n;
        if (gp_text_to_int(value, (long)k->min, (long)k->max, &n))
            return gp_error_set(GP_EINVALID, "%s: '%s' is not a whole number in [%g, %g]", key,
                                value, k->min, k->max);
        *(int *)(base + k->offset) = (int)n;
        break;
    }
    case NUMBER:
    case WHOLE:
        rc = parse_number(k, value, &v);
        if (!rc && k->type == WHOLE && v != floor(v))
            rc = gp_error_set(GP_EINVALID, "%s: '%s' is not a whole number of %s", key, value,
                              k->doc.unit);
        if (!rc)
            *(double *)(base + k->offset) = v;
        break;
    }
    if (rc)
        return rc;
    /* A changed shape re-derives the parameter count; the two training sizings exclude each
     * other. */
    if (k->scope == MODEL && k->type != PARALLEL && strcmp(key, "params") != 0) {
        w->model.params = 0;
        gp_model_arch_complete(&w->model);
    }
    if (strcmp(key, "deadline_hours") == 0)
        w->training.gpus = 0;
    if (strcmp(key, "gpus") == 0)
        w->training.deadline_hours = 0;
    return 0;
}

static int add_value(struct gp_sweep *out, const char *text, size_t len)
{
    if (len == 0 || len >= GP_SWEEP_VALUE_MAX)
        return gp_error_set(GP_EINVALID, "--sweep %s: value '%.*s' is empty or too long", out->key,
                            (int)len, text);
    if (out->count >= GP_SWEEP_MAX_POINTS)
        return gp_error_set(GP_EINVALID, "--sweep %s: more than %d values", out->key,
                            GP_SWEEP_MAX_POINTS);
    memcpy(out->values[out->count], text, len);
    out->values[out->count][len] = '\0';
    out->count++;
    return 0;
}

static int parse_range(struct gp_sweep *out, const char *spec)
{
    char parts[3][GP_SWEEP_VALUE_MAX];
    double from, to, step;
    const char *p = spec;

    for (int i = 0; i < 3; i++) {
        size_t n = strcspn(p, ":");
        if (n >= GP_SWEEP_VALUE_MAX || (i < 2 && p[n] != ':') || (i == 2 && p[n] != '\0'))
            return gp_error_set(GP_EINVALID, "--sweep %s: expected from:to:step, got '%s'",
                                out->key, spec);
        memcpy(parts[i], p, n);
        parts[i][n] = '\0';
        p += n + 1;
    }
    if (gp_text_to_double(parts[0], &from) || gp_text_to_double(parts[1], &to) ||
        gp_text_to_double(parts[2], &step))
        return gp_error_set(GP_EINVALID, "--sweep %s: from, to and step must be numbers in '%s'",
                            out->key, spec);
    if (step == 0 || (to - from) / step < 0)
        return gp_error_set(GP_EINVALID, "--sweep %s: step %g does not lead from %g to %g",
                            out->key, step, from, to);
    double points = floor((to - from) / step + 1e-9) + 1;
    if (points > GP_SWEEP_MAX_POINTS)
        return gp_error_set(GP_EINVALID, "--sweep %s: %.0f points, more than %d", out->key, points,
                            GP_SWEEP_MAX_POINTS);
    for (int i = 0; i < (int)points; i++) {
        char text[GP_SWEEP_VALUE_MAX];
        int n = snprintf(text, sizeof(text), "%.10g", from + i * step);
        int rc = add_value(out, text, (size_t)n);
        if (rc)
            return rc;
    }
    return 0;
}

int gp_sweep_parse(struct gp_sweep *out, const char *spec)
{
    const char *eq = strchr(spec, '=');
    int rc = 0;

    memset(out, 0, sizeof(*out));
    if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(out->key))
        return gp_error_set(GP_EINVALID, "--sweep '%s': expected key=from:to:step or key=a,b,c",
                            spec);
    memcpy(out->key, spec, (size_t)(eq - spec));
    out->key[eq - spec] = '\0';
    if (!find_key(out->key))
        return unknown_key(out->key);
    out->values = calloc(GP_SWEEP_MAX_POINTS, sizeof(*out->values));
    if (!out->values)
        return gp_error_set(GP_ENOMEM, "out of memory");
    const char *list = eq + 1;
    if (strchr(list, ':')) {
        rc = parse_range(out, list);
    } else {
        while (!rc) {
            size_t n = strcspn(list, ",");
            rc = add_value(out, list, n);
            if (list[n] != ',')
                break;
            list += n + 1;
        }
    }
    if (rc)
        gp_sweep_release(out);
    return rc;
}

void gp_sweep_release(struct gp_sweep *sweep)
{
    if (!sweep)
        return;
    free(sweep->values);
    sweep->values = NULL;
    sweep->count = 0;
}
