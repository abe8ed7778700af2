/* The price offer type: one provider's price for one GPU type, as every feed, the snapshot,
 * quotes, the store and the planner exchange it. */
#ifndef GPUPLAN_OFFER_H
#define GPUPLAN_OFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "gpuplan/gpu.h"

/* How an offer is bought: by the hour, interruptible, committed for a term (reserved or a
 * contract), as a negotiated quote, or as a capacity block (a dated block of whole days). */
enum gp_tier {
    GP_TIER_ON_DEMAND,
    GP_TIER_SPOT,
    GP_TIER_RESERVED,
    GP_TIER_QUOTE,
    GP_TIER_CAPACITY_BLOCK,
    GP_TIER_COUNT
};

/* Whether a quoted amount is per GPU-hour or per instance-hour (all GPUs of the instance). */
enum gp_price_unit { GP_UNIT_GPU_HOUR, GP_UNIT_INSTANCE_HOUR };

/*
 * One price as observed, for one rentable unit. The original amount, currency and unit are kept
 * beside the normalised figures so nothing is lost; usd_per_gpu_hour and usd_per_instance_hour
 * are derived from them. gpus_per_instance is what one rental gets, whatever unit the provider
 * quotes in: OCI prices BM.GPU.H100.8 per GPU-hour, but rents it only as an 8-GPU machine.
 */
struct gp_offer {
    char feed[32];              /* which feed produced it: "snapshot", "azure", "quote", ... */
    char provider[32];          /* "runpod", "lambda", "azure", ... */
    char region[48];            /* provider's region code, "" when not known */
    char country[3];            /* ISO 3166-1 alpha-2 of the region, "" when not known */
    char jurisdiction[8];       /* legal area of the region ("eu", "eea", "us", ...), "" unknown */
    char instance_type[96];     /* provider's SKU verbatim, "" when priced per GPU */
    char gpu_id[GP_GPU_ID_MAX]; /* canonical GPU id */
    int gpus_per_instance;      /* GPUs in one rentable unit (instance, machine, quoted unit) */
    enum gp_tier tier;
    int term_months;              /* reserved: length of the commitment, months; else 0 */
    int term_days;                /* capacity-block: length of the block, days; else 0 */
    double upfront_share;         /* reserved: share (0..1) of the term's cost paid at the start */
    int64_t min_term_hours;       /* shortest rental the offer allows, hours; 0 = by the hour */
    int min_gpus;                 /* fewest GPUs the offer rents (a quote's minimum); 0 = none */
    double amount;                /* original price, in `currency` per `unit` */
    char currency[4];             /* ISO 4217 code of `amount` */
    enum gp_price_unit unit;      /* what `amount` is per */
    double usd_per_gpu_hour;      /* normalised price, USD per GPU-hour */
    double usd_per_instance_hour; /* normalised price of one rentable unit, USD per hour */
    int64_t observed_at;          /* when the price was seen, Unix seconds UTC */
    int64_t valid_until;  /* last instant the price holds, Unix seconds UTC; 0 = open-ended */
    char source_url[256]; /* where it was seen */
};

/* A quote: a price negotiated with a provider and entered by hand. Its offer says what it rents
 * (gpus_per_instance: the unit it is rented in), its minimum term and GPU count, and how long it
 * holds (offer.valid_until). */
struct gp_quote {
    int64_t id;            /* assigned by the store */
    struct gp_offer offer; /* feed "quote", tier GP_TIER_QUOTE; observed_at = when entered */
    char note[256];        /* free text */
};

const char *gp_tier_name(enum gp_tier t);
/* "on-demand" -> GP_TIER_ON_DEMAND; -1 for an unknown name. */
int gp_tier_parse(const char *name);
const char *gp_price_unit_name(enum gp_price_unit u);
int gp_price_unit_parse(const char *name);

/* Whether the offer is a contract whose term its seller does not publish: reserved, with no
 * term, block or minimum rental given (DigitalOcean's "-contracted" sizes). Such a contract is
 * taken to run at least GP_TERM_UNKNOWN_MIN_MONTHS; a plan says `term-unknown` where it uses
 * one, and listings say "unknown", never 0. */
#define GP_TERM_UNKNOWN_MIN_MONTHS 12
bool gp_offer_term_unknown(const struct gp_offer *o);

/* The commitment as listings show it, into out[size]: "12mo" (reserved), "7d" (a capacity
 * block), "unknown" (gp_offer_term_unknown), "" for none. Returns `out`. */
#define GP_OFFER_TERM_TEXT_MAX 16
char *gp_offer_term_text(const struct gp_offer *o, char *out, size_t size);

/* Order of the store's offer key: provider, region, instance type, GPU, tier, term. <0, 0, >0. */
int gp_offer_key_compare(const struct gp_offer *a, const struct gp_offer *b);

/*
 * Of two offers under one key, whether `a` is the one kept rather than `b`: the cheaper USD per
 * GPU-hour; between equal prices the newer observation, then a fixed order of every other
 * field. The order is total, so which one is kept never depends on the order they come in or on
 * a sort's stability (the feed's de-duplication and the store's write keep the same one).
 */
bool gp_offer_kept_over(const struct gp_offer *a, const struct gp_offer *b);

/*
 * Whether the offer's place matches: `region_glob` (a shell glob over the provider's region
 * code, NULL = any) and `jurisdiction` (NULL = any; "eea" also takes "eu" regions, since the EU
 * is part of the EEA). An offer whose region or jurisdiction is not known matches only when the
 * respective filter is NULL.
 */
bool gp_offer_in_place(const struct gp_offer *offer, const char *region_glob,
                       const char *jurisdiction);

#endif
