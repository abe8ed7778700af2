/* The key table: which workload or assumption field each documented key changes, its unit,
 * range and whether it is whole; setting a key from text, and checking a workload or model
 * against the same ranges. */
#include "planner/keys.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"

enum scope { ANY_WORKLOAD, INFERENCE, TRAINING, GENERIC, MODEL, ASSUMPTION };
enum vtype { NUMBER, INTEGER, PRECISION, BOOLEAN, RATE, PARALLEL, LAYOUT };

struct key_def {
    struct gp_plan_key doc;
    enum scope scope;
    enum vtype type; /* NUMBER: a double field; INTEGER: an int field */
    size_t offset;   /* into struct gp_workload, or gp_assumptions for ASSUMPTION */
};

/* Flags of a key. */
#define ABOVE 1u /* min excluded */
#define WHOLE 2u /* a whole number */
#define POW2  4u /* a power of two */

#define KEY(name, applies, unit, desc, scope, type, offset, lo, hi, flags, zero)                   \
    {                                                                                              \
        {name,                                                                                     \
         applies,                                                                                  \
         unit,                                                                                     \
         desc,                                                                                     \
         lo,                                                                                       \
         hi,                                                                                       \
         ((flags)&ABOVE) != 0,                                                                     \
         ((flags)&WHOLE) != 0,                                                                     \
         ((flags)&POW2) != 0,                                                                      \
         zero},                                                                                    \
            scope, type, offset                                                                    \
    }

#define IN(f) offsetof(struct gp_workload, inference.f)
#define TR(f) offsetof(struct gp_workload, training.f)
#define GE(f) offsetof(struct gp_workload, generic.f)
#define MO(f) offsetof(struct gp_workload, model.f)
#define AS(f) offsetof(struct gp_assumptions, f)

