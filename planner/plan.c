/* The planner's entry point: one plan from plain data, point by point and GPU type by GPU
 * type, ranked, in the report currency, with why nothing fits when nothing does. */
#include "planner/plan.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planner/serving_fit.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/text.h"
#include "util/timeutil.h"

static const char *const pricing_names[GP_PRICING_COUNT] = {"cheapest", "on-demand", "spot",
                                                            "quote",    "owned",     "reserved"};

const char *gp_pricing_name(enum gp_pricing p)
{
    return (unsigned)p < GP_PRICING_COUNT ? pricing_names[p] : "?";
}

int gp_pricing_parse(const char *name)
{
    for (int p = 0; p < GP_PRICING_COUNT; p++)
        if (strcmp(pricing_names[p], name) == 0)
            return p;
    return -1;
}

int gp_plan_apply(struct gp_plan_input *in, const char *key, const char *value)
{
    int rc = gp_plan_set(in, key, value);

    return rc ? rc : gp_workload_validate(&in->workload);
}

int gp_plan_sweep_check(const struct gp_plan_input *base, const struct gp_sweep *sweep)
{
    for (size_t v = 0; sweep && v < sweep->count; v++) {
        struct gp_plan_input probe = *base;
        char text[GP_SWEEP_VALUE_MAX];
        int rc = gp_plan_apply(&probe, sweep->key, gp_sweep_value(sweep, v, text));
        if (rc)
            return rc;
    }
    return 0;
}

static bool applies(const struct gp_stack *s, const struct gp_gpu *gpu, bool inference)
{
    return s && s->vendors[gpu->vendor] && gp_stack_serves(s, inference);
}

size_t gp_plan_stacks_for(const struct gp_stack **out, size_t max,
                          const struct gp_plan_request *req, const struct gp_gpu *gpu,
                          enum gp_workload_kind kind)
{
    bool inference = kind == GP_WORKLOAD_INFERENCE;
    const struct gp_stack *named, *fallback;
    size_t n = 0;

    if (max == 0)
        return 0;
    if (!req->stacks || kind == GP_WORKLOAD_GENERIC) {
        out[0] = NULL;
        return 1;
    }
    named = req->stack ? gp_stack_find(req->stacks, req->stack) : NULL;
    fallback = gp_stack_default(req->stacks, gpu->vendor, inference);
    if (!req->compare_stacks) {
        out[0] = applies(named, gpu, inference) ? named : fallback;
        return 1;
    }
    out[n++] = fallback;
    for (size_t i = 0; i < req->stacks->count && n < max; i++) {
        const struct gp_stack *s = &req->stacks->stacks[i];
        if (s != fallback && applies(s, gpu, inference) && (!named || s == named))
            out[n++] = s;
    }
    return n;
}

/* The purchase price per GPU an owned row uses, USD, and its range: a price the user gave
 * (--capex, the capex key) is its own range; data/capex.json's estimate is used at its typical
 * figure (*estimate true) with its low and high; the catalog's capex_usd has no range. */
static double owned_capex_range(const struct gp_plan_request *req, const struct gp_assumptions *a,
                                const struct gp_gpu *gpu, bool *estimate,
                                struct gp_capex_range *range)
{
    const struct gp_capex_estimate *e = req->capex ? gp_capex_find(req->capex, gpu->id) : NULL;
    double mine = req->capex_prices ? gp_capex_choice_price(req->capex_prices, gpu->id) : 0.0;
    double price = gpu->capex_usd;

    *estimate = false;
    if (a->capex > 0) {
        price = a->capex / a->fx_per_usd;
    } else if (mine > 0) {
        price = mine / a->fx_per_usd;
    } else if (e) {
        *estimate = true;
        *range = e->per_gpu;
        return range->typical;
    }
    *range = (struct gp_capex_range){price, price, price};
    return price;
}

/* The purchase price per GPU for owned pricing, USD: the user's single price (in the report
 * currency), else the user's price for this type, else the estimate, else the catalog's. */
static double owned_capex(const struct gp_plan_request *req, const struct gp_assumptions *a,
                          const struct gp_gpu *gpu, bool *estimate)
{
    struct gp_capex_range range;

    return owned_capex_range(req, a, gpu, estimate, &range);
}

/* Years from the date of a profile's evidence to `now`, counted in whole days so that a plan's
 * bands hold all day; 0 without a profile or a date. */
