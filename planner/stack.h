/* Software stacks as data: one profile per serving or training stack and version
 * (data/stacks.json), with per-phase efficiency factors, their evidence, and vendor claims. */
#ifndef GP_PLANNER_STACK_H
#define GP_PLANNER_STACK_H

#include <stdbool.h>
#include <stddef.h>

#include "gpuplan/gpu.h"
#include "planner/efficiency.h"

#define GP_STACK_NAME_MAX 32

/* The phases a profile gives a factor for. */
enum gp_stack_phase {
    GP_PHASE_PREFILL,          /* share of kernel-level GEMM throughput the engine sustains */
    GP_PHASE_DECODE,           /* share of kernel-level HBM bandwidth sustained in decode */
    GP_PHASE_ATTENTION,        /* share of kernel-level GEMM throughput attention kernels reach */
    GP_PHASE_COMMUNICATION,    /* share of link bandwidth collectives reach (scale-up and out) */
    GP_PHASE_OVERLAP,          /* share of data-parallel traffic hidden behind compute */
    GP_PHASE_TRAINING_MFU,     /* multiplier on the GPU's training model-FLOPs utilisation */
    GP_PHASE_SEQUENCE_US,      /* engine time per sequence per decode step (scheduling, sampling),
                                  microseconds, [0, 1000] */
    GP_PHASE_EXPERT_GEMM,      /* rate the grouped expert GEMMs sustain on routed tokens, as a
                                  share of a dense GEMM's (routing, permutation, activation
                                  quantisation and load imbalance included), (0, 1] */
    GP_PHASE_MEMORY_FRACTION,  /* share of HBM the engine uses by default, (0, 1] */
    GP_PHASE_KV_FREE_FRACTION, /* share of the memory weights leave free that the engine gives
                                  its KV cache by default, (0, 1] */
    GP_PHASE_KV_RESERVE,       /* share of a request's answer whose KV cache the engine reserves
                                  when it admits the request, [0, 1] (0: blocks as tokens come) */
    GP_PHASE_LAYER_US,         /* engine time per layer per forward pass that no batch size
                                  changes (the launches and waits between a layer's small
                                  kernels), microseconds, [0, 1000] */
    GP_PHASE_COUNT
};

/* One factor with the evidence behind it. factor 0 = the profile does not cover the phase. */
struct gp_stack_factor {
    double factor;       /* dimensionless, (0, 1]; training_mfu (0, 2]; sequence_us and
                            layer_us in us */
    char fitted_on[200]; /* which published data set it was fitted on, or "assumed: why" */
    char confidence[8];  /* "high", "medium" or "low" */
};

struct gp_stack {
    char name[GP_STACK_NAME_MAX]; /* profile id, e.g. "trtllm-2025" */
    char stack[32];               /* product, e.g. "TensorRT-LLM" */
    char version[64];             /* version or container tag */
    char as_of[11];               /* YYYY-MM-DD of the evidence */
    bool vendors[2];              /* runs on [GP_VENDOR_NVIDIA], [GP_VENDOR_AMD] */
    bool claim;                   /* a vendor's claim: never a default */
    bool production;              /* what teams deploy today: the vendor's default profile */
    char base[GP_STACK_NAME_MAX]; /* claims: the measured profile the multipliers apply to */
    double claim_inference;       /* claims: inference throughput multiplier over base, >= 1 */
    double claim_training;        /* claims: training throughput multiplier over base, >= 1 */
    char source[256];             /* URL or document of the claim or the evidence */
    struct gp_stack_factor phase[GP_PHASE_COUNT];
};

/* data/stacks.json; owns its array. */
struct gp_stack_table {
    struct gp_stack *stacks; /* owned, `count` entries, in file order */
    size_t count;
};

/*
 * Parse data/stacks.json text. Every profile names its stack, version, date, vendors and, per
 * factor, what it was fitted on and a confidence; a claim names a measured base profile.
 * Errors name origin, JSON path, line and column. Returns 0, GP_EINVALID or GP_ENOMEM.
 * Release with gp_stack_table_release.
 */
int gp_stack_table_parse(struct gp_stack_table *out, const char *text, size_t len,
                         const char *origin);
/* data/stacks.json as a table (catalog/data.h): loaded by the CLI, compiled at build time. */
extern const struct gp_data_table gp_stack_file;
void gp_stack_table_release(struct gp_stack_table *table);

/* The profile called `name`, or NULL. Borrowed. */
const struct gp_stack *gp_stack_find(const struct gp_stack_table *table, const char *name);

/* Whether profile `s` covers workloads of inference (true) or training (false) kind. */
bool gp_stack_serves(const struct gp_stack *s, bool inference);

/*
 * The default profile for a vendor and workload kind: the newest production profile that runs
 * on `vendor` and covers the kind, else the newest measured (non-claim) one. Never a claim, and
 * never an MLPerf-tuned profile while a production one exists. NULL when none does. Borrowed.
 */
const struct gp_stack *gp_stack_default(const struct gp_stack_table *table, enum gp_vendor vendor,
                                        bool inference);

/*
 * Apply profile `s` (a claim applies its base's factors and its multipliers) to `eff`: the
 * engine-level factors it gives replace eff's; kernel-level curves (calibrated or not) stay.
 * Records the profile name in eff->stack. `table` resolves a claim's base.
 */
void gp_stack_apply(struct gp_efficiency *eff, const struct gp_stack_table *table,
                    const struct gp_stack *s);

const char *gp_stack_phase_name(enum gp_stack_phase p);

#endif
