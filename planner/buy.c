/* Buying a plan row's fleet from its GPU type's offers: conversion of offers and quotes, the
 * purchase, and the row's cost, capacity, power and labels from what was bought. */
#include "planner/buy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/fminmax.h"
#include "util/text.h"
#include "util/timeutil.h"

#define SECONDS_PER_DAY 86400

/* ---- offers ------------------------------------------------------------------------------ */

/* The shortest commitment in whole months: a reserved term, a capacity block's days, or the
 * minimum rental (a month of GP_HOURS_PER_MONTH hours). */
static int term_months(const struct gp_offer *o)
{
    double months = o->term_months;

    if (o->term_days > 0)
        months = gp_fmax(months, o->term_days * 24.0 / GP_HOURS_PER_MONTH);
    if (o->min_term_hours > 0)
        months = gp_fmax(months, (double)o->min_term_hours / GP_HOURS_PER_MONTH);
    return months > 0 ? (int)ceil(months - 1e-9) : 0;
}

static void convert(struct gp_purchase_offer *out, const struct gp_offer *o, const char *source)
{
    memset(out, 0, sizeof(*out));
    gp_text_copy(out->provider, sizeof(out->provider), o->provider);
    gp_text_copy(out->region, sizeof(out->region), o->region);
    gp_text_copy(out->jurisdiction, sizeof(out->jurisdiction), o->jurisdiction);
    gp_text_copy(out->instance_type, sizeof(out->instance_type), o->instance_type);
    gp_text_copy(out->source, sizeof(out->source), source);
    out->gpus_per_instance = o->gpus_per_instance > 0 ? o->gpus_per_instance : 1;
    /* Priced per GPU with no larger unit: rented by the GPU, as many as a TP group needs. */
    out->per_gpu = o->unit == GP_UNIT_GPU_HOUR && out->gpus_per_instance == 1;
    out->tier = o->tier;
    out->usd_per_instance_hour = o->usd_per_instance_hour > 0
                                     ? o->usd_per_instance_hour
                                     : o->usd_per_gpu_hour * out->gpus_per_instance;
    out->min_term_months = term_months(o);
    out->term_unknown = gp_offer_term_unknown(o);
    if (out->term_unknown)
        out->min_term_months = GP_TERM_UNKNOWN_MIN_MONTHS;
    out->upfront_share = o->upfront_share;
    out->valid_until = o->valid_until;
    out->observed_at = o->observed_at;
    out->min_gpus = o->min_gpus;
}

int gp_buy_offers_collect(struct gp_buy_offers *out, const char *gpu_id,
                          const struct gp_offer *offers, size_t n, size_t quotes,
                          const struct gp_cluster_table *clusters)
{
    out->count = 0;
    out->room = n + quotes;
    out->items = calloc(out->room + 1, sizeof(*out->items));
    out->origins = calloc(out->room + 1, sizeof(*out->origins));
    if (!out->items || !out->origins) {
        gp_buy_offers_release(out);
        return gp_error_set(GP_ENOMEM, "out of memory collecting the offers of %s", gpu_id);
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(offers[i].gpu_id, gpu_id) != 0 || offers[i].tier == GP_TIER_QUOTE)
            continue;
        const struct gp_cluster_rule *rule =
            gp_clusters_find(clusters, offers[i].provider, offers[i].instance_type);
        convert(&out->items[out->count], &offers[i], offers[i].provider);
        out->items[out->count].cluster = rule && rule->cluster;
        out->origins[out->count++] =
            (struct gp_buy_origin){GP_PLAN_FROM_OFFER, i, rule && rule->cluster ? rule : NULL};
    }
    return 0;
}

bool gp_buy_offers_add_quote(struct gp_buy_offers *out, const struct gp_quote *quote, size_t input)
{
    struct gp_purchase_offer *o;
    char source[32];

    if (out->count >= out->room)
        return false;
    o = &out->items[out->count];
    snprintf(source, sizeof(source), "quote:%lld", (long long)quote->id);
    convert(o, &quote->offer, source);
    /* A quote names no instance type: rows call it what `quote list` and `prices` call it. */
    if (!o->instance_type[0])
        snprintf(o->instance_type, sizeof(o->instance_type), "quote #%lld", (long long)quote->id);
    o->tier = GP_TIER_QUOTE;
    out->origins[out->count++] = (struct gp_buy_origin){GP_PLAN_FROM_QUOTE, input, NULL};
    return true;
}

