/* Parsing and checking workload files and the model presets they name. */
#include "planner/workload.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/data.h"
#include "planner/keys.h"
#include "util/error.h"
#include "util/format.h"
#include "util/json.h"
#include "util/text.h"

static const char *const kind_names[] = {"inference", "training", "generic", NULL};

static const char *const arch_keys[] = {"name",
                                        "params",
                                        "layers",
                                        "hidden",
                                        "heads",
                                        "kv_heads",
                                        "head_dim",
                                        "ffn",
                                        "vocab",
                                        "experts",
                                        "active_experts",
                                        "moe_ffn",
                                        "dense_layers",
                                        "shared_experts",
                                        "kv_lora_rank",
                                        "rope_dim",
                                        "sliding_window",
                                        "sliding_layers",
                                        "expert_weight_bits",
                                        "source",
                                        NULL};

static const char *const inference_keys[] = {"kind",
                                             "name",
                                             "description",
                                             "model",
                                             "precision",
                                             "kv_precision",
                                             "input_tokens",
                                             "output_tokens",
                                             "target",
                                             "ttft_ms",
                                             "tpot_ms",
                                             "min_tokens_per_s_per_user",
                                             "memory_fraction",
                                             "layout",
                                             "tensor_parallel",
                                             "max_batch",
                                             "expert_parallel",
                                             "allow_mixed_providers",
                                             "demand_profile",
                                             NULL};

static const char *const training_keys[] = {"kind",
                                            "name",
                                            "description",
                                            "model",
                                            "precision",
                                            "tokens",
                                            "deadline_hours",
                                            "gpus",
                                            "recompute",
                                            "optimizer_bytes",
                                            "zero_stage",
                                            "mfu",
                                            "seq_len",
                                            "micro_batch",
                                            "global_batch_tokens",
                                            "trainable_fraction",
                                            "critical_batch_tokens",
                                            "tensor_parallel",
                                            "pipeline_parallel",
                                            "allow_mixed_providers",
                                            NULL};

static const char *const generic_keys[] = {
    "kind",  "name",          "description",           "precision", "flops",
    "bytes", "jobs_per_hour", "allow_mixed_providers", NULL};

static const char *const target_keys[] = {"requests_per_s", "output_tokens_per_s", NULL};

static const char *const profile_keys[] = {"baseline",   "peak",        "peak_hours_per_day",
                                           "spot_share", "spot_factor", NULL};

enum gp_precision gp_inference_default_kv(enum gp_precision weights)
{
    return weights == GP_FP4 || weights == GP_FP6 ? GP_FP8 : weights;
}

double gp_inference_demand(const struct gp_inference *in)
{
    return in->load == GP_LOAD_REQUESTS ? in->rate * in->output_tokens : in->rate;
}

const char *gp_workload_kind_name(enum gp_workload_kind kind)
{
    return (unsigned)kind < 3 ? kind_names[kind] : "?";
}

/* ---- architecture arithmetic ------------------------------------------------------------ */

static double attention_params(const struct gp_model_arch *m)
{
    double d = m->hidden, q = (double)m->heads * m->head_dim,
           kv = (double)m->kv_heads * m->head_dim;
    return d * q + 2.0 * d * kv + q * d;
}

double gp_model_moe_layers(const struct gp_model_arch *m)
{
    return m->experts > 1 ? (double)(m->layers - m->dense_layers) : 0.0;
}

double gp_model_expert_width(const struct gp_model_arch *m)
{
    return m->moe_ffn > 0 ? m->moe_ffn : m->ffn;
}

double gp_model_expert_params(const struct gp_model_arch *m)
{
    if (m->experts <= 1)
        return 0.0;
    return gp_model_moe_layers(m) * m->experts * 3.0 * m->hidden * gp_model_expert_width(m);
}

/* Parameters from the shape: attention, the FFNs (dense blocks, then routed and shared experts
 * with their router), norms and untied embeddings. */