static double evidence_age_years(const struct gp_stack *stack, int64_t now)
{
    int64_t as_of = 0;

    if (!stack || gp_time_parse(stack->as_of, &as_of) || now <= as_of)
        return 0.0;
    return (double)((now - as_of) / 86400) / 365.25;
}

/* The measured bands as a plan shows them: with the engine spread, widened for the age of the
 * profile's evidence. */
static void apply_bands(struct gp_efficiency *eff, const struct gp_bands *bands,
                        const struct gp_stack *stack, int64_t now)
{
    double age = evidence_age_years(stack, now);

    memcpy(eff->band, bands->band, sizeof(eff->band));
    for (int c = 0; c < GP_BAND_COUNT; c++)
        gp_band_widen(&eff->band[c], bands->drift_per_year, age);
}

/* The user's serving calibrations of this GPU type, profile and model class: their median. */
static void apply_serving(struct gp_efficiency *eff, const struct gp_plan_request *req,
                          const struct gp_gpu *gpu, const struct gp_stack *stack)
{
    double factors[64];
    size_t n = 0;
    const char *cls = gp_serving_class(&req->base.workload.model);

    if (req->base.workload.kind != GP_WORKLOAD_INFERENCE)
        return;
    for (size_t i = 0; i < req->serving_count && n < 64; i++) {
        const struct gp_serving_record *r = &req->serving[i];
        if (!strcmp(r->gpu_id, gpu->id) && !strcmp(r->stack, stack ? stack->name : "") &&
            !strcmp(r->model_class, cls))
            factors[n++] = r->factor;
    }
    gp_serving_apply(eff, factors, n);
}

/*
 * Bands widen by how sure the figures under them are. A second-hand figure (a reseller's
 * table, a trade article) has been off from the vendor's by up to a tenth: sparse for dense,
 * raw for usable memory. A projection for a part not shipping moved by more between its
 * vendor's own announcements (Rubin's FP4 was given as 50, then 35 PFLOPS): a quarter.
 */
static void widen_for_confidence(struct gp_efficiency *eff, const struct gp_gpu *gpu)
{
    static const double spread[] = {[GP_CONFIDENCE_OFFICIAL] = 0.0,
                                    [GP_CONFIDENCE_SECONDARY] = 0.10,
                                    [GP_CONFIDENCE_ESTIMATE] = 0.25};
    double w = spread[gp_gpu_throughput_confidence(gpu)];

    if (w > 0)
        gp_efficiency_widen(eff, 1.0 / (1.0 + w), 1.0 + w);
}

int gp_plan_efficiency(struct gp_efficiency *out, const struct gp_plan_request *req,
                       const struct gp_gpu *gpu, const struct gp_stack *stack)
{
    gp_efficiency_resolve(out, req->efficiencies, gpu->id);
    if (stack)
        gp_stack_apply(out, req->stacks, stack);
    if (req->bands)
        apply_bands(out, req->bands, stack, req->now);
    int rc = gp_plan_calibration_choose(out, req->fits, req->fit_count, gpu->id);
    if (!rc) {
        apply_serving(out, req, gpu, stack);
        widen_for_confidence(out, gpu);
    }
    return rc;
}

/* A GPU type's efficiencies, its offers for the purchase, and for owned pricing its purchase
 * price. */
static int prepare_gpu(struct gp_plan_gpu *out, const struct gp_plan_request *req,
                       const struct gp_gpu *gpu, const struct gp_stack *stack)
{
    out->gpu = gpu;
    int rc = gp_plan_efficiency(&out->eff, req, gpu, stack);
    if (rc)
        return rc;
    memset(&out->price, 0, sizeof(out->price));
    out->price.owned = true;
    gp_text_copy(out->price.tier, sizeof(out->price.tier), "owned");
    gp_text_copy(out->price.source, sizeof(out->price.source), "capex");
    out->capex_usd = owned_capex(req, &req->base.assumptions, gpu, &out->capex_estimate);
    out->no_capex = req->pricing == GP_PRICING_OWNED && !(out->capex_usd > 0);
    rc = gp_buy_offers_collect(&out->offers, gpu->id, req->offers, req->offer_count,
                               req->quote_count, req->clusters);
    for (size_t i = 0; !rc && i < req->quote_count; i++)
        if (strcmp(req->quotes[i].offer.gpu_id, gpu->id) == 0)
            gp_buy_offers_add_quote(&out->offers, &req->quotes[i], i);
    return rc;
}