void gp_buy_offers_release(struct gp_buy_offers *o)
{
    if (!o)
        return;
    free(o->items);
    free(o->origins);
    o->items = NULL;
    o->origins = NULL;
    o->count = o->room = 0;
}

void gp_plan_buy_unit_price(struct gp_price *out)
{
    memset(out, 0, sizeof(*out));
    out->known = true;
    out->usd_per_gpu_hour = 1.0;
}

/* ---- the row ----------------------------------------------------------------------------- */

/* The row's need in TP groups, and the blended profile in the same groups. */
static void row_need(struct gp_purchase_need *need, struct gp_purchase_options *opt,
                     const struct gp_plan_row *row, const struct gp_workload *w,
                     const struct gp_gpu *gpu)
{
    const struct gp_inference *in = &w->inference;
    need->group_gpus = gp_plan_row_group_gpus(row);
    double group_rate = row->tokens_per_s_per_gpu * need->group_gpus; /* of a replica, tok/s */

    need->gpus_per_node = gpu->gpus_per_node > 0 ? gpu->gpus_per_node : 8;
    need->groups = (double)row->gpus / need->group_gpus;
    need->one_cluster = row->kind == GP_WORKLOAD_TRAINING; /* one job: its gradients cross nodes */
    if (row->kind != GP_WORKLOAD_INFERENCE || !(group_rate > 0))
        return;
    if (in->load != GP_LOAD_MAX)
        need->groups = row->tokens_per_s / group_rate;
    if (opt->mode == GP_PRICING_CHEAPEST && w->buying.profile && in->load != GP_LOAD_MAX) {
        double per = in->load == GP_LOAD_REQUESTS ? in->output_tokens : 1.0;
        opt->blended = true;
        opt->profile.baseline_groups = w->buying.baseline_rate * per / group_rate;
        opt->profile.peak_groups = w->buying.peak_rate * per / group_rate;
        opt->profile.peak_hours_per_day = w->buying.peak_hours_per_day;
        opt->profile.spot_share = w->buying.spot_share;
        opt->profile.spot_factor = w->buying.spot_factor;
        need->groups = opt->profile.peak_groups;
    }
}

static unsigned label_note(enum gp_purchase_label label)
{
    static const unsigned notes[] = {
        0,
        GP_NOTE_NO_PUBLIC_PRICE,
        GP_NOTE_NO_SPOT_OFFER,
        GP_NOTE_NO_QUOTE,
        GP_NOTE_NO_ON_DEMAND_OFFER,
        GP_NOTE_NO_RESERVED_OFFER,
        GP_NOTE_NO_OFFER_IN_REGION,
        GP_NOTE_NO_TERM_IN_HORIZON,
        GP_NOTE_NO_FITTING_INSTANCE,
        GP_NOTE_NO_CLUSTER_OFFER,
    };
    return (unsigned)label < sizeof(notes) / sizeof(notes[0]) ? notes[label] : 0;
}

