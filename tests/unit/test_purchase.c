/* Unit tests for the purchase of a fleet: offers in, whole instances and cost out, for every
 * tier, term, region rule, blended profile and label. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "planner/purchase.h"

#define DAY    86400
#define NOW    1790000000
#define MAX_IN 8

/* Offer shorthands: provider, instance, GPUs per instance, tier, USD per instance-hour. */
#define OD(p, i, g, usd)                                                                           \
    {                                                                                              \
        p, "", "", i, p, g, false, false, GP_TIER_ON_DEMAND, usd, 0, 0, 0, NOW, 0, false           \
    }
#define SPOT(p, i, g, usd)                                                                         \
    {                                                                                              \
        p, "", "", i, p, g, false, false, GP_TIER_SPOT, usd, 0, 0, 0, NOW, 0, false                \
    }
#define RES(p, i, g, usd, m, up)                                                                   \
    {                                                                                              \
        p, "", "", i, p, g, false, false, GP_TIER_RESERVED, usd, m, up, 0, NOW, 0, false           \
    }
#define IN(p, r, j, i, g, usd)                                                                     \
    {                                                                                              \
        p, r, j, i, p, g, false, false, GP_TIER_ON_DEMAND, usd, 0, 0, 0, NOW, 0, false             \
    }

/* The snapshot's B200 and MI355X offers, each in its real rentable unit. */
#define B200_OFFERS                                                                                \
    OD("lambda", "gpu_8x_b200_sxm6", 8, 53.52), OD("lambda", "gpu_1x_b200_sxm6", 1, 6.99),         \
        OD("runpod", "B200 (secure cloud)", 1, 6.79)
#define MI355X_OFFERS                                                                              \
    OD("oci", "BM.GPU.MI355X.8", 8, 68.80),                                                        \
        SPOT("digitalocean", "gpu-mi355x1-288gb-spot", 1, 2.97),                                   \
        SPOT("digitalocean", "gpu-mi355x8-2304gb-spot", 8, 23.76),                                 \
        SPOT("vultr", "vbm-256c-3072gb-8-mi355x-gpu", 8, 20.72)

/* One expected line: which offer (index), how many instances. */
struct want_line {
    int offer, instances;
};

struct buy_case {
    const char *name;
    struct gp_purchase_offer offers[MAX_IN];
    size_t count;
    double groups;
    int group_gpus;
    enum gp_pricing mode;
    int horizon;
    bool mixed;
    enum gp_purchase_label label;
    double usd_per_hour; /* best fleet */
    int gpus;            /* bought */
    struct want_line lines[3];
    size_t nlines;
    double alternative; /* the first alternative's USD/h; 0 = none expected */
};

