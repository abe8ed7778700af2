/* Keeping the database's copy of the embedded data (catalog, snapshot prices, FX) current. */
#ifndef GP_CLI_SEED_H
#define GP_CLI_SEED_H

#include <stdbool.h>

#include "gpuplan/gpu.h"
#include "store/store.h"

/* Seed the store when the data it was seeded from differs from the data in use now (embedded
 * or --data). Returns 0 or a GP_E* code with the error set. */
int gp_cli_seed(struct gp_store *store, const struct gp_catalog *catalog);

/* *current = whether the store was seeded from the data in use now (nothing is written).
 * Returns 0 or a GP_E* code with the error set. */
int gp_cli_seed_current(struct gp_store *store, bool *current);

#endif
