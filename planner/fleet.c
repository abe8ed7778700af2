/* Fleet sizing, power, energy and cost for one GPU type, and the ranking of plan rows. */
#include "planner/fleet.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/fminmax.h"
#include "util/text.h"

#define HOURS_PER_YEAR 8760.0
/* Fleets are counted in int; beyond this no target is reachable anyway. */
#define MAX_FLEET 1e9

void gp_assumptions_init(struct gp_assumptions *a)
{
    memset(a, 0, sizeof(*a));
    a->fx_per_usd = 1.0;
    a->pue = 1.3;
    a->kwh_price = 0.083;
    a->years = 3.0;
    a->server_overhead = 1.6;
}

double gp_assumptions_power_limit_kw(const struct gp_assumptions *a)
{
    return a->power_budget_kw > 0 ? a->power_budget_kw : a->power_budget_mw * 1000.0;
}

/* One sizing of the fleet at one efficiency (central, low or high). */
struct sized {
    bool feasible;
    unsigned notes;
    int replicas, gpus, nodes;
    double tokens_per_s;  /* fleet output (inference) or training tokens/s */
    double per_gpu;       /* work per GPU: tokens/s, or jobs/h for generic jobs */
    double jobs_per_hour; /* generic: fleet */
    double it_kw, facility_kw;
    bool price_known;
    double price;         /* USD per GPU-hour */
    double running;       /* owned: energy and hosting (less heat sold), USD per hour */
    double cost_per_hour; /* USD */
    double unit_cost;     /* USD per Mtok / per run / per job */
};

/* Mark the sizing as over the fleet limit. */
static void over_max_gpus(struct sized *out)
{
    out->feasible = false;
    out->notes |= GP_NOTE_OVER_MAX_GPUS;
}

/* Power-first sizing: the whole units of `group` GPUs that the servers the facility power holds
 * carry; none (over the power budget) when not even one fits. */
static double units_by_power(struct sized *out, const struct gp_assumptions *a,
                             const struct gp_site_fit *fit, const struct gp_gpu *gpu, int group)
{
    double gpus =
        (double)gp_site_servers_within(fit, gp_assumptions_power_limit_kw(a)) * gpu->gpus_per_node;
    double units = floor(gpus / (group > 0 ? group : 1));

    if (units < 1) {
        out->feasible = false;
        out->notes |= GP_NOTE_OVER_POWER_BUDGET;
    }
    return units;
}

/* Inference: whole replicas for the demanded output rate (one for "max"; as many as the power
 * holds, all busy, when sized power-first). Returns the share of the fleet's capacity the
 * target uses. */
static double size_inference(struct sized *out, const struct gp_perf *perf,
                             const struct gp_inference *in, const struct gp_assumptions *a,
                             const struct gp_site_fit *fit, const struct gp_gpu *gpu)
{
    double demand = gp_inference_demand(in), replicas = 1.0, load = 1.0;
    int per = perf->replica_gpus; /* GPUs per replica */

    if (a->power_budget_mw > 0) {
        replicas = units_by_power(out, a, fit, gpu, per);
        demand = replicas * perf->replica_rate;
    } else if (in->load != GP_LOAD_MAX) {
        replicas = gp_fmax(1.0, gp_model_whole_units(demand / perf->replica_rate));
        load = demand / (replicas * perf->replica_rate);
    }
    if (replicas * per > MAX_FLEET) {
        replicas = floor(MAX_FLEET / per);
        over_max_gpus(out);
    }
    out->replicas = (int)replicas;
    out->gpus = out->replicas * per;
    out->tokens_per_s =
        in->load == GP_LOAD_MAX && a->power_budget_mw <= 0 ? perf->replica_rate : demand;
    out->per_gpu = perf->replica_rate / per;
    return load;
}

/* Training: the model chose the fleet; it runs flat out. */
static double size_training(struct sized *out, const struct gp_perf *perf)
{
    out->gpus = perf->gpus;
    out->replicas = perf->gpus / (perf->tp * perf->pp);
    out->tokens_per_s = perf->replica_rate;
    out->per_gpu = perf->replica_rate / perf->gpus;
    return 1.0;
}

/* Generic jobs: whole GPUs for the jobs per hour (one when no rate is given; as many as the
 * power holds, all busy, when sized power-first). */