static const struct buy_case cases[] = {
    {.name = "issue: 3 B200 are 3 x RunPod, not 3/8 of a Lambda machine",
     .offers = {B200_OFFERS},
     .count = 3,
     .groups = 2.6,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 20.37,
     .gpus = 3,
     .lines = {{2, 3}},
     .nlines = 1,
     .alternative = 20.97},
    {.name = "issue: MI355X is one OCI 8-GPU shape",
     .offers = {MI355X_OFFERS},
     .count = 4,
     .groups = 2.6,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 68.8,
     .gpus = 8,
     .lines = {{0, 1}},
     .nlines = 1},
    {.name = "spot MI355X: three 1-GPU spot droplets",
     .offers = {MI355X_OFFERS},
     .count = 4,
     .groups = 2.6,
     .group_gpus = 1,
     .mode = GP_PRICING_SPOT,
     .horizon = 1,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 8.91,
     .gpus = 3,
     .lines = {{1, 3}},
     .nlines = 1,
     .alternative = 20.72},
    {.name = "a TP group of 2 never spans two 1-GPU instances",
     .offers = {B200_OFFERS},
     .count = 3,
     .groups = 3,
     .group_gpus = 2,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 53.52,
     .gpus = 8,
     .lines = {{0, 1}},
     .nlines = 1},
    {.name = "one provider combines an 8-GPU machine with 1-GPU instances",
     .offers = {OD("a", "x8", 8, 40), OD("a", "x1", 1, 6)},
     .count = 2,
     .groups = 10,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 52,
     .gpus = 10,
     .lines = {{0, 1}, {1, 2}},
     .nlines = 2,
     .alternative = 60},
    {.name = "providers do not mix by default",
     .offers = {OD("a", "x8", 8, 40), OD("b", "x1", 1, 6)},
     .count = 2,
     .groups = 10,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 60,
     .gpus = 10,
     .lines = {{1, 10}},
     .nlines = 1,
     .alternative = 80},
    {.name = "providers mix when the workload allows it",
     .offers = {OD("a", "x8", 8, 40), OD("b", "x1", 1, 6)},
     .count = 2,
     .groups = 10,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .mixed = true,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 52,
     .gpus = 10,
     .lines = {{0, 1}, {1, 2}},
     .nlines = 2,
     .alternative = 60},
    {.name = "a 12-month reservation does not fit a 1-month horizon",
     .offers = {OD("a", "od", 8, 50), RES("a", "r12", 8, 30, 12, 0)},
     .count = 2,
     .groups = 8,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 50,
     .gpus = 8,
     .lines = {{0, 1}},
     .nlines = 1},
    {.name = "a 12-month reservation over a 12-month horizon",
     .offers = {OD("a", "od", 8, 50), RES("a", "r12", 8, 30, 12, 0)},
     .count = 2,
     .groups = 8,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 12,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 30,
     .gpus = 8,
     .lines = {{1, 1}},
     .nlines = 1,
     .alternative = 50},
    {.name = "18 months pay two 12-month terms",
     .offers = {OD("a", "od", 8, 50), RES("a", "r12", 8, 30, 12, 0)},
     .count = 2,
     .groups = 8,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 18,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 40,
     .gpus = 8,
     .lines = {{1, 1}},
     .nlines = 1,
     .alternative = 50},
    {.name = "reserved mode with only a long term",
     .offers = {OD("a", "od", 8, 50), RES("a", "r36", 8, 20, 36, 0)},
     .count = 2,
     .groups = 8,
     .group_gpus = 1,
     .mode = GP_PRICING_RESERVED,
     .horizon = 12,
     .label = GP_PURCHASE_NO_TERM_IN_HORIZON},
    {.name = "nothing published",
     .count = 0,
     .groups = 3,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .label = GP_PURCHASE_NO_PUBLIC_PRICE},
    {.name = "spot asked, only on-demand published",
     .offers = {B200_OFFERS},
     .count = 3,
     .groups = 3,
     .group_gpus = 1,
     .mode = GP_PRICING_SPOT,
     .horizon = 1,
     .label = GP_PURCHASE_NO_SPOT_OFFER},
    {.name = "quote asked, none entered",
     .offers = {B200_OFFERS},
     .count = 3,
     .groups = 3,
     .group_gpus = 1,
     .mode = GP_PRICING_QUOTE,
     .horizon = 1,
     .label = GP_PURCHASE_NO_QUOTE},
    {.name = "only spot published: nothing non-preemptible",
     .offers = {SPOT("vultr", "x8", 8, 20)},
     .count = 1,
     .groups = 3,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .label = GP_PURCHASE_NO_ON_DEMAND_OFFER},
    {.name = "a TP group of 8 on 1-GPU instances",
     .offers = {OD("a", "x1", 1, 6)},
     .count = 1,
     .groups = 1,
     .group_gpus = 8,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .label = GP_PURCHASE_NO_FITTING_INSTANCE},
    {.name = "large fleets are bought in bulk, the remainder exactly",
     .offers = {OD("a", "x8", 8, 40), OD("a", "x1", 1, 6)},
     .count = 2,
     .groups = 10001,
     .group_gpus = 1,
     .mode = GP_PRICING_CHEAPEST,
     .horizon = 1,
     .label = GP_PURCHASE_OK,
     .usd_per_hour = 50006,
     .gpus = 10001,
     .lines = {{0, 1250}, {1, 1}},
     .nlines = 2,
     .alternative = 50040},
};

