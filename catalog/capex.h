/* Purchase-price estimates per GPU type from data/capex.json, and the user's --capex choice
 * (one price for every GPU type, or a price per GPU id). */
#ifndef GP_CATALOG_CAPEX_H
#define GP_CATALOG_CAPEX_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/gpu.h"

/* A low / typical / high estimate, USD. */
struct gp_capex_range {
    double low, typical, high; /* USD, 0 < low <= typical <= high */
};

/* One GPU type's estimate as published. */
struct gp_capex_estimate {
    char gpu_id[GP_GPU_ID_MAX];
    struct gp_capex_range per_gpu;    /* USD per GPU (the accelerator alone) */
    struct gp_capex_range per_server; /* USD per server of `server_gpus` GPUs, all included */
    int server_gpus;                  /* GPUs in the server priced, >= 1 */
    int64_t date;                     /* when the estimate was reported, Unix seconds UTC */
    char source_url[256];             /* where it was reported */
};

struct gp_capex_table {
    struct gp_capex_estimate *estimates; /* owned; `count` entries */
    size_t count;
};

/* Load capex.json through gp_data_read / parse its text (`origin` names it in messages).
 * Returns 0 or GP_EINVALID naming file, path, line and column (or GP_ENOMEM). Release with
 * gp_capex_release. */
int gp_capex_load(struct gp_capex_table *out);
int gp_capex_parse(struct gp_capex_table *out, const char *text, size_t len, const char *origin);
void gp_capex_release(struct gp_capex_table *table);

/* The estimate for `gpu_id`, or NULL. Borrowed from the table. */
const struct gp_capex_estimate *gp_capex_find(const struct gp_capex_table *table,
                                              const char *gpu_id);

#define GP_CAPEX_MAX_PRICES 16

/* What --capex said: one price for every GPU type, or one per GPU id. */
struct gp_capex_choice {
    double all; /* price per GPU in the report currency for every type; 0 = none */
    struct {
        char gpu_id[GP_GPU_ID_MAX];
        double price; /* per GPU, report currency */
    } prices[GP_CAPEX_MAX_PRICES];
    size_t count;
};

/*
 * Parse "38000" or "b200=38000,mi355x=27000" (GPU ids are not checked here). Returns 0 or
 * GP_EINVALID with a message naming the part that is wrong (no price, not a number, not above
 * zero, a GPU id twice, more than GP_CAPEX_MAX_PRICES ids).
 */
int gp_capex_choice_parse(struct gp_capex_choice *out, const char *text);

/* The price per GPU the choice gives `gpu_id` (report currency), 0 when it gives none. */
double gp_capex_choice_price(const struct gp_capex_choice *choice, const char *gpu_id);

#endif