static double shape_params(const struct gp_model_arch *m)
{
    double d = m->hidden, moe = gp_model_moe_layers(m);
    double dense_ffn = 3.0 * d * m->ffn;
    double moe_ffn =
        m->experts > 1
            ? 3.0 * d * gp_model_expert_width(m) * (m->experts + m->shared_experts) + d * m->experts
            : dense_ffn;
    double blocks = m->layers * (attention_params(m) + 2.0 * d) + (m->layers - moe) * dense_ffn +
                    (m->experts > 1 ? moe * moe_ffn : 0.0);
    if (m->experts <= 1)
        blocks = m->layers * (attention_params(m) + dense_ffn + 2.0 * d);
    return blocks + 2.0 * (double)m->vocab * d + d;
}

void gp_model_arch_complete(struct gp_model_arch *m)
{
    if (m->head_dim <= 0 && m->heads > 0)
        m->head_dim = m->hidden / m->heads;
    if (m->kv_heads <= 0)
        m->kv_heads = m->heads;
    if (m->experts <= 0)
        m->experts = 1;
    if (m->active_experts <= 0)
        m->active_experts = 1;
    if (!(m->params > 0))
        m->params = shape_params(m);
}

double gp_model_active_params(const struct gp_model_arch *m)
{
    double experts = gp_model_expert_params(m);
    if (experts <= 0)
        return m->params;
    double active = m->params - experts * (1.0 - (double)m->active_experts / m->experts);
    return active > 0 ? active : m->params;
}

/* ---- rules shared by parsing and --set ---------------------------------------------------- */

/*
 * A broken rule: `field` is the workload key (JSON path under the document root) and `msg`
 * says what is wrong. Returns 1 when a rule is broken, 0 when all hold.
 */
struct broken {
    char field[48];
    char msg[160];
};

static int breaks(struct broken *b, const char *field, const char *fmt, ...) GP_PRINTF(3, 4);

static int breaks(struct broken *b, const char *field, const char *fmt, ...)
{
    va_list ap;

    gp_text_copy(b->field, sizeof(b->field), field);
    va_start(ap, fmt);
    vsnprintf(b->msg, sizeof(b->msg), fmt, ap);
    va_end(ap);
    return 1;
}

/* Ranges come from the key table (planner/keys.h); these are the rules across fields. */
static int check_arch(const struct gp_model_arch *m, struct broken *b)
{
    struct gp_key_break kb;

    if (gp_plan_keys_check_model(m, &kb))
        return breaks(b, kb.field, "%s", kb.msg);
    if (m->heads > m->hidden)
        return breaks(b, "model.heads", "must be between 1 and hidden (%g)", (double)m->hidden);
    if (m->kv_heads > m->heads || m->heads % m->kv_heads)
        return breaks(b, "model.kv_heads", "must divide heads (%g)", (double)m->heads);
    if (m->active_experts > m->experts)
        return breaks(b, "model.active_experts", "must be between 1 and experts (%g)",
                      (double)m->experts);
    if (m->dense_layers < 0 || m->dense_layers >= m->layers)
        return breaks(b, "model.dense_layers", "must be between 0 and layers - 1 (%g)",
                      (double)m->layers - 1);
    if (m->sliding_layers > m->layers)
        return breaks(b, "model.sliding_layers", "must be between 0 and layers (%g)",
                      (double)m->layers);
    return 0;
}

/* A pinned layout, and the degrees pinned beside it, must describe one layout the model has. */
static int check_layout(const struct gp_inference *in, const struct gp_model_arch *m,
                        struct broken *b)
{
    char text[GP_LAYOUT_TEXT_MAX];
    struct gp_layout_shape shape;
    int ta = in->tensor_parallel, ep = in->expert_parallel;

