/* Fleet sizing, power and cost: turns a performance prediction and a price into one plan row,
 * and ranks rows by cost per unit of work. Pure functions. */
#ifndef GP_PLANNER_FLEET_H
#define GP_PLANNER_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuplan/gpu.h"
#include "planner/efficiency.h"
#include "planner/model.h"
#include "planner/purchase.h" /* enum gp_purchase_role */
#include "planner/site.h"
#include "planner/workload.h"
#include "util/timeutil.h" /* GP_HOURS_PER_MONTH */

/*
 * Everything about the deployment that is not the workload. Money the user types (energy
 * price, capex, hosting) is in the report currency, `fx_per_usd` units of it per US dollar;
 * the planner converts to USD, in which all row figures are.
 */
struct gp_assumptions {
    double fx_per_usd;           /* report currency units per USD (1 for USD) */
    double pue;                  /* facility power / IT power */
    double kwh_price;            /* energy price, currency per kWh */
    double years;                /* amortisation period for owned GPUs, years */
    double capex;                /* purchase price per GPU, currency; 0 = catalog capex_usd */
    double server_overhead;      /* server and network cost as a multiple of GPU capex */
    double hosting_per_kw_month; /* owned: space and cooling, currency per facility kW-month */
    int max_gpus;                /* largest fleet considered; 0 = no limit */
    double power_budget_kw;      /* facility power available, kW; 0 = no limit */
    /* Power-first sizing: the largest fleet this facility power holds, servers at their rated
     * power, MW; 0 = size the fleet for the workload's target. Needs `site`. */
    double power_budget_mw;
    const struct gp_site_terms *site; /* borrowed: price owned fleets at this site; NULL none */
};

/* The facility power a plan must stay within, kW: the cap (power_budget_kw), or the budget a
 * power-first plan fills (power_budget_mw); 0 when neither is set. */
double gp_assumptions_power_limit_kw(const struct gp_assumptions *a);

/* Fills the documented defaults: USD, PUE 1.3, 0.083 USD/kWh, 3 years, server overhead 1.6,
 * no hosting charge, no limits. */
void gp_assumptions_init(struct gp_assumptions *a);

/* The price chosen for one GPU type. */
struct gp_price {
    bool known;              /* false: no offer, quote or capex (no-public-price) */
    bool owned;              /* price comes from capex: computed per row from power too */
    bool stale;              /* older than the allowed age */
    double usd_per_gpu_hour; /* rented price, USD per GPU-hour; unused when owned */
    char tier[16];           /* "on-demand", "spot", "reserved", "quote", "owned" */
    char source[64];         /* provider, "quote:<id>" or "capex" */
    char date[11];           /* YYYY-MM-DD the price was observed, "" for owned */
    int64_t observed_at;     /* when the price was observed, Unix seconds UTC; 0 for owned */
};

#define GP_PLAN_MAX_ALTERNATIVES 3

/* A runner-up purchasable fleet for a row. */
struct gp_plan_alternative {
    char provider[32];
    char instance_type[96];
    int instances;         /* whole instances */
    int gpus;              /* GPUs bought */
    double cost_per_hour;  /* USD/h (the report currency after conversion) */
    double cost_per_month; /* USD per GP_HOURS_PER_MONTH (likewise) */
};

#define GP_PLAN_MAX_LINES 4

/* Which of the request's inputs a purchase line was bought from. */
enum gp_plan_origin {
    GP_PLAN_FROM_OFFER, /* req->offers[input] */
    GP_PLAN_FROM_QUOTE  /* req->quotes[input] */
};

/* One line of a row's purchase: whole instances of one offer or quote, as typed figures. The
 * offer's names (provider, instance type, region) are read from the input it indexes; nothing
 * downstream works a purchase out again. Money in USD, then the report currency. */
