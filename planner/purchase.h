/* The purchase: which offers a sized fleet of one GPU type is bought from, in how many whole
 * instances, on which tiers and terms, and what it costs. Pure functions over plain structs. */
#ifndef GP_PLANNER_PURCHASE_H
#define GP_PLANNER_PURCHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuplan/offer.h" /* enum gp_tier: one vocabulary of tiers, offers to purchase lines */

#define GP_PURCHASE_MAX_LINES        16 /* offers one fleet combines */
#define GP_PURCHASE_MAX_ALTERNATIVES 3  /* runner-up fleets kept beside the best */
#define GP_PURCHASE_MAX_EXCLUDED     8  /* offers named as unusable in the region */

/* One rentable unit as a provider sells it, in USD. */
struct gp_purchase_offer {
    char provider[32];      /* "runpod", "oci", "quote", ... */
    char region[48];        /* provider's region code, "" when not known */
    char jurisdiction[8];   /* "eu", "eea", "us", ...; "" when not known */
    char instance_type[96]; /* provider's SKU verbatim */
    char source[64];        /* what rows name as the price source: provider or "quote:<id>" */
    int gpus_per_instance;  /* GPUs one instance holds (the real rentable unit), >= 1 */
    bool cluster;           /* instances can be bought as one cluster on a scale-out fabric: a
                               TP group may span them, and a multi-node job may run on them */
    bool per_gpu;      /* rented by the GPU: an instance holds the GPUs asked for, up to a node, at
                          gpus x usd_per_instance_hour (which is then the price of one GPU) */
    enum gp_tier tier; /* how it is bought */
    double usd_per_instance_hour; /* price of one instance for one hour, USD */
    int min_term_months;          /* shortest commitment, months; 0 = none */
    double upfront_share;         /* share of the term's total paid at the start, [0, 1] */
    int64_t valid_until;          /* last instant the price holds, Unix seconds UTC; 0 = open */
    int64_t observed_at;          /* when the price was seen, Unix seconds UTC */
    int min_gpus;                 /* smallest order, GPUs; 0 = none */
    bool term_unknown; /* a contract whose term is not published: min_term_months is the least it
                          is taken to run (GP_TERM_UNKNOWN_MIN_MONTHS), paid over the horizon */
};

/* The sized fleet of one GPU type, in TP groups: the GPUs that must sit in one instance. */
struct gp_purchase_need {
    double groups;     /* TP groups (replicas) the target needs, fractional; > 0 */
    int group_gpus;    /* GPUs per TP group, >= 1 */
    int gpus_per_node; /* GPUs per node of this GPU type (counts nodes), >= 1 */
    bool one_cluster;  /* the groups work as one job (training): more than one instance must be
                          one cluster, of one offer (one provider, region and node shape) */
};

/* Which tiers a plan may buy from: the single-tier `--pricing` modes, and blended fleets. */
/* How a fleet is priced: the one vocabulary of `--pricing`, the plan request and the purchase.
 * A purchase is never asked for GP_PRICING_OWNED (owned fleets are priced from capex). */
enum gp_pricing {
    GP_PRICING_CHEAPEST,  /* lowest current on-demand, reserved or valid quote price */
    GP_PRICING_ON_DEMAND, /* lowest current on-demand offer */
    GP_PRICING_SPOT,      /* lowest current spot offer */
    GP_PRICING_QUOTE,     /* cheapest valid quote only */
    GP_PRICING_OWNED,     /* bought: amortised capex, energy and hosting */
    GP_PRICING_RESERVED,  /* reserved terms and capacity blocks that fit the horizon */
    GP_PRICING_COUNT
};

/* A demand profile for blended fleets, in TP groups like the need. */
struct gp_purchase_profile {
    double baseline_groups;    /* groups needed around the clock */
    double peak_groups;        /* groups needed at peak (>= baseline) */
    double peak_hours_per_day; /* hours a day at peak, (0, 24] */
    double spot_share;         /* share of the peak above baseline bought as spot, [0, 1] */
    double spot_factor;        /* spot over-provisioning for interruptions, >= 1; 0 = default */
};

struct gp_purchase_options {
    enum gp_pricing mode; /* which tiers; CHEAPEST takes any non-preemptible one */
    bool blended; /* CHEAPEST with a demand profile: baseline committed, peak on demand, a share
                     of it on spot (`profile`) */
    int horizon_months;         /* planning horizon, months; committed terms must fit; >= 1 */
    bool allow_mixed_providers; /* one fleet may combine offers of several providers */
    const char *region;         /* glob on the offer's region; NULL = any */
    const char *jurisdiction;   /* required jurisdiction ("eu"); NULL = any */
    int64_t now;                /* Unix seconds UTC: quotes past valid_until are not used */
    struct gp_purchase_profile profile; /* when `blended` */
};

