/* Workloads the planner sizes fleets for (inference, training, generic jobs), the model
 * architectures they refer to, and the parsers that read both from JSON. */
#ifndef GP_PLANNER_WORKLOAD_H
#define GP_PLANNER_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "gpuplan/gpu.h"
#include "planner/layout.h"

#define GP_NAME_MAX 64

/* A decoder-only transformer, dense or mixture-of-experts (experts > 1). */
struct gp_model_arch {
    char name[GP_NAME_MAX];    /* preset name, or "custom" */
    double params;             /* total parameters, count (derived from the shape when 0) */
    int layers;                /* transformer blocks */
    int hidden;                /* model width d */
    int heads;                 /* attention (query) heads */
    int kv_heads;              /* key/value heads (GQA); equals heads for plain MHA */
    int head_dim;              /* width of one head */
    int ffn;                   /* FFN inner width per expert (SwiGLU: three d x ffn matrices) */
    int vocab;                 /* vocabulary size */
    int experts;               /* experts per MoE layer; 1 = dense */
    int active_experts;        /* experts each token is routed to; 1 = dense */
    int moe_ffn;               /* FFN inner width of one expert; 0 = ffn */
    int dense_layers;          /* leading blocks with a dense FFN of width ffn (no experts) */
    int shared_experts;        /* experts every token passes through, per MoE block */
    int kv_lora_rank;          /* multi-head latent attention: cached latent width; 0 = GQA */
    int rope_dim;              /* MLA: width of the decoupled RoPE key, cached too */
    int sliding_window;        /* tokens a sliding-window layer attends to and caches; 0 = none */
    int sliding_layers;        /* layers with that window; the others attend to the whole context */
    double expert_weight_bits; /* stored width of one routed-expert weight with its block scales,
                                  bits (MXFP4: 4.25); 0 = the width of the compute precision */
    char hub_id[96];           /* presets: the Hugging Face repository of the config.json they
                                  cite ("deepseek-ai/DeepSeek-R1-0528"); "" for none */
};

/* The preset architectures of data/models.json. */
struct gp_model_table {
    struct gp_model_arch *models; /* owned, `count` entries */
    size_t count;
};

enum gp_workload_kind { GP_WORKLOAD_INFERENCE, GP_WORKLOAD_TRAINING, GP_WORKLOAD_GENERIC };

/* What an inference target counts. */
enum gp_load_kind {
    GP_LOAD_MAX,          /* best throughput per GPU, no latency limit, one replica */
    GP_LOAD_REQUESTS,     /* `rate` is requests/s */
    GP_LOAD_OUTPUT_TOKENS /* `rate` is output tokens/s */
};

struct gp_inference {
    enum gp_precision precision;    /* weights and matmul inputs */
    enum gp_precision kv_precision; /* KV cache elements */
    double input_tokens;            /* mean prompt length per request, tokens */
    double output_tokens;           /* mean generated length per request, tokens */
    enum gp_load_kind load;
    double rate;            /* requests/s or output tokens/s (see load); unused for max */
    double ttft_ms;         /* time-to-first-token limit, ms; 0 = none */
    double tpot_ms;         /* time-per-output-token limit, ms; 0 = none */
    double memory_fraction; /* share of HBM the serving engine may use, (0, 1]; 0 = what the
                               stack's engine does by default */
    double min_tokens_per_s_per_user; /* interactivity floor: output tokens/s each user sees
                                         while decoding (1000 / TPOT ms); 0 = none */
    int max_batch;         /* engine limit on sequences per step; 0 = efficiency default */
    enum gp_layout layout; /* pinned layout scheme; GP_LAYOUT_CHOOSE = search them all */
    int layout_gpus;       /* pinned GPUs per replica, a power of two to 64; 0 = choose */
    int tensor_parallel;   /* pinned attention tensor-parallel degree, a power of two; 0 = choose */
    int expert_parallel;   /* MoE: pinned GPUs the experts are spread over (DEP or TEP);
                              1 = experts not spread; 0 = choose */
};

/* Training splits a layer over at most this many GPUs (tensor parallelism), as Megatron-style
 * recipes do; inference layouts reach GP_LAYOUT_MAX_GPUS inside a 72-GPU domain. */
#define GP_TRAINING_MAX_TP 8