struct gp_plan_line {
    double price_per_instance_hour; /* the offer's price of one instance */
    double cost_per_hour;           /* the line's share of the fleet's cost, horizon and duty in */
    double upfront;                 /* paid at the start of its term */
    uint32_t input;                 /* index into the request's offers or quotes */
    int term_months;                /* commitment the line is bought for, months; 0 = none */
    int instances;                  /* whole instances bought */
    int gpus;                       /* GPUs they hold */
    int gpus_per_instance;          /* GPUs of one instance as bought */
    /* The small enums in a byte each: a row holds GP_PLAN_MAX_LINES of these, and rows are
     * copied by the million. */
    uint8_t origin;    /* enum gp_plan_origin */
    uint8_t role;      /* enum gp_purchase_role: the whole fleet, or a blended part */
    uint8_t tier;      /* enum gp_tier */
    bool term_unknown; /* a contract whose term is not published */
};

/* A multi-node fleet bought as one cluster: nodes of one offer on a scale-out fabric. */
struct gp_plan_cluster {
    int nodes;          /* nodes in the cluster; 0 = the fleet is not a cluster */
    int gpus_per_node;  /* GPUs of one node */
    double fabric_gbps; /* scale-out bandwidth of one node, Gb/s; 0 = not published */
    char fabric[32];    /* what the fabric is: "InfiniBand", "EFA", "RDMA cluster network" */
};

/* What a row planned at a site (--site) adds; all zero otherwise. Money in USD, then the
 * report currency. */
struct gp_plan_site_figures {
    bool set;                         /* the row was planned at a site */
    uint8_t cooling;                  /* enum gp_cooling the servers need */
    int servers_per_rack;             /* at the site's rack limit; 0: one server exceeds it */
    int racks;                        /* racks the fleet's servers fill */
    int users;                        /* inference: sequences served at once, replicas x batch */
    double pue;                       /* the site's, for that cooling */
    double floor_m2;                  /* white space of the racks, m2 */
    double energy_price_kwh;          /* all-in at the mean spot price, USD per kWh */
    double energy_cost_p90_per_month; /* facility energy at the 90th-percentile price */
    double heat_credit_per_month;     /* heat sold, USD per month (subtracted from the cost) */
    double colocation_per_month;      /* colocation on the IT kW, USD per month */
};

/* What an owned row (--pricing owned) adds: the same fleet rented at the cheapest, and what
 * owning and renting it cost over the horizon. Money in USD, then the report currency; all
 * zero for rented rows and when the fleet cannot be rented. */
struct gp_plan_rent_own {
    bool set;               /* owned, and the same fleet could be rented */
    int months;             /* the horizon compared: --horizon-months, else the amortisation */
    char rented_from[32];   /* provider of the rented fleet ("mixed" for several) */
    double rent_per_month;  /* the same fleet rented, per month */
    double own_total;       /* capital, then energy and hosting less heat sold, over `months` */
    double rent_total;      /* rent over `months` */
    double break_even_low;  /* months until owning beats renting at the capex estimate's low;
                               -1 never */
    double break_even_high; /* the same at its high (equal to break_even_months without a range) */
};

/* One row of `gpuplan plan`. Money in USD as gp_plan_evaluate leaves it; gp_plan_run converts
 * it into the report currency. A *_known
 * flag that is false means the corresponding figures are absent (printed empty / null). */
