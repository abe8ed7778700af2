/* Running a calibration on one device: the plan of kernels and sizes, timing statistics, checks
 * against the datasheet, and the fitted efficiency curves, as one calibration record. */
#ifndef GP_CALIBRATE_CALIBRATE_H
#define GP_CALIBRATE_CALIBRATE_H

#include <stdint.h>

#include "calibrate/registry.h"
#include "gpuplan/calibration.h"
#include "gpuplan/gpu.h"

/* Called before each benchmark: `fraction` of the plan done (0..1), `what` describes the next
 * step ("gemm bf16 4096x4096x4096"). */
typedef void (*gp_calibrate_progress_fn)(void *payload, double fraction, const char *what);

struct gp_calibrate_options {
    int quick;                         /* short plan, budget GP_CALIBRATE_QUICK_S per device */
    uint64_t seed;                     /* input generator seed; 0 picks one from the clock */
    gp_calibrate_progress_fn progress; /* may be NULL */
    void *payload;
};

/* Time budgets per device, s. The budget sets how often each step repeats and which optional
 * sizes a full plan adds; the required steps (calibrate/schedule.h) run even past it. */
#define GP_CALIBRATE_QUICK_S 10.0 /* --quick */
#define GP_CALIBRATE_FULL_S  60.0 /* a full run */
/* Clock-settling warm-up of the run's first vendor-library square on a GPU, s. */
#define GP_CALIBRATE_SETTLE_QUICK_S 1.0
#define GP_CALIBRATE_SETTLE_S       3.0

/* The steps of one device's run that failed (the kernel failed, did not verify, or claimed more
 * than the datasheet peak). */
#define GP_CALIBRATE_FAILED_MAX 32 /* messages kept; further failures are only counted */
struct gp_calibrate_failed {
    int count;                                /* steps that failed */
    int first_code;                           /* GP_E* code of the first failure; 0 when none */
    char steps[GP_CALIBRATE_FAILED_MAX][320]; /* "gemm bf16 8192x8192x8192 on cuda: ...", in
                                                 the order they failed */
};

/*
 * Calibrate device `device` of the loaded backend `backend`: bandwidth kernels over arrays of at
 * least 4x the last-level cache, a triad size sweep, GEMM for every precision the device runs
 * (square and LLM-decode shapes), each warmed up, repeated and verified; then fit the curves.
 * `catalog` supplies the datasheet peaks for devices that map to a GPU id. A step that fails
 * (the backend's error, a result that does not verify, a rate above 100% of the peak) is
 * listed in *failed and in the record's conditions ("failed_steps"), and the plan goes on. On
 * success *out is a record of the steps that ran, with a fingerprint, owned by the caller
 * (gp_calibration_release); check failed->count. Errors, with *out empty: the first step's
 * error when every step that ran failed (GP_ERROR, GP_EINVALID for a rate above peak,
 * GP_ENOMEM), GP_ERROR when the backend supports none of the plan, GP_ENOMEM.
 */
int gp_calibrate_device(struct gp_calibration *out, struct gp_calibrate_failed *failed,
                        const struct gp_backend_candidate *backend, int device,
                        const struct gp_catalog *catalog,
                        const struct gp_calibrate_options *options);

/*
 * The measurement alone, as gp_calibrate_device makes it but without the curves: `gpu` (may be
 * NULL) gives the datasheet peaks a rate may not exceed. Needs neither the catalog nor GSL, so
 * the fallback driver (calibrate/fallback_main.c) runs it too. Same results and errors.
 */
int gp_calibrate_measure(struct gp_calibration *out, struct gp_calibrate_failed *failed,
                         const struct gp_backend_candidate *backend, int device,
                         const struct gp_gpu *gpu, const struct gp_calibrate_options *options);

/* The most steps a plan has. */
#define GP_CALIBRATE_STEPS_MAX 160

/*
 * The steps gp_calibrate_measure plans for a device described by `info` (quick or full), in the
 * order it runs them (the required ones, then the optional ones, which the time budget may leave
 * out), into out[cap]: kind, sizes, precision, implementation and rotation; the repetition and
 * budget fields are 0 (the runner sets them per step from the time left). Lets a caller size
 * what a device's run needs, e.g. its largest step's operands. Returns the number of steps (at
 * most cap and GP_CALIBRATE_STEPS_MAX) or GP_ENOMEM.
 */
int gp_calibrate_plan_steps(struct gp_bench_params *out, int cap, const struct gp_device_info *info,
                            int quick);

/* Names of the backend precisions and the catalog precision of each (calibrate/runner.c). */
extern const char *const gp_calibrate__precision_names[GP_BENCH_PRECISION_COUNT];
extern const enum gp_precision gp_calibrate__catalog_precision[GP_BENCH_PRECISION_COUNT];

/* Refit the curves of `cal` from its points (used after import and by the run itself), replacing
 * its fits and the points' residuals. `peaks` gives the datasheet peak per precision and for
 * bandwidth (GB/s), or NULL when the device has no catalog entry. */
int gp_calibrate_fit_all(struct gp_calibration *cal, const struct gp_gpu *peaks);

/* Fit the curves of every run that has points but no curves (the fallback driver exports none),
 * with the datasheet of its gpu_id from `catalog`. 0 or GP_ENOMEM. */
int gp_calibrate_fit_missing(struct gp_calibration *runs, size_t count,
                             const struct gp_catalog *catalog);

/* Compute and set cal->fingerprint from the run's identity and its measured values. */
void gp_calibrate_fingerprint(struct gp_calibration *cal);

#endif