/* "2 x a + 1 x b" (with the role for blended lines) into out[size]. */
static void describe_lines(char *out, size_t size, const struct gp_purchase_fleet *f,
                           const struct gp_purchase_offer *offers, bool roles)
{
    size_t used = 0;

    out[0] = '\0';
    for (size_t i = 0; i < f->nlines && used < size; i++) {
        const struct gp_purchase_line *l = &f->lines[i];
        const struct gp_purchase_offer *o = &offers[l->offer];
        int n = snprintf(out + used, size - used, "%s%s%s%d x %s", i ? " + " : "",
                         roles ? gp_purchase_role_name(l->role) : "", roles ? " " : "",
                         l->instances, o->instance_type[0] ? o->instance_type : o->source);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* What the row says it bought: provider, instance type, tier, source, region. */
static void describe_fleet(struct gp_plan_row *row, const struct gp_purchase_fleet *f,
                           const struct gp_purchase_offer *offers)
{
    const struct gp_purchase_offer *first = &offers[f->lines[0].offer];
    bool one = true, roles = false, same_tier = true; /* one: a single offer, whatever role */

    for (size_t i = 1; i < f->nlines; i++) {
        roles |= f->lines[i].role != f->lines[0].role;
        same_tier &= offers[f->lines[i].offer].tier == first->tier;
        one &= f->lines[i].offer == f->lines[0].offer;
    }
    gp_text_copy(row->provider, sizeof(row->provider),
                 f->mixed_providers ? "mixed" : first->provider);
    gp_text_copy(row->price_source, sizeof(row->price_source),
                 f->mixed_providers ? "mixed" : first->source);
    gp_text_copy(row->region, sizeof(row->region), one ? first->region : "");
    gp_text_copy(row->price_tier, sizeof(row->price_tier),
                 roles       ? "blended"
                 : same_tier ? gp_tier_name(first->tier)
                             : "mixed");
    row->gpus_per_instance = one ? f->lines[0].gpus / f->lines[0].instances : 0;
    if (one)
        gp_text_copy(row->instance_type, sizeof(row->instance_type), first->instance_type);
    else
        describe_lines(row->instance_type, sizeof(row->instance_type), f, offers, false);
    if (f->nlines > 1)
        describe_lines(row->price_mix, sizeof(row->price_mix), f, offers, roles);
    gp_time_format_date(f->oldest, row->price_date, sizeof(row->price_date));
    row->price_observed_at = f->oldest;
    row->price_newest_at = f->newest;
}

/* The row's purchase lines: each offer or quote bought, as typed figures. */
static void keep_lines(struct gp_plan_row *row, const struct gp_purchase_fleet *f,
                       const struct gp_buy_offers *offers)
{
    row->nlines = 0;
    row->lines_total = f->nlines;
    for (size_t i = 0; i < f->nlines && row->nlines < GP_PLAN_MAX_LINES; i++) {
        const struct gp_purchase_line *l = &f->lines[i];
        const struct gp_purchase_offer *o = &offers->items[l->offer];
        const struct gp_buy_origin *from = &offers->origins[l->offer];
        int per_instance = l->instances > 0 ? l->gpus / l->instances : 0;
        row->lines[row->nlines++] = (struct gp_plan_line){
            .origin = (uint8_t)from->origin,
            .input = (uint32_t)from->input,
            .role = (uint8_t)l->role,
            .tier = (uint8_t)o->tier,
            .term_months = o->min_term_months,
            .term_unknown = o->term_unknown,
            .instances = l->instances,
            .gpus = l->gpus,
            .gpus_per_instance = per_instance,
            .price_per_instance_hour = o->usd_per_instance_hour * (o->per_gpu ? per_instance : 1),
            .cost_per_hour = l->usd_per_hour,
            .upfront = l->upfront_usd,
        };
    }
}

/* A fleet of one job over several instances, or of replicas wider than one, is one cluster of
 * the offer's nodes: the row names it, "13 x 8-GPU nodes, 3200 Gb/s InfiniBand". */
static void describe_cluster(struct gp_plan_row *row, const struct gp_purchase_fleet *f,
                             const struct gp_buy_offers *offers,
                             const struct gp_purchase_need *need)
{
    const struct gp_cluster_rule *rule =
        f->nlines == 1 ? offers->origins[f->lines[0].offer].cluster : NULL;
    const struct gp_purchase_line *l = &f->lines[0];
    int per_node = l->instances > 0 ? l->gpus / l->instances : 0;

    memset(&row->cluster, 0, sizeof(row->cluster));
    if (!rule || l->instances < 2 || !(need->one_cluster || need->group_gpus > per_node))
        return;
    row->cluster.nodes = l->instances;
    row->cluster.gpus_per_node = per_node;
    row->cluster.fabric_gbps = rule->fabric_gbps;
    gp_text_copy(row->cluster.fabric, sizeof(row->cluster.fabric), rule->fabric);
}

/* Whether any non-quote price of the fleet is older than the allowed age. */
static bool stale(const struct gp_purchase_fleet *f, const struct gp_purchase_offer *offers,
                  const struct gp_buy_context *ctx)
{
    for (size_t i = 0; i < f->nlines; i++) {
        const struct gp_purchase_offer *o = &offers[f->lines[i].offer];
        if (o->tier != GP_TIER_QUOTE &&
            ctx->now - o->observed_at > (int64_t)ctx->max_age_days * SECONDS_PER_DAY)
            return true;
    }
    return false;
}

/* Whether a line of the fleet is a contract of unknown term. */
static bool term_unknown(const struct gp_purchase_fleet *f, const struct gp_purchase_offer *offers)
{
    for (size_t i = 0; i < f->nlines; i++)
        if (offers[f->lines[i].offer].term_unknown)
            return true;
    return false;
}

/* The extra GPUs bought draw idle power and carry their share of node overhead. */
static void add_power(struct gp_plan_row *row, const struct gp_assumptions *a,
                      const struct gp_gpu *gpu, const struct gp_efficiency *eff, int gpus)
{
    double kwh_cost = row->energy_kwh_per_month > 0
                          ? row->energy_cost_per_month / row->energy_kwh_per_month
                          : 0.0;

    row->it_kw += (gpus - row->gpus) *
                  (gpu->tdp_w * eff->idle_power + gpu->node_overhead_w / gpu->gpus_per_node) /
                  1000.0;
    row->facility_kw = row->it_kw * a->pue;
    row->energy_kwh_per_month = row->facility_kw * GP_HOURS_PER_MONTH;
    row->energy_cost_per_month = row->energy_kwh_per_month * kwh_cost;
    if (a->power_budget_kw > 0 && row->facility_kw > a->power_budget_kw) {
        row->feasible = false;
        row->notes |= GP_NOTE_OVER_POWER_BUDGET;
    }
}

/* Costs evaluated at 1 USD per GPU-hour scaled to the fleet's; the sizes to what was bought. */
static void apply_fleet(struct gp_plan_row *row, const struct gp_workload *w,
                        const struct gp_purchase_fleet *f, int group_gpus)
{
    double scale = row->cost_per_hour > 0 ? f->usd_per_hour / row->cost_per_hour : 0.0;

    if (row->kind == GP_WORKLOAD_INFERENCE && w->inference.load == GP_LOAD_MAX &&
        row->replicas > 0) {
        /* No target: every replica bought serves, and the cost spreads over all of them. */
        double more = (double)f->groups / row->replicas;
        row->tokens_per_s *= more;
        scale /= more;
    }
    row->cost_per_mtok *= scale;
    row->total_cost *= scale;
    row->cost_low *= scale;
    row->cost_high *= scale;
    row->cost_per_hour = f->usd_per_hour;
    row->cost_per_month = f->usd_per_month;
    row->upfront = f->upfront_usd;
    row->headroom = f->headroom;
    row->gpus_needed = row->gpus;
    row->gpus = f->gpus;
    row->instances = f->instances;
    row->price_per_gpu_hour = f->gpus > 0 ? f->usd_per_hour / f->gpus : 0.0;
    if (row->kind == GP_WORKLOAD_INFERENCE)
        row->replicas = f->groups;
    else if (row->kind == GP_WORKLOAD_GENERIC)
        row->replicas = f->groups * group_gpus;
}

static void keep_alternatives(struct gp_plan_row *row, const struct gp_purchase_result *res,
                              const struct gp_purchase_offer *offers)
{
    row->nalternatives = 0;
    for (size_t i = 0; i < res->nalternatives && i < GP_PLAN_MAX_ALTERNATIVES; i++) {
        const struct gp_purchase_fleet *f = &res->alternatives[i];
        struct gp_plan_alternative *alt = &row->alternatives[row->nalternatives++];
        const struct gp_purchase_offer *first = &offers[f->lines[0].offer];
        gp_text_copy(alt->provider, sizeof(alt->provider),
                     f->mixed_providers ? "mixed" : first->provider);
        if (f->nlines == 1)
            gp_text_copy(alt->instance_type, sizeof(alt->instance_type), first->instance_type);
        else
            describe_lines(alt->instance_type, sizeof(alt->instance_type), f, offers, false);
        alt->instances = f->instances;
        alt->gpus = f->gpus;
        alt->cost_per_hour = f->usd_per_hour;
        alt->cost_per_month = f->usd_per_month;
    }
}

/* The fields describe_fleet and keep_alternatives fill, from `from` into `to`. */
static void copy_description(struct gp_plan_row *to, const struct gp_plan_row *from)
{
    memcpy(to->provider, from->provider, sizeof(to->provider));
    memcpy(to->price_source, from->price_source, sizeof(to->price_source));
    memcpy(to->region, from->region, sizeof(to->region));
    memcpy(to->price_tier, from->price_tier, sizeof(to->price_tier));
    memcpy(to->instance_type, from->instance_type, sizeof(to->instance_type));
    memcpy(to->price_mix, from->price_mix, sizeof(to->price_mix));
    memcpy(to->price_date, from->price_date, sizeof(to->price_date));
    to->gpus_per_instance = from->gpus_per_instance;
    to->price_observed_at = from->price_observed_at;
    to->price_newest_at = from->price_newest_at;
    memcpy(to->alternatives, from->alternatives,
           from->nalternatives * sizeof(from->alternatives[0]));
    to->nalternatives = from->nalternatives;
    memcpy(to->lines, from->lines, from->nlines * sizeof(from->lines[0]));
    to->nlines = from->nlines;
    to->lines_total = from->lines_total;
    to->cluster = from->cluster;
}

/* What the row says it bought, and the runner-up fleets: worked out once per purchase the memo
 * (NULL: none) holds, and copied for the rows after. */
static void describe(struct gp_plan_row *row, const struct gp_purchase_result *res,
                     const struct gp_buy_offers *offers, const struct gp_purchase_need *need,
                     struct gp_buy_memo *memo)
{
    if (memo && memo->described) {
        copy_description(row, &memo->described_row);
        return;
    }
    describe_fleet(row, &res->best, offers->items);
    keep_alternatives(row, res, offers->items);
    keep_lines(row, &res->best, offers);
    describe_cluster(row, &res->best, offers, need);
    if (memo) {
        copy_description(&memo->described_row, row);
        memo->described = true;
    }
}

/* The offers the region rules ruled out, named. */
static void keep_excluded(struct gp_plan_row *row, const struct gp_purchase_result *res,
                          const struct gp_purchase_offer *offers)
{
    size_t used = 0;

    row->excluded_offers = (int)res->excluded_total;
    row->excluded[0] = '\0';
    for (size_t i = 0; i < res->nexcluded; i++) {
        const struct gp_purchase_offer *o = &offers[res->excluded[i]];
        char entry[192];
        int n = snprintf(entry, sizeof(entry), "%s%s %s (%s)", i ? "; " : "", o->provider,
                         o->instance_type, o->region[0] ? o->region : "region unknown");
        if (n < 0 || used + (size_t)n >= sizeof(row->excluded))
            break; /* whole entries only; the count says how many there are */
        memcpy(row->excluded + used, entry, (size_t)n + 1);
        used += (size_t)n;
    }
}

/* The row has no purchasable fleet: no cost figures, and the label that says why. */
static void unpriced(struct gp_plan_row *row, enum gp_purchase_label label)
{
    row->price_known = false;
    row->notes |= label_note(label);
    row->gpus_needed = row->gpus;
    row->nlines = row->lines_total = 0;
    memset(&row->cluster, 0, sizeof(row->cluster));
    row->price_per_gpu_hour = row->cost_per_hour = row->cost_per_month = 0;
    row->cost_per_mtok = row->total_cost = row->cost_low = row->cost_high = 0;
}

/* Whether the memo holds the purchase of `groups` whole groups for `need` under `opt`. */
static bool remembered(const struct gp_buy_memo *m, const struct gp_buy_offers *offers, int groups,
                       const struct gp_purchase_need *need, const struct gp_purchase_options *opt)
{
    return m->valid && m->offers == offers && m->count == offers->count && m->groups == groups &&
           m->need.group_gpus == need->group_gpus && m->need.gpus_per_node == need->gpus_per_node &&
           m->need.one_cluster == need->one_cluster && m->opt.mode == opt->mode &&
           m->opt.blended == opt->blended && m->opt.horizon_months == opt->horizon_months &&
           m->opt.allow_mixed_providers == opt->allow_mixed_providers &&
           m->opt.region == opt->region && m->opt.jurisdiction == opt->jurisdiction &&
           m->opt.now == opt->now;
}

static void set_headroom(struct gp_purchase_fleet *f, double needed)
{
    f->headroom = needed > 0 ? f->groups / needed - 1.0 : 0.0;
}

/* The purchase for `need`: from the memo when it holds the same whole groups (single-tier
 * modes; blended fleets depend on the fractional profile), else bought and remembered. */
static const struct gp_purchase_result *buy(struct gp_purchase_result *own,
                                            const struct gp_buy_offers *offers,
                                            const struct gp_purchase_need *need,
                                            const struct gp_purchase_options *opt,
                                            struct gp_buy_memo *memo)
{
    /* as the single-tier purchase counts the groups it buys */
    int groups = need->groups > 1 ? (int)ceil(need->groups - 1e-9) : 1;

    if (!memo || opt->blended) {
        gp_purchase_buy(own, offers->items, offers->count, need, opt);
        return own;
    }
    if (!remembered(memo, offers, groups, need, opt)) {
        gp_purchase_buy(&memo->result, offers->items, offers->count, need, opt);
        memo->valid = true;
        memo->offers = offers;
        memo->count = offers->count;
        memo->groups = groups;
        memo->need = *need;
        memo->opt = *opt;
        memo->described = false;
    }
    set_headroom(&memo->result.best, need->groups);
    for (size_t i = 0; i < memo->result.nalternatives; i++)
        set_headroom(&memo->result.alternatives[i], need->groups);
    return &memo->result;
}

void gp_plan_buy(struct gp_plan_row *row, const struct gp_workload *w,
                 const struct gp_assumptions *a, const struct gp_gpu *gpu,
                 const struct gp_efficiency *eff, const struct gp_buy_offers *offers,
                 const struct gp_buy_context *ctx)
{
    struct gp_purchase_options opt;
    struct gp_purchase_need need;
    struct gp_purchase_result result; /* 4 KB: on the stack, so buying cannot fail for memory
                                         and leave a row unpriced that has offers */
    const struct gp_purchase_result *res;

    if (row->gpus <= 0)
        return;
    gp_purchase_options_init(&opt);
    opt.mode = ctx->mode;
    opt.horizon_months = ctx->horizon_months > 0 ? ctx->horizon_months : 1;
    opt.allow_mixed_providers = w->buying.allow_mixed_providers;
    opt.region = ctx->region;
    opt.jurisdiction = ctx->jurisdiction;
    opt.now = ctx->now;
    row_need(&need, &opt, row, w, gpu);
    res = buy(&result, offers, &need, &opt, ctx->memo);
    row->notes &= ~(unsigned)GP_NOTE_STALE_PRICE;
    keep_excluded(row, res, offers->items);
    if (res->label != GP_PURCHASE_OK) {
        unpriced(row, res->label);
    } else {
        add_power(row, a, gpu, eff, res->best.gpus);
        apply_fleet(row, w, &res->best, need.group_gpus);
        row->nodes = res->best.nodes;
        describe(row, res, offers, &need,
                 ctx->memo && res == &ctx->memo->result ? ctx->memo : NULL);
        if (stale(&res->best, offers->items, ctx))
            row->notes |= GP_NOTE_STALE_PRICE;
        if (term_unknown(&res->best, offers->items))
            row->notes |= GP_NOTE_TERM_UNKNOWN;
    }
}

void gp_plan_buy_break_even(struct gp_plan_row *owned, const struct gp_plan_row *rented,
                            const struct gp_assumptions *a, const struct gp_capex_range *capex_usd,
                            int months)
{
    double per_gpu = owned->gpus * a->server_overhead; /* capital per USD of a GPU's price */
    double capex = per_gpu * capex_usd->typical;
    double running = owned->running_per_month; /* as gp_plan_evaluate priced it */
    double rent = rented->cost_per_month;
    struct gp_plan_rent_own *ro = &owned->rent_own;

    owned->break_even_months = 0;
    memset(ro, 0, sizeof(*ro));
    owned->upfront = owned->price_known ? capex : 0.0; /* the capital: GPUs and server share */
    if (!owned->price_known || !rented->price_known || !(rent > 0) || owned->gpus <= 0)
        return;
    owned->break_even_months = gp_purchase_break_even_months(capex, running, rent);
    ro->set = true;
    ro->months = months;
    gp_text_copy(ro->rented_from, sizeof(ro->rented_from), rented->provider);
    ro->rent_per_month = rent;
    ro->own_total = capex + running * months;
    ro->rent_total = rent * months;
    ro->break_even_low = gp_purchase_break_even_months(per_gpu * capex_usd->low, running, rent);
    ro->break_even_high = gp_purchase_break_even_months(per_gpu * capex_usd->high, running, rent);
}

/* ---- ranking ----------------------------------------------------------------------------- */

static bool priced(const struct gp_plan_row *r)
{
    return r->feasible && r->price_known;
}

void gp_plan_mark_uncertain(struct gp_plan_row *rows, size_t count, size_t group)
{
    if (group == 0)
        group = count;
    for (size_t start = 0; start < count; start += group) {
        size_t end = start + group < count ? start + group : count;
        struct gp_plan_row *best = &rows[start];
        for (size_t i = start; i < end; i++)
            rows[i].notes &= ~(unsigned)GP_NOTE_WITHIN_UNCERTAINTY;
        if (end - start < 2 || !priced(best) || !priced(&rows[start + 1]))
            continue;
        struct gp_plan_row *next = &rows[start + 1];
        if (next->cost_low <= best->cost_high) {
            best->notes |= GP_NOTE_WITHIN_UNCERTAINTY;
            next->notes |= GP_NOTE_WITHIN_UNCERTAINTY;
        }
    }
}