static double size_generic(struct sized *out, const struct gp_perf *perf,
                           const struct gp_generic *g, const struct gp_assumptions *a,
                           const struct gp_site_fit *fit, const struct gp_gpu *gpu)
{
    double per_hour = perf->replica_rate * 3600.0, gpus = 1.0, load = 1.0;

    if (a->power_budget_mw > 0) {
        gpus = units_by_power(out, a, fit, gpu, 1);
        out->gpus = (int)gpus;
        out->replicas = out->gpus;
        out->per_gpu = per_hour;
        out->jobs_per_hour = gpus * per_hour;
        return 1.0;
    }
    if (g->jobs_per_hour > 0) {
        gpus = gp_fmax(1.0, gp_model_whole_units(g->jobs_per_hour / per_hour));
        if (gpus > MAX_FLEET) {
            gpus = MAX_FLEET;
            over_max_gpus(out);
        }
        load = g->jobs_per_hour / (gpus * per_hour);
    }
    out->gpus = (int)gpus;
    out->replicas = out->gpus;
    out->per_gpu = per_hour;
    out->jobs_per_hour = g->jobs_per_hour > 0 ? g->jobs_per_hour : per_hour;
    return load;
}

/* IT and facility power of the sized fleet at `load`, and the power budget. */
static void size_power(struct sized *out, const struct gp_perf *perf,
                       const struct gp_assumptions *a, const struct gp_gpu *gpu,
                       const struct gp_efficiency *eff, const struct gp_site_fit *fit, double load)
{
    /* Busy GPUs draw near the limit on compute-bound work and less on memory-bound work. */
    double draw = eff->memory_power + (eff->busy_power - eff->memory_power) * perf->compute_share;
    double gpu_w = gpu->tdp_w * (eff->idle_power + (draw - eff->idle_power) * load * perf->busy);
    /* Each GPU carries its share of its node's CPUs, NICs and fans, however few are rented. */
    double node_w = gpu->node_overhead_w / gpu->gpus_per_node;

    out->it_kw = out->gpus * (gpu_w + node_w) / 1000.0;
    out->facility_kw = out->it_kw * fit->pue;
    if (a->power_budget_kw > 0 && out->facility_kw > a->power_budget_kw) {
        out->feasible = false;
        out->notes |= GP_NOTE_OVER_POWER_BUDGET;
    }
}

/* An owned fleet's energy and hosting, USD per hour: at the assumptions' price and hosting, or
 * at the site's (its colocation in place of hosting when it publishes one, less heat sold). */
static double owned_running_per_hour(const struct sized *out, const struct gp_assumptions *a,
                                     const struct gp_site_fit *fit)
{
    double hosting =
        out->facility_kw * a->hosting_per_kw_month / a->fx_per_usd / GP_HOURS_PER_MONTH;

    if (!a->site)
        return out->facility_kw * a->kwh_price / a->fx_per_usd + hosting;
    return gp_site_running_per_hour(a->site, fit, out->it_kw) +
           (a->site->colocation_usd_kw_month > 0 ? 0.0 : hosting);
}

/* The price per GPU-hour (owned: amortised capex, energy and hosting), the fleet's cost per hour
 * and its cost per unit of work. */
static void size_cost(struct sized *out, const struct gp_perf *perf, const struct gp_workload *w,
                      const struct gp_assumptions *a, const struct gp_gpu *gpu,
                      const struct gp_site_fit *fit, const struct gp_price *price)
{
    if (price->owned) {
        double capex = a->capex > 0 ? a->capex / a->fx_per_usd : gpu->capex_usd;
        if (capex > 0 && out->gpus > 0) {
            out->running = owned_running_per_hour(out, a, fit);
            out->price =
                capex * a->server_overhead / (a->years * HOURS_PER_YEAR) + out->running / out->gpus;
            out->price_known = true;
        }
    } else if (price->known) {
        out->price = price->usd_per_gpu_hour;
        out->price_known = true;
    }
    if (!out->price_known) {
        out->notes |= GP_NOTE_NO_PUBLIC_PRICE;
        return;
    }
    if (price->stale)
        out->notes |= GP_NOTE_STALE_PRICE;
    out->cost_per_hour = out->price * out->gpus;
    if (w->kind == GP_WORKLOAD_INFERENCE)
        out->unit_cost = out->cost_per_hour / (out->tokens_per_s * 3600.0) * 1e6;
    else if (w->kind == GP_WORKLOAD_TRAINING)
        out->unit_cost = out->cost_per_hour * perf->train_hours;
    else
        out->unit_cost = out->cost_per_hour / out->jobs_per_hour;
}