struct gp_plan_row {
    char gpu[GP_GPU_ID_MAX]; /* catalog id */
    enum gp_vendor vendor;
    enum gp_workload_kind kind;  /* decides which columns apply */
    enum gp_precision precision; /* precision used, after any fallback */
    int tp;                /* tensor-parallel degree, GPUs per replica (training: per stage) */
    int ep;                /* inference: GPUs the experts are spread over (dep, tep), 1 = none */
    enum gp_layout layout; /* inference: how a replica splits the model */
    int replica_gpus;      /* inference: GPUs per replica */
    int replicas;          /* model replicas (training: data-parallel width) */
    int gpus;              /* GPUs in the fleet; 0 when nothing could be sized */
    int nodes;             /* nodes of gpus_per_node GPUs */
    int batch;             /* sequences per decode step (training: per micro-batch) */
    double tokens_per_s;   /* fleet output tokens/s (training: training tokens/s) */
    double tokens_per_s_per_gpu; /* the same per GPU */
    double ttft_ms;              /* modelled time to first token, ms */
    double tpot_ms;              /* modelled time per output token, ms */
    enum gp_bound bound;         /* what limits the chosen configuration */
    double it_kw;                /* GPUs at the modelled load + node overhead, kW */
    double facility_kw;          /* it_kw * PUE, kW */
    bool price_known;            /* false: the cost figures are absent (no-public-price) */
    double price_per_gpu_hour;   /* USD per GPU-hour (owned: amortised capex + energy + hosting) */
    char price_tier[16];         /* as struct gp_price */
    char price_source[64];
    char price_date[11];
    double cost_per_hour;         /* fleet, USD/h */
    double cost_per_month;        /* fleet, USD per GP_HOURS_PER_MONTH */
    double cost_per_mtok;         /* USD per million output (training: trained) tokens */
    double energy_kwh_per_month;  /* facility energy over GP_HOURS_PER_MONTH, kWh */
    double energy_cost_per_month; /* facility energy at kwh_price, USD per month */
    char efficiency_source[96];
    char stack[32];          /* software stack profile the row was planned with, "" none */
    double tokens_per_joule; /* output (training: trained) tokens per joule of IT energy */
    unsigned notes;          /* enum gp_note bits */
    double train_hours;      /* training */
    double gpu_hours;        /* training */
    double total_cost;       /* training, USD; generic: USD per job */
    double mfu;              /* training */
    double jobs_per_hour;    /* generic: fleet jobs/h */
    double throughput_low;   /* per-GPU work rate at the pessimistic efficiency */
    double throughput_high;  /* per-GPU work rate at the optimistic efficiency */
    double cost_low;         /* cost per unit of work at the optimistic efficiency, USD */
    double cost_high;        /* cost per unit of work at the pessimistic efficiency, USD */
    bool feasible;           /* fits, meets targets and limits */
    /* How the fleet is bought (gp_plan_buy): whole instances of real offers. */
    int gpus_needed;           /* the fewest GPUs the target needs; `gpus` is what is bought */
    int instances;             /* whole instances bought, all offers */
    char instance_type[96];    /* the instance type bought; "2 x a + 1 x b" for several */
    int gpus_per_instance;     /* GPUs in one instance of instance_type; 0 when mixed */
    char provider[32];         /* provider bought from ("mixed" for several) */
    char region[48];           /* the offer's region ("" when not known or several) */
    double headroom;           /* capacity / target - 1: bought beyond the need */
    char price_mix[96];        /* several lines: "baseline 4 x a + peak 3 x b + spot 5 x c" */
    double upfront;            /* paid at the start of committed terms, USD */
    int64_t price_observed_at; /* oldest observation of the prices used, Unix seconds UTC */
    int64_t price_newest_at;   /* newest observation of the prices used, Unix seconds UTC */
    double break_even_months;  /* owned: months until owning beats renting; -1 never; 0 n/a */
    double running_per_month;  /* owned: energy and hosting less heat sold, no capital, USD/mo */
    struct gp_plan_site_figures site; /* --site */
    bool owned;                       /* priced from capex (--pricing owned) */
    struct gp_plan_rent_own rent_own; /* owned: the same fleet rented, over the horizon */
    struct gp_plan_alternative alternatives[GP_PLAN_MAX_ALTERNATIVES]; /* next cheapest */
    size_t nalternatives;
    struct gp_plan_line lines[GP_PLAN_MAX_LINES]; /* what was bought, line by line */
    size_t nlines;                                /* lines kept (the first GP_PLAN_MAX_LINES) */
    size_t lines_total;                           /* lines the purchase had in all */
    struct gp_plan_cluster cluster;               /* training and multi-node replicas */
    int excluded_offers;                          /* offers --region/--jurisdiction ruled out */
    char excluded[192]; /* the first of them, "provider instance_type (region)", "; "-joined */
};

