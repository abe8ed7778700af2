/* The planner's entry point: from plain data (a workload, GPU types, efficiencies, calibration
 * fits, offers, quotes, FX rates and assumptions) to ranked plan rows and the assumptions they
 * used. The plan and report commands and the benchmarks call it; it does no I/O. */
#ifndef GP_PLANNER_PLAN_H
#define GP_PLANNER_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "catalog/capex.h"
#include "catalog/fx.h"
#include "gpuplan/calibration.h"
#include "gpuplan/gpu.h"
#include "gpuplan/offer.h"
#include "gpuplan/serving.h"
#include "planner/buy.h"
#include "planner/efficiency.h"
#include "planner/fleet.h"
#include "planner/stack.h"
#include "planner/sweep.h"

/* How a GPU type is priced. */

/* "cheapest", "on-demand", ... Static storage. */
const char *gp_pricing_name(enum gp_pricing p);
/* The mode named `name`, or -1. */
int gp_pricing_parse(const char *name);

#define GP_PLAN_DEFAULT_MAX_AGE_DAYS 7
/* Most stack profiles one GPU type is compared across. */
#define GP_PLAN_MAX_STACKS 16

/*
 * Everything one plan is computed from. The caller owns every array; the planner only reads
 * them. Prices come in as the current offers and the quotes (any GPU types: the planner picks
 * each type's own); calibration fits likewise (gpu_id says whose).
 */
struct gp_plan_request {
    struct gp_plan_input base;        /* workload and assumptions after every flag and --set; money
                                         the user typed is in `currency` (gp_plan_request_init) */
    const struct gp_sweep *sweep;     /* NULL or no values: one point, the base */
    bool sweep_checked;               /* gp_plan_sweep_check passed for base and sweep: the
                                         planner need not check the values again */
    const struct gp_gpu *const *gpus; /* catalog entries to plan, `gpu_count` of them */
    size_t gpu_count;
    const struct gp_efficiency_table *efficiencies;
    const struct gp_calibration_curve *fits; /* `fit_count`, oldest run first */
    size_t fit_count;
    const struct gp_serving_record *serving; /* serving calibrations, `serving_count` */
    size_t serving_count;
    const struct gp_offer *offers; /* current offers, `offer_count` */
    size_t offer_count;
    const struct gp_quote *quotes; /* `quote_count` */
    size_t quote_count;
    const struct gp_cluster_table *clusters; /* which offers form clusters; NULL: none do */
    const struct gp_fx_table *fx;            /* exchange rates; NULL: USD only */
    char currency[4];                        /* report currency, ISO 4217 */
    enum gp_pricing pricing;
    long max_age_days;        /* offers older than this are stale, days */
    int64_t now;              /* Unix seconds UTC */
    int horizon_months;       /* planning horizon: committed terms must fit it; >= 1 */
    const char *region;       /* only offers in regions matching this glob; NULL = any */
    const char *jurisdiction; /* only offers in this jurisdiction ("eu", ...); NULL = any */
    const struct gp_capex_table *capex;         /* purchase-price estimates; NULL = none */
    const struct gp_capex_choice *capex_prices; /* --capex per GPU id; NULL = none */
    const struct gp_stack_table *stacks;        /* software stack profiles; NULL: none applied */
    const char *stack;   /* profile to plan with (GPUs it does not run on keep their vendor's
                            default); NULL: each vendor's default */
    bool compare_stacks; /* plan each GPU type with its default and `stack`, or with every
                            profile for its vendor when `stack` is NULL */
    const struct gp_bands *bands; /* measured error bands; NULL: kernel-level uncertainty */
};

/*
 * Set up a request: `currency` at the rate in force at `now` (gp_plan_rate_at), and the
 * planner's default assumptions converted into it, ready for flags and --set. Pricing
 * cheapest, max age GP_PLAN_DEFAULT_MAX_AGE_DAYS, no data. Returns 0, or GP_ENOTFOUND (no rate
 * for `currency`) or GP_EINVALID (a code that is not three letters) with the message set.
 */
int gp_plan_request_init(struct gp_plan_request *req, const struct gp_fx_table *fx,
                         const char *currency, int64_t now);

