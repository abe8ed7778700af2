/* The purchase of a sized fleet: eligible offers, whole-instance combinations by a covering
 * knapsack, one provider per fleet unless mixing is allowed, terms over the horizon, blended
 * baseline/peak/spot fleets, and the labels that say why nothing could be bought. */
#include "planner/purchase.h"

#include <fnmatch.h>
#include <math.h>
#include <string.h>

#include "util/timeutil.h"

/* Exact covering knapsack up to this many groups; above it the cheapest instance per group
 * fills the bulk first (exact as long as every instance holds at most DP_LIMIT / 2 groups). */
#define DP_LIMIT 4096
/* Instance sizes one component combines: the cheapest offer per distinct size. */
#define MAX_ITEMS 5
/* Spot over-provisioning where a provider publishes no interruption rate (docs/pricing.md). */
#define DEFAULT_SPOT_FACTOR 1.5

/* How far an offer got through the eligibility checks (the last stage is "usable"). */
enum stage { STAGE_TIER, STAGE_REGION, STAGE_TERM, STAGE_SHAPE, STAGE_CLUSTER, STAGE_USABLE };

/* One offer as a component can buy it. */
struct item {
    size_t offer;
    int gpus;       /* GPUs of one instance as bought */
    int groups;     /* TP groups one instance holds (0: multi-node, pooled) */
    double cost;    /* USD per instance-hour, horizon factor and duty included */
    double upfront; /* USD per instance over the horizon */
    int min_instances;
};

/* What a component (the whole fleet, or a blended part) is and may buy. */
struct component {
    enum gp_purchase_role role;
    int groups;  /* TP groups to buy */
    double duty; /* share of hours rented for non-committed tiers */
};

void gp_purchase_options_init(struct gp_purchase_options *o)
{
    memset(o, 0, sizeof(*o));
    o->mode = GP_PRICING_CHEAPEST;
    o->horizon_months = 1;
}

const char *gp_purchase_role_name(enum gp_purchase_role role)
{
    static const char *const names[] = {"all", "baseline", "peak", "spot"};
    return (unsigned)role < sizeof(names) / sizeof(names[0]) ? names[role] : "all";
}

double gp_purchase_spot_factor(const char *provider)
{
    /* Published interruption rates, as the share of capacity reclaimed; factor 1 / (1 - r). */
    static const struct {
        const char *provider;
        double rate;
    } published[] = {
        {"aws", 0.20}, /* Spot Instance Advisor: GPU (p5) instances in the 10-20% band */
    };
    for (size_t i = 0; provider && i < sizeof(published) / sizeof(published[0]); i++)
        if (strcmp(published[i].provider, provider) == 0)
            return 1.0 / (1.0 - published[i].rate);
    return DEFAULT_SPOT_FACTOR;
}

double gp_purchase_break_even_months(double capex_usd, double owned_usd_per_month,
                                     double rent_usd_per_month)
{
    double saving = rent_usd_per_month - owned_usd_per_month;

    if (!(saving > 0) || !(capex_usd >= 0))
        return -1.0;
    return capex_usd / saving;
}

/* ---- eligibility ------------------------------------------------------------------------- */

static bool committed(enum gp_tier t)
{
    return t == GP_TIER_RESERVED || t == GP_TIER_CAPACITY_BLOCK || t == GP_TIER_QUOTE;
}

/* Whether a component of `role` under `mode` may buy tier `t`. */
static bool tier_admitted(enum gp_pricing mode, enum gp_purchase_role role, enum gp_tier t)
{
    switch (role) {
    case GP_PURCHASE_ROLE_BASELINE:
        return t != GP_TIER_SPOT;
    case GP_PURCHASE_ROLE_PEAK:
        return t == GP_TIER_ON_DEMAND;
    case GP_PURCHASE_ROLE_SPOT:
        return t == GP_TIER_SPOT;
    case GP_PURCHASE_ROLE_ALL:
        break;
    }
    switch (mode) {
    case GP_PRICING_ON_DEMAND:
        return t == GP_TIER_ON_DEMAND;
    case GP_PRICING_SPOT:
        return t == GP_TIER_SPOT;
    case GP_PRICING_RESERVED:
        return t == GP_TIER_RESERVED || t == GP_TIER_CAPACITY_BLOCK;
    case GP_PRICING_QUOTE:
        return t == GP_TIER_QUOTE;
    case GP_PRICING_OWNED: /* never asked of a purchase: nothing to rent */
        return false;
    case GP_PRICING_CHEAPEST:
    case GP_PRICING_COUNT:
        break;
    }
    return t != GP_TIER_SPOT;
}

