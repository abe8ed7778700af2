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

/*
 * Calibrate device `device` of the loaded backend `backend`: bandwidth kernels over arrays of at
 * least 4x the last-level cache, a triad size sweep, GEMM for every precision the device runs
 * (square and LLM-decode shapes), each warmed up, repeated and verified; then fit the curves.
 * `catalog` supplies the datasheet peaks for devices that map to a GPU id; a rate above 100% of
 * that peak fails the run. On success *out is a complete record with a fingerprint, owned by
 * the caller (gp_calibration_release). Errors: GP_ERROR (a kernel failed or did not verify,
 * message names it), GP_EINVALID (rate above peak), GP_ENOMEM.
 */
int gp_calibrate_device(struct gp_calibration *out, const struct gp_backend_candidate *backend,
                        int device, const struct gp_catalog *catalog,
                        const struct gp_calibrate_options *options);

/* Refit the curves of `cal` from its points (used after import and by the run itself), replacing
 * its fits and the points' residuals. `peaks` gives the datasheet peak per precision and for
 * bandwidth (GB/s), or NULL when the device has no catalog entry. */
int gp_calibrate_fit_all(struct gp_calibration *cal, const struct gp_gpu *peaks);

/* Compute and set cal->fingerprint from the run's identity and its measured values. */
void gp_calibrate_fingerprint(struct gp_calibration *cal);

#endif
