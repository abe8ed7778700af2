/* The price offer type: one provider's price for one GPU type, as every feed, the snapshot,
 * quotes, the store and the planner exchange it. */
#ifndef GPUPLAN_OFFER_H
#define GPUPLAN_OFFER_H

#include <stdint.h>

#include "gpuplan/gpu.h"

enum gp_tier { GP_TIER_ON_DEMAND, GP_TIER_SPOT, GP_TIER_RESERVED, GP_TIER_QUOTE, GP_TIER_COUNT };

/* Whether a quoted amount is per GPU-hour or per instance-hour (all GPUs of the instance). */
enum gp_price_unit { GP_UNIT_GPU_HOUR, GP_UNIT_INSTANCE_HOUR };

/*
 * One price as observed. The original amount, currency and unit are kept beside the
 * normalised figure so nothing is lost; usd_per_gpu_hour is derived from them.
 */
struct gp_offer {
    char feed[32];              /* which feed produced it: "snapshot", "azure", "quote", ... */
    char provider[32];          /* "runpod", "lambda", "azure", ... */
    char region[48];            /* provider's region code, "" when not known */
    char instance_type[96];     /* provider's SKU verbatim, "" when priced per GPU */
    char gpu_id[GP_GPU_ID_MAX]; /* canonical GPU id */
    int gpus_per_instance;      /* GPUs the amount covers when unit is per instance; else 1 */
    enum gp_tier tier;
    double amount;    /* original price, in `currency` per `unit` */
    char currency[4]; /* ISO 4217 code of `amount` */
    enum gp_price_unit unit;
    double usd_per_gpu_hour; /* normalised price, USD per GPU-hour */
    int64_t observed_at;     /* when the price was seen, Unix seconds UTC */
    char source_url[256];    /* where it was seen */
};

const char *gp_tier_name(enum gp_tier t);
/* "on-demand" -> GP_TIER_ON_DEMAND; -1 for an unknown name. */
int gp_tier_parse(const char *name);
const char *gp_price_unit_name(enum gp_price_unit u);
int gp_price_unit_parse(const char *name);

#endif