static bool region_admits(const struct gp_purchase_offer *o, const struct gp_purchase_options *opt)
{
    if (opt->region && opt->region[0] && fnmatch(opt->region, o->region, 0) != 0)
        return false;
    if (opt->jurisdiction && opt->jurisdiction[0]) {
        /* Every EU member state is in the EEA. */
        bool eea = strcmp(opt->jurisdiction, "eea") == 0 && strcmp(o->jurisdiction, "eu") == 0;
        if (!eea && strcmp(opt->jurisdiction, o->jurisdiction) != 0)
            return false;
    }
    return true;
}

/* GPUs the whole need takes, in whole groups. */
static long long need_gpus(const struct gp_purchase_need *need)
{
    double groups = need->groups > 1 ? ceil(need->groups - 1e-9) : 1.0;
    return (long long)groups * need->group_gpus;
}

/* Whether one instance of `o` holds the whole need (a per-GPU rental: up to a node). */
static bool holds_all(const struct gp_purchase_offer *o, const struct gp_purchase_need *need)
{
    return need_gpus(need) <= (o->per_gpu ? need->gpus_per_node : o->gpus_per_instance);
}

/* How far offer `o` gets for a component of `role`. Expired quotes and unpriced offers do not
 * count as published at all (STAGE_TIER). */
static enum stage offer_stage(const struct gp_purchase_offer *o, enum gp_purchase_role role,
                              const struct gp_purchase_need *need,
                              const struct gp_purchase_options *opt)
{
    if (!tier_admitted(opt->mode, role, o->tier) || !(o->usd_per_instance_hour > 0) ||
        o->gpus_per_instance < 1 || (o->valid_until && o->valid_until < opt->now))
        return STAGE_TIER;
    if (!region_admits(o, opt))
        return STAGE_REGION;
    if (o->min_term_months > opt->horizon_months)
        return STAGE_TERM;
    if (!o->cluster && !o->per_gpu && o->gpus_per_instance < need->group_gpus)
        return STAGE_SHAPE;
    if (o->per_gpu && need->group_gpus > need->gpus_per_node)
        return STAGE_SHAPE;
    if (need->one_cluster && !o->cluster && !holds_all(o, need))
        return STAGE_CLUSTER;
    return STAGE_USABLE;
}

/* Months paid over the horizon per month of it: whole terms cover the horizon. */
static double horizon_factor(const struct gp_purchase_offer *o, int horizon)
{
    if (o->min_term_months <= 0 || o->term_unknown) /* no whole terms to count */
        return 1.0;
    double terms = ceil((double)horizon / o->min_term_months);
    return terms * o->min_term_months / horizon;
}

static struct item make_item(const struct gp_purchase_offer *offers, size_t i,
                             const struct gp_purchase_need *need,
                             const struct gp_purchase_options *opt, double duty)
{
    const struct gp_purchase_offer *o = &offers[i];
    double factor = horizon_factor(o, opt->horizon_months);
    struct item it = {i, 0, 0, 0, 0, 1};
    /* Rented by the GPU: one instance per TP group, of just its GPUs; one job in one instance
     * of all of them. */
    int per_gpu_unit = need->one_cluster ? (int)need_gpus(need) : need->group_gpus;
    double price = o->usd_per_instance_hour * (o->per_gpu ? per_gpu_unit : 1);

    it.gpus = o->per_gpu ? per_gpu_unit : o->gpus_per_instance;
    /* A commitment is paid around the clock, whatever share of hours it is used. */
    if (committed(o->tier) || o->min_term_months > 0)
        duty = 1.0;
    it.cost = price * factor * duty;
    it.upfront = o->upfront_share * price * GP_HOURS_PER_MONTH * factor * opt->horizon_months;
    bool pooled = o->cluster && it.gpus % need->group_gpus != 0;
    it.groups = pooled ? 0 : it.gpus / need->group_gpus;
    if (o->min_gpus > it.gpus)
        it.min_instances = (o->min_gpus + it.gpus - 1) / it.gpus;
    return it;
}