/*
 * Apply `key`=`value` (gp_plan_set) and check the workload as a whole (gp_workload_validate).
 * Returns 0 or GP_EINVALID with the message naming the key.
 */
int gp_plan_apply(struct gp_plan_input *in, const char *key, const char *value);

/* Check that every sweep value applies to `base`, so a bad one fails before any output.
 * Returns 0 or GP_EINVALID as gp_plan_apply. */
int gp_plan_sweep_check(const struct gp_plan_input *base, const struct gp_sweep *sweep);

/* What the plan used for one GPU type (and stack profile, when stacks are compared). */
struct gp_plan_gpu {
    const struct gp_gpu *gpu;    /* borrowed from the request */
    struct gp_efficiency eff;    /* defaults, the stack profile, then calibration */
    struct gp_price price;       /* owned: the capex price; rented rows are bought per row */
    bool no_capex;               /* owned pricing without a capex for this type */
    struct gp_buy_offers offers; /* owned: this type's offers and quotes, for the purchase */
    double capex_usd;            /* owned: purchase price per GPU used, USD; 0 = none */
    bool capex_estimate;         /* capex_usd is data/capex.json's typical estimate */
};

/* Why no row is feasible, for the message the command prints. */
enum gp_plan_infeasible {
    GP_PLAN_FEASIBLE,          /* some row is feasible */
    GP_PLAN_OVER_MAX_GPUS,     /* the target needs more than max_gpus (smallest says how many) */
    GP_PLAN_OVER_FLEET_LIMIT,  /* the target needs more than a billion GPUs */
    GP_PLAN_OVER_POWER_BUDGET, /* no fleet fits the power budget */
    GP_PLAN_RACK_POWER,        /* no selected GPU type's server fits the site's racks */
    GP_PLAN_LATENCY_UNMET,     /* no GPU type meets the TTFT/TPOT targets */
    GP_PLAN_DOES_NOT_FIT,      /* the workload fits no selected GPU type within one node */
};

/* The result of one plan. Release with gp_plan_result_release. */
struct gp_plan_result {
    struct gp_plan_row *rows; /* owned, `count`; sweep point-major: point * per_point + gpu;
                                 money in `currency` */
    size_t count;
    size_t per_point;          /* rows per sweep point: the GPU types (x stacks) planned */
    struct gp_plan_gpu *gpus;  /* owned, `per_point`: what each GPU type used */
    struct gp_plan_input used; /* the base workload and assumptions */
    char currency[4];          /* the rows' money, ISO 4217 */
    double fx_per_usd;         /* units of `currency` per USD at the request's `now` */
    enum gp_pricing pricing;
    long max_age_days;
    int horizon_months;       /* as requested */
    const char *region;       /* as requested (borrowed), NULL = any */
    const char *jurisdiction; /* as requested (borrowed), NULL = any */
    int64_t fx_date;          /* day the rate used came into force, Unix seconds UTC; 0 for USD */
    int64_t oldest_price;     /* oldest observation of a price a row uses, Unix seconds UTC; 0 */
    int64_t newest_price;     /* newest observation of a price a row uses, Unix seconds UTC; 0 */
    size_t planned;           /* rows planned over every point (gp_plan_run: `count`) */
    size_t stale;             /* rows planned on a stale price */
    int64_t oldest_stale;     /* oldest stale price observed, Unix seconds UTC; 0 */
    size_t best; /* index of the best row: of the point whose best row costs least per unit of
                    work, the first such point on a tie; SIZE_MAX when no row is best */
    const char *sweep_key; /* the swept key (borrowed from the request's sweep), NULL without */
    char best_value[GP_SWEEP_VALUE_MAX]; /* the swept value of the best row's point; "" without
                                            a sweep or a best row */
    size_t best_point;                   /* the sweep point of the best row (0 without a sweep) */
    size_t runner_up; /* the next row of the best row's sweep point that is a runner-up to it
                         (gp_plan_row_runner_up_to), or SIZE_MAX */
    enum gp_plan_infeasible infeasible; /* GP_PLAN_FEASIBLE when some row is feasible */
    const struct gp_plan_row *smallest; /* the smallest sized fleet, or NULL; &smallest_row */
    struct gp_plan_row smallest_row;    /* a copy of the smallest sized fleet's row */
};