    if (ep > 1 && m->experts <= 1)
        return breaks(b, "expert_parallel", "needs a mixture-of-experts model; '%s' is dense",
                      m->name);
    if (ep > 1 && ta > 1 && ta != ep)
        return breaks(b, "expert_parallel",
                      "must be 1, or equal tensor_parallel (%d) for attention tensor-parallel "
                      "with experts spread (tep)",
                      ta);
    if (in->layout == GP_LAYOUT_CHOOSE)
        return 0;
    gp_layout_format(text, sizeof(text), in->layout, in->layout_gpus);
    if (!gp_layout_valid_for(in->layout, in->layout_gpus, m->experts))
        return breaks(b, "layout", "%s %s", text,
                      m->experts <= 1 ? "needs a mixture-of-experts model; this one is dense"
                                      : "needs at least 2 GPUs");
    if (in->layout_gpus == 0)
        return 0;
    gp_layout_shape(&shape, in->layout, in->layout_gpus);
    if (ta > 0 && ta != shape.attention_tp)
        return breaks(b, "tensor_parallel", "is %d, but layout %s runs attention over %d GPU%s", ta,
                      text, shape.attention_tp, shape.attention_tp == 1 ? "" : "s");
    if (ep > 0 && ep != shape.expert_ep)
        return breaks(b, "expert_parallel", "is %d, but layout %s spreads the experts over %d", ep,
                      text, shape.expert_ep);
    return 0;
}

static int check_inference(const struct gp_inference *in, const struct gp_model_arch *m,
                           struct broken *b)
{
    int rc = check_layout(in, m, b);

    if (rc)
        return rc;
    if (in->precision == GP_FP64 || in->precision == GP_INT8)
        return breaks(b, "precision", "must be one of fp32, tf32, bf16, fp16, fp8, fp6, fp4");
    if (in->kv_precision == GP_FP64 || in->kv_precision == GP_TF32 || in->kv_precision == GP_INT8)
        return breaks(b, "kv_precision", "must be one of fp32, bf16, fp16, fp8, fp6, fp4");
    return 0;
}

static int check_training(const struct gp_training *t, struct broken *b)
{
    if ((t->deadline_hours > 0) == (t->gpus > 0))
        return breaks(b, "deadline_hours", "give exactly one of deadline_hours and gpus");
    if (!(t->global_batch_tokens >= t->seq_len))
        return breaks(b, "global_batch_tokens", "must be at least seq_len (%g tokens)",
                      (double)t->seq_len);
    if (t->precision == GP_INT8)
        return breaks(b, "precision", "int8 is not a training precision");
    if (t->tensor_parallel > GP_TRAINING_MAX_TP)
        return breaks(b, "tensor_parallel",
                      "training splits a layer over %d GPUs at most (wider inference layouts "
                      "use a 72-GPU domain)",
                      GP_TRAINING_MAX_TP);
    return 0;
}

static int check_generic(const struct gp_generic *g, struct broken *b)
{
    if (!(g->flops > 0) && !(g->bytes > 0))
        return breaks(b, "flops", "a job needs flops or bytes greater than 0");
    return 0;
}

static int check_buying(const struct gp_buying *p, struct broken *b)
{
    if (!p->profile)
        return 0;
    if (!(p->baseline_rate >= 0))
        return breaks(b, "demand_profile.baseline", "must not be negative");
    if (!(p->peak_rate > 0) || p->peak_rate < p->baseline_rate)
        return breaks(b, "demand_profile.peak", "must be above zero and at least the baseline");
    if (!(p->peak_hours_per_day > 0 && p->peak_hours_per_day <= 24))
        return breaks(b, "demand_profile.peak_hours_per_day", "must be in (0, 24]");
    if (!(p->spot_share >= 0 && p->spot_share <= 1))
        return breaks(b, "demand_profile.spot_share", "must be in [0, 1]");
    if (p->spot_factor != 0 && !(p->spot_factor >= 1 && p->spot_factor <= 10))
        return breaks(b, "demand_profile.spot_factor", "must be in [1, 10] (0 = provider default)");
    return 0;
}