/* ---- fleets ------------------------------------------------------------------------------ */

/* Instances of `it` that hold at least `groups` TP groups. */
static int instances_for(const struct item *it, const struct gp_purchase_need *need, int groups)
{
    long long n;

    if (it->groups > 0)
        n = (groups + it->groups - 1) / it->groups;
    else
        n = ((long long)groups * need->group_gpus + it->gpus - 1) / it->gpus;
    if (n < it->min_instances)
        n = it->min_instances;
    return n > 0 ? (int)n : 1;
}

/* Add `instances` of `it` to `f` (merging with a line of the same offer and role). */
static void add_line(struct gp_purchase_fleet *f, const struct item *it,
                     const struct gp_purchase_offer *offers, const struct gp_purchase_need *need,
                     const struct component *c, int instances)
{
    const struct gp_purchase_offer *o = &offers[it->offer];
    struct gp_purchase_line *l = NULL;

    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].offer == it->offer && f->lines[i].role == c->role)
            l = &f->lines[i];
    if (!l) {
        if (f->nlines == GP_PURCHASE_MAX_LINES)
            return;
        l = &f->lines[f->nlines++];
        memset(l, 0, sizeof(*l));
        l->offer = it->offer;
        l->role = c->role;
        l->duty = committed(o->tier) || o->min_term_months > 0 ? 1.0 : c->duty;
    }
    l->instances += instances;
    l->gpus = l->instances * it->gpus;
    /* Per-GPU rentals pack into nodes; an instance fills whole nodes. */
    l->nodes = o->per_gpu
                   ? (l->gpus + need->gpus_per_node - 1) / need->gpus_per_node
                   : l->instances * ((it->gpus + need->gpus_per_node - 1) / need->gpus_per_node);
    l->groups = it->groups > 0 ? l->instances * it->groups : l->gpus / need->group_gpus;
    l->usd_per_hour = l->instances * it->cost;
    l->upfront_usd = l->instances * it->upfront;
}

/* Sort items (one per instance size) by cost per group and keep the MAX_ITEMS cheapest. */
static size_t prune_items(struct item *items, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct item key = items[i];
        size_t j = i;
        while (j > 0 && key.cost / key.groups < items[j - 1].cost / items[j - 1].groups) {
            items[j] = items[j - 1];
            j--;
        }
        items[j] = key;
    }
    return n < MAX_ITEMS ? n : MAX_ITEMS;
}

/* The cheapest whole-instance combination of `items` (pruned) holding >= `groups` groups:
 * counts[i] instances of items[i]. */
static void cover(int *counts, const struct item *items, size_t n, int groups)
{
    static const double inf = 1e300;
    double cost[DP_LIMIT + 1];
    int extra[DP_LIMIT + 1]; /* groups bought beyond x: at equal cost, more is better */
    unsigned char pick[DP_LIMIT + 1];
    int bulk = 0, rem = groups;

    memset(counts, 0, n * sizeof(*counts));
    if (n == 1) { /* one instance size, as most pools have: the table below would find this */
        counts[0] = (groups + items[0].groups - 1) / items[0].groups;
        return;
    }
    if (groups > DP_LIMIT) {
        bulk = (groups - DP_LIMIT / 2) / items[0].groups;
        rem = groups - bulk * items[0].groups;
    }
    cost[0] = 0;
    extra[0] = 0;
    for (int x = 1; x <= rem; x++) {
        cost[x] = inf;
        extra[x] = 0;
        pick[x] = 0;
        for (size_t i = 0; i < n; i++) {
            int from = x > items[i].groups ? x - items[i].groups : 0;
            int over = extra[from] + (x < items[i].groups ? items[i].groups - x : 0);
            double c = cost[from] + items[i].cost;
            if (c < cost[x] - 1e-9 || (c < cost[x] + 1e-9 && over > extra[x])) {
                cost[x] = c;
                extra[x] = over;
                pick[x] = (unsigned char)i;
            }
        }
    }
    for (int x = rem; x > 0;) {
        counts[pick[x]]++;
        x = x > items[pick[x]].groups ? x - items[pick[x]].groups : 0;
    }
    counts[0] += bulk;
}