/* One entry per GPU type and stack profile it is planned with; *count says how many. */
static int prepare_gpus(struct gp_plan_gpu *out, size_t *count, const struct gp_plan_request *req,
                        size_t per_gpu)
{
    const struct gp_stack *list[GP_PLAN_MAX_STACKS];
    int rc = 0;

    *count = 0;
    for (size_t g = 0; g < req->gpu_count && !rc; g++) {
        size_t k = gp_plan_stacks_for(list, per_gpu, req, req->gpus[g], req->base.workload.kind);
        for (size_t i = 0; i < k && !rc; i++)
            rc = prepare_gpu(&out[(*count)++], req, req->gpus[g], list[i]);
    }
    return rc;
}

/* The GPUs of a replica (training: of a tensor-parallel group) the workload fixes, or NULL for
 * a generic job (which has none). */
static int *replica_gpus(struct gp_workload *w)
{
    switch (w->kind) {
    case GP_WORKLOAD_INFERENCE:
        return &w->inference.layout_gpus;
    case GP_WORKLOAD_TRAINING:
        return &w->training.tensor_parallel;
    case GP_WORKLOAD_GENERIC:
        break;
    }
    return NULL;
}

/* The best layout's replica fits in no instance on offer: plan the other replica sizes of a
 * node, when the workload leaves the size open, and keep the one that buys for the least per
 * unit of work. The row is left as it is when none can be bought. */
static void refit_layout(struct gp_plan_row *row, const struct gp_plan_input *in,
                         const struct gp_plan_gpu *g, const struct gp_price *unit,
                         const struct gp_buy_context *ctx)
{
    struct gp_plan_input alt;
    struct gp_plan_row tried;
    bool found = false;
    int *size;

    if (!(row->notes & GP_NOTE_NO_FITTING_INSTANCE))
        return;
    alt = *in; /* rare: copied only here */
    size = replica_gpus(&alt.workload);
    if (!size || *size > 0)
        return;
    for (int t = 1; t <= g->gpu->gpus_per_node; t *= 2) {
        if (t == gp_plan_row_group_gpus(row))
            continue;
        *size = t;
        gp_plan_evaluate(&tried, &alt.workload, &alt.assumptions, g->gpu, &g->eff, unit);
        gp_plan_buy(&tried, &alt.workload, &alt.assumptions, g->gpu, &g->eff, &g->offers, ctx);
        if (!tried.feasible || !tried.price_known ||
            (found && !(gp_plan_unit_cost(&tried) < gp_plan_unit_cost(row))))
            continue;
        *row = tried;
        found = true;
    }
}

/* The months an owned row is compared with renting over: the horizon when one was given, else
 * the amortisation period (at least one month). */
static int rent_own_months(const struct gp_plan_request *req, const struct gp_assumptions *a)
{
    double amortised = round(a->years * 12.0);

    if (req->horizon_months > 1)
        return req->horizon_months;
    return amortised >= 1 && amortised <= 1200 ? (int)amortised : 1; /* --horizon-months's range */
}

/* One row: rented fleets are sized at a unit price and then bought from the type's offers;
 * owned fleets are priced from capex and say when owning breaks even against renting. */
static void plan_row(struct gp_plan_row *row, const struct gp_plan_request *req,
                     const struct gp_plan_input *in, const struct gp_plan_gpu *g,
                     struct gp_buy_memo *memo)
{
    /* an owned fleet is compared with the same fleet rented at the cheapest */
    struct gp_buy_context ctx = {req->pricing == GP_PRICING_OWNED ? GP_PRICING_CHEAPEST
                                                                  : req->pricing,
                                 req->horizon_months,
                                 req->region,
                                 req->jurisdiction,
                                 req->now,
                                 req->max_age_days,
                                 memo};
    struct gp_price unit;
    struct gp_plan_row owned_rented; /* owned rows: the same fleet rented, to break even */
    struct gp_plan_row *rented = req->pricing == GP_PRICING_OWNED ? &owned_rented : row;

