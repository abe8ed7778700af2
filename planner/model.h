/* The performance model: how fast one GPU type runs a workload (roofline with size-dependent
 * efficiencies, memory fit, tensor parallelism, batching, training time). Pure functions. */
#ifndef GP_PLANNER_MODEL_H
#define GP_PLANNER_MODEL_H

#include <stdbool.h>

#include "gpuplan/gpu.h"
#include "planner/efficiency.h"
#include "planner/layout.h"
#include "planner/workload.h"

enum gp_bound { GP_BOUND_COMPUTE, GP_BOUND_MEMORY, GP_BOUND_INTERCONNECT };

/* Row notes, as bits; gp_notes_format spells them. */
enum gp_note {
    GP_NOTE_BEST = 1u << 0,                  /* lowest cost per unit of work among the rows */
    GP_NOTE_NO_PUBLIC_PRICE = 1u << 1,       /* no offer, quote or capex for this GPU */
    GP_NOTE_STALE_PRICE = 1u << 2,           /* the price is older than --max-age */
    GP_NOTE_DOES_NOT_FIT = 1u << 3,          /* the model does not fit one node's memory */
    GP_NOTE_OVER_POWER_BUDGET = 1u << 4,     /* facility power above --power-budget-kw */
    GP_NOTE_UNSUPPORTED_PRECISION = 1u << 5, /* no path for the precision; a wider one was used */
    GP_NOTE_LATENCY_UNMET = 1u << 6,         /* no batch meets the TTFT/TPOT targets */
    GP_NOTE_OVER_MAX_GPUS = 1u << 7,         /* the target needs more GPUs than --max-gpus */
    GP_NOTE_NO_SPOT_OFFER = 1u << 8,         /* spot asked for, none published */
    GP_NOTE_NO_QUOTE = 1u << 9,              /* quote asked for, none valid */
    GP_NOTE_NO_ON_DEMAND_OFFER = 1u << 10,   /* nothing non-preemptible published */
    GP_NOTE_NO_RESERVED_OFFER = 1u << 11,    /* reserved asked for, none published */
    GP_NOTE_NO_OFFER_IN_REGION = 1u << 12,   /* offers exist, none in --region/--jurisdiction */
    GP_NOTE_NO_TERM_IN_HORIZON = 1u << 13,   /* every usable term is longer than the horizon */
    GP_NOTE_NO_FITTING_INSTANCE = 1u << 14,  /* every instance is smaller than a TP group */
    GP_NOTE_CAPEX_ESTIMATE = 1u << 15,       /* owned at data/capex.json's estimate */
    GP_NOTE_WITHIN_UNCERTAINTY = 1u << 16,   /* cost band overlaps the best/next row's */
    GP_NOTE_VENDOR_CLAIM = 1u << 17,         /* planned with a vendor's claim, not a measurement */
    GP_NOTE_TERM_UNKNOWN = 1u << 18,         /* bought on a contract whose term is not published */
    GP_NOTE_NO_CLUSTER_OFFER = 1u << 19,     /* a multi-node fleet, and no offer forms a cluster */
    GP_NOTE_ANNOUNCED = 1u << 20,            /* announced by its vendor, not shipping: never best */
    GP_NOTE_BEYOND_SCALE_UP = 1u << 21, /* the pinned layout is wider than the scale-up domain */
    GP_NOTE_RACK_POWER_EXCEEDED = 1u << 22, /* one server draws more than the site's rack limit */
    GP_NOTE_WHOLE_SERVERS = 1u << 23,       /* owned: rounded up to whole servers, some GPUs idle */
};