/* clang-format off */
static const struct key_def keys[] = {
    KEY("precision", "any", "format", "weight/matmul precision",
        ANY_WORKLOAD, PRECISION, 0, 0, 0, 0, NULL),
    KEY("kv_precision", "inference", "format", "KV cache element format",
        INFERENCE, PRECISION, IN(kv_precision), 0, 0, 0, NULL),
    KEY("input_tokens", "inference", "tokens", "mean prompt length per request",
        INFERENCE, NUMBER, IN(input_tokens), 1, 1e7, WHOLE, NULL),
    KEY("output_tokens", "inference", "tokens", "mean generated length per request",
        INFERENCE, NUMBER, IN(output_tokens), 1, 1e7, WHOLE, NULL),
    KEY("rate", "inference", "workload unit",
        "target load in the workload's unit (requests/s or output tokens/s), or max",
        INFERENCE, RATE, 0, 0, 1e12, ABOVE, NULL),
    KEY("requests_per_s", "inference", "requests/s", "target load as requests per second",
        INFERENCE, RATE, 0, 0, 1e12, ABOVE, NULL),
    KEY("output_tokens_per_s", "inference", "tokens/s", "target load as output tokens per second",
        INFERENCE, RATE, 0, 0, 1e12, ABOVE, NULL),
    KEY("ttft_ms", "inference", "ms", "time-to-first-token limit",
        INFERENCE, NUMBER, IN(ttft_ms), 0, 1e9, 0, "no limit"),
    KEY("tpot_ms", "inference", "ms", "time-per-output-token limit",
        INFERENCE, NUMBER, IN(tpot_ms), 0, 1e9, 0, "no limit"),
    KEY("min_tokens_per_s_per_user", "inference", "tokens/s",
        "interactivity floor: output tokens/s each user sees (1000 / TPOT ms)",
        INFERENCE, NUMBER, IN(min_tokens_per_s_per_user), 0, 1e6, 0, "no floor"),
    KEY("memory_fraction", "inference", "share", "share of HBM the serving engine may use",
        INFERENCE, NUMBER, IN(memory_fraction), 0.01, 1, 0, "the engine's"),
    KEY("tensor_parallel", "model", "GPUs", "fixed tensor-parallel degree",
        MODEL, PARALLEL, 0, 1, GP_LAYOUT_MAX_GPUS, WHOLE | POW2, "choose"),
    KEY("pipeline_parallel", "training", "stages", "fixed pipeline stages",
        TRAINING, INTEGER, TR(pipeline_parallel), 1, 65536, WHOLE | POW2, "choose"),
    KEY("max_batch", "inference", "sequences", "engine limit on sequences per step",
        INFERENCE, INTEGER, IN(max_batch), 1, 1e6, WHOLE, "engine default"),
    KEY("layout", "inference", "layout",
        "how a replica splits the model: tp, dep, tep or dpa, with its GPUs (tep8)",
        INFERENCE, LAYOUT, IN(layout), 0, 0, 0, "choose"),
    KEY("expert_parallel", "inference", "GPUs",
        "MoE: GPUs the experts are spread over (dep, or tep with tensor_parallel); 1 = not spread",
        INFERENCE, INTEGER, IN(expert_parallel), 1, GP_LAYOUT_MAX_GPUS, WHOLE | POW2, "choose"),
    KEY("tokens", "training", "tokens", "training tokens",
        TRAINING, NUMBER, TR(tokens), 1, 1e16, WHOLE, NULL),
    KEY("deadline_hours", "training", "h", "wall-clock limit; sizes the fleet (clears gpus)",
        TRAINING, NUMBER, TR(deadline_hours), 0.001, 1e6, 0, "sized by gpus"),
    KEY("gpus", "training", "GPUs", "fixed training fleet (clears deadline_hours)",
        TRAINING, INTEGER, TR(gpus), 1, 1e7, WHOLE, "sized by deadline_hours"),
    KEY("recompute", "training", "bool", "full activation recomputation",
        TRAINING, BOOLEAN, TR(recompute), 0, 1, 0, NULL),
    KEY("optimizer_bytes", "training", "bytes/param", "optimizer state per parameter",
        TRAINING, NUMBER, TR(optimizer_bytes), 0, 64, 0, NULL),
    KEY("zero_stage", "training", "stage", "ZeRO/FSDP sharding stage",
        TRAINING, INTEGER, TR(zero_stage), 0, 3, WHOLE, NULL),
    KEY("mfu", "training", "share", "model FLOPs utilisation override",
        TRAINING, NUMBER, TR(mfu), 0, 1, 0, "the default"),
    KEY("seq_len", "training", "tokens", "tokens per training sequence",
        TRAINING, INTEGER, TR(seq_len), 1, 1e7, WHOLE, NULL),
    KEY("micro_batch", "training", "sequences", "sequences per micro-batch per GPU",
        TRAINING, INTEGER, TR(micro_batch), 1, 65536, WHOLE, NULL),
    KEY("global_batch_tokens", "training", "tokens", "tokens per optimizer step",
        TRAINING, NUMBER, TR(global_batch_tokens), 1, 1e12, WHOLE, NULL),
    KEY("trainable_fraction", "training", "share",
        "share of parameters with gradients and optimizer state (LoRA: small)",
        TRAINING, NUMBER, TR(trainable_fraction), 0, 1, 0, "all"),
    KEY("critical_batch_tokens", "training", "tokens",
        "batch beyond which more tokens reach the same loss (tokens x (1 + B/Bc))",
        TRAINING, NUMBER, TR(critical_batch_tokens), 0, 1e12, WHOLE, "none assumed"),
    KEY("flops", "generic", "FLOP", "floating-point operations per job",
        GENERIC, NUMBER, GE(flops), 0, 1e24, 0, NULL),
    KEY("bytes", "generic", "bytes", "HBM traffic per job",
        GENERIC, NUMBER, GE(bytes), 0, 1e21, 0, NULL),
    KEY("jobs_per_hour", "generic", "jobs/h", "target rate",
        GENERIC, NUMBER, GE(jobs_per_hour), 0, 1e12, 0, "one GPU at full speed"),
    KEY("params", "model", "parameters", "total parameters",
        MODEL, NUMBER, MO(params), 1, 1e15, WHOLE, NULL),
    KEY("layers", "model", "count", "transformer blocks",
        MODEL, INTEGER, MO(layers), 1, 10000, WHOLE, NULL),
    KEY("hidden", "model", "width", "model width",
        MODEL, INTEGER, MO(hidden), 1, 1e6, WHOLE, NULL),
    KEY("heads", "model", "count", "attention heads",
        MODEL, INTEGER, MO(heads), 1, 1e6, WHOLE, NULL),
    KEY("kv_heads", "model", "count", "key/value heads",
        MODEL, INTEGER, MO(kv_heads), 1, 1e6, WHOLE, NULL),
    KEY("head_dim", "model", "width", "width of one head",
        MODEL, INTEGER, MO(head_dim), 1, 65536, WHOLE, NULL),
    KEY("ffn", "model", "width", "FFN inner width",
        MODEL, INTEGER, MO(ffn), 1, 1e7, WHOLE, NULL),
    KEY("vocab", "model", "tokens", "vocabulary size",
        MODEL, INTEGER, MO(vocab), 1, 1e8, WHOLE, NULL),
    KEY("experts", "model", "count", "experts per MoE layer (1 = dense)",
        MODEL, INTEGER, MO(experts), 1, 4096, WHOLE, NULL),
    KEY("active_experts", "model", "count", "experts per token",
        MODEL, INTEGER, MO(active_experts), 1, 4096, WHOLE, NULL),
    KEY("pue", "any", "ratio", "facility power / IT power",
        ASSUMPTION, NUMBER, AS(pue), 1, 5, 0, NULL),
    KEY("kwh_price", "any", "currency/kWh", "energy price",
        ASSUMPTION, NUMBER, AS(kwh_price), 0, 100, 0, NULL),
    KEY("years", "any", "years", "amortisation period of owned GPUs",
        ASSUMPTION, NUMBER, AS(years), 0.1, 50, 0, NULL),
    KEY("capex", "any", "currency/GPU", "purchase price per GPU (owned pricing)",
        ASSUMPTION, NUMBER, AS(capex), 0, 1e8, 0, "the catalog's"),
    KEY("server_overhead", "any", "ratio", "server and network cost as a multiple of GPU capex",
        ASSUMPTION, NUMBER, AS(server_overhead), 1, 20, 0, NULL),
    KEY("hosting_per_kw_month", "any", "currency/kW-month", "owned: space and cooling",
        ASSUMPTION, NUMBER, AS(hosting_per_kw_month), 0, 1e6, 0, NULL),
    KEY("max_gpus", "any", "GPUs", "largest fleet considered",
        ASSUMPTION, INTEGER, AS(max_gpus), 1, 1e9, WHOLE, "no limit"),
    KEY("power_budget_kw", "any", "kW", "facility power available",
        ASSUMPTION, NUMBER, AS(power_budget_kw), 0, 1e9, 0, "no limit"),
    KEY("power_budget_mw", "any", "MW",
        "power-first: the largest fleet the facility power holds (a site's; not training)",
        ASSUMPTION, NUMBER, AS(power_budget_mw), 0, 1e5, 0, "size for the target"),
};
/* clang-format on */