/* Buy component `c` from `items[n]` into `f`: the knapsack over the pruned items. False when
 * no item can hold a group. */
static bool buy_component(struct gp_purchase_fleet *f, struct item *items, size_t n,
                          const struct gp_purchase_offer *offers,
                          const struct gp_purchase_need *need, const struct component *c)
{
    int counts[MAX_ITEMS];

    if (c->groups <= 0)
        return true;
    n = prune_items(items, n);
    if (n == 0)
        return false;
    cover(counts, items, n, c->groups);
    for (size_t i = 0; i < n; i++)
        if (counts[i] > 0)
            add_line(f, &items[i], offers, need, c, counts[i]);
    return true;
}

/* Totals of a fleet from its lines; `needed` groups for the headroom, `spot_factor` for the
 * groups of spot lines that count. */
static void finish(struct gp_purchase_fleet *f, const struct gp_purchase_offer *offers,
                   double needed, double spot_factor)
{
    double groups = 0;

    f->instances = f->gpus = f->nodes = 0;
    f->usd_per_hour = f->upfront_usd = 0;
    f->mixed_providers = false;
    f->oldest = f->newest = 0;
    for (size_t i = 0; i < f->nlines; i++) {
        const struct gp_purchase_line *l = &f->lines[i];
        const struct gp_purchase_offer *o = &offers[l->offer];
        f->instances += l->instances;
        f->gpus += l->gpus;
        f->nodes += l->nodes;
        f->usd_per_hour += l->usd_per_hour;
        f->upfront_usd += l->upfront_usd;
        groups +=
            l->role == GP_PURCHASE_ROLE_SPOT ? floor(l->groups / spot_factor + 1e-9) : l->groups;
        f->mixed_providers |= strcmp(o->provider, offers[f->lines[0].offer].provider) != 0;
        if (!f->oldest || o->observed_at < f->oldest)
            f->oldest = o->observed_at;
        if (o->observed_at > f->newest)
            f->newest = o->observed_at;
    }
    f->groups = (int)groups;
    f->usd_per_month = f->usd_per_hour * GP_HOURS_PER_MONTH;
    f->headroom = needed > 0 ? groups / needed - 1.0 : 0.0;
}

/* ---- candidates -------------------------------------------------------------------------- */

/* Whether two fleets buy the same instances. */
static bool same_fleet(const struct gp_purchase_fleet *a, const struct gp_purchase_fleet *b)
{
    if (a->nlines != b->nlines)
        return false;
    for (size_t i = 0; i < a->nlines; i++) {
        bool found = false;
        for (size_t j = 0; j < b->nlines && !found; j++)
            found = a->lines[i].offer == b->lines[j].offer &&
                    a->lines[i].role == b->lines[j].role &&
                    a->lines[i].instances == b->lines[j].instances;
        if (!found)
            return false;
    }
    return true;
}

static bool cheaper(const struct gp_purchase_fleet *a, const struct gp_purchase_fleet *b)
{
    if (fabs(a->usd_per_hour - b->usd_per_hour) > 1e-9)
        return a->usd_per_hour < b->usd_per_hour;
    if (a->groups != b->groups)
        return a->groups > b->groups; /* the same money for more capacity */
    return a->instances < b->instances;
}

/* The best fleets seen so far, cheapest first: best plus the alternatives. */
struct ranking {
    struct gp_purchase_fleet fleets[1 + GP_PURCHASE_MAX_ALTERNATIVES];
    size_t count;
};

static void consider(struct ranking *r, const struct gp_purchase_fleet *f)
{
    size_t cap = sizeof(r->fleets) / sizeof(r->fleets[0]), at = r->count;

    if (f->nlines == 0)
        return;
    for (size_t i = 0; i < r->count; i++)
        if (same_fleet(&r->fleets[i], f))
            return;
    while (at > 0 && cheaper(f, &r->fleets[at - 1]))
        at--;
    if (at >= cap)
        return;
    size_t last = r->count < cap ? r->count : cap - 1;
    memmove(&r->fleets[at + 1], &r->fleets[at], (last - at) * sizeof(r->fleets[0]));
    r->fleets[at] = *f;
    if (r->count < cap)
        r->count++;
}

