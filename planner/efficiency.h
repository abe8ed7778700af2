/* Efficiency factors the model applies to datasheet peaks: the defaults of data/efficiency.json
 * (with their provenance and uncertainty) and per-GPU overrides such as calibrated curves. */
#ifndef GP_PLANNER_EFFICIENCY_H
#define GP_PLANNER_EFFICIENCY_H

#include <stdbool.h>
#include <stddef.h>

#include "gpuplan/gpu.h"
#include "planner/bands.h"

/*
 * Achieved fraction of peak as a function of operation size: eff(s) = eff_max * s / (s + s_half).
 * For GEMM s is the FLOP count of one matrix multiply; for bandwidth it is the bytes of one
 * transfer. A curve with eff_max == 0 is absent.
 */
struct gp_eff_curve {
    double eff_max; /* fraction of peak reached by very large operations, (0, 1] */
    double s_half;  /* size at which half of eff_max is reached: FLOPs (gemm) or bytes */
};

/* Everything the model needs to turn peaks into achieved rates on one GPU type. */
struct gp_efficiency {
    struct gp_eff_curve gemm[GP_PRECISION_COUNT]; /* kernel-level GEMM curves per precision */
    struct gp_eff_curve bandwidth;                /* kernel-level HBM streaming curve */
    double serve_compute;       /* share of kernel-level compute a serving engine sustains */
    double serve_memory;        /* share of kernel-level bandwidth a serving engine sustains */
    double serve_attention;     /* share of kernel-level GEMM rate attention kernels sustain */
    double step_overhead_s;     /* fixed cost of one decode step (scheduling, sampling), s */
    double layer_overhead_s;    /* fixed cost per layer per forward pass (launches, norms), s */
    double sequence_overhead_s; /* engine cost per sequence per decode step (scheduling), s */
    double expert_gemm;         /* rate the routed experts' grouped (fused-MoE) GEMM reaches,
                                   as a share of a dense GEMM's, (0, 1] */
    double expert_tokens_half;  /* tokens per expert at which a grouped expert GEMM reaches half
                                   its rate (tiles padded to full height), tokens; 0 = none */
    double memory_fraction;     /* share of HBM the engine lets weights, KV cache and runtime
                                   use (vLLM's gpu_memory_utilization), (0, 1] */
    double kv_free_fraction;    /* when > 0: the engine gives the KV cache this share of what
                                   weights and runtime leave free instead (TensorRT-LLM's
                                   kv_cache_free_gpu_mem_fraction), (0, 1] */
    double kv_reserve;          /* share of a request's answer whose KV cache the engine reserves
                                   at admission (TensorRT-LLM's GUARANTEED_NO_EVICT: 1), [0, 1] */
    double runtime_overhead_gb; /* per-GPU memory outside weights and KV (activations, comm), GB */
    int max_batch;              /* most sequences an engine batches in one step */
    double net_efficiency;      /* achieved share of scale-up bandwidth in all-reduce */
    double net_latency_s;       /* fixed cost of one all-reduce, s */
    double alltoall_latency_s;  /* fixed cost of one expert-parallel dispatch or combine (an
                                   all-to-all kernel), s; 0 = net_latency_s */
    double mfu;                 /* training model-FLOPs utilisation of the precision's peak */
    double dp_overlap;          /* share of data-parallel traffic hidden behind compute, [0, 1) */
    double claim_inference;     /* vendor-claim multiplier on inference throughput; 1 = none */
    double claim_training;      /* vendor-claim multiplier on training throughput; 1 = none */
    double serving_factor;      /* measured / modelled serving throughput from the user's own
                                   serving calibrations (median); 0 = none */
    int serving_runs;           /* serving calibration runs behind serving_factor */
    char stack[32];             /* software stack profile applied, "" for none */
    bool vendor_claim;          /* the profile is a vendor's claim, not a measurement */
    double idle_power;          /* GPU draw when idle, share of TDP */
    double busy_power;          /* GPU draw when busy on compute-bound work, share of TDP */
    double memory_power;        /* GPU draw when busy on memory-bound work, share of TDP */
    double uncertainty_low;     /* throughput multiplier at the pessimistic end, <= 1 */
    double uncertainty_high;    /* throughput multiplier at the optimistic end, >= 1 */
    struct gp_band band[GP_BAND_COUNT]; /* measured error bands per case class; cases 0 = none,
                                           and the uncertainty above applies */
    char source[96];                    /* "default" or "calibrated:<host>:<date>" */
};

/* data/efficiency.json: defaults plus per-GPU entries that override some of them. */
struct gp_efficiency_entry {
    char gpu_id[GP_GPU_ID_MAX]; /* catalog id the entry applies to */
    struct gp_efficiency eff;   /* complete: defaults with the entry's fields applied */
};

struct gp_efficiency_table {
    struct gp_efficiency defaults;       /* for GPUs without an entry; source "default" */
    struct gp_efficiency_entry *entries; /* owned, `count` entries */
    size_t count;
};

/*
 * Per-GPU override, typically from calibration: the curves set here replace the kernel-level
 * defaults; serving factors, overheads and power stay. `source` becomes the rows'
 * efficiency_source.
 */
struct gp_eff_override {
    bool gemm_set[GP_PRECISION_COUNT];            /* which gemm curves replace the defaults */
    struct gp_eff_curve gemm[GP_PRECISION_COUNT]; /* s in FLOPs per GEMM */
    bool bandwidth_set;                           /* whether `bandwidth` replaces the default */
    struct gp_eff_curve bandwidth;                /* s in bytes per transfer */
    char source[96];                              /* "calibrated:<host>:<date>" */
};

/* Parse data/efficiency.json text; errors name origin, JSON path, line and column. Returns 0,
 * GP_EINVALID or GP_ENOMEM. Release with gp_efficiency_table_release. */
int gp_efficiency_table_parse(struct gp_efficiency_table *out, const char *text, size_t len,
                              const char *origin);
/* data/efficiency.json as a table (catalog/data.h): loaded by the CLI, compiled at build time. */
extern const struct gp_data_table gp_efficiency_file;
void gp_efficiency_table_release(struct gp_efficiency_table *table);

/* The efficiencies for `gpu_id`: its entry, else the defaults. */
void gp_efficiency_resolve(struct gp_efficiency *out, const struct gp_efficiency_table *table,
                           const char *gpu_id);

/* Replace the curves `ov` sets and take its source. The training MFU is scaled by the ratio of
 * the calibrated to the replaced GEMM eff_max (bf16 when calibrated, else fp8). */
void gp_efficiency_apply(struct gp_efficiency *eff, const struct gp_eff_override *ov);

/* Widen the measured bands and the kernel-level uncertainty: each pessimistic end times `low`
 * (<= 1), each optimistic end times `high` (>= 1). */
void gp_efficiency_widen(struct gp_efficiency *eff, double low, double high);

/* The GEMM curve for precision `p`, falling back to bf16 when `p` has none. Borrowed. */
const struct gp_eff_curve *gp_efficiency_gemm(const struct gp_efficiency *eff, enum gp_precision p);

/* eff(s) for a curve; 0 for an absent curve or s <= 0. */
double gp_eff_at(const struct gp_eff_curve *c, double s);

#endif