#define KEY_COUNT (sizeof(keys) / sizeof(keys[0]))

const struct gp_plan_key *gp_plan_keys(size_t *count)
{
    static struct gp_plan_key docs[KEY_COUNT];

    for (size_t i = 0; i < KEY_COUNT; i++)
        docs[i] = keys[i].doc;
    *count = KEY_COUNT;
    return docs;
}

static const struct key_def *find_def(const char *name)
{
    for (size_t i = 0; i < KEY_COUNT; i++)
        if (strcmp(keys[i].doc.name, name) == 0)
            return &keys[i];
    return NULL;
}

/* The key named `name`, or NULL with GP_EINVALID set, suggesting the nearest name. */
static const struct key_def *lookup(const char *name)
{
    const struct key_def *k = find_def(name);
    const char *names[KEY_COUNT + 1];

    if (k)
        return k;
    for (size_t i = 0; i < KEY_COUNT; i++)
        names[i] = keys[i].doc.name;
    names[KEY_COUNT] = NULL;
    const char *hint = gp_text_nearest(name, names);
    if (hint)
        gp_error_set(GP_EINVALID, "unknown key '%s' (did you mean '%s'?)", name, hint);
    else
        gp_error_set(GP_EINVALID, "unknown key '%s'; `gpuplan help plan` lists the keys", name);
    return NULL;
}

const struct gp_plan_key *gp_plan_key_find(const char *name)
{
    const struct key_def *k = lookup(name);

    return k ? &k->doc : NULL;
}

/* Counts and widths are plain numbers; other units are said after the range. */
static bool measured(const struct gp_plan_key *k)
{
    static const char *const plain[] = {"count", "width",  "share",         "ratio",
                                        "stage", "format", "workload unit", NULL};

    for (size_t i = 0; plain[i]; i++)
        if (strcmp(k->unit, plain[i]) == 0)
            return false;
    return true;
}

/* "1, 2, 4 or 8" for small powers of two, else "a power of 2 up to N". */
static void powers_text(const struct gp_plan_key *k, char *out, size_t size)
{
    size_t used = 0;

    if (k->max > 16) {
        snprintf(out, size, "a power of 2 up to %g", k->max);
        return;
    }
    out[0] = '\0';
    for (double p = k->min; p <= k->max && used < size; p *= 2) {
        int n = snprintf(out + used, size - used, "%s%g",
                         used == 0        ? ""
                         : p * 2 > k->max ? " or "
                                          : ", ",
                         p);
        used += n > 0 ? (size_t)n : 0;
    }
}

