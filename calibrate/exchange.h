/* Calibration exchange files: exporting runs as JSON and reading them back for import, so a
 * fleet can be calibrated node by node and merged in one database. */
#ifndef GP_CALIBRATE_EXCHANGE_H
#define GP_CALIBRATE_EXCHANGE_H

#include <stddef.h>

#include "gpuplan/calibration.h"
#include "gpuplan/gpu.h"

#define GP_EXCHANGE_FORMAT "gpuplan-calibration"
/* Schema 2 adds "exported_by" (the gpuplan that wrote the file); schema 1 files are read as
 * schema 2 with exported_by "". Files of a newer schema are refused. */
#define GP_EXCHANGE_VERSION   2
#define GP_EXCHANGE_MAX_BYTES ((size_t)64 << 20) /* largest file import reads */

/* The runs as an exchange document (pretty-printed JSON). *out is malloc'd (free()). Returns 0
 * or GP_ENOMEM. */
int gp_exchange_format(char **out, const struct gp_calibration *runs, size_t count);

/* Write the document to `path` (replacing it). GP_ERROR naming the path when it cannot. */
int gp_exchange_write(const char *path, const struct gp_calibration *runs, size_t count);

/*
 * Parse an exchange document of schema 1 to GP_EXCHANGE_VERSION; a newer schema fails with
 * GP_EINVALID saying a newer gpuplan wrote it. Every field is checked: unknown keys, wrong types,
 * kernels and precisions, negative or non-finite numbers and GPU ids absent from `catalog` (when
 * not NULL) fail with GP_EINVALID and a message "FILE:LINE:COL: json.path: problem". On success
 * *out is owned by the caller (gp_calibrations_free from store/calibrations.h, or release each
 * record and free the array).
 */
int gp_exchange_parse(struct gp_calibration **out, size_t *count, const char *text, size_t len,
                      const char *file, const struct gp_catalog *catalog);

/* Read `path` (at most GP_EXCHANGE_MAX_BYTES) and parse it. */
int gp_exchange_read(struct gp_calibration **out, size_t *count, const char *path,
                     const struct gp_catalog *catalog);

#endif
