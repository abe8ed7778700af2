/* Fitting and applying serving factors. */
#include "planner/serving_fit.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "planner/model.h"
#include "util/error.h"
#include "util/text.h"

const char *gp_serving_class(const struct gp_model_arch *m)
{
    return m->experts > 1 ? "moe" : "dense";
}

/* The workload the deployment ran: best throughput at its concurrency, its layout pinned. */
static void measured_workload(struct gp_workload *w, const struct gp_serving_measure *m,
                              const struct gp_layout_shape *sh)
{
    int replicas = m->gpus / m->replica_gpus;
    double per_group = ceil((double)m->concurrency / replicas / sh->attention_dp);

    memset(w, 0, sizeof(*w));
    w->kind = GP_WORKLOAD_INFERENCE;
    gp_text_copy(w->name, sizeof(w->name), "serving-calibration");
    w->model = *m->model;
    w->inference.precision = m->precision;
    w->inference.kv_precision = m->kv_precision;
    w->inference.input_tokens = fmax(1.0, round(m->input_tokens));
    w->inference.output_tokens = fmax(1.0, round(m->output_tokens));
    w->inference.load = GP_LOAD_MAX;
    w->inference.layout = m->layout;
    w->inference.layout_gpus = m->replica_gpus;
    w->inference.max_batch = (int)fmax(1.0, per_group);
}

int gp_serving_fit(struct gp_serving_fit *out, const struct gp_serving_measure *m,
                   const struct gp_gpu *gpu, const struct gp_efficiency *eff)
{
    struct gp_layout_shape sh;
    struct gp_workload w;
    struct gp_perf p;
    char layout[GP_LAYOUT_TEXT_MAX];

    memset(out, 0, sizeof(*out));
    gp_layout_format(layout, sizeof(layout), m->layout, m->replica_gpus);
    if (m->replica_gpus <= 0 || m->gpus % m->replica_gpus != 0)
        return gp_error_set(GP_EINVALID, "%d GPUs are not whole replicas of layout %s", m->gpus,
                            layout);
    if (!gp_layout_valid_for(m->layout, m->replica_gpus, m->model->experts))
        return gp_error_set(GP_EINVALID, "layout %s cannot run %s", layout, m->model->name);
    if (m->replica_gpus > gpu->gpus_per_node)
        return gp_error_set(GP_EINVALID, "layout %s spans more than one %s node (%d GPUs)", layout,
                            gpu->id, gpu->gpus_per_node);
    gp_layout_shape(&sh, m->layout, m->replica_gpus);
    measured_workload(&w, m, &sh);
    gp_model_evaluate(&p, &w, gpu, eff, 1.0, 0);
    if (!p.feasible || !(p.replica_rate > 0))
        return gp_error_set(GP_EINVALID, "%s does not fit %s as layout %s at precision %s",
                            m->model->name, gpu->id, layout, gp_precision_name(m->precision));
    out->predicted_per_gpu = p.replica_rate / p.replica_gpus;
    out->factor = m->measured_per_gpu / out->predicted_per_gpu;
    out->batch = p.batch;
    return 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void gp_serving_apply(struct gp_efficiency *eff, const double *factors, size_t n)
{
    double sorted[64];
    size_t k = n < 64 ? n : 64;

    if (n == 0)
        return;
    memcpy(sorted, factors, k * sizeof(*sorted));
    qsort(sorted, k, sizeof(*sorted), by_value);
    eff->serving_factor = k % 2 ? sorted[k / 2] : (sorted[k / 2 - 1] + sorted[k / 2]) / 2.0;
    eff->serving_runs = (int)n;
    size_t used = strlen(eff->source);
    snprintf(eff->source + used, sizeof(eff->source) - used, "+serving:%zu run%s:x%.2f", n,
             n == 1 ? "" : "s", eff->serving_factor);
}

const struct gp_model_arch *gp_serving_model_for(const struct gp_model_table *models,
                                                 const char *model_id)
{
    char name[GP_NAME_MAX];
    const char *last = strrchr(model_id, '/');

    if (!model_id[0])
        return NULL;
    for (size_t i = 0; i < models->count; i++)
        if (models->models[i].hub_id[0] && strcasecmp(models->models[i].hub_id, model_id) == 0)
            return &models->models[i];
    gp_text_copy(name, sizeof(name), last ? last + 1 : model_id);
    for (char *c = name; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return gp_model_table_find(models, name);
}

const struct gp_gpu *gp_serving_gpu_for(const struct gp_catalog *cat, const char *runner)
{
    char id[GP_GPU_ID_MAX], sxm[GP_GPU_ID_MAX + 4];
    size_t n = strcspn(runner, "-_");

    if (n == 0 || n >= sizeof(id))
        return NULL;
    for (size_t i = 0; i < n; i++)
        id[i] = (char)tolower((unsigned char)runner[i]);
    id[n] = '\0';
    const struct gp_gpu *g = gp_catalog_find(cat, id);
    snprintf(sxm, sizeof(sxm), "%s-sxm", id);
    return g ? g : gp_catalog_find(cat, sxm);
}

/* The product a framework keyword names, as data/stacks.json spells the start of `stack`. */
static const char *product_of(const char *framework)
{
    static const struct {
        const char *keyword, *product;
    } products[] = {
        {"trt", "TensorRT-LLM"}, {"vllm", "vLLM"}, {"sglang", "SGLang"}, {"atom", "ATOM"}};

    for (size_t i = 0; i < sizeof(products) / sizeof(products[0]); i++)
        if (strncasecmp(framework, products[i].keyword, strlen(products[i].keyword)) == 0)
            return products[i].product;
    return NULL;
}

const struct gp_stack *gp_serving_stack_for(const struct gp_stack_table *stacks,
                                            const char *framework, enum gp_vendor vendor)
{
    const char *product = product_of(framework);
    const struct gp_stack *best = NULL;

    for (size_t i = 0; product && i < stacks->count; i++) {
        const struct gp_stack *s = &stacks->stacks[i];
        if (s->claim || !s->vendors[vendor] || !gp_stack_serves(s, true) ||
            strncmp(s->stack, product, strlen(product)) != 0)
            continue;
        if (!best || (s->production && !best->production) ||
            (s->production == best->production && strcmp(s->as_of, best->as_of) > 0))
            best = s;
    }
    return best;
}

enum gp_layout gp_serving_layout_for(int ep, int dp_attention)
{
    if (ep > 1)
        return dp_attention == 1 ? GP_LAYOUT_DEP : GP_LAYOUT_TEP;
    return dp_attention == 1 ? GP_LAYOUT_DPA : GP_LAYOUT_TP;
}