void gp_plan_key_range(const struct gp_plan_key *k, char *out, size_t size)
{
    const struct key_def *d = find_def(k->name);
    char range[96], zero[48] = "";
    const char *unit = measured(k) ? k->unit : "";

    if (d && d->type == PRECISION) {
        snprintf(out, size, "a precision: fp32 tf32 bf16 fp16 fp8 fp6 fp4");
        return;
    }
    if (d && d->type == BOOLEAN) {
        snprintf(out, size, "true or false");
        return;
    }
    if (d && d->type == LAYOUT) {
        snprintf(out, size,
                 "tp, dep, tep or dpa, with a power of two of GPUs up to 64 (tep8, "
                 "dep64) or without, or choose");
        return;
    }
    if (k->power_of_two)
        powers_text(k, range, sizeof(range));
    else if (k->above_min)
        snprintf(range, sizeof(range), "greater than %g and at most %g", k->min, k->max);
    else if (k->zero && k->min == 0)
        snprintf(range, sizeof(range), "between 0 (%s) and %g", k->zero, k->max);
    else
        snprintf(range, sizeof(range), "between %g and %g", k->min, k->max);
    if (k->zero && (k->min > 0 || k->power_of_two))
        snprintf(zero, sizeof(zero), "0 (%s)%s", k->zero,
                 k->power_of_two && k->max <= 16 ? ", " : " or ");
    snprintf(out, size, "%s%s%s%s%s", zero, range, unit[0] ? " " : "", unit,
             d && d->type == RATE && strcmp(k->name, "rate") == 0 ? ", or max" : "");
}

