/* Calibration runs in the store: writing runs with their points and fits, reading them back for
 * export, and the fitted curves the planner uses for a GPU id. */
#ifndef GP_STORE_CALIBRATIONS_H
#define GP_STORE_CALIBRATIONS_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/calibration.h"
#include "store/store.h"

/*
 * Write `count` runs in one transaction. A run whose fingerprint is already stored is skipped
 * (counted in *skipped); a fingerprint repeated within `runs` is stored once. When `inserted`
 * is not NULL it receives, per run, 1 if it was written and 0 if it was skipped. On any error
 * nothing is written and GP_EDB (or GP_EINVALID for a run without a fingerprint) is returned.
 * added/skipped may be NULL.
 */
int gp_store_calibrations_insert(struct gp_store *store, const struct gp_calibration *runs,
                                 size_t count, int *inserted, size_t *added, size_t *skipped);

/* Every stored run with its points and fits, oldest first. *out is owned by the caller:
 * gp_calibrations_free(*out, *count). *count may be 0. */
int gp_store_calibrations_list(struct gp_store *store, struct gp_calibration **out, size_t *count);

/* Release each record and the array. Accepts NULL. */
void gp_calibrations_free(struct gp_calibration *runs, size_t count);

/*
 * Every fitted curve measured on devices that map to `gpu_id` (NULL: to any catalog GPU),
 * oldest run first (runs started
 * at the same second in the order they were stored); which of them a plan uses is the
 * planner's choice (gp_plan_calibration_choose). Only curves relative to a datasheet peak are
 * returned. *out is malloc'd (free()); *count is 0 when the GPU was never calibrated. Returns 0
 * or GP_EDB.
 */
int gp_store_calibration_fits_for_gpu(struct gp_store *store, const char *gpu_id,
                                      struct gp_calibration_curve **out, size_t *count);

#endif