    gp_plan_buy_unit_price(&unit);
    gp_plan_evaluate(rented, &in->workload, &in->assumptions, g->gpu, &g->eff, &unit);
    gp_plan_buy(rented, &in->workload, &in->assumptions, g->gpu, &g->eff, &g->offers, &ctx);
    refit_layout(rented, in, g, &unit, &ctx);
    if (rented == row)
        return;
    bool estimate;
    struct gp_capex_range range;
    struct gp_assumptions owned = in->assumptions;
    double capex = owned_capex_range(req, &in->assumptions, g->gpu, &estimate, &range);
    owned.capex = capex * owned.fx_per_usd;
    gp_plan_evaluate(row, &in->workload, &owned, g->gpu, &g->eff, &g->price);
    row->owned = true;
    if (estimate && row->price_known)
        row->notes |= GP_NOTE_CAPEX_ESTIMATE;
    row->gpus_needed = row->gpus;
    gp_plan_buy_break_even(row, rented, &owned, &range, rent_own_months(req, &owned));
}

/* Rented prices convert at the rate of the day they were observed, the rest at today's; the
 * age range of the prices rows[n] use, and how many are stale. */
static void convert_rows(struct gp_plan_result *res, const struct gp_plan_request *req,
                         struct gp_plan_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct gp_plan_row *r = &rows[i];
        double price_rate = res->fx_per_usd;
        bool rented = req->pricing != GP_PRICING_OWNED && r->price_known;
        if (rented && r->price_observed_at > 0 &&
            gp_plan_rate_at(req->fx, req->currency, r->price_observed_at, &price_rate))
            price_rate = res->fx_per_usd;
        if (rented && (!res->oldest_price || r->price_observed_at < res->oldest_price))
            res->oldest_price = r->price_observed_at;
        if (rented && r->price_newest_at > res->newest_price)
            res->newest_price = r->price_newest_at;
        if ((r->notes & GP_NOTE_STALE_PRICE) &&
            (!res->stale++ || r->price_observed_at < res->oldest_stale))
            res->oldest_stale = r->price_observed_at;
        gp_plan_row_convert(&rows[i], price_rate, res->fx_per_usd);
    }
}

/* What the rows of every point so far say together. */
struct tally {
    unsigned notes; /* every note of every row */
    bool feasible;  /* some row is feasible */
};

/* Take in point `v`'s rows[n], numbered from `first` in the result: the notes, feasibility,
 * the smallest sized fleet (copied when `copy`, the rows being gone after the point), and, when
 * its best row costs less per unit of work than the best so far, that row with the runner-up
 * of its point (when `copy`, the point's rows are copied into res->rows, which keeps the best
 * row's point). */
static void tally_point(struct gp_plan_result *res, struct tally *t, const struct gp_sweep *sweep,
                        size_t v, const struct gp_plan_row *rows, size_t n, size_t first, bool copy)
{
    size_t best = SIZE_MAX;

    for (size_t i = 0; i < n; i++) {
        const struct gp_plan_row *r = &rows[i];
        t->notes |= r->notes;
        t->feasible |= r->feasible;
        if (r->gpus > 0 && (!res->smallest || r->gpus < res->smallest->gpus)) {
            if (copy)
                res->smallest_row = *r;
            res->smallest = copy ? &res->smallest_row : r;
        }
        if (best == SIZE_MAX && (r->notes & GP_NOTE_BEST))
            best = i;
    }
    if (best == SIZE_MAX || (res->best != SIZE_MAX && !(gp_plan_unit_cost(&rows[best]) <
                                                        gp_plan_unit_cost(&res->rows[res->best]))))
        return;
    if (copy && rows != res->rows)
        memcpy(res->rows, rows, n * sizeof(*rows));
    res->best = first + best;
    res->best_point = v;
    if (sweep) {
        const char *value = gp_sweep_value(sweep, v, res->best_value);
        if (value != res->best_value)
            memcpy(res->best_value, value, sizeof(res->best_value));
    }
    res->runner_up = SIZE_MAX;
    for (size_t j = best + 1; j < n && res->runner_up == SIZE_MAX; j++)
        if (gp_plan_row_runner_up_to(&rows[j], &rows[best]))
            res->runner_up = first + j;
}

