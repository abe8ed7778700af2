/* Serving calibrations in the store: writing imported runs, and reading the factors a plan of
 * one GPU type applies. */
#ifndef GP_STORE_SERVING_H
#define GP_STORE_SERVING_H

#include <stddef.h>

#include "gpuplan/serving.h"
#include "store/store.h"

/*
 * Write `count` records in one transaction. A record whose fingerprint is stored is skipped;
 * `inserted` (NULL, or `count` entries) says which were written. On any error nothing is
 * written: GP_EDB, or GP_EINVALID for a record without a fingerprint. added/skipped may be NULL.
 */
int gp_store_serving_insert(struct gp_store *store, const struct gp_serving_record *recs,
                            size_t count, int *inserted, size_t *added, size_t *skipped);

/* Every stored record, oldest import first. *out is malloc'd (free()), NULL when there are
 * none. Returns 0, GP_EDB or GP_ENOMEM. */
int gp_store_serving_list(struct gp_store *store, struct gp_serving_record **out, size_t *count);

#endif