struct gp_training {
    enum gp_precision precision; /* matmul precision */
    double tokens;               /* training tokens, count */
    double deadline_hours;       /* wall-clock limit, h; 0 = use `gpus` */
    int gpus;                    /* fixed GPU count; 0 = size for the deadline */
    bool recompute;              /* full activation recomputation (8ND instead of 6ND) */
    double optimizer_bytes;      /* optimizer state per parameter, bytes (Adam + fp32 master: 12) */
    int zero_stage;              /* ZeRO/FSDP sharding stage 0-3 over the data-parallel group */
    double mfu;                  /* model FLOPs utilisation override, (0, 1]; 0 = from efficiency */
    double trainable_fraction;   /* share of parameters with gradients (LoRA: small), (0, 1];
                                    0 = all */
    int seq_len;                 /* tokens per sequence */
    int micro_batch;             /* sequences per micro-batch per GPU */
    double global_batch_tokens;  /* tokens per optimizer step across the fleet */
    double critical_batch_tokens; /* batch beyond which more tokens are needed to converge
                                     (tokens x (1 + B/Bc)); 0 = none assumed */
    int tensor_parallel;          /* fixed tensor-parallel degree 1-8 (power of 2); 0 = choose */
    int pipeline_parallel;        /* fixed pipeline stages (power of 2); 0 = choose */
};

struct gp_generic {
    enum gp_precision precision; /* arithmetic precision */
    double flops;                /* floating-point operations per job */
    double bytes;                /* bytes moved to and from HBM per job */
    double jobs_per_hour;        /* target rate, jobs/h; 0 = best per GPU (one GPU) */
};

/* How the fleet may be bought (any kind): mixing providers, and an inference demand profile
 * that makes a blended fleet (baseline committed, peak on demand, a share of the peak on spot).
 * Rates are in the unit of the inference target (requests/s or output tokens/s). */
struct gp_buying {
    bool allow_mixed_providers; /* one fleet may combine offers of several providers */
    bool profile;               /* a demand profile was given */
    double baseline_rate;       /* rate needed around the clock, >= 0 */
    double peak_rate;           /* rate at peak, >= baseline_rate and > 0 */
    double peak_hours_per_day;  /* hours a day at peak, (0, 24] */
    double spot_share;          /* share of the peak above baseline on spot, [0, 1] */
    double spot_factor;         /* spot over-provisioning, >= 1; 0 = provider default */
};

struct gp_workload {
    char name[GP_NAME_MAX]; /* preset or file stem */
    char description[160];  /* one line for people */
    enum gp_workload_kind kind;
    struct gp_model_arch model;    /* inference and training */
    struct gp_inference inference; /* kind inference */
    struct gp_training training;   /* kind training */
    struct gp_generic generic;     /* kind generic */
    struct gp_buying buying;       /* any kind */
};

/* The KV cache format when none is given: the weights', but never narrower than fp8. */
enum gp_precision gp_inference_default_kv(enum gp_precision weights);

/* The output tokens/s an inference target asks for: rate x output_tokens for requests/s,
 * the rate itself for output tokens/s; meaningless for "max". */
double gp_inference_demand(const struct gp_inference *in);

const char *gp_workload_kind_name(enum gp_workload_kind kind);

/*
 * Parse data/models.json text. `origin` names the text in messages. Returns 0 or GP_EINVALID
 * (file:line:col: path: what is wrong) or GP_ENOMEM. Release with gp_model_table_release.
 */
int gp_model_table_parse(struct gp_model_table *out, const char *text, size_t len,
                         const char *origin);
/* data/models.json as a table (catalog/data.h): loaded by the CLI, compiled at build time. */
extern const struct gp_data_table gp_model_file;
void gp_model_table_release(struct gp_model_table *table);
/* The preset called `name`, or NULL. Borrowed from the table. */
const struct gp_model_arch *gp_model_table_find(const struct gp_model_table *table,
                                                const char *name);

/*
 * Parse a workload file. `models` resolves preset model names (may be NULL: then only
 * explicit architectures are accepted). Every field is checked: unknown keys name the nearest
 * known key, impossible values (zero layers, negative tokens, ...) name the JSON path, line and
 * column. Returns 0 or GP_EINVALID.
 */
int gp_workload_parse(struct gp_workload *out, const char *text, size_t len, const char *origin,
                      const struct gp_model_table *models);

/* Check the cross-field rules again after --set changes; messages name the key. */
int gp_workload_validate(const struct gp_workload *w);

/* Fill the derived fields of an architecture (params from the shape when 0). */
void gp_model_arch_complete(struct gp_model_arch *m);
/* Parameters a token passes through (all but the experts it is not routed to), count. */
double gp_model_active_params(const struct gp_model_arch *m);
/* Parameters in routed expert FFNs across all layers, count (0 for dense models). */
double gp_model_expert_params(const struct gp_model_arch *m);
/* Blocks with experts (0 for dense models). */
double gp_model_moe_layers(const struct gp_model_arch *m);

/* Inner width of one routed expert's FFN: moe_ffn, or ffn when the model gives none. */
double gp_model_expert_width(const struct gp_model_arch *m);

#endif