/* Why no row is feasible (GP_PLAN_FEASIBLE when one is). */
static void classify(struct gp_plan_result *res, const struct tally *t)
{
    unsigned all = t->notes;

    if (t->feasible)
        res->infeasible = GP_PLAN_FEASIBLE;
    else if ((all & GP_NOTE_OVER_MAX_GPUS) && res->smallest && res->used.assumptions.max_gpus > 0)
        res->infeasible = GP_PLAN_OVER_MAX_GPUS;
    else if (all & GP_NOTE_OVER_MAX_GPUS)
        res->infeasible = GP_PLAN_OVER_FLEET_LIMIT;
    else if (all & GP_NOTE_OVER_POWER_BUDGET)
        res->infeasible = GP_PLAN_OVER_POWER_BUDGET;
    else if (all & GP_NOTE_RACK_POWER_EXCEEDED)
        res->infeasible = GP_PLAN_RACK_POWER;
    else if (all & GP_NOTE_LATENCY_UNMET)
        res->infeasible = GP_PLAN_LATENCY_UNMET;
    else
        res->infeasible = GP_PLAN_DOES_NOT_FIT;
}

/* The working memory of planning point by point: (streaming, once out->rows keeps the best
 * row's point) one point's rows, the rank keys, which GPU type each place held at the last
 * point (each point is planned in that order, so that ranking mostly moves nothing), and each
 * GPU type's last purchase to start the next point's from. */
struct points {
    struct gp_plan_row *spare;
    struct gp_rank_key *keys;
    size_t *order;
    struct gp_buy_memo *memos;
};

/* Point `v`'s rows, ranked into dest[per_point], marked and converted. The sweep's values have
 * been checked against the base (gp_plan_sweep_check): setting one gives a valid workload.
 * Returns 0 or GP_EINVALID (a sweep value). */
static int plan_point(struct gp_plan_result *out, const struct gp_plan_request *req,
                      const struct gp_sweep *sweep, size_t v, struct points *p,
                      struct gp_plan_row *dest)
{
    size_t n = out->per_point;
    struct gp_plan_input in = req->base;
    char text[GP_SWEEP_VALUE_MAX];
    int rc;

    if (sweep && (rc = gp_plan_set(&in, sweep->key, gp_sweep_value(sweep, v, text))))
        return rc;
    for (size_t i = 0; i < n; i++)
        plan_row(&dest[i], req, &in, &out->gpus[p->order[i]], &p->memos[p->order[i]]);
    gp_plan_rank_in_place(dest, p->order, n, p->keys);
    gp_plan_mark_uncertain(dest, n, n);
    convert_rows(out, req, dest, n);
    return 0;
}

/* Every point's rows: into out->rows point-major without a sink, else each handed to the sink
 * as it is planned. Returns 0, GP_EINVALID (a sweep value), GP_ENOMEM or the sink's error. */
