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

/* Whether a system can be bought today, or has only been announced by its vendor. */
enum gp_gpu_status { GP_STATUS_SHIPPING, GP_STATUS_ANNOUNCED };

/* How far a catalog figure can be trusted: the vendor's own, a reputable second-hand one, or
 * derived (and said how). Ordered: a larger value is less sure. */
enum gp_confidence { GP_CONFIDENCE_OFFICIAL, GP_CONFIDENCE_SECONDARY, GP_CONFIDENCE_ESTIMATE };

enum gp_cooling { GP_COOLING_UNKNOWN, GP_COOLING_AIR, GP_COOLING_LIQUID };

/*
 * The figures of an entry a citation can back: the peaks by enum gp_precision first, then the
 * rest. gp_figure_name gives each its name in gpus.json ("peak_tflops.fp8", "rack.kw").
 */
enum gp_figure {
    GP_FIGURE_HBM_GB = GP_PRECISION_COUNT,
    GP_FIGURE_HBM_TBS,
    GP_FIGURE_TDP_W,
    GP_FIGURE_SCALEUP_GBS,
    GP_FIGURE_SCALEOUT_GBPS,
    GP_FIGURE_GPUS_PER_NODE,
    GP_FIGURE_NODE_OVERHEAD_W,
    GP_FIGURE_LLC_MB,
    GP_FIGURE_CAPEX_USD,
    GP_FIGURE_RACK_GPUS,
    GP_FIGURE_RACK_KW,
    GP_FIGURE_COUNT
};

/* The rack an entry's nodes are deployed in; gpus 0 when no rack figure is known. */
struct gp_rack {
    int gpus;                /* GPUs in one rack */
    double kw;               /* the rack's power at full load, kW, IT load (before PUE) */
    enum gp_cooling cooling; /* what the rack needs */
};

/*
 * One system as it is planned: an accelerator in its platform, as the vendor's sheet describes
 * both. gpus_per_node is the scale-up domain, the GPUs one fast link joins (8 for HGX and OAM
 * nodes, 72 for an NVL72 or Helios rack), and node_overhead_w the domain's power beyond its
 * GPUs. All peaks are dense (no 2:4 sparsity). A precision the chip has no path for holds 0 in
 * peak_tflops.
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
    char system[48];  /* the platform, e.g. "HGX 8-GPU", "GB300 NVL72 rack" */
    enum gp_gpu_status status;
    char ships[48]; /* announced: when the vendor says it ships, in its words ("2H 2026") */
    struct gp_rack rack;
    unsigned char confidence[GP_FIGURE_COUNT]; /* enum gp_confidence of each figure */
};

/* One figure's citation: what its source says, from which the catalog's figure follows. */
struct gp_citation {
    size_t gpu;            /* index into the catalog */
    enum gp_figure figure; /* the figure it backs */
    char says[160];        /* "1440 PFLOPS sparse per rack"; "" for a derived estimate */
    char source[256];      /* URL, or the document's name */
    char note[256];        /* how an estimate was derived, or a caveat; may be "" */
    enum gp_confidence confidence;
};

/* The loaded catalog; owns its arrays. */
struct gp_catalog {
    struct gp_gpu *gpus; /* owned, `count` entries, in file order */
    size_t count;
    struct gp_citation *citations; /* owned, `ncitations`, by entry in file order */
    size_t ncitations;
};

/* "fp16" <-> GP_FP16. gp_precision_parse returns -1 for an unknown name. */
const char *gp_precision_name(enum gp_precision p);
int gp_precision_parse(const char *name);
/* Bytes per element of a stored value in that format (fp4 = 0.5). */
double gp_precision_bytes(enum gp_precision p);

const char *gp_vendor_name(enum gp_vendor v);

/* "shipping", "announced"; "official", "secondary", "estimate"; "air", "liquid" ("" unknown);
 * the figure's name in gpus.json. */
const char *gp_status_name(enum gp_gpu_status s);
const char *gp_confidence_name(enum gp_confidence c);
const char *gp_cooling_name(enum gp_cooling c);
const char *gp_figure_name(enum gp_figure f);

/* The names back to their enums; -1 for an unknown name. */
int gp_status_parse(const char *name);
int gp_confidence_parse(const char *name);
int gp_cooling_parse(const char *name);
int gp_figure_parse(const char *name);

/* The least sure of the figures that set a scale-up domain's throughput: its tensor peaks, HBM
 * capacity and bandwidth, and its scale-up link (not scale-out, power or price). */
enum gp_confidence gp_gpu_throughput_confidence(const struct gp_gpu *gpu);

#endif