/* Whether a prediction gets a fleet: a feasible one, or one over the fleet limit that still
 * has a rate (it is sized to show how far over). */
static bool sizable(const struct gp_perf *perf)
{
    return perf->feasible || ((perf->notes & GP_NOTE_OVER_MAX_GPUS) && perf->replica_rate > 0);
}

/* An owned fleet is bought as whole servers, a rack-scale system being one: the GPUs its last
 * server holds beyond what the work needs are paid for and powered, idle, so the same work is
 * spread over more GPUs. Returns the load over the GPUs bought. */
static double buy_whole_servers(struct sized *out, const struct gp_gpu *gpu, double load)
{
    int per = gpu->gpus_per_node > 0 ? gpu->gpus_per_node : 1;
    int bought = (out->gpus + per - 1) / per * per;

    if (out->gpus <= 0 || bought == out->gpus)
        return load;
    load *= (double)out->gpus / bought;
    out->gpus = bought;
    out->notes |= GP_NOTE_WHOLE_SERVERS;
    return load;
}

/* Size the fleet for the workload's kind, then its power, then its cost. */
static void size_fleet(struct sized *out, const struct gp_perf *perf, const struct gp_workload *w,
                       const struct gp_assumptions *a, const struct gp_gpu *gpu,
                       const struct gp_efficiency *eff, const struct gp_site_fit *fit,
                       const struct gp_price *price)
{
    double load; /* share of the fleet's capacity the target uses */

    memset(out, 0, sizeof(*out));
    out->notes = perf->notes;
    out->feasible = perf->feasible;
    if (!sizable(perf))
        return;
    if (w->kind == GP_WORKLOAD_INFERENCE)
        load = size_inference(out, perf, &w->inference, a, fit, gpu);
    else if (w->kind == GP_WORKLOAD_TRAINING)
        load = size_training(out, perf);
    else
        load = size_generic(out, perf, &w->generic, a, fit, gpu);
    if (price->owned)
        load = buy_whole_servers(out, gpu, load);
    if (a->max_gpus > 0 && out->gpus > a->max_gpus)
        over_max_gpus(out);
    out->nodes = (out->gpus + gpu->gpus_per_node - 1) / gpu->gpus_per_node;
    size_power(out, perf, a, gpu, eff, fit, load);
    size_cost(out, perf, w, a, gpu, fit, price);
}

int gp_plan_row_group_gpus(const struct gp_plan_row *row)
{
    int n = row->kind == GP_WORKLOAD_INFERENCE  ? row->replica_gpus
            : row->kind == GP_WORKLOAD_TRAINING ? row->tp
                                                : 1;
    return n >= 1 ? n : 1;
}

bool gp_plan_row_recommendable(const struct gp_plan_row *row)
{
    return row->feasible && row->price_known &&
           !(row->notes & (GP_NOTE_VENDOR_CLAIM | GP_NOTE_ANNOUNCED));
}

bool gp_plan_row_runner_up_to(const struct gp_plan_row *row, const struct gp_plan_row *best)
{
    return gp_plan_row_recommendable(row) && strcmp(row->gpu, best->gpu) != 0;
}

double gp_plan_unit_cost(const struct gp_plan_row *row)
{
    switch (row->kind) {
    case GP_WORKLOAD_INFERENCE:
        return row->cost_per_mtok;
    case GP_WORKLOAD_TRAINING:
        return row->total_cost;
    case GP_WORKLOAD_GENERIC:
        return row->total_cost;
    }
    return 0.0;
}

double gp_plan_saving(const struct gp_plan_row *best, const struct gp_plan_row *runner)
{
    double theirs = gp_plan_unit_cost(runner);

    return theirs > 0.0 ? 1.0 - gp_plan_unit_cost(best) / theirs : 0.0;
}

/* The central prediction with its throughput multiplied by `f`: the same layout, faster or
 * slower; a deadline-sized training fleet grows or shrinks instead. */