static int plan_points(struct gp_plan_result *out, const struct gp_plan_request *req,
                       const struct gp_sweep *sweep, size_t points, const struct gp_plan_sink *sink)
{
    size_t n = out->per_point;
    struct points p = {sink ? malloc((n + 1) * sizeof(*p.spare)) : NULL,
                       malloc((2 * n + 1) * sizeof(*p.keys)), malloc((n + 1) * sizeof(*p.order)),
                       calloc(n + 1, sizeof(*p.memos))};
    struct tally t = {0, false};
    int rc = 0;

    if ((sink && !p.spare) || !p.keys || !p.order || !p.memos) {
        rc = gp_error_set(GP_ENOMEM, "out of memory planning %zu rows", points * n);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        p.order[i] = i;
    for (size_t v = 0; v < points; v++) {
        struct gp_plan_row *dest = !sink                   ? &out->rows[v * n]
                                   : out->best == SIZE_MAX ? out->rows
                                                           : p.spare;
        if ((rc = plan_point(out, req, sweep, v, &p, dest)))
            goto done;
        tally_point(out, &t, sweep, v, dest, n, sink ? 0 : v * n, sink != NULL);
        out->planned += n;
        if (sink && (rc = sink->put(sink->ctx, v, dest, n)))
            goto done;
    }
    out->count = sink ? n : out->planned;
    classify(out, &t);
done:
    free(p.spare);
    free(p.keys);
    free(p.order);
    free(p.memos);
    return rc;
}

/* The day the rate for `currency` in force at `at` dates from (as gp_fx_per_usd picks it). */
static int64_t rate_date(const struct gp_fx_table *fx, const char *currency, int64_t at)
{
    int64_t best = 0, earliest = 0;

    for (size_t i = 0; fx && strcmp(currency, "USD") != 0 && i < fx->count; i++) {
        const struct gp_fx_rate *r = &fx->rates[i];
        if (strcmp(r->currency, currency) != 0)
            continue;
        if (!earliest || r->date < earliest)
            earliest = r->date;
        if (r->date <= at && r->date > best)
            best = r->date;
    }
    return best ? best : earliest;
}

/* A site prices an owned fleet, and power-first sizing needs a site and a fleet it may size:
 * GP_EINVALID saying which input is missing or in the way. A sweep of power_budget_mw counts as
 * power-first. */
static int check_site(const struct gp_plan_request *req, const struct gp_sweep *sweep)
{
    const struct gp_assumptions *a = &req->base.assumptions;
    bool power_first =
        a->power_budget_mw > 0 || (sweep && strcmp(sweep->key, "power_budget_mw") == 0);

    if (a->site && req->pricing != GP_PRICING_OWNED)
        return gp_error_set(GP_EINVALID, "a site prices an owned fleet: plan it with --pricing "
                                         "owned (a rented fleet's power is its provider's)");
    if (!power_first)
        return 0;
    if (!a->site)
        return gp_error_set(GP_EINVALID, "power_budget_mw sizes the largest fleet a site's power "
                                         "holds: name the site (--site)");
    if (req->base.workload.kind == GP_WORKLOAD_TRAINING)
        return gp_error_set(GP_EINVALID, "power_budget_mw sizes inference and generic fleets; a "
                                         "training fleet is sized by its run");
    if (a->power_budget_kw > 0)
        return gp_error_set(GP_EINVALID, "give power_budget_kw (a cap on the fleet the target "
                                         "needs) or power_budget_mw (the fleet the power holds), "
                                         "not both");
    return 0;
}

/* gp_plan_run without a sink, gp_plan_stream with one. */
static int plan(struct gp_plan_result *out, const struct gp_plan_request *req,
                const struct gp_plan_sink *sink)
{
    const struct gp_sweep *sweep = req->sweep && req->sweep->count ? req->sweep : NULL;
    size_t per_gpu = req->compare_stacks && req->stacks ? GP_PLAN_MAX_STACKS : 1;
    size_t points = sweep ? sweep->count : 1, ngpus = req->gpu_count * per_gpu;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    /* every row is written before it is read: no zeroing, and huge pages for a sweep's */
    out->rows = gp_mem_alloc_large((sink ? 1 : points) * ngpus + 1, sizeof(*out->rows));
    out->gpus = calloc(ngpus + 1, sizeof(*out->gpus));
    if (!out->rows || !out->gpus) {
        rc = gp_error_set(GP_ENOMEM, "out of memory planning %zu rows", points * ngpus);
        goto done;
    }
    out->used = req->base;
    memcpy(out->currency, req->currency, sizeof(out->currency));
    out->fx_per_usd = req->base.assumptions.fx_per_usd;
    out->fx_date = rate_date(req->fx, req->currency, req->now);
    out->horizon_months = req->horizon_months;
    out->region = req->region;
    out->jurisdiction = req->jurisdiction;
    out->pricing = req->pricing;
    out->max_age_days = req->max_age_days;
    out->best = SIZE_MAX;
    out->runner_up = SIZE_MAX;
    out->sweep_key = sweep ? sweep->key : NULL;
    rc = check_site(req, sweep);
    if (!rc)
        rc = prepare_gpus(out->gpus, &ngpus, req, per_gpu);
    out->per_point = ngpus;
    if (!rc && sweep && !req->sweep_checked)
        rc = gp_plan_sweep_check(&req->base, sweep);
    if (!rc)
        rc = plan_points(out, req, sweep, points, sink);
done:
    if (rc)
        gp_plan_result_release(out);
    return rc;
}

int gp_plan_run(struct gp_plan_result *out, const struct gp_plan_request *req)
{
    return plan(out, req, NULL);
}

int gp_plan_stream(struct gp_plan_result *out, const struct gp_plan_request *req,
                   const struct gp_plan_sink *sink)
{
    return plan(out, req, sink);
}

void gp_plan_result_release(struct gp_plan_result *res)
{
    if (!res)
        return;
    free(res->rows);
    for (size_t g = 0; res->gpus && g < res->per_point; g++)
        gp_buy_offers_release(&res->gpus[g].offers);
    free(res->gpus);
    memset(res, 0, sizeof(*res));
}
