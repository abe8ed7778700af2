/* The GPU catalog types shared by the store, the planner, the pricing feeds and calibration. */
#ifndef GPUPLAN_GPU_H
#define GPUPLAN_GPU_H

#include <stddef.h>

/* Numeric formats a GPU may have a dense tensor (or vector) path for. */
enum gp_precision {
    GP_FP64,
    GP_FP32,
    GP_TF32,
    GP_BF16,
    GP_FP16,
    GP_FP8,
    GP_FP6,
    GP_FP4,
    GP_INT8,
    GP_PRECISION_COUNT
};

enum gp_vendor { GP_VENDOR_NVIDIA, GP_VENDOR_AMD };

#define GP_GPU_ID_MAX 16

/*
 * One accelerator as the vendor's sheet describes it. All peaks are dense (no 2:4 sparsity).
 * A precision the chip has no path for holds 0 in peak_tflops.
 */
struct gp_gpu {
    char id[GP_GPU_ID_MAX]; /* canonical id, e.g. "h100-sxm" */
    char name[64];          /* marketing name, e.g. "NVIDIA H100 SXM5 80GB" */
    enum gp_vendor vendor;
    char arch[16];                          /* compiler target: sm_90, sm_100, gfx942, gfx950 */
    double peak_tflops[GP_PRECISION_COUNT]; /* dense TFLOP/s (TOP/s for int8); 0 = no path */
    double hbm_gb;                          /* memory capacity, GB (10^9 bytes) */
    double hbm_tbs;                         /* memory bandwidth, TB/s (10^12 bytes/s) */
    double tdp_w;                           /* board power limit, W */
    double scaleup_gbs;                     /* scale-up bandwidth per GPU, GB/s, bidirectional */
    int gpus_per_node;                      /* GPUs in the standard node */
    double scaleout_gbps;                   /* scale-out NIC bandwidth per GPU, Gb/s, one way */
    double node_overhead_w;                 /* node power beyond the GPUs (CPUs, NICs, fans), W */
    double llc_mb;                          /* last-level cache, MB (L2 or Infinity Cache) */
    double capex_usd; /* indicative purchase price per GPU, USD; 0 = unknown */
    char source[512]; /* where the figures come from (URLs) */
};

/* The loaded catalog; owns its array. */
struct gp_catalog {
    struct gp_gpu *gpus; /* owned, `count` entries, in file order */
    size_t count;
};

/* "fp16" <-> GP_FP16. gp_precision_parse returns -1 for an unknown name. */
const char *gp_precision_name(enum gp_precision p);
int gp_precision_parse(const char *name);
/* Bytes per element of a stored value in that format (fp4 = 0.5). */
double gp_precision_bytes(enum gp_precision p);

const char *gp_vendor_name(enum gp_vendor v);

#endif