static void scaled(struct gp_perf *out, const struct gp_perf *perf, const struct gp_workload *w,
                   double f)
{
    *out = *perf;
    if (w->kind == GP_WORKLOAD_TRAINING && w->training.gpus == 0 && perf->gpus > 0) {
        double group = (double)perf->tp * perf->pp * (perf->cp > 0 ? perf->cp : 1);
        out->gpus = (int)gp_fmin(MAX_FLEET, gp_fmax(group, ceil(perf->gpus / f / group) * group));
        out->replica_rate = perf->replica_rate * out->gpus / perf->gpus * f;
        return;
    }
    out->replica_rate *= f;
    out->ttft_ms /= f;
    out->tpot_ms /= f;
    out->train_hours /= f;
}

/*
 * The pessimistic and optimistic predictions: the central one scaled by the measured error band
 * of its case class (data/bands.json), or, for a class without measurements, the model rerun
 * with every efficiency scaled by the GPU's kernel-level uncertainty, on the central layout.
 */
static void bounds(struct gp_perf *lo, struct gp_perf *hi, const struct gp_perf *perf,
                   const struct gp_workload *w, const struct gp_assumptions *a,
                   const struct gp_gpu *gpu, const struct gp_efficiency *eff)
{
    int per_replica = w->kind == GP_WORKLOAD_INFERENCE ? perf->replica_gpus
                                                       : perf->tp * (perf->pp > 1 ? perf->pp : 1);
    int cls = gp_band_class_of(w, perf->gpus > 0 ? perf->gpus : per_replica, gpu->gpus_per_node);

    if (cls >= 0 && eff->band[cls].cases > 0 && perf->feasible) {
        scaled(lo, perf, w, eff->band[cls].low);
        scaled(hi, perf, w, eff->band[cls].high);
        return;
    }
    const struct gp_workload *bounded = w;
    struct gp_workload fixed_tp;
    if (w->kind == GP_WORKLOAD_INFERENCE && perf->feasible) {
        fixed_tp = *w;
        fixed_tp.inference.layout = perf->layout;
        fixed_tp.inference.layout_gpus = perf->replica_gpus;
        bounded = &fixed_tp;
    } else if (w->kind == GP_WORKLOAD_TRAINING && perf->tp > 0) {
        fixed_tp = *w;
        fixed_tp.training.tensor_parallel = perf->tp;
        fixed_tp.training.pipeline_parallel = perf->pp;
        bounded = &fixed_tp;
    }
    gp_model_evaluate(lo, bounded, gpu, eff, eff->uncertainty_low, a->max_gpus);
    gp_model_evaluate(hi, bounded, gpu, eff, eff->uncertainty_high, a->max_gpus);
}

/* The figures a row planned at a site adds: cooling, racks and floor space, the energy price
 * and its p90, heat sold and colocation. A GPU type whose one server exceeds the site's rack
 * limit cannot be hosted there. */
static void site_figures(struct gp_plan_row *out, const struct gp_assumptions *a,
                         const struct gp_site_fit *fit)
{
    const struct gp_site_terms *t = a->site;
    struct gp_plan_site_figures *f = &out->site;

    if (!t)
        return;
    f->set = true;
    f->cooling = (uint8_t)fit->cooling;
    f->pue = fit->pue;
    f->servers_per_rack = fit->servers_per_rack;
    f->energy_price_kwh = t->energy_usd_kwh;
    if (fit->servers_per_rack == 0) {
        out->feasible = false;
        out->notes |= GP_NOTE_RACK_POWER_EXCEEDED;
    }
    if (out->gpus == 0)
        return;
    if (fit->servers_per_rack > 0)
        f->racks = (out->nodes + fit->servers_per_rack - 1) / fit->servers_per_rack;
    f->floor_m2 = f->racks * t->site->floor_m2_per_rack.value;
    f->energy_cost_p90_per_month = out->energy_kwh_per_month * t->energy_p90_usd_kwh;
    f->heat_credit_per_month = out->it_kw * GP_HOURS_PER_MONTH * t->heat_recovery * t->heat_usd_kwh;
    f->colocation_per_month = out->it_kw * t->colocation_usd_kw_month;
    if (out->kind == GP_WORKLOAD_INFERENCE)
        f->users = out->replicas * out->batch;
}

/* Copy a name between two char arrays of one size, whole: a few vector moves, where a copy up
 * to the NUL is a loop per byte (every evaluated row gets six names). */