static const struct gp_purchase_line *line_of(const struct gp_purchase_fleet *f, size_t offer)
{
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].offer == offer)
            return &f->lines[i];
    return NULL;
}

/* Every fleet's cost is its whole instances times real instance prices. */
static void check_fleet_cost(const struct gp_purchase_fleet *f,
                             const struct gp_purchase_offer *offers)
{
    double sum = 0;
    int gpus = 0;

    for (size_t i = 0; i < f->nlines; i++) {
        const struct gp_purchase_line *l = &f->lines[i];
        sum += l->instances * offers[l->offer].usd_per_instance_hour * l->duty;
        gpus += l->instances * offers[l->offer].gpus_per_instance;
        assert_int_equal(l->gpus, l->instances * offers[l->offer].gpus_per_instance);
    }
    assert_int_equal(f->gpus, gpus);
    assert_true(f->usd_per_hour >= sum - 1e-6);
    assert_true(fabs(f->usd_per_month - f->usd_per_hour * 730) < 1e-6);
}

static void test_buy_cases(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const struct buy_case *k = &cases[c];
        struct gp_purchase_need need = {k->groups, k->group_gpus, 8, false};
        struct gp_purchase_options opt;
        struct gp_purchase_result r;

        print_message("case: %s\n", k->name);
        gp_purchase_options_init(&opt);
        opt.mode = k->mode;
        opt.horizon_months = k->horizon;
        opt.allow_mixed_providers = k->mixed;
        opt.now = NOW;
        gp_purchase_buy(&r, k->offers, k->count, &need, &opt);
        assert_int_equal(r.label, k->label);
        if (k->label != GP_PURCHASE_OK)
            continue;
        assert_true(fabs(r.best.usd_per_hour - k->usd_per_hour) < 1e-6);
        assert_int_equal(r.best.gpus, k->gpus);
        assert_int_equal(r.best.nlines, k->nlines);
        for (size_t i = 0; i < k->nlines; i++) {
            const struct gp_purchase_line *l = line_of(&r.best, (size_t)k->lines[i].offer);
            assert_non_null(l);
            assert_int_equal(l->instances, k->lines[i].instances);
        }
        assert_true(r.best.groups >= (int)ceil(k->groups - 1e-9));
        assert_true(fabs(r.best.headroom - (r.best.groups / k->groups - 1)) < 1e-9);
        check_fleet_cost(&r.best, k->offers);
        if (k->alternative > 0) {
            assert_true(r.nalternatives >= 1);
            assert_true(fabs(r.alternatives[0].usd_per_hour - k->alternative) < 1e-6);
        }
        for (size_t i = 0; i < r.nalternatives; i++) {
            check_fleet_cost(&r.alternatives[i], k->offers);
            assert_true(r.alternatives[i].usd_per_hour >= r.best.usd_per_hour - 1e-9);
        }
        assert_int_equal(r.best.mixed_providers, k->mixed && k->nlines > 1);
    }
}

/* B200 alternatives come cheapest first: Lambda's three 1-GPU instances, then its machine. */
static void test_alternatives_ranked(void **state)
{
    const struct gp_purchase_offer offers[] = {B200_OFFERS};
    struct gp_purchase_need need = {2.6, 1, 8, false};
    struct gp_purchase_options opt;
    struct gp_purchase_result r;

    (void)state;
    gp_purchase_options_init(&opt);
    gp_purchase_buy(&r, offers, 3, &need, &opt);
    assert_int_equal(r.nalternatives, 2);
    assert_string_equal(offers[r.alternatives[0].lines[0].offer].instance_type, "gpu_1x_b200_sxm6");
    assert_string_equal(offers[r.alternatives[1].lines[0].offer].instance_type, "gpu_8x_b200_sxm6");
    assert_true(fabs(r.alternatives[1].headroom - (8 / 2.6 - 1)) < 1e-9);
}

