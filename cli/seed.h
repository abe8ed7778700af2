/* Keeping the database's copy of the embedded data (catalog, snapshot prices, FX) current. */
#ifndef GP_CLI_SEED_H
#define GP_CLI_SEED_H

#include "gpuplan/gpu.h"
#include "store/store.h"

/* Seed the store when the data it was seeded from differs from the data in use now (embedded
 * or --data). Returns 0 or a GP_E* code with the error set. */
int gp_cli_seed(struct gp_store *store, const struct gp_catalog *catalog);

#endif