static int check_workload(const struct gp_workload *w, struct broken *b)
{
    struct gp_key_break kb;

    if (check_buying(&w->buying, b))
        return 1;
    if (w->kind != GP_WORKLOAD_GENERIC && check_arch(&w->model, b))
        return 1;
    if (gp_plan_keys_check_workload(w, &kb))
        return breaks(b, kb.field, "%s", kb.msg);
    switch (w->kind) {
    case GP_WORKLOAD_INFERENCE:
        return check_inference(&w->inference, &w->model, b);
    case GP_WORKLOAD_TRAINING:
        return check_training(&w->training, b);
    case GP_WORKLOAD_GENERIC:
        return check_generic(&w->generic, b);
    }
    return 0;
}

int gp_workload_validate(const struct gp_workload *w)
{
    struct broken b;

    if (check_workload(w, &b)) {
        const char *dot = strrchr(b.field, '.');
        return gp_error_set(GP_EINVALID, "workload %s: %s %s", w->name, dot ? dot + 1 : b.field,
                            b.msg);
    }
    return 0;
}

/* ---- JSON reading ------------------------------------------------------------------------ */

static int read_precision(struct gp_json_reader *r, const cJSON *obj, const char *key,
                          enum gp_precision *out, int flags)
{
    char name[16] = "";
    const char *names[GP_PRECISION_COUNT + 1];
    int rc = gp_json_string(r, obj, key, name, sizeof(name), flags);

    if (rc || !name[0])
        return rc;
    int p = gp_precision_parse(name);
    if (p >= 0) {
        *out = (enum gp_precision)p;
        return 0;
    }
    for (int i = 0; i < GP_PRECISION_COUNT; i++)
        names[i] = gp_precision_name((enum gp_precision)i);
    names[GP_PRECISION_COUNT] = NULL;
    const char *hint = gp_text_nearest(name, names);
    if (hint)
        return gp_json_fail(r, key, "unknown precision '%s' (did you mean '%s'?)", name, hint);
    return gp_json_fail(r, key, "unknown precision '%s' (known: bf16, fp16, fp8, fp6, fp4, ...)",
                        name);
}

/* "layout": "tep8", "dep", "choose"; absent = choose. */
static int read_layout(struct gp_json_reader *r, const cJSON *obj, struct gp_inference *in)
{
    char text[16] = "";
    int rc = gp_json_string(r, obj, "layout", text, sizeof(text), GP_JSON_OPTIONAL);

    if (rc || !text[0])
        return rc;
    if (gp_layout_parse(text, &in->layout, &in->layout_gpus))
        return gp_json_fail(r, "layout", "%s", gp_error_last());
    return 0;
}

/* The optional MoE, MLA and sliding-window shape fields: each a whole number from 0,
 * dense_layers below layers, sliding_layers at most layers; the experts' stored width. */
static int read_moe_mla(struct gp_json_reader *r, const cJSON *obj, struct gp_model_arch *m)
{
    static const char *const keys[] = {"moe_ffn",       "dense_layers", "shared_experts",
                                       "kv_lora_rank",  "rope_dim",     "sliding_window",
                                       "sliding_layers"};
    int *fields[] = {&m->moe_ffn,  &m->dense_layers,   &m->shared_experts, &m->kv_lora_rank,
                     &m->rope_dim, &m->sliding_window, &m->sliding_layers};
    int rc = 0;

    for (size_t i = 0; !rc && i < sizeof(keys) / sizeof(keys[0]); i++) {
        rc = gp_json_int(r, obj, keys[i], fields[i], GP_JSON_OPTIONAL);
        if (!rc && (*fields[i] < 0 || *fields[i] > 1000000))
            rc = gp_json_fail(r, keys[i], "must be between 0 and %g", 1000000.0);
    }
    if (!rc && m->layers > 0 && m->dense_layers >= m->layers)
        rc = gp_json_fail(r, "dense_layers", "must be below layers (%d)", m->layers);
    if (!rc && m->sliding_layers > m->layers)
        rc = gp_json_fail(r, "sliding_layers", "must be at most layers (%d)", m->layers);
    if (!rc && m->sliding_layers > 0 && m->sliding_window < 1)
        rc = gp_json_fail(r, "sliding_window", "must be at least 1 when sliding_layers is set");
    if (!rc)
        rc = gp_json_number(r, obj, "expert_weight_bits", &m->expert_weight_bits, GP_JSON_OPTIONAL);
    if (!rc && !(m->expert_weight_bits >= 0 && m->expert_weight_bits <= 32))
        rc = gp_json_fail(r, "expert_weight_bits",
                          "must be between 0 (the compute precision's "
                          "width) and 32");
    return rc;
}