/* Why a GPU type has no purchasable fleet (the plan row notes of the same names). */
enum gp_purchase_label {
    GP_PURCHASE_OK,
    GP_PURCHASE_NO_PUBLIC_PRICE,     /* no offer or quote at all */
    GP_PURCHASE_NO_SPOT_OFFER,       /* spot asked for, none published */
    GP_PURCHASE_NO_QUOTE,            /* quote asked for, none entered */
    GP_PURCHASE_NO_ON_DEMAND_OFFER,  /* on-demand asked for (or needed at peak), none published */
    GP_PURCHASE_NO_RESERVED_OFFER,   /* reserved asked for, none published */
    GP_PURCHASE_NO_OFFER_IN_REGION,  /* offers exist, none in the region or jurisdiction */
    GP_PURCHASE_NO_TERM_IN_HORIZON,  /* every usable offer commits longer than the horizon */
    GP_PURCHASE_NO_FITTING_INSTANCE, /* every instance is smaller than one TP group */
    GP_PURCHASE_NO_CLUSTER_OFFER     /* one job over several instances, none forms a cluster */
};

/* What a line of a fleet is for. */
enum gp_purchase_role {
    GP_PURCHASE_ROLE_ALL,      /* the whole fleet, around the clock */
    GP_PURCHASE_ROLE_BASELINE, /* blended: the baseline, around the clock */
    GP_PURCHASE_ROLE_PEAK,     /* blended: on demand for the peak hours */
    GP_PURCHASE_ROLE_SPOT      /* blended: spot for the peak hours, over-provisioned */
};

/* Whole instances of one offer. */
struct gp_purchase_line {
    size_t offer; /* index into the offers passed in */
    enum gp_purchase_role role;
    int instances;       /* whole instances bought */
    int gpus;            /* instances * gpus_per_instance */
    int groups;          /* TP groups they hold */
    int nodes;           /* nodes of gpus_per_node GPUs they fill */
    double duty;         /* share of the month's hours it is rented, (0, 1] */
    double usd_per_hour; /* instances * instance price * horizon factor * duty, USD/h */
    double upfront_usd;  /* paid at the start of the term, USD; 0 without one */
};

/* One purchasable fleet. */
struct gp_purchase_fleet {
    struct gp_purchase_line lines[GP_PURCHASE_MAX_LINES];
    size_t nlines;
    int instances;        /* whole instances, all lines */
    int gpus;             /* GPUs bought, all lines (the peak fleet when blended) */
    int nodes;            /* nodes of gpus_per_node GPUs they fill */
    int groups;           /* TP groups usable at once (spot lines counted net of the factor) */
    double usd_per_hour;  /* month average, USD/h: the lines' usd_per_hour summed */
    double usd_per_month; /* usd_per_hour * GP_HOURS_PER_MONTH */
    double upfront_usd;   /* the lines' upfront payments, USD */
    double headroom;      /* groups / groups needed - 1 (blended: against the peak) */
    bool mixed_providers; /* lines come from more than one provider */
    int64_t oldest;       /* oldest observed_at of the offers used, Unix seconds UTC */
    int64_t newest;       /* newest observed_at of the offers used, Unix seconds UTC */
};

struct gp_purchase_result {
    enum gp_purchase_label label; /* GP_PURCHASE_OK when `best` holds a fleet */
    struct gp_purchase_fleet best;
    struct gp_purchase_fleet alternatives[GP_PURCHASE_MAX_ALTERNATIVES]; /* cheapest first */
    size_t nalternatives;
    size_t excluded[GP_PURCHASE_MAX_EXCLUDED]; /* offers (indices) the region rules out */
    size_t nexcluded;                          /* how many listed in excluded[] */
    size_t excluded_total;                     /* how many the region ruled out in all */
};

/* Fill the defaults: cheapest mode, one-month horizon, one provider per fleet, no region. */
void gp_purchase_options_init(struct gp_purchase_options *o);

/*
 * Buy `need` from `offers[count]` (one GPU type's offers and quotes; borrowed) under
 * `options`: whole instances only, TP groups within one instance unless the offer is a
 * cluster, combinations of several instance sizes where cheaper, one provider per fleet unless
 * allowed, committed terms only within the horizon; a need of one cluster is bought as one
 * instance, or as instances of one cluster offer alone. Never fails; out->label says
 * why there is no fleet. The cheapest fleet is out->best, the next distinct ones
 * out->alternatives.
 */
void gp_purchase_buy(struct gp_purchase_result *out, const struct gp_purchase_offer *offers,
                     size_t count, const struct gp_purchase_need *need,
                     const struct gp_purchase_options *options);

/* Spot over-provisioning for `provider` where its interruption rate is published; else the
 * documented general default (docs/pricing.md). */
double gp_purchase_spot_factor(const char *provider);

/* The month in which owning a fleet (capex_usd paid at the start, then owned_usd_per_month for
 * energy and hosting) has cost as much as renting it at rent_usd_per_month: capex / (rent -
 * running cost), in months. -1 when renting costs no more than running an owned fleet, so
 * owning never catches up. */
double gp_purchase_break_even_months(double capex_usd, double owned_usd_per_month,
                                     double rent_usd_per_month);

const char *gp_purchase_role_name(enum gp_purchase_role role);

#endif
