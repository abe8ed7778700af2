/* Serving calibration: how a user's own measured serving throughput compares with what the model
 * predicts for the same deployment, as one factor per GPU type, stack profile and model class,
 * and the factor a plan applies from the fits stored for it. */
#ifndef GP_PLANNER_SERVING_FIT_H
#define GP_PLANNER_SERVING_FIT_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "gpuplan/gpu.h"
#include "planner/efficiency.h"
#include "planner/stack.h"
#include "planner/layout.h"
#include "planner/workload.h"

/* One measured deployment, as the benchmark and the user describe it. */
struct gp_serving_measure {
    const struct gp_model_arch *model; /* the served model (a preset) */
    enum gp_precision precision, kv_precision;
    enum gp_layout layout; /* how each replica split the model */
    int replica_gpus;      /* GPUs per replica */
    int gpus;              /* GPUs the throughput was measured over: replicas x replica_gpus */
    int concurrency;       /* requests in flight over all replicas */
    double input_tokens, output_tokens; /* mean per request */
    double measured_per_gpu;            /* output tokens/s per GPU */
};

struct gp_serving_fit {
    double predicted_per_gpu; /* the model's output tokens/s per GPU for the same deployment */
    double factor;            /* measured / predicted, > 0 */
    int batch;                /* sequences per attention group the model planned */
};

/*
 * Plan `m` on `gpu` with `eff` (a profile's efficiencies, no serving factor applied) at the
 * measured concurrency and compare. Returns 0, or GP_EINVALID with a message naming what does
 * not hold (a layout the model or the GPU count cannot have, a deployment that does not fit).
 */
int gp_serving_fit(struct gp_serving_fit *out, const struct gp_serving_measure *m,
                   const struct gp_gpu *gpu, const struct gp_efficiency *eff);

/* "dense" or "moe": the class a fit is kept for. */
const char *gp_serving_class(const struct gp_model_arch *m);

/* Apply the median of `n` stored factors to `eff` (its serving_factor and source); nothing
 * when n is 0. */
void gp_serving_apply(struct gp_efficiency *eff, const double *factors, size_t n);

/* The preset a tool's model id ("deepseek-ai/DeepSeek-R1-0528") names: one whose config.json
 * source is that repository, else one named like its last part; NULL when none. Borrowed. */
const struct gp_model_arch *gp_serving_model_for(const struct gp_model_table *models,
                                                 const char *model_id);

/* The catalog GPU an InferenceX runner type ("b200-nb", "h200", "mi355x-amd") names: its first
 * part as an id, or with "-sxm"; NULL when none. Borrowed. */
const struct gp_gpu *gp_serving_gpu_for(const struct gp_catalog *cat, const char *runner);

/* The layout an InferenceX run records as tensor- and expert-parallel sizes and whether
 * attention ran data-parallel (dp_attention 1): experts spread (ep > 1) is dep or tep, else dpa
 * or tp. */
enum gp_layout gp_serving_layout_for(int ep, int dp_attention);

/* The profile an InferenceX framework ("trt", "vllm", "sglang", "atom") runs on `vendor`: the
 * production, else the newest measured profile of that product; NULL when none. Borrowed. */
const struct gp_stack *gp_serving_stack_for(const struct gp_stack_table *stacks,
                                            const char *framework, enum gp_vendor vendor);

#endif