#define COPY_NAME(dst, src)                                                                        \
    do {                                                                                           \
        _Static_assert(sizeof(dst) == sizeof(src), "names of one size");                           \
        memcpy(dst, src, sizeof(dst));                                                             \
        (dst)[sizeof(dst) - 1] = '\0';                                                             \
    } while (0)

void gp_plan_evaluate(struct gp_plan_row *out, const struct gp_workload *w,
                      const struct gp_assumptions *a, const struct gp_gpu *gpu,
                      const struct gp_efficiency *eff, const struct gp_price *price)
{
    struct gp_perf perf, lo_perf, hi_perf;
    struct sized s, lo, hi;
    struct gp_site_fit fit;

    memset(out, 0, sizeof(*out));
    COPY_NAME(out->gpu, gpu->id);
    out->vendor = gpu->vendor;
    out->kind = w->kind;
    COPY_NAME(out->efficiency_source, eff->source);
    COPY_NAME(out->stack, eff->stack);
    COPY_NAME(out->price_tier, price->tier);
    COPY_NAME(out->price_source, price->source);
    COPY_NAME(out->price_date, price->date);

    gp_model_evaluate(&perf, w, gpu, eff, 1.0, a->max_gpus);
    /* A row without a fleet shows no bounds: they are not modelled for it. */
    if (sizable(&perf))
        bounds(&lo_perf, &hi_perf, &perf, w, a, gpu, eff);
    else
        lo_perf = hi_perf = perf;
    gp_site_fit(&fit, a->site, gpu, a->pue);
    size_fleet(&s, &perf, w, a, gpu, eff, &fit, price);
    size_fleet(&lo, &lo_perf, w, a, gpu, eff, &fit, price);
    size_fleet(&hi, &hi_perf, w, a, gpu, eff, &fit, price);

    out->precision = perf.precision;
    out->notes = s.notes | (eff->vendor_claim ? GP_NOTE_VENDOR_CLAIM : 0u) |
                 (gpu->status == GP_STATUS_ANNOUNCED ? GP_NOTE_ANNOUNCED : 0u);
    out->feasible = s.feasible;
    out->tp = perf.tp;
    out->ep = perf.ep > 0 ? perf.ep : 1;
    out->layout = perf.layout;
    out->replica_gpus = perf.replica_gpus;
    out->batch = perf.batch;
    out->bound = perf.bound;
    out->ttft_ms = perf.ttft_ms;
    out->tpot_ms = perf.tpot_ms;
    out->mfu = perf.mfu;
    out->train_hours = perf.train_hours;
    out->replicas = s.replicas;
    out->gpus = s.gpus;
    out->nodes = s.nodes;
    out->tokens_per_s = s.tokens_per_s;
    out->tokens_per_s_per_gpu = w->kind == GP_WORKLOAD_GENERIC ? 0.0 : s.per_gpu;
    out->jobs_per_hour = s.jobs_per_hour;
    out->gpu_hours = perf.train_hours * s.gpus;
    out->it_kw = s.it_kw;
    out->facility_kw = s.facility_kw;
    if (s.it_kw > 0 && w->kind != GP_WORKLOAD_GENERIC)
        out->tokens_per_joule = s.tokens_per_s / (s.it_kw * 1000.0);
    out->energy_kwh_per_month = s.facility_kw * GP_HOURS_PER_MONTH;
    out->energy_cost_per_month = out->energy_kwh_per_month *
                                 (a->site ? a->site->energy_usd_kwh : a->kwh_price / a->fx_per_usd);
    site_figures(out, a, &fit);
    out->throughput_low = lo.per_gpu;
    out->throughput_high = hi.per_gpu;
    out->price_known = s.price_known;
    if (!s.price_known)
        return;
    out->price_per_gpu_hour = s.price;
    out->running_per_month = s.running * GP_HOURS_PER_MONTH;
    out->cost_per_hour = s.cost_per_hour;
    out->cost_per_month = s.cost_per_hour * GP_HOURS_PER_MONTH;
    if (w->kind == GP_WORKLOAD_INFERENCE) {
        out->cost_per_mtok = s.unit_cost;
    } else if (w->kind == GP_WORKLOAD_TRAINING) {
        out->cost_per_mtok = s.cost_per_hour / (s.tokens_per_s * 3600.0) * 1e6;
        out->total_cost = s.unit_cost;
    } else {
        out->total_cost = s.unit_cost;
    }
    /* The optimistic efficiency gives the low cost; a bound without a sizing falls back to the
     * central figure so the range always brackets it. */
    out->cost_low = hi.price_known ? gp_fmin(hi.unit_cost, s.unit_cost) : s.unit_cost;
    out->cost_high = lo.price_known ? gp_fmax(lo.unit_cost, s.unit_cost) : s.unit_cost;
}