/* The working set of one purchase. */
struct purchase {
    const struct gp_purchase_offer *offers;
    size_t count;
    const struct gp_purchase_need *need;
    const struct gp_purchase_options *opt;
    struct ranking ranking;
};

/* Whether offer `i` belongs to the pool of `provider` (NULL: every provider). */
static bool in_pool(const struct purchase *p, size_t i, const char *provider)
{
    return !provider || strcmp(p->offers[i].provider, provider) == 0;
}

/* Buy component `c` from the usable offers of the pool into `f`: the cheapest offer per
 * instance size enters the knapsack (multi-node pools and minimum orders are bought alone). */
static bool pool_component(struct purchase *p, struct gp_purchase_fleet *f, const char *provider,
                           const struct component *c)
{
    struct item items[64];
    size_t n = 0;

    for (size_t i = 0; i < p->count; i++) {
        if (!in_pool(p, i, provider) ||
            offer_stage(&p->offers[i], c->role, p->need, p->opt) != STAGE_USABLE)
            continue;
        struct item it = make_item(p->offers, i, p->need, p->opt, c->duty);
        if (it.groups <= 0 || it.min_instances > 1 || it.groups > DP_LIMIT / 2)
            continue;
        size_t j = 0;
        while (j < n && items[j].groups != it.groups)
            j++;
        if (j == n && n < sizeof(items) / sizeof(items[0]))
            items[n++] = it;
        else if (j < n && it.cost < items[j].cost)
            items[j] = it;
    }
    return buy_component(f, items, n, p->offers, p->need, c);
}

/* Single-tier fleets: with a provider, that provider's cheapest combination; without one,
 * the combination of all providers (when mixing is allowed) and every usable offer alone. */
static void single_tier(struct purchase *p, const char *provider)
{
    struct component all = {GP_PURCHASE_ROLE_ALL, (int)ceil(p->need->groups - 1e-9), 1.0};
    struct gp_purchase_fleet f = {0};

    if (all.groups < 1)
        all.groups = 1;
    /* One cluster is one node shape: no combination of sizes. */
    if (!p->need->one_cluster && (provider || p->opt->allow_mixed_providers) &&
        pool_component(p, &f, provider, &all)) {
        finish(&f, p->offers, p->need->groups, 1.0);
        consider(&p->ranking, &f);
    }
    if (provider)
        return;
    for (size_t i = 0; i < p->count; i++) {
        if (offer_stage(&p->offers[i], all.role, p->need, p->opt) != STAGE_USABLE)
            continue;
        struct item it = make_item(p->offers, i, p->need, p->opt, 1.0);
        memset(&f, 0, sizeof(f));
        add_line(&f, &it, p->offers, p->need, &all, instances_for(&it, p->need, all.groups));
        finish(&f, p->offers, p->need->groups, 1.0);
        consider(&p->ranking, &f);
    }
}

/* A blended fleet from the pool: baseline around the clock, the peak above what the baseline
 * bought on demand for the peak hours, a share of it on spot with over-provisioning. */
static void blended(struct purchase *p, const char *provider)
{
    const struct gp_purchase_profile *pr = &p->opt->profile;
    double duty = pr->peak_hours_per_day / 24.0;
    double factor = pr->spot_factor >= 1 ? pr->spot_factor : gp_purchase_spot_factor(provider);
    struct component base = {GP_PURCHASE_ROLE_BASELINE, (int)ceil(pr->baseline_groups - 1e-9), 1.0};
    struct gp_purchase_fleet f = {0};
    int have = 0;

    if (!pool_component(p, &f, provider, &base))
        return;
    for (size_t i = 0; i < f.nlines; i++)
        have += f.lines[i].groups;
    int above = (int)ceil(pr->peak_groups - 1e-9) - have;
    int spot_net = above > 0 ? (int)ceil(above * pr->spot_share - 1e-9) : 0;
    struct component spot = {GP_PURCHASE_ROLE_SPOT, (int)ceil(spot_net * factor - 1e-9), duty};
    struct gp_purchase_fleet with_spot = f;
    if (spot_net > 0 && pool_component(p, &with_spot, provider, &spot))
        f = with_spot;
    else
        spot_net = 0; /* no spot in the pool: that share goes on demand */
    struct component peak = {GP_PURCHASE_ROLE_PEAK, above - spot_net, duty};
    if (!pool_component(p, &f, provider, &peak))
        return;
    finish(&f, p->offers, pr->peak_groups, factor);
    consider(&p->ranking, &f);
}