/* What the model predicts for one workload on one GPU type. */
struct gp_perf {
    bool feasible;               /* a configuration fits and meets the targets */
    unsigned notes;              /* enum gp_note bits found while modelling */
    enum gp_precision precision; /* precision actually used (after any fallback) */
    enum gp_layout layout;       /* inference: how a replica splits the model */
    int replica_gpus;            /* inference: GPUs in one replica */
    int tp;                      /* tensor-parallel degree (inference: of attention), GPUs */
    int ep;                      /* inference: GPUs the experts are spread over; 1 = none */
    int cp;                      /* training: context-parallel degree */
    int pp;                      /* pipeline stages */
    int batch;                   /* sequences per decode step (inference), micro-batch (training) */
    double replica_rate;  /* inference: output tokens/s of one replica; training: tokens/s of the
                             fleet; generic: jobs/s of one GPU */
    double ttft_ms;       /* inference: time to first token, ms */
    double tpot_ms;       /* inference: time per output token, ms */
    enum gp_bound bound;  /* what limits the chosen configuration */
    double busy;          /* share of time the GPU's busiest unit is working, [0, 1] */
    double compute_share; /* share of the busy time that is compute-bound, [0, 1] */
    int gpus;             /* training: GPUs in the fleet */
    double train_hours;   /* training: wall-clock time, h */
    double mfu;           /* training: model-FLOPs utilisation achieved, [0, 1] */
};

/*
 * Model `w` on `gpu` with efficiencies `eff`, all efficiencies multiplied by `scale` (1 for the
 * central estimate; the uncertainty bounds for the low/high columns). `max_gpus` (0 = none)
 * bounds training fleets. Never fails: what cannot be done is reported in out->feasible and
 * out->notes, and every number in *out is finite.
 */
void gp_model_evaluate(struct gp_perf *out, const struct gp_workload *w, const struct gp_gpu *gpu,
                       const struct gp_efficiency *eff, double scale, int max_gpus);

/* The precision a GPU runs `want` in: `want` itself when it has a path, else the nearest wider
 * format it has (fp4 -> fp6 -> fp8 -> bf16 -> fp16 -> fp32). */
enum gp_precision gp_model_precision(const struct gp_gpu *gpu, enum gp_precision want);

/*
 * Activation bytes the routed experts move between the kernels of a fused MoE block, apart from
 * the GEMMs' own operands, for one sequence of an attention group on one GPU of layout `sh`, in
 * all MoE blocks (0 for a dense model). Per routed copy of a token: a hidden-wide copy written in
 * the experts' precision (`expert_bytes` per element), the down GEMM's bf16 output written and
 * read back, the gate-up GEMM's bf16 output written and read by the activation, which writes its
 * result in the experts' precision; per token, its hidden state read and the sum written in bf16.
 * The time is the same whatever the GEMMs' format, so narrow formats reach less of their peak in
 * a MoE block. A GPU moves the hidden-wide tensors of the copies routed to its experts and the
 * expert-wide ones of its slice of them.
 */
double gp_model_routed_traffic(const struct gp_model_arch *m, double expert_bytes,
                               const struct gp_layout_shape *sh);

/* KV cache bytes per token for the whole model: 2 * layers * kv_heads * head_dim * bytes, or
 * with multi-head latent attention layers * (kv_lora_rank + rope_dim) * bytes. */
double gp_model_kv_bytes_per_token(const struct gp_model_arch *m, enum gp_precision kv);
/* The same on one of `t` tensor-parallel GPUs (KV heads split, at least one each; an MLA
 * latent is held whole by every rank). */
double gp_model_kv_bytes_per_gpu(const struct gp_model_arch *m, enum gp_precision kv, int t);
/* The context one layer caches and attends to on average for a sequence of `ctx` tokens:
 * `ctx` in full-attention layers, at most the window in sliding-window ones, tokens. */
double gp_model_kv_context(const struct gp_model_arch *m, double ctx);
/* Bytes one routed-expert weight takes in HBM when the experts compute in `prec`: the stored
 * width (expert_weight_bits, block scales included) when narrower, else the precision's. */
double gp_model_expert_bytes(const struct gp_model_arch *m, enum gp_precision prec);
/* Elements a decode token's attention reads per cached token and layer, summed over heads. */
double gp_model_attention_width(const struct gp_model_arch *m);

/* The whole number of units that covers `x` (ceil), forgiving floating-point noise: a quotient
 * within 1e-12 (relative) above a whole number counts as that number, so 12.000000000001
 * replicas are 12. */
double gp_model_whole_units(double x);

const char *gp_bound_name(enum gp_bound b);

#endif