/* 0: feasible and priced, 1: feasible without a price, 2: not feasible. */
static int rank_class(const struct gp_plan_row *r)
{
    if (!r->feasible)
        return 2;
    return r->price_known ? 0 : 1;
}

/* Row `i`'s place in the order: its class, then cost per unit of work (priced) or throughput
 * per GPU, highest first (unpriced), then where it stood (so the order is stable). */
static struct gp_rank_key rank_key(const struct gp_plan_row *r, size_t index, size_t at)
{
    struct gp_rank_key k = {rank_class(r), 0.0, index, at};

    if (k.cls == 0)
        k.value = gp_plan_unit_cost(r);
    else if (k.cls == 1)
        k.value = -(r->tokens_per_s_per_gpu + r->jobs_per_hour);
    return k;
}

static bool key_before(const struct gp_rank_key *a, const struct gp_rank_key *b)
{
    if (a->cls != b->cls)
        return a->cls < b->cls;
    if (a->value != b->value)
        return a->value < b->value;
    return a->index < b->index;
}

/* Sort keys[n]: insertion sort for short runs, merging through tmp[n] above that; O(n log n)
 * comparisons. */
static void sort_keys(struct gp_rank_key *keys, struct gp_rank_key *tmp, size_t n)
{
    if (n <= 16) {
        for (size_t i = 1; i < n; i++) {
            struct gp_rank_key key = keys[i];
            size_t j = i;
            for (; j > 0 && key_before(&key, &keys[j - 1]); j--)
                keys[j] = keys[j - 1];
            keys[j] = key;
        }
        return;
    }
    size_t half = n / 2, a = 0, b = half, k = 0;
    sort_keys(keys, tmp, half);
    sort_keys(keys + half, tmp, n - half);
    while (a < half && b < n)
        tmp[k++] = key_before(&keys[b], &keys[a]) ? keys[b++] : keys[a++];
    while (a < half)
        tmp[k++] = keys[a++];
    while (b < n)
        tmp[k++] = keys[b++];
    memcpy(keys, tmp, n * sizeof(*keys));
}

/* keys[0..n) in rank order for rows[n]; keys holds 2n entries (the second half scratch). */
static void rank_order(struct gp_rank_key *keys, const struct gp_plan_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        keys[i] = rank_key(&rows[i], i, i);
    sort_keys(keys, keys + n, n);
}

/* The first recommendable row of a ranked block is best: a vendor claim ranked above it by its
 * claimed cost stays in its place, unmarked. */
static void mark_best(struct gp_plan_row *rows, size_t n)
{
    bool marked = false;

    for (size_t i = 0; i < n; i++) {
        rows[i].notes &= ~(unsigned)GP_NOTE_BEST;
        if (!marked && gp_plan_row_recommendable(&rows[i])) {
            rows[i].notes |= GP_NOTE_BEST;
            marked = true;
        }
    }
}

/* Put rows[keys[i].at] at rows[i] for every i: each row moves once, following the cycles of
 * the permutation with one row held aside; a row already in its place does not move. */
static void permute(struct gp_plan_row *rows, struct gp_rank_key *keys, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (keys[i].at == i)
            continue;
        struct gp_plan_row held = rows[i];
        size_t at = i;
        while (keys[at].at != i) {
            size_t from = keys[at].at;
            rows[at] = rows[from];
            keys[at].at = at;
            at = from;
        }
        rows[at] = held;
        keys[at].at = at;
    }
}

void gp_plan_rank_in_place(struct gp_plan_row *rows, size_t *order, size_t n,
                           struct gp_rank_key *keys)
{
    for (size_t i = 0; i < n; i++)
        keys[i] = rank_key(&rows[i], order[i], i);
    sort_keys(keys, keys + n, n);
    for (size_t i = 0; i < n; i++)
        order[i] = keys[i].index;
    permute(rows, keys, n);
    mark_best(rows, n);
}

