/* A calibrated fleet read as a whole: each GPU's curves against the fleet median of the same GPU
 * type and software, the nodes that fall short or disagree with themselves, and the fleet
 * median the planner uses in place of a single machine's calibration. Pure: plain data in,
 * plain data out. */
#ifndef GP_PLANNER_FLEETCAL_H
#define GP_PLANNER_FLEETCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One fitted curve of one calibration run. Strings are borrowed from the caller. */
struct gp_fleet_curve {
    const char *host;      /* the node that measured it */
    int device;            /* the backend's device index on that node */
    const char *gpu;       /* GPU type: catalog id, else the device name */
    const char *software;  /* driver and runtime versions, "" when not recorded */
    const char *kernel;    /* "gemm" or "bandwidth" */
    const char *precision; /* gemm precision; "" for bandwidth */
    double eff_max;        /* fraction of the datasheet peak (or an absolute rate: see peak) */
    double s_half;         /* size at half of eff_max: FLOP (gemm) or bytes (bandwidth) */
    double peak;           /* TFLOP/s or GB/s eff_max refers to; 0 = eff_max is absolute */
    double p10_ratio;      /* p10 / median of the run's largest points, fraction (<= 1) */
    double p90_ratio;      /* p90 / median of the run's largest points, fraction (>= 1) */
    double cv;             /* repetition CV of the run's largest points, fraction */
    int64_t started_at;    /* Unix seconds UTC */
};

/* Thresholds for `suspect`. */
struct gp_fleet_options {
    double max_below; /* a GPU more than this fraction below its group's median is suspect */
    double max_cv;    /* a GPU whose runs vary by more than this CV (fraction) is suspect */
};
#define GP_FLEET_MAX_BELOW 0.07
#define GP_FLEET_MAX_CV    0.05

/* One GPU of one node and one curve: its newest run, compared with its group. */
struct gp_fleet_row {
    size_t newest;  /* index into the input of the row's newest run */
    size_t runs;    /* runs of this host, device, GPU type, software and curve */
    double eff_max; /* the newest run's eff_max, same unit as the input */
    double eff_p10; /* eff_max scaled by the newest run's p10 and p90 ratios */
    double eff_p90;
    double cv;        /* the larger of the repetition CV and the CV of eff_max over runs */
    double median;    /* median eff_max of the group: same GPU type, software and curve */
    size_t group;     /* rows in the group */
    double deviation; /* eff_max / median - 1, fraction; 0 when the median is 0 */
    bool low;         /* more than max_below under the median */
    bool unstable;    /* cv above max_cv */
};

/*
 * The fleet view of `count` curves: one row per host, device, GPU type, software and curve,
 * sorted by GPU type, curve, software, host and device. *out is malloc'd (free()); *rows may
 * be 0. Returns 0, GP_EINVALID for thresholds that are negative or not numbers, or GP_ENOMEM.
 */
int gp_fleet_view(struct gp_fleet_row **out, size_t *rows, const struct gp_fleet_curve *curves,
                  size_t count, const struct gp_fleet_options *options);

/* The fleet's curve for one GPU type and curve, over every node's newest run. */
struct gp_fleet_estimate {
    double eff_max;   /* median over the GPUs, same unit as the input */
    double s_half;    /* median over the GPUs */
    double low, high; /* 10th and 90th percentile of the GPUs' eff_max over the median */
    size_t nodes;     /* distinct hosts behind it */
    size_t gpus;      /* distinct (host, device) behind it */
    int64_t newest;   /* the newest run's start, Unix seconds UTC */
};

/*
 * The median curve of GPU type `gpu` for `kernel` and `precision` over every host and device's
 * newest run (of any software). Returns 0 with *out set, or GP_ENOTFOUND when no curve matches
 * (*out zeroed), or GP_ENOMEM.
 */
int gp_fleet_estimate(struct gp_fleet_estimate *out, const struct gp_fleet_curve *curves,
                      size_t count, const char *gpu, const char *kernel, const char *precision);

/* The q-quantile (0..1) of `values` by linear interpolation; sorts `values` in place. 0 when
 * count is 0. */
double gp_fleet_quantile(double *values, size_t count, double q);

#endif