/* Region globs and jurisdictions; an EU plan names the offers it could not use. */
static void test_region_rules(void **state)
{
    const struct gp_purchase_offer offers[] = {
        IN("a", "us-east-1", "us", "x1", 1, 5),
        IN("b", "eu-north-1", "eu", "x1", 1, 7),
        IN("c", "no-oslo", "eea", "x1", 1, 6),
        IN("d", "", "", "x1", 1, 1),
    };
    struct gp_purchase_need need = {2, 1, 8, false};
    struct gp_purchase_options opt;
    struct gp_purchase_result r;

    (void)state;
    gp_purchase_options_init(&opt);
    opt.jurisdiction = "eu";
    gp_purchase_buy(&r, offers, 4, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_OK);
    assert_int_equal(r.best.lines[0].offer, 1);
    assert_int_equal(r.excluded_total, 3);
    assert_int_equal(r.nexcluded, 3);
    assert_int_equal(r.excluded[0], 0);

    opt.jurisdiction = "eea"; /* EU members are in the EEA */
    gp_purchase_buy(&r, offers, 4, &need, &opt);
    assert_int_equal(r.best.lines[0].offer, 2);
    assert_int_equal(r.excluded_total, 2);

    opt.jurisdiction = NULL;
    opt.region = "eu-*";
    gp_purchase_buy(&r, offers, 4, &need, &opt);
    assert_int_equal(r.best.lines[0].offer, 1);

    opt.region = "ap-*";
    gp_purchase_buy(&r, offers, 4, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_NO_OFFER_IN_REGION);
    assert_int_equal(r.excluded_total, 4);
}

/* Quotes: an expired one is not used; a minimum order is bought whole; a multi-node cluster
 * lets a TP group span instances. */
static void test_quotes_and_clusters(void **state)
{
    struct gp_purchase_offer offers[] = {
        {"quote", "", "", "q1", "quote:1", 1, false, false, GP_TIER_QUOTE, 2.0, 0, 0, NOW - DAY,
         NOW - 30 * DAY, 16, false},
        OD("runpod", "B200 (secure cloud)", 1, 6.79),
    };
    struct gp_purchase_need need = {3, 1, 8, false};
    struct gp_purchase_options opt;
    struct gp_purchase_result r;

    (void)state;
    gp_purchase_options_init(&opt);
    opt.now = NOW;
    opt.mode = GP_PRICING_QUOTE;
    gp_purchase_buy(&r, offers, 2, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_NO_QUOTE); /* expired */

    offers[0].valid_until = NOW + DAY;
    gp_purchase_buy(&r, offers, 2, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_OK);
    assert_int_equal(r.best.instances, 16); /* the quote's minimum order */
    assert_true(fabs(r.best.usd_per_hour - 32.0) < 1e-9);

    opt.mode = GP_PRICING_CHEAPEST;
    gp_purchase_buy(&r, offers, 2, &need, &opt);
    assert_true(fabs(r.best.usd_per_hour - 3 * 6.79) < 1e-9);
    assert_true(fabs(r.alternatives[0].usd_per_hour - 32.0) < 1e-9);

    /* Rented by the GPU: each TP group of 4 is one 4-GPU instance, two groups fill a node. */
    need.group_gpus = 4;
    offers[1].per_gpu = true;
    gp_purchase_buy(&r, offers + 1, 1, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_OK);
    assert_int_equal(r.best.instances, 3);
    assert_int_equal(r.best.gpus, 12);
    assert_int_equal(r.best.nodes, 2);
    assert_true(fabs(r.best.usd_per_hour - 12 * 6.79) < 1e-9);
    offers[1].per_gpu = false;

    /* TP 4 over 1-GPU instances: only as a multi-node cluster. */
    need.group_gpus = 4;
    gp_purchase_buy(&r, offers + 1, 1, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_NO_FITTING_INSTANCE);
    offers[1].cluster = true;
    gp_purchase_buy(&r, offers + 1, 1, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_OK);
    assert_int_equal(r.best.instances, 12);
    assert_int_equal(r.best.groups, 3);
}

/* One job over several instances (training) is one cluster: one offer whose nodes share a
 * fabric, never separate machines, never a mix of sizes; one instance that holds it all needs
 * none. */