/* Why a row has no price, as its notes name it ("no-cluster-offer", "does-not-fit", ...), into
 * out[size]; "" for a priced row. Returns `out`. */
char *gp_plan_unpriced_reason(char *out, size_t size, const struct gp_plan_row *row);

/* The cluster as rows name it, "13 x 8-GPU nodes, 3200 Gb/s InfiniBand", into out[size]; ""
 * when the fleet is not one (nodes 0). Returns `out`. */
#define GP_PLAN_CLUSTER_TEXT_MAX 112
char *gp_plan_cluster_format(char *out, size_t size, const struct gp_plan_cluster *c);

/* Cost per unit of work of a priced row: USD per Mtok (inference), per run (training), per job
 * (generic). */
double gp_plan_unit_cost(const struct gp_plan_row *row);

/* Whether a row may be recommended: feasible, priced, and planned on evidence rather than a
 * vendor's claim (a claim is shown beside its measured base, never chosen). */
bool gp_plan_row_recommendable(const struct gp_plan_row *row);

/* GPUs a row's fleet is bought in units of: an inference replica (every GPU of its layout), a
 * training tensor-parallel group, one GPU for a generic job; at least 1. */
int gp_plan_row_group_gpus(const struct gp_plan_row *row);

/* Whether `row` is the runner-up to `best`: recommendable, and another GPU type (the same GPU
 * on another stack or tier is not an alternative to buy). */
bool gp_plan_row_runner_up_to(const struct gp_plan_row *row, const struct gp_plan_row *best);

/* What the best row saves against the runner-up per unit of work, as a fraction of the
 * runner-up's cost (0.29 = 29% less); 0 when the runner-up costs nothing. */
double gp_plan_saving(const struct gp_plan_row *best, const struct gp_plan_row *runner);

/*
 * Plan `w` on `gpu`: model it (central and uncertainty bounds), size the fleet for the target,
 * compute power, energy and cost with `price`. Never fails; what cannot be done is in
 * out->feasible and out->notes, and every number is finite.
 */
void gp_plan_evaluate(struct gp_plan_row *out, const struct gp_workload *w,
                      const struct gp_assumptions *a, const struct gp_gpu *gpu,
                      const struct gp_efficiency *eff, const struct gp_price *price);

/* Order rows: feasible and priced by cost per unit of work, then feasible unpriced by
 * throughput per GPU, then the rest; mark the first feasible priced row GP_NOTE_BEST. Stable
 * within `group` runs: rows are ranked inside consecutive blocks of `group` rows (one sweep
 * point each); group 0 ranks all rows together. O(n log n) comparisons, each row moved at most
 * once. Returns 0, or GP_ENOMEM (blocks over 64 rows need scratch; the rows are then as
 * they were). */
int gp_plan_rank(struct gp_plan_row *rows, size_t count, size_t group);

/* Where a row goes in the order gp_plan_rank sorts by (scratch for gp_plan_rank_in_place). */
struct gp_rank_key {
    int cls;      /* 0 feasible and priced, 1 feasible unpriced, 2 the rest */
    double value; /* priced: cost per unit of work; unpriced: minus the throughput per GPU */
    size_t index; /* the row's place before ranking: equal keys keep that order */
    size_t at;    /* where the row stands while it is ranked */
};

/*
 * One block of n rows ranked as gp_plan_rank ranks it, where row i's place before ranking is
 * order[i] (a permutation of 0..n-1) rather than i, and order[] then gives each ranked row's
 * place. Rows laid out in the order their last block ranked them mostly stay put: only rows
 * whose rank changed move, each once. The first is marked GP_NOTE_BEST when it is feasible and
 * priced. `keys` is scratch of 2 * n entries.
 */
void gp_plan_rank_in_place(struct gp_plan_row *rows, size_t *order, size_t n,
                           struct gp_rank_key *keys);

/* "stale-price,over-power-budget" (empty string for none) into out[size]; names that do not
 * fit whole are left out. */
void gp_notes_format(char *out, size_t size, unsigned notes);

#endif
