/* Normalisation shared by every price source: provider GPU spellings to canonical ids, and
 * original amounts to USD per GPU-hour with sanity checks. */
#ifndef GP_PRICING_NORMALIZE_H
#define GP_PRICING_NORMALIZE_H

#include <stddef.h>

#include "catalog/fx.h"
#include "gpuplan/offer.h"

enum gp_name_match {
    GP_NAME_MAPPED = 0,       /* a GPU of the catalog */
    GP_NAME_OUT_OF_SCOPE = 1, /* a known accelerator gpuplan does not plan for (A100, GH200,
                                 H100 NVL, ...): skip it, do not count it as unmapped */
    GP_NAME_UNKNOWN = 2,      /* nothing recognisable: count and list it, never guess */
};

struct gp_gpu_name {
    char gpu_id[16]; /* canonical id when MAPPED; the out-of-scope model name otherwise */
    int gpu_count;   /* GPUs the name says the instance has; 0 when it does not say */
};

/*
 * Map a provider's spelling of a GPU or instance ("p5.48xlarge", "Standard_ND96isr_H100_v5",
 * "NVIDIA H100 80GB HBM3", "AMD Instinct MI300X OAM", "BM.GPU.MI355X.8", "gpu-mi325x8-2048gb")
 * to a canonical id. `provider` ("aws", "azure", ...; NULL for none) selects provider-specific
 * exact names before the generic rules. Never fails; the result says how sure it is.
 */
enum gp_name_match gp_normalize_gpu_name(struct gp_gpu_name *out, const char *provider,
                                         const char *name);

/* How far ahead of the clock an observed date may be, seconds: time zones and clock skew, no
 * more (an offer dated later would never go stale). */
#define GP_OBSERVED_AHEAD_MAX_S 86400

/* Upper and lower bounds of a believable price, USD per GPU-hour. */
#define GP_PRICE_MIN_USD 0.05
#define GP_PRICE_MAX_USD 200.0

/*
 * Fill offer->usd_per_gpu_hour from amount, currency, unit and gpus_per_instance, converting
 * with the rate in force at observed_at. Returns 0, or GP_EINVALID with a message saying why the
 * row makes no sense (zero, negative or non-finite amount, GPU count out of range, unknown
 * currency, a normalised price outside [GP_PRICE_MIN_USD, GP_PRICE_MAX_USD]).
 */
int gp_normalize_price(struct gp_offer *offer, const struct gp_fx_table *fx);

#endif