bool gp_plan_key_accepts(const struct gp_plan_key *k, double v)
{
    if (k->zero && v == 0)
        return true;
    if (!(k->above_min ? v > k->min : v >= k->min) || !(v <= k->max))
        return false;
    if (k->whole && v != floor(v))
        return false;
    if (k->power_of_two && fmod(v, 1.0) == 0 && ((long)v & ((long)v - 1)) != 0)
        return false;
    return true;
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

/* A numeric value of `k` from text, checked against the key's range. */
static int parse_number(const struct gp_plan_key *k, const char *value, double *out)
{
    char range[160];

    if (gp_text_to_double(value, out))
        return gp_error_set(GP_EINVALID, "%s: '%s' is not a number", k->name, value);
    if (k->whole && *out != floor(*out))
        return gp_error_set(GP_EINVALID, "%s: '%s' is not a whole number%s%s", k->name, value,
                            measured(k) ? " of " : "", measured(k) ? k->unit : "");
    if (!gp_plan_key_accepts(k, *out)) {
        gp_plan_key_range(k, range, sizeof(range));
        return gp_error_set(GP_EINVALID, "%s: %s is out of range: must be %s", k->name, value,
                            range);
    }
    return 0;
}

static int set_rate(struct gp_inference *in, const struct gp_plan_key *k, const char *value)
{
    double v;

    if (strcmp(value, "max") == 0) {
        if (strcmp(k->name, "rate"))
            return gp_error_set(GP_EINVALID, "%s: use rate=max for the best throughput per GPU",
                                k->name);
        in->load = GP_LOAD_MAX;
        return 0;
    }
    int rc = parse_number(k, value, &v);
    if (rc)
        return rc;
    if (strcmp(k->name, "requests_per_s") == 0)
        in->load = GP_LOAD_REQUESTS;
    else if (strcmp(k->name, "output_tokens_per_s") == 0)
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

/* Where the key's field lives in `in`. */
static void *field_of(const struct key_def *k, struct gp_plan_input *in)
{
    if (k->type == PARALLEL)
        return in->workload.kind == GP_WORKLOAD_INFERENCE ? &in->workload.inference.tensor_parallel
                                                          : &in->workload.training.tensor_parallel;
    if (k->scope == ASSUMPTION)
        return (char *)&in->assumptions + k->offset;
    return (char *)&in->workload + k->offset;
}

static int set_precision(struct gp_plan_input *in, const struct key_def *k, const char *value)
{
    struct gp_workload *w = &in->workload;
    enum gp_precision p = GP_BF16;
    int rc = parse_precision(k->doc.name, value, &p);

    if (rc)
        return rc;
    if (k->scope != ANY_WORKLOAD)
        *(enum gp_precision *)field_of(k, in) = p;
    else if (w->kind == GP_WORKLOAD_INFERENCE)
        w->inference.precision = p;
    else if (w->kind == GP_WORKLOAD_TRAINING)
        w->training.precision = p;
    else
        w->generic.precision = p;
    return 0;
}

static int set_value(struct gp_plan_input *in, const struct key_def *k, const char *value)
{
    double v = 0;
    int rc;

    switch (k->type) {
    case PRECISION:
        return set_precision(in, k, value);
    case RATE:
        return set_rate(&in->workload.inference, &k->doc, value);
    case BOOLEAN:
        if (!strcmp(value, "true") || !strcmp(value, "1") || !strcmp(value, "yes"))
            *(bool *)field_of(k, in) = true;
        else if (!strcmp(value, "false") || !strcmp(value, "0") || !strcmp(value, "no"))
            *(bool *)field_of(k, in) = false;
        else
            return gp_error_set(GP_EINVALID, "%s: '%s' is not true or false", k->doc.name, value);
        return 0;
    case LAYOUT:
        if (gp_layout_parse(value, &in->workload.inference.layout,
                            &in->workload.inference.layout_gpus))
            return gp_error_wrap("%s", k->doc.name);
        return 0;
    case PARALLEL:
    case INTEGER:
        if ((rc = parse_number(&k->doc, value, &v)))
            return rc;
        *(int *)field_of(k, in) = (int)v;
        return 0;
    case NUMBER:
        if ((rc = parse_number(&k->doc, value, &v)))
            return rc;
        *(double *)field_of(k, in) = v;
        return 0;
    }
    return 0;
}

int gp_plan_set(struct gp_plan_input *in, const char *key, const char *value)
{
    const struct key_def *k = lookup(key);
    struct gp_workload *w = &in->workload;
    int rc;

    if (!k)
        return GP_EINVALID;
    if (!applies(k->scope, w->kind))
        return gp_error_set(GP_EINVALID, "%s applies to %s workloads; '%s' is of kind %s", key,
                            k->scope == MODEL ? "inference and training" : k->doc.applies_to,
                            w->name, gp_workload_kind_name(w->kind));
    if ((rc = set_value(in, k, value)))
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

/* ---- checks of whole workloads and models ------------------------------------------------ */

/* Check one numeric key's value; on a break, name the field `prefix` `name` and say what it
 * must be. The name is put together only then: workloads are checked once per sweep point. */
static int check_value(const struct gp_plan_key *k, double v, const char *prefix, const char *name,
                       struct gp_key_break *out)
{
    char range[128];

    if (gp_plan_key_accepts(k, v))
        return 0;
    snprintf(out->field, sizeof(out->field), "%s%s", prefix, name);
    gp_plan_key_range(k, range, sizeof(range));
    snprintf(out->msg, sizeof(out->msg), "must be %s", range);
    return 1;
}

/* The numeric value of key `k` in `in` (RATE, PRECISION and BOOLEAN keys have none). */
static bool numeric_value(const struct key_def *k, const struct gp_plan_input *in, double *v)
{
    const void *f = field_of(k, (struct gp_plan_input *)in);

    if (k->type == NUMBER)
        *v = *(const double *)f;
    else if (k->type == INTEGER || k->type == PARALLEL)
        *v = *(const int *)f;
    else
        return false;
    return true;
}

int gp_plan_keys_check_model(const struct gp_model_arch *m, struct gp_key_break *out)
{
    struct gp_plan_input in;
    double v;

    memset(&in, 0, sizeof(in));
    in.workload.model = *m;
    for (size_t i = 0; i < KEY_COUNT; i++) {
        const struct key_def *k = &keys[i];
        if (k->scope != MODEL || k->type == PARALLEL || !numeric_value(k, &in, &v))
            continue;
        if (check_value(&k->doc, v, "model.", k->doc.name, out))
            return 1;
    }
    return 0;
}

int gp_plan_keys_check_workload(const struct gp_workload *w, struct gp_key_break *out)
{
    struct gp_plan_input in;
    const struct gp_inference *inf = &w->inference;
    double v;

    memset(&in, 0, sizeof(in));
    in.workload = *w;
    for (size_t i = 0; i < KEY_COUNT; i++) {
        const struct key_def *k = &keys[i];
        if (k->scope == ASSUMPTION || k->scope == ANY_WORKLOAD || !applies(k->scope, w->kind) ||
            (k->scope == MODEL && k->type != PARALLEL) || !numeric_value(k, &in, &v))
            continue;
        if (check_value(&k->doc, v, "", k->doc.name, out))
            return 1;
    }
    if (w->kind == GP_WORKLOAD_INFERENCE && inf->load != GP_LOAD_MAX) {
        const char *name = inf->load == GP_LOAD_REQUESTS ? "requests_per_s" : "output_tokens_per_s";
        return check_value(&find_def(name)->doc, inf->rate, "target.", name, out);
    }
    return 0;
}