static void test_one_cluster(void **state)
{
    struct gp_purchase_offer offers[] = {
        OD("lambda", "gpu_8x_b200_sxm6", 8, 53.52),
        OD("lambda", "gpu_1x_b200_sxm6", 1, 6.99),
        OD("runpod", "B200 (secure cloud)", 1, 6.79),
        OD("oci", "BM.GPU.B200.8", 8, 80.0),
    };
    struct gp_purchase_need need = {23, 1, 8, true};
    struct gp_purchase_options opt;
    struct gp_purchase_result r;

    (void)state;
    gp_purchase_options_init(&opt);
    offers[2].per_gpu = true;
    gp_purchase_buy(&r, offers, 3, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_NO_CLUSTER_OFFER);

    offers[3].cluster = true; /* dearer, but the only fabric */
    gp_purchase_buy(&r, offers, 4, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_OK);
    assert_int_equal(r.best.nlines, 1);
    assert_int_equal(r.best.lines[0].offer, 3);
    assert_int_equal(r.best.instances, 3);
    for (size_t i = 0; i < r.nalternatives; i++)
        assert_int_equal(r.alternatives[i].lines[0].offer, 3); /* no cluster-less runner-up */

    /* Six GPUs fit one 8-GPU machine, or one per-GPU pod of six: no fabric needed. */
    need.groups = 6;
    gp_purchase_buy(&r, offers, 3, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_OK);
    assert_int_equal(r.best.instances, 1);
    assert_int_equal(r.best.lines[0].offer, 2);
    assert_int_equal(r.best.gpus, 6);
    assert_true(fabs(r.best.usd_per_hour - 6 * 6.79) < 1e-9);

    /* Without one_cluster the same need combines sizes across machines, as replicas may. */
    need.groups = 23;
    need.one_cluster = false;
    gp_purchase_buy(&r, offers, 3, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_OK);
    assert_true(r.best.instances > 1);
}

/* Upfront payment of a reservation over the horizon. */
static void test_upfront(void **state)
{
    const struct gp_purchase_offer offers[] = {RES("a", "r12", 1, 10, 12, 0.5)};
    struct gp_purchase_need need = {1, 1, 8, false};
    struct gp_purchase_options opt;
    struct gp_purchase_result r;

    (void)state;
    gp_purchase_options_init(&opt);
    opt.horizon_months = 12;
    gp_purchase_buy(&r, offers, 1, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_OK);
    assert_true(fabs(r.best.upfront_usd - 0.5 * 10 * 730 * 12) < 1e-6);
    assert_true(fabs(r.best.usd_per_month - 10 * 730) < 1e-6);
}

/* Blended: baseline reserved around the clock, peak on demand for its hours, half of the peak
 * on spot with over-provisioning. */
static void test_blended(void **state)
{
    const struct gp_purchase_offer offers[] = {
        RES("a", "r1", 1, 2, 1, 0),
        OD("a", "od1", 1, 4),
        SPOT("a", "sp1", 1, 1),
        OD("b", "od1", 1, 3),
    };
    struct gp_purchase_need need = {10, 1, 8, false};
    struct gp_purchase_options opt;
    struct gp_purchase_result r;

    (void)state;
    gp_purchase_options_init(&opt);
    opt.blended = true;
    opt.profile = (struct gp_purchase_profile){4, 10, 6, 0.5, 1.5};
    gp_purchase_buy(&r, offers, 4, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_OK);
    /* 4 x 2 + 5 spot x 1 x 6/24 + 3 on demand x 4 x 6/24 */
    assert_true(fabs(r.best.usd_per_hour - (8 + 1.25 + 3)) < 1e-9);
    assert_int_equal(r.best.nlines, 3);
    assert_int_equal(r.best.groups, 10);
    assert_true(fabs(r.best.headroom) < 1e-9);
    for (size_t i = 0; i < r.best.nlines; i++) {
        const struct gp_purchase_line *l = &r.best.lines[i];
        enum gp_purchase_role want[] = {GP_PURCHASE_ROLE_BASELINE, GP_PURCHASE_ROLE_PEAK,
                                        GP_PURCHASE_ROLE_SPOT};
        assert_int_equal(l->role, want[l->offer]);
        const int instances[] = {4, 3, 5};
        assert_int_equal(l->instances, instances[l->offer]);
    }
    /* Provider b alone: everything on demand, the peak part for its hours only. */
    assert_int_equal(r.nalternatives, 1);
    assert_true(fabs(r.alternatives[0].usd_per_hour - (4 * 3 + 6 * 3 * 0.25)) < 1e-9);

    /* Mixing allowed: b's cheaper on-demand takes the peak. */
    opt.allow_mixed_providers = true;
    gp_purchase_buy(&r, offers, 4, &need, &opt);
    assert_true(fabs(r.best.usd_per_hour - (8 + 1.25 + 3 * 3 * 0.25)) < 1e-9);
    assert_true(r.best.mixed_providers);

    /* No spot at all: the spot share goes on demand; the default factor applies. */
    opt.allow_mixed_providers = false;
    opt.profile.spot_factor = 0;
    gp_purchase_buy(&r, offers, 2, &need, &opt);
    assert_true(fabs(r.best.usd_per_hour - (8 + 6 * 4 * 0.25)) < 1e-9);
}