static int read_arch_object(struct gp_json_reader *r, const cJSON *obj, struct gp_model_arch *m)
{
    int rc = gp_json_check_keys(r, obj, arch_keys);

    if (!rc)
        rc = gp_json_string(r, obj, "name", m->name, sizeof(m->name), GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, obj, "params", &m->params, GP_JSON_OPTIONAL);
    if (!rc && m->params < 0)
        rc = gp_json_fail(r, "params", "must not be negative");
    if (!rc)
        rc = gp_json_int(r, obj, "layers", &m->layers, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_int(r, obj, "hidden", &m->hidden, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_int(r, obj, "heads", &m->heads, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_int(r, obj, "kv_heads", &m->kv_heads, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, obj, "head_dim", &m->head_dim, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, obj, "ffn", &m->ffn, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_int(r, obj, "vocab", &m->vocab, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_int(r, obj, "experts", &m->experts, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, obj, "active_experts", &m->active_experts, GP_JSON_OPTIONAL);
    if (!rc)
        rc = read_moe_mla(r, obj, m);
    if (rc)
        return rc;
    /* Zero or negative counts are reported by the rules below, not silently defaulted. */
    if (cJSON_GetObjectItemCaseSensitive(obj, "head_dim") && m->head_dim < 1)
        return gp_json_fail(r, "head_dim", "must be at least 1");
    if (cJSON_GetObjectItemCaseSensitive(obj, "kv_heads") && m->kv_heads < 1)
        return gp_json_fail(r, "kv_heads", "must be at least 1");
    if (cJSON_GetObjectItemCaseSensitive(obj, "experts") && m->experts < 1)
        return gp_json_fail(r, "experts", "must be at least 1");
    if (cJSON_GetObjectItemCaseSensitive(obj, "active_experts") && m->active_experts < 1)
        return gp_json_fail(r, "active_experts", "must be at least 1");
    if (m->heads > 0 && m->hidden > 0)
        gp_model_arch_complete(m);
    return 0;
}

/* Report the first broken rule at its JSON path. */
static int fail_broken(struct gp_json_reader *r, const struct broken *b)
{
    return gp_json_fail(r, b->field, "%s", b->msg);
}

/* One preset of "models": a complete architecture under a name not used before. */
/* The repository of a "https://huggingface.co/ORG/NAME/..." source, into m->hub_id. */
static int read_hub_id(struct gp_json_reader *r, const cJSON *item, struct gp_model_arch *m)
{
    static const char hub[] = "https://huggingface.co/";
    char source[2048] = "";
    int rc = gp_json_string(r, item, "source", source, sizeof(source), GP_JSON_OPTIONAL);
    const char *repo = strstr(source, hub);

    if (rc || !repo)
        return rc;
    repo += sizeof(hub) - 1;
    const char *slash = strchr(repo, '/');
    size_t n = slash ? strcspn(slash + 1, "/ ") + (size_t)(slash + 1 - repo) : 0;
    if (slash && n < sizeof(m->hub_id))
        snprintf(m->hub_id, sizeof(m->hub_id), "%.*s", (int)n, repo);
    return 0;
}

static int read_preset(struct gp_json_reader *r, const cJSON *item, void *models, size_t index,
                       const void *unused)
{
    struct gp_model_arch *m = (struct gp_model_arch *)models + index;
    struct broken b;
    int rc = 0;

    (void)unused;
    if (!cJSON_IsObject(item))
        rc = gp_json_fail(r, NULL, "must be an object");
    if (!rc)
        rc = read_arch_object(r, item, m);
    if (!rc && !m->name[0])
        rc = gp_json_fail(r, "name", "required field is missing");
    if (!rc)
        rc = read_hub_id(r, item, m);
    if (!rc && check_arch(m, &b))
        rc = gp_json_fail(r, b.field + strlen("model."), "%s", b.msg);
    if (!rc && gp_model_table_find(&(struct gp_model_table){models, index}, m->name))
        rc = gp_json_fail(r, "name", "duplicate model '%s'", m->name);
    return rc;
}

int gp_model_table_parse(struct gp_model_table *out, const char *text, size_t len,
                         const char *origin)
{
    static const char *const top_keys[] = {"schema_version", "notes", "models", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    void *models = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse_versioned(&root, &r, top_keys, 1);
    if (!rc) {
        rc = gp_json_read_list(&models, &out->count, &r, root, "models", sizeof(*out->models),
                               read_preset, NULL);
        out->models = models;
    }
    cJSON_Delete(root);
    if (rc)
        gp_model_table_release(out);
    return rc;
}

void gp_model_table_release(struct gp_model_table *table)
{
    if (!table)
        return;
    free(table->models);
    table->models = NULL;
    table->count = 0;
}

const struct gp_model_arch *gp_model_table_find(const struct gp_model_table *table,
                                                const char *name)
{
    for (size_t i = 0; table && i < table->count; i++)
        if (strcmp(table->models[i].name, name) == 0)
            return &table->models[i];
    return NULL;
}

static int read_model(struct gp_json_reader *r, const cJSON *root,
                      const struct gp_model_table *models, struct gp_model_arch *m)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, "model");

    if (!item)
        return gp_json_fail(r, "model", "required field is missing");
    if (cJSON_IsString(item)) {
        const struct gp_model_arch *preset = gp_model_table_find(models, item->valuestring);
        if (preset) {
            *m = *preset;
            return 0;
        }
        struct gp_nearest near;
        gp_nearest_init(&near, item->valuestring);
        for (size_t i = 0; models && i < models->count; i++)
            gp_nearest_offer(&near, models->models[i].name);
        const char *hint = gp_nearest_result(&near);
        if (hint)
            return gp_json_fail(r, "model", "unknown model '%s' (did you mean '%s'?)",
                                item->valuestring, hint);
        return gp_json_fail(r, "model",
                            "unknown model '%s'; give a preset name from data/models.json or "
                            "an object with the architecture",
                            item->valuestring);
    }
    if (!cJSON_IsObject(item))
        return gp_json_fail(r, "model", "must be a preset name or an object");
    size_t saved = gp_json_enter(r, "model", 0);
    snprintf(m->name, sizeof(m->name), "custom");
    int rc = read_arch_object(r, item, m);
    gp_json_leave(r, saved);
    return rc;
}

static int read_target(struct gp_json_reader *r, const cJSON *root, struct gp_inference *in)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, "target");
    size_t saved;
    int rc, set = 0;

    if (!item)
        return gp_json_fail(r, "target",
                            "required field is missing (\"max\", "
                            "{\"requests_per_s\": N} or "
                            "{\"output_tokens_per_s\": N})");
    if (cJSON_IsString(item)) {
        if (strcmp(item->valuestring, "max") == 0) {
            in->load = GP_LOAD_MAX;
            return 0;
        }
        return gp_json_fail(r, "target", "must be \"max\" or an object");
    }
    if (!cJSON_IsObject(item))
        return gp_json_fail(r, "target", "must be \"max\" or an object");
    saved = gp_json_enter(r, "target", 0);
    rc = gp_json_check_keys(r, item, target_keys);
    for (int k = 0; !rc && target_keys[k]; k++) {
        if (!cJSON_GetObjectItemCaseSensitive(item, target_keys[k]))
            continue;
        rc = gp_json_number(r, item, target_keys[k], &in->rate, GP_JSON_REQUIRED);
        in->load = k == 0 ? GP_LOAD_REQUESTS : GP_LOAD_OUTPUT_TOKENS;
        set++;
    }
    if (!rc && set != 1)
        rc = gp_json_fail(r, NULL, "give exactly one of requests_per_s and output_tokens_per_s");
    gp_json_leave(r, saved);
    return rc;
}

static int read_inference(struct gp_json_reader *r, const cJSON *root, struct gp_workload *w,
                          const struct gp_model_table *models)
{
    struct gp_inference *in = &w->inference;
    int rc = gp_json_check_keys(r, root, inference_keys);

    in->precision = GP_BF16;
    if (!rc)
        rc = read_model(r, root, models, &w->model);
    if (!rc)
        rc = read_precision(r, root, "precision", &in->precision, GP_JSON_OPTIONAL);
    /* KV defaults to the weight precision, but never narrower than fp8. */
    in->kv_precision = gp_inference_default_kv(in->precision);
    if (!rc)
        rc = read_precision(r, root, "kv_precision", &in->kv_precision, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "input_tokens", &in->input_tokens, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_number(r, root, "output_tokens", &in->output_tokens, GP_JSON_REQUIRED);
    if (!rc)
        rc = read_target(r, root, in);
    if (!rc)
        rc = gp_json_number(r, root, "ttft_ms", &in->ttft_ms, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "tpot_ms", &in->tpot_ms, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "min_tokens_per_s_per_user", &in->min_tokens_per_s_per_user,
                            GP_JSON_OPTIONAL);
    if (!rc)
        rc = read_layout(r, root, in);
    if (!rc)
        rc = gp_json_number(r, root, "memory_fraction", &in->memory_fraction, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, root, "tensor_parallel", &in->tensor_parallel, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, root, "max_batch", &in->max_batch, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, root, "expert_parallel", &in->expert_parallel, GP_JSON_OPTIONAL);
    return rc;
}

static int read_training(struct gp_json_reader *r, const cJSON *root, struct gp_workload *w,
                         const struct gp_model_table *models)
{
    struct gp_training *t = &w->training;
    int rc = gp_json_check_keys(r, root, training_keys);

    t->precision = GP_BF16;
    t->optimizer_bytes = 12.0;
    t->zero_stage = 1;
    t->seq_len = 4096;
    t->micro_batch = 1;
    t->global_batch_tokens = 4194304.0;
    if (!rc)
        rc = read_model(r, root, models, &w->model);
    if (!rc)
        rc = read_precision(r, root, "precision", &t->precision, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "tokens", &t->tokens, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_number(r, root, "deadline_hours", &t->deadline_hours, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, root, "gpus", &t->gpus, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_bool(r, root, "recompute", &t->recompute, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "optimizer_bytes", &t->optimizer_bytes, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, root, "zero_stage", &t->zero_stage, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "mfu", &t->mfu, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, root, "seq_len", &t->seq_len, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, root, "micro_batch", &t->micro_batch, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "global_batch_tokens", &t->global_batch_tokens,
                            GP_JSON_OPTIONAL);
    if (!rc)
        rc =
            gp_json_number(r, root, "trainable_fraction", &t->trainable_fraction, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "critical_batch_tokens", &t->critical_batch_tokens,
                            GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, root, "tensor_parallel", &t->tensor_parallel, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_int(r, root, "pipeline_parallel", &t->pipeline_parallel, GP_JSON_OPTIONAL);
    return rc;
}

static int read_generic(struct gp_json_reader *r, const cJSON *root, struct gp_workload *w)
{
    struct gp_generic *g = &w->generic;
    int rc = gp_json_check_keys(r, root, generic_keys);

    g->precision = GP_BF16;
    if (!rc)
        rc = read_precision(r, root, "precision", &g->precision, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "flops", &g->flops, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "bytes", &g->bytes, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, root, "jobs_per_hour", &g->jobs_per_hour, GP_JSON_OPTIONAL);
    return rc;
}

/* "allow_mixed_providers" (any kind) and the inference "demand_profile". */
static int read_buying(struct gp_json_reader *r, const cJSON *root, struct gp_workload *w)
{
    struct gp_buying *p = &w->buying;
    const cJSON *profile = NULL;
    int rc =
        gp_json_bool(r, root, "allow_mixed_providers", &p->allow_mixed_providers, GP_JSON_OPTIONAL);
    size_t saved;

    if (!rc)
        rc = gp_json_child(r, root, "demand_profile", false, &profile, GP_JSON_OPTIONAL);
    if (rc || !profile)
        return rc;
    p->profile = true;
    saved = gp_json_enter(r, "demand_profile", -1);
    rc = gp_json_check_keys(r, profile, profile_keys);
    if (!rc)
        rc = gp_json_number(r, profile, "baseline", &p->baseline_rate, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_number(r, profile, "peak", &p->peak_rate, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_number(r, profile, "peak_hours_per_day", &p->peak_hours_per_day,
                            GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_number(r, profile, "spot_share", &p->spot_share, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, profile, "spot_factor", &p->spot_factor, GP_JSON_OPTIONAL);
    gp_json_leave(r, saved);
    return rc;
}

/* The file name without folders and ".json", as a default workload name. */
static void origin_stem(char *out, size_t size, const char *origin)
{
    const char *base = strrchr(origin, '/');
    base = base ? base + 1 : origin;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    if (n >= size)
        n = size - 1;
    memcpy(out, base, n);
    out[n] = '\0';
}

int gp_workload_parse(struct gp_workload *out, const char *text, size_t len, const char *origin,
                      const struct gp_model_table *models)
{
    struct gp_json_reader r;
    cJSON *root = NULL;
    char kind[16] = "";
    struct broken b;
    int rc;

    memset(out, 0, sizeof(*out));
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse(&root, text, len, origin);
    if (rc)
        return rc;
    if (!cJSON_IsObject(root)) {
        rc = gp_json_fail(&r, NULL, "a workload must be a JSON object");
        goto done;
    }
    rc = gp_json_string(&r, root, "kind", kind, sizeof(kind), GP_JSON_REQUIRED);
    if (rc)
        goto done;
    if (strcmp(kind, "inference") == 0) {
        out->kind = GP_WORKLOAD_INFERENCE;
    } else if (strcmp(kind, "training") == 0) {
        out->kind = GP_WORKLOAD_TRAINING;
    } else if (strcmp(kind, "generic") == 0) {
        out->kind = GP_WORKLOAD_GENERIC;
    } else {
        const char *hint = gp_text_nearest(kind, kind_names);
        rc = gp_json_fail(&r, "kind", "unknown kind '%s'%s%s%s", kind,
                          hint ? " (did you mean '" : " (inference, training or generic",
                          hint ? hint : "", hint ? "'?)" : ")");
        goto done;
    }
    origin_stem(out->name, sizeof(out->name), origin);
    rc = gp_json_string(&r, root, "name", out->name, sizeof(out->name), GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_string(&r, root, "description", out->description, sizeof(out->description),
                            GP_JSON_OPTIONAL);
    if (rc)
        goto done;
    if (out->kind == GP_WORKLOAD_INFERENCE)
        rc = read_inference(&r, root, out, models);
    else if (out->kind == GP_WORKLOAD_TRAINING)
        rc = read_training(&r, root, out, models);
    else
        rc = read_generic(&r, root, out);
    if (!rc)
        rc = read_buying(&r, root, out);
    if (!rc && check_workload(out, &b))
        rc = fail_broken(&r, &b);
done:
    cJSON_Delete(root);
    return rc;
}

static int parse_models_file(void *out, const char *text, size_t len, const char *origin)
{
    return gp_model_table_parse(out, text, len, origin);
}

const struct gp_data_table gp_model_file = {"models.json", parse_models_file,
                                            GP_DATA_LAYOUT(struct gp_model_table, models, count)};