/* Run `fn` over every pool: each provider alone, and all together when mixing is allowed. */
static void each_pool(struct purchase *p, void (*fn)(struct purchase *, const char *))
{
    const char *seen[64]; /* the providers met so far; past 64, every earlier offer is asked */
    size_t nseen = 0;

    for (size_t i = 0; i < p->count; i++) {
        const char *provider = p->offers[i].provider;
        bool first = true;
        for (size_t j = 0; j < nseen && first; j++)
            first = strcmp(seen[j], provider) != 0;
        for (size_t j = 0; nseen == sizeof(seen) / sizeof(seen[0]) && j < i && first; j++)
            first = strcmp(p->offers[j].provider, provider) != 0;
        if (!first)
            continue;
        if (nseen < sizeof(seen) / sizeof(seen[0]))
            seen[nseen++] = provider;
        fn(p, provider);
    }
    if (p->opt->allow_mixed_providers || fn == single_tier)
        fn(p, NULL);
}

/* ---- labels ------------------------------------------------------------------------------ */

/* Why nothing could be bought: the furthest any offer got, and the region's exclusions. */
static enum gp_purchase_label diagnose(struct gp_purchase_result *out, const struct purchase *p)
{
    enum gp_purchase_role role = p->opt->blended ? GP_PURCHASE_ROLE_BASELINE : GP_PURCHASE_ROLE_ALL;
    enum stage furthest = STAGE_TIER;

    for (size_t i = 0; i < p->count; i++) {
        enum stage s = offer_stage(&p->offers[i], role, p->need, p->opt);
        if (s == STAGE_REGION) {
            if (out->nexcluded < GP_PURCHASE_MAX_EXCLUDED)
                out->excluded[out->nexcluded++] = i;
            out->excluded_total++;
        }
        if (s > furthest)
            furthest = s;
    }
    if (p->ranking.count > 0)
        return GP_PURCHASE_OK;
    if (p->count == 0)
        return GP_PURCHASE_NO_PUBLIC_PRICE;
    switch (furthest) {
    case STAGE_REGION:
        return GP_PURCHASE_NO_OFFER_IN_REGION;
    case STAGE_TERM:
        return GP_PURCHASE_NO_TERM_IN_HORIZON;
    case STAGE_SHAPE:
        return GP_PURCHASE_NO_FITTING_INSTANCE;
    case STAGE_CLUSTER:
        return GP_PURCHASE_NO_CLUSTER_OFFER;
    case STAGE_USABLE: /* blended: the baseline could be bought but not the peak */
        return GP_PURCHASE_NO_ON_DEMAND_OFFER;
    case STAGE_TIER:
        break;
    }
    switch (p->opt->mode) {
    case GP_PRICING_SPOT:
        return GP_PURCHASE_NO_SPOT_OFFER;
    case GP_PRICING_QUOTE:
        return GP_PURCHASE_NO_QUOTE;
    case GP_PRICING_RESERVED:
        return GP_PURCHASE_NO_RESERVED_OFFER;
    default:
        return GP_PURCHASE_NO_ON_DEMAND_OFFER;
    }
}

void gp_purchase_buy(struct gp_purchase_result *out, const struct gp_purchase_offer *offers,
                     size_t count, const struct gp_purchase_need *need,
                     const struct gp_purchase_options *options)
{
    struct purchase p = {offers, count, need, options, {.count = 0}};

    memset(out, 0, sizeof(*out));
    if (need->group_gpus >= 1 && need->gpus_per_node >= 1 && options->horizon_months >= 1)
        each_pool(&p, options->blended ? blended : single_tier);
    out->label = diagnose(out, &p);
    if (out->label != GP_PURCHASE_OK)
        return;
    out->best = p.ranking.fleets[0];
    out->nalternatives = p.ranking.count - 1;
    memcpy(out->alternatives, &p.ranking.fleets[1],
           out->nalternatives * sizeof(out->alternatives[0]));
}