/* More providers than the pool walk keeps in its list: the 78th still has its own pool, where a
 * 2-GPU and a 1-GPU machine together (4.60) beat every single offer (3 x 1.60 = 4.80 at best). */
static void test_many_providers(void **state)
{
    struct gp_purchase_offer offers[160];
    struct gp_purchase_need need = {3, 1, 8, false};
    struct gp_purchase_options opt;
    struct gp_purchase_result r;
    char names[80][8];

    (void)state;
    for (int p = 0; p < 80; p++) {
        snprintf(names[p], sizeof(names[p]), "p%02d", p);
        offers[2 * p] = (struct gp_purchase_offer)OD("", "one", 1, p == 77 ? 1.6 : 2.0);
        offers[2 * p + 1] = (struct gp_purchase_offer)OD("", "two", 2, p == 77 ? 3.0 : 4.4);
        for (int k = 0; k < 2; k++) {
            snprintf(offers[2 * p + k].provider, sizeof(offers[2 * p + k].provider), "%s",
                     names[p]);
            snprintf(offers[2 * p + k].source, sizeof(offers[2 * p + k].source), "%s", names[p]);
        }
    }
    gp_purchase_options_init(&opt);
    gp_purchase_buy(&r, offers, 160, &need, &opt);
    assert_int_equal(r.label, GP_PURCHASE_OK);
    assert_true(fabs(r.best.usd_per_hour - 4.6) < 1e-9);
    assert_int_equal(r.best.nlines, 2);
    assert_string_equal(offers[r.best.lines[0].offer].provider, "p77");
    assert_int_equal(r.best.gpus, 3);
}

static void test_spot_factor(void **state)
{
    (void)state;
    /* 8 GPUs at 30,000 x 1.6, 2,000/month to run, 20,000/month to rent: 21.3 months. */
    assert_true(fabs(gp_purchase_break_even_months(384000, 2000, 20000) - 384000 / 18000.0) < 1e-9);
    assert_true(gp_purchase_break_even_months(384000, 2000, 2000) < 0);
    assert_true(gp_purchase_break_even_months(384000, 3000, 2000) < 0);
    assert_true(fabs(gp_purchase_spot_factor("aws") - 1.25) < 1e-9);
    assert_true(fabs(gp_purchase_spot_factor("vultr") - 1.5) < 1e-9);
    assert_true(fabs(gp_purchase_spot_factor(NULL) - 1.5) < 1e-9);
    assert_string_equal(gp_tier_name(GP_TIER_CAPACITY_BLOCK), "capacity-block");
    assert_string_equal(gp_purchase_role_name(GP_PURCHASE_ROLE_SPOT), "spot");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buy_cases),      cmocka_unit_test(test_alternatives_ranked),
        cmocka_unit_test(test_region_rules),   cmocka_unit_test(test_quotes_and_clusters),
        cmocka_unit_test(test_upfront),        cmocka_unit_test(test_blended),
        cmocka_unit_test(test_many_providers), cmocka_unit_test(test_spot_factor),
        cmocka_unit_test(test_one_cluster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
