/* Calibration records: one run on one device, its measured points and its fitted efficiency
 * curves, as the store keeps them, the exchange files carry them and the planner reads them. */
#ifndef GPUPLAN_CALIBRATION_H
#define GPUPLAN_CALIBRATION_H

#include <stddef.h>
#include <stdint.h>

#define GP_CALIBRATION_FINGERPRINT_MAX 33 /* 32 hex digits */

/* One measured point. Rates are medians over the timed repetitions. */
struct gp_calibration_point {
    char kernel[8];    /* "gemm", or a bandwidth kernel: copy scale add triad read */
    char precision[8]; /* gemm: fp64 fp32 tf32 bf16 fp16 fp8; "" for bandwidth */
    char impl[64];     /* what ran: "cublasLt", "own-tiled", "blas", "sse2-nt x2", ... */
    int m, n, k;       /* gemm shape (C is m x n, inner k); 0 for bandwidth */
    uint64_t bytes;    /* bandwidth: bytes per array touched by one run; 0 for gemm */
    double size;       /* the fit's x: FLOP per run (gemm) or bytes moved per run */
    double median;     /* TFLOP/s (gemm) or GB/s (bandwidth) */
    double p10, p90;   /* same unit: 10th and 90th percentile of the per-run rates */
    double cv;         /* coefficient of variation of the run times, fraction */
    int repetitions;   /* timed runs */
    int warmups;       /* warm-up runs before them */
    double max_error;  /* verification: worst error relative to its bound (<= 1 passed) */
    double residual;   /* efficiency minus the fitted curve at this size; 0 when not fitted */
};

/*
 * A fitted curve eff(s) = eff_max * s / (s + s_half). When `peak` > 0, efficiencies are
 * fractions of that datasheet peak; when the device has no catalog entry (CPUs, unknown GPUs),
 * peak is 0 and eff_max is an absolute rate in the points' unit.
 */
struct gp_calibration_fit {
    char kernel[12];   /* "gemm" or "bandwidth" */
    char precision[8]; /* gemm precision; "" for bandwidth */
    double eff_max;    /* asymptotic efficiency (fraction of peak, or absolute: see above) */
    double s_half;     /* size at half of eff_max: FLOP (gemm) or bytes (bandwidth) */
    double eff_max_se; /* standard errors of the two parameters, same units */
    double s_half_se;
    double rmse; /* root mean square residual, efficiency units */
    double r2;   /* coefficient of determination */
    double peak; /* datasheet peak the efficiencies refer to: TFLOP/s or GB/s; 0 = none */
    int points;  /* points the fit used */
};

/* One run on one device, with everything needed to judge and reproduce it. */
struct gp_calibration {
    char fingerprint[GP_CALIBRATION_FINGERPRINT_MAX]; /* identifies the run across machines */
    char gpu_id[16];       /* canonical GPU id the device maps to, "" if none */
    char backend[32];      /* cpu, opencl, cuda, hip */
    char device_name[128]; /* as the driver reports it */
    char host[256];        /* host name of the machine that ran it */
    int64_t started_at;    /* Unix seconds UTC */
    char *conditions;      /* owned JSON object text: memory, driver, runtime, library,
                              clocks, power limit, ECC, statistic */
    struct gp_calibration_point *points; /* owned, `point_count` entries */
    size_t point_count;
    struct gp_calibration_fit *fits; /* owned, `fit_count` entries */
    size_t fit_count;
};

/* One fitted curve as the planner uses it: efficiency = eff_max * s / (s + s_half), a fraction
 * of the catalog peak for `precision` (gemm) or of the HBM bandwidth (bandwidth). */
struct gp_calibration_curve {
    char gpu_id[16];    /* canonical GPU id */
    char kernel[12];    /* "gemm" or "bandwidth" */
    char precision[8];  /* fp32 tf32 bf16 fp16 fp8 (gemm); "" for bandwidth */
    double eff_max;     /* fraction of the datasheet peak, asymptotic */
    double s_half;      /* size at half of eff_max: FLOP per GEMM or bytes per kernel */
    double peak;        /* the datasheet peak it refers to: TFLOP/s (gemm) or GB/s */
    double r2;          /* goodness of fit */
    int points;         /* measured points behind the fit */
    char host[256];     /* the machine that measured it */
    int device;         /* the backend's device index on that machine (0 when not recorded) */
    int64_t started_at; /* when, Unix seconds UTC */
    char fingerprint[GP_CALIBRATION_FINGERPRINT_MAX];
};

/* Free what a record holds (not the struct itself). Accepts NULL. Defined in
 * store/calibration_record.c. */
void gp_calibration_release(struct gp_calibration *cal);

#endif