/* Receives each sweep point's rows as soon as they are planned: ranked, marked and in the
 * report currency. */
struct gp_plan_sink {
    /* Point `point` (from 0) has rows[count], borrowed for the call only. Returns 0 to go on, or
     * an error code (message set) that stops the plan. */
    int (*put)(void *ctx, size_t point, const struct gp_plan_row *rows, size_t count);
    void *ctx; /* borrowed: the caller's */
};

/* A GPU type's efficiencies as `req` plans it with `stack` (NULL: none): the profile's factors,
 * calibrated curves where measured, and the measured bands with their engine spread, widened
 * for the age of the profile's evidence at req->now. Returns 0, or GP_ENOMEM. */
int gp_plan_efficiency(struct gp_efficiency *out, const struct gp_plan_request *req,
                       const struct gp_gpu *gpu, const struct gp_stack *stack);

/*
 * The stack profiles `gpu` is planned with for a workload of kind `kind` (at most `max`, into
 * out): none for generic jobs or without a table; else the request's profile where it runs on
 * the GPU's vendor and serves the kind, otherwise the vendor's default; with compare_stacks
 * the default first and then the request's profile, or every profile for the vendor.
 * Returns how many (an entry may be NULL: no profile applies).
 */
size_t gp_plan_stacks_for(const struct gp_stack **out, size_t max,
                          const struct gp_plan_request *req, const struct gp_gpu *gpu,
                          enum gp_workload_kind kind);

/*
 * Plan every GPU type of `req` at every sweep point: choose each type's stack profile,
 * calibration and price, evaluate, rank within each point, and convert the money into the report
 * currency. Every sweep value is checked before the first point is planned (unless
 * req->sweep_checked). Returns 0, GP_EINVALID (a sweep value that does not apply; message set) or
 * GP_ENOMEM. On failure *out holds nothing to release.
 */
int gp_plan_run(struct gp_plan_result *out, const struct gp_plan_request *req);
void gp_plan_result_release(struct gp_plan_result *res);

/*
 * gp_plan_run handing each point's rows to `sink` in point order instead of keeping them all:
 * one point's rows are in memory at a time. out->rows keeps the rows of the best row's point
 * (the last point's when no row is best), `count` = per_point, and best and runner_up index
 * them; every other figure of the result is as gp_plan_run's. Returns as gp_plan_run, or the
 * sink's error; the sink sees no point after it fails, and none at all for a bad sweep value.
 */
int gp_plan_stream(struct gp_plan_result *out, const struct gp_plan_request *req,
                   const struct gp_plan_sink *sink);

/*
 * Apply the calibrated curves of `gpu_id` among `fits` over `eff`: for each kernel and
 * precision the fleet median (gp_fleet_estimate) over each GPU's (host and device's) newest
 * usable run; curves outside eff_max (0, 1] or with a negative s_half are ignored. The measured
 * bands and the kernel-level uncertainty are widened by the fleet's spread: the lowest 10th and
 * highest 90th percentile over the median among the curves used. The source becomes
 * "calibrated:<host>:<date>" for one node, "calibrated:median of N nodes:<date>" for more,
 * dated by the newest run used. Leaves `eff` as it is when none applies. Returns 0, or
 * GP_ENOMEM.
 */
int gp_plan_calibration_choose(struct gp_efficiency *eff, const struct gp_calibration_curve *fits,
                               size_t count, const char *gpu_id);

/*
 * Units of `currency` per USD in force at `at`: the latest rate dated at or before it, else
 * the earliest known. "USD" is 1 without a table. Returns 0 or GP_ENOTFOUND (message set).
 */
int gp_plan_rate_at(const struct gp_fx_table *fx, const char *currency, int64_t at, double *out);

/*
 * Convert a row's money from USD into the report currency: the rented price and what follows
 * from it at `price_per_usd` (the rate in force when the price was observed), energy at
 * `energy_per_usd`. Owned rows are priced from assumptions already in the report currency, so
 * both rates are the current one for them.
 */
void gp_plan_row_convert(struct gp_plan_row *row, double price_per_usd, double energy_per_usd);

#endif