int gp_plan_rank(struct gp_plan_row *rows, size_t count, size_t group)
{
    enum { ON_STACK = 64 };
    struct gp_rank_key stack_keys[2 * ON_STACK], *keys = stack_keys;

    if (group == 0 || group > count)
        group = count;
    if (group > ON_STACK && !(keys = malloc(2 * group * sizeof(*keys))))
        return gp_error_set(GP_ENOMEM, "out of memory ranking %zu plan rows", group);
    for (size_t start = 0; start < count; start += group) {
        size_t n = start + group < count ? group : count - start;
        rank_order(keys, rows + start, n);
        permute(rows + start, keys, n);
        mark_best(rows + start, n);
    }
    if (keys != stack_keys)
        free(keys);
    return 0;
}

char *gp_plan_unpriced_reason(char *out, size_t size, const struct gp_plan_row *row)
{
    /* the notes that say why a row could not be sized or bought */
    const unsigned why =
        GP_NOTE_NO_PUBLIC_PRICE | GP_NOTE_DOES_NOT_FIT | GP_NOTE_OVER_POWER_BUDGET |
        GP_NOTE_LATENCY_UNMET | GP_NOTE_OVER_MAX_GPUS | GP_NOTE_NO_SPOT_OFFER | GP_NOTE_NO_QUOTE |
        GP_NOTE_NO_ON_DEMAND_OFFER | GP_NOTE_NO_RESERVED_OFFER | GP_NOTE_NO_OFFER_IN_REGION |
        GP_NOTE_NO_TERM_IN_HORIZON | GP_NOTE_NO_FITTING_INSTANCE | GP_NOTE_NO_CLUSTER_OFFER;

    if (size == 0)
        return out;
    out[0] = '\0';
    if (row->price_known)
        return out;
    gp_notes_format(out, size, row->notes & why);
    if (!out[0])
        snprintf(out, size, "not priced");
    return out;
}

char *gp_plan_cluster_format(char *out, size_t size, const struct gp_plan_cluster *c)
{
    char speed[32] = "";

    if (size == 0)
        return out;
    out[0] = '\0';
    if (c->nodes <= 0)
        return out;
    if (c->fabric_gbps > 0)
        snprintf(speed, sizeof(speed), "%.0f Gb/s ", c->fabric_gbps);
    snprintf(out, size, "%d x %d-GPU nodes, %s%s", c->nodes, c->gpus_per_node, speed, c->fabric);
    return out;
}

/* clang-format off */
#define NOTE(name) {name, sizeof(name) - 1}
/* clang-format on */

void gp_notes_format(char *out, size_t size, unsigned notes)
{
    static const struct {
        const char *name;
        size_t len;
    } names[] = {
        NOTE("best"),
        NOTE("no-public-price"),
        NOTE("stale-price"),
        NOTE("does-not-fit"),
        NOTE("over-power-budget"),
        NOTE("unsupported-precision"),
        NOTE("misses-latency-target"),
        NOTE("over-max-gpus"),
        NOTE("no-spot-offer"),
        NOTE("no-quote"),
        NOTE("no-on-demand-offer"),
        NOTE("no-reserved-offer"),
        NOTE("no-offer-in-region"),
        NOTE("no-term-in-horizon"),
        NOTE("no-fitting-instance"),
        NOTE("capex-estimate"),
        NOTE("within-uncertainty"),
        NOTE("vendor-claim"),
        NOTE("term-unknown"),
        NOTE("no-cluster-offer"),
        NOTE("announced"),
        NOTE("beyond-scale-up"),
        NOTE("rack-power-exceeded"),
        NOTE("whole-servers"),
    };
    size_t used = 0;

    if (size == 0)
        return;
    out[0] = '\0';
    /* up to the highest note set: most rows have one or two, among the first */
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && notes >> i; i++) {
        if (!(notes & (1u << i)))
            continue;
        size_t len = names[i].len, comma = used > 0;
        if (used + comma + len >= size)
            break; /* whole names only */
        out[used] = ',';
        memcpy(out + used + comma, names[i].name, len + 1);
        used += comma + len;
    }
}

#undef NOTE
