/* Plans bought from offers: every row of every preset costs whole instances of real snapshot
 * offers, the issue's two fleets, and the reserved, spot, blended, region and owned modes on
 * fixture offers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/capex.h"
#include "catalog/catalog.h"
#include "catalog/data.h"
#include "catalog/fx.h"
#include "planner/buy.h"
#include "planner/plan.h"
#include "pricing/pricelist.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/timeutil.h"

#define DAY 86400

static struct gp_catalog cat;
static struct gp_efficiency_table effs;
static struct gp_model_table models;
static struct gp_fx_table fx;
static struct gp_pricelist snapshot;
static struct gp_capex_table capex;
static const struct gp_gpu *all_gpus[16];
static int64_t now; /* a week after the snapshot's newest price */

static int read_data(const char *rel, struct gp_buf *text, char *origin, size_t size)
{
    gp_buf_init(text, 1 << 20);
    return gp_data_read(text, rel, origin, size);
}

static int setup(void **state)
{
    struct gp_buf text;
    char origin[256];
    (void)state;

    if (gp_catalog_load(&cat) || gp_fx_load(&fx) || gp_capex_load(&capex) ||
        gp_pricelist_load_snapshot(&snapshot, &cat, &fx))
        return -1;
    if (read_data("efficiency.json", &text, origin, sizeof(origin)) ||
        gp_efficiency_table_parse(&effs, gp_buf_str(&text), text.len, origin))
        return -1;
    gp_buf_release(&text);
    if (read_data("models.json", &text, origin, sizeof(origin)) ||
        gp_model_table_parse(&models, gp_buf_str(&text), text.len, origin))
        return -1;
    gp_buf_release(&text);
    for (size_t i = 0; i < cat.count && i < 16; i++)
        all_gpus[i] = &cat.gpus[i];
    return gp_time_parse("2026-10-07", &now);
}

static int teardown(void **state)
{
    (void)state;
    gp_catalog_release(&cat);
    gp_efficiency_table_release(&effs);
    gp_model_table_release(&models);
    gp_fx_release(&fx);
    gp_capex_release(&capex);
    gp_pricelist_release(&snapshot);
    return 0;
}

static void load_workload(struct gp_workload *w, const char *rel)
{
    struct gp_buf text;
    char origin[256];

    assert_int_equal(read_data(rel, &text, origin, sizeof(origin)), 0);
    assert_int_equal(gp_workload_parse(w, gp_buf_str(&text), text.len, origin, &models), 0);
    gp_buf_release(&text);
}

static void request(struct gp_plan_request *req, const char *workload)
{
    assert_int_equal(gp_plan_request_init(req, &fx, "USD", now), 0);
    load_workload(&req->base.workload, workload);
    req->gpus = all_gpus;
    req->gpu_count = cat.count;
    req->efficiencies = &effs;
    req->offers = snapshot.offers;
    req->offer_count = snapshot.count;
    req->capex = &capex;
}

/* The snapshot offer of `gpu` at `provider` named `instance_type`, or NULL. */
static const struct gp_offer *snapshot_offer(const char *gpu, const char *provider,
                                             const char *instance_type, enum gp_tier tier)
{
    for (size_t i = 0; i < snapshot.count; i++) {
        const struct gp_offer *o = &snapshot.offers[i];
        if (!strcmp(o->gpu_id, gpu) && !strcmp(o->provider, provider) &&
            !strcmp(o->instance_type, instance_type) && o->tier == tier)
            return o;
    }
    return NULL;
}

/* A row's cost is its instances times real offers' instance prices: "N x TYPE + M x TYPE". */
static void check_row_is_bought(const struct gp_plan_row *r)
{
    char lines[256];
    double sum = 0;
    int gpus = 0, instances = 0;
    enum gp_tier tier = (enum gp_tier)gp_tier_parse(r->price_tier);

    if (r->price_mix[0])
        snprintf(lines, sizeof(lines), "%s", r->price_mix);
    else
        snprintf(lines, sizeof(lines), "%d x %s", r->instances, r->instance_type);
    for (char *part = lines; part && *part;) {
        char *next = strstr(part, " + ");
        char *x = strstr(part, " x ");
        if (next)
            *next = '\0';
        assert_non_null(x);
        *x = '\0';
        const struct gp_offer *o = snapshot_offer(r->gpu, r->provider, x + 3, tier);
        if (!o)
            fail_msg("%s: no %s offer '%s' at %s", r->gpu, r->price_tier, x + 3, r->provider);
        int n = (int)strtol(part, NULL, 10);
        /* Rented by the GPU: an instance is one replica's (TP group's) GPUs at the GPU price. */
        bool per_gpu = o->unit == GP_UNIT_GPU_HOUR && o->gpus_per_instance == 1;
        int unit = per_gpu ? gp_plan_row_group_gpus(r) : o->gpus_per_instance;
        sum += n * (per_gpu ? o->usd_per_gpu_hour * unit : o->usd_per_instance_hour);
        gpus += n * unit;
        instances += n;
        part = next ? next + 3 : NULL;
    }
    assert_float_equal(r->cost_per_hour, sum, 1e-9);
    assert_int_equal(r->gpus, gpus);
    assert_int_equal(r->instances, instances);
    assert_true(r->gpus >= r->gpus_needed);
    assert_true(r->headroom >= -1e-9);
}

static void test_every_preset_row_is_bought(void **state)
{
    char **files = NULL;
    size_t n = 0, checked = 0;
    (void)state;

    assert_int_equal(gp_data_list(&files, &n, "workloads", ".json"), 0);
    assert_true(n >= 5);
    for (size_t f = 0; f < n; f++) {
        struct gp_plan_request req;
        struct gp_plan_result res;
        request(&req, files[f]);
        assert_int_equal(gp_plan_run(&res, &req), 0);
        for (size_t i = 0; i < res.count; i++) {
            const struct gp_plan_row *r = &res.rows[i];
            if (!r->price_known || r->gpus <= 0)
                continue;
            print_message("%s %s: %d x %s = %.2f/h\n", files[f], r->gpu, r->instances,
                          r->instance_type, r->cost_per_hour);
            check_row_is_bought(r);
            checked++;
        }
        gp_plan_result_release(&res);
    }
    assert_true(checked >= 20);
    gp_data_list_free(files, n);
}

/* Buy one row of `gpu` at `rate` requests/s: evaluated at the unit price, then bought under
 * a context with `memo` (NULL: none). */
static void buy_row(struct gp_plan_row *row, struct gp_plan_input *in, const struct gp_gpu *gpu,
                    const struct gp_efficiency *eff, const struct gp_buy_offers *offers,
                    struct gp_buy_memo *memo, int rate)
{
    struct gp_buy_context ctx = {GP_PRICING_CHEAPEST, 1, NULL, NULL, now, 7, memo};
    struct gp_price unit;
    char value[16];

    snprintf(value, sizeof(value), "%d", rate);
    assert_int_equal(gp_plan_apply(in, "requests_per_s", value), 0);
    gp_plan_buy_unit_price(&unit);
    gp_plan_evaluate(row, &in->workload, &in->assumptions, gpu, eff, &unit);
    gp_plan_buy(row, &in->workload, &in->assumptions, gpu, eff, offers, &ctx);
}

/* Rows bought through a memo, as a sweep buys them (the same purchase for neighbouring needs,
 * described once), are byte for byte the rows bought afresh, up and down a range of rates. */
static void test_memo_buys_as_fresh(void **state)
{
    struct gp_plan_request req;
    size_t compared = 0, reused = 0;
    (void)state;

    request(&req, "workloads/chat-llama-3.1-70b.json");
    for (size_t g = 0; g < cat.count; g++) {
        const struct gp_gpu *gpu = &cat.gpus[g];
        struct gp_efficiency eff;
        struct gp_buy_offers offers = {0};
        static struct gp_buy_memo memo;
        static struct gp_plan_row remembered, fresh;
        int last_gpus = -1;

        gp_efficiency_resolve(&eff, &effs, gpu->id);
        assert_int_equal(
            gp_buy_offers_collect(&offers, gpu->id, snapshot.offers, snapshot.count, 0, NULL), 0);
        memset(&memo, 0, sizeof(memo));
        for (int step = 0; step < 120; step++) {
            int rate = step < 60 ? 1 + step : 120 - step;
            struct gp_plan_input in = req.base;
            buy_row(&remembered, &in, gpu, &eff, &offers, &memo, rate);
            in = req.base;
            buy_row(&fresh, &in, gpu, &eff, &offers, NULL, rate);
            assert_memory_equal(&remembered, &fresh, sizeof(fresh));
            reused += remembered.price_known && remembered.gpus == last_gpus;
            last_gpus = remembered.gpus;
            compared++;
        }
        gp_buy_offers_release(&offers);
    }
    assert_int_equal(compared, 120 * cat.count);
    assert_true(reused > 100);
}

/* The row of `gpu` in `res`. */
static const struct gp_plan_row *row_of(const struct gp_plan_result *res, const char *gpu)
{
    for (size_t i = 0; i < res->count; i++)
        if (strcmp(res->rows[i].gpu, gpu) == 0)
            return &res->rows[i];
    fail_msg("no row for %s", gpu);
    return NULL;
}

/* The issue's two fleets as it sized them (3 GPUs each: the planner entry point without a stack
 * profile): 3 B200 are 3 x RunPod at $6.79, $20.37/h, not 3/8 of a Lambda machine; 3 MI355X are
 * OCI's whole 8-GPU machine, $68.80/h, not 3/8 of it. (The CLI's default stack profiles size
 * the preset at 2 B200 and 4 MI355X: docs/pricing.md.) */
static void test_issue_fleets(void **state)
{
    struct gp_plan_request req;
    struct gp_plan_result res;
    (void)state;

    request(&req, "workloads/chat-llama-3.1-70b.json");
    assert_int_equal(gp_plan_run(&res, &req), 0);
    const struct gp_plan_row *b200 = row_of(&res, "b200");
    assert_int_equal(b200->gpus_needed, 3);
    assert_int_equal(b200->gpus, 3);
    assert_int_equal(b200->instances, 3);
    assert_string_equal(b200->provider, "runpod");
    assert_float_equal(b200->cost_per_hour, 20.37, 1e-9);
    assert_true(b200->nalternatives >= 1);
    assert_string_equal(b200->alternatives[0].instance_type, "gpu_1x_b200_sxm6");
    assert_float_equal(b200->alternatives[0].cost_per_hour, 3 * 6.99, 1e-9);
    const struct gp_plan_row *mi355x = row_of(&res, "mi355x");
    const struct gp_offer *oci =
        snapshot_offer("mi355x", "oci", "BM.GPU.MI355X.8", GP_TIER_ON_DEMAND);
    assert_non_null(oci);
    assert_int_equal(mi355x->gpus_needed, 3);
    assert_int_equal(mi355x->gpus, 8);
    assert_string_equal(mi355x->instance_type, "BM.GPU.MI355X.8");
    assert_float_equal(mi355x->cost_per_hour, 68.80, 1e-9);
    assert_int_equal(mi355x->instances,
                     (mi355x->gpus_needed + oci->gpus_per_instance - 1) / oci->gpus_per_instance);
    assert_float_equal(mi355x->cost_per_hour, mi355x->instances * oci->usd_per_instance_hour, 1e-9);
    gp_plan_result_release(&res);
}

/* Fixture offers for H200 in 2-GPU instances (the chat preset runs TP 2 on it): on-demand,
 * spot, a 12-month reservation, an EU offer. */
static struct gp_offer fixture_offer(const char *provider, const char *type, int gpus,
                                     enum gp_tier tier, double usd, int term)
{
    struct gp_offer o;

    memset(&o, 0, sizeof(o));
    snprintf(o.provider, sizeof(o.provider), "%s", provider);
    snprintf(o.instance_type, sizeof(o.instance_type), "%s", type);
    snprintf(o.gpu_id, sizeof(o.gpu_id), "h200-sxm");
    snprintf(o.region, sizeof(o.region), "us-east");
    snprintf(o.jurisdiction, sizeof(o.jurisdiction), "us");
    o.gpus_per_instance = gpus;
    o.tier = tier;
    o.term_months = term;
    o.usd_per_instance_hour = usd;
    o.usd_per_gpu_hour = usd / gpus;
    o.observed_at = now - DAY;
    return o;
}

static void fixture(struct gp_plan_request *req, struct gp_offer *offers,
                    const struct gp_gpu **gpus)
{
    request(req, "workloads/chat-llama-3.1-70b.json");
    offers[0] = fixture_offer("a", "od2", 2, GP_TIER_ON_DEMAND, 8.0, 0);
    offers[1] = fixture_offer("a", "sp2", 2, GP_TIER_SPOT, 2.0, 0);
    offers[2] = fixture_offer("a", "r2", 2, GP_TIER_RESERVED, 5.0, 12);
    offers[3] = fixture_offer("b", "eu2", 2, GP_TIER_ON_DEMAND, 10.0, 0);
    snprintf(offers[3].region, sizeof(offers[3].region), "eu-north");
    snprintf(offers[3].jurisdiction, sizeof(offers[3].jurisdiction), "eu");
    gpus[0] = gp_catalog_find(&cat, "h200-sxm");
    req->gpus = gpus;
    req->gpu_count = 1;
    req->offers = offers;
    req->offer_count = 4;
}

/* Spot, reserved within and beyond the horizon, region rules. */
static void test_tiers_on_fixtures(void **state)
{
    struct gp_offer offers[4];
    const struct gp_gpu *gpus[1];
    struct gp_plan_request req;
    struct gp_plan_result res;
    (void)state;

    fixture(&req, offers, gpus);
    assert_int_equal(gp_plan_run(&res, &req), 0);
    const struct gp_plan_row *r = &res.rows[0];
    int need = r->gpus_needed;
    assert_string_equal(r->instance_type, "od2"); /* the reservation needs 12 months */
    assert_float_equal(r->cost_per_hour, need * 4.0, 1e-9);
    gp_plan_result_release(&res);

    req.horizon_months = 12;
    assert_int_equal(gp_plan_run(&res, &req), 0);
    r = &res.rows[0];
    assert_string_equal(r->price_tier, "reserved");
    assert_int_equal(r->instances, need / 2); /* TP 2 on 2-GPU instances */
    assert_float_equal(r->cost_per_hour, need * 2.5, 1e-9);
    assert_true(r->headroom >= 0 && r->headroom < 1);
    gp_plan_result_release(&res);

    req.horizon_months = 1;
    req.pricing = GP_PRICING_SPOT;
    assert_int_equal(gp_plan_run(&res, &req), 0);
    assert_string_equal(res.rows[0].instance_type, "sp2");
    assert_float_equal(res.rows[0].cost_per_hour, need * 1.0, 1e-9);
    gp_plan_result_release(&res);

    req.pricing = GP_PRICING_RESERVED;
    assert_int_equal(gp_plan_run(&res, &req), 0);
    assert_false(res.rows[0].price_known);
    assert_true(res.rows[0].notes & GP_NOTE_NO_TERM_IN_HORIZON);
    gp_plan_result_release(&res);

    req.pricing = GP_PRICING_CHEAPEST;
    req.jurisdiction = "eu";
    assert_int_equal(gp_plan_run(&res, &req), 0);
    assert_string_equal(res.rows[0].provider, "b");
    assert_int_equal(res.rows[0].excluded_offers, 2); /* on-demand and reserved; not spot */
    assert_non_null(strstr(res.rows[0].excluded, "a od2 (us-east)"));
    gp_plan_result_release(&res);

    req.jurisdiction = NULL;
    req.region = "ap-*";
    assert_int_equal(gp_plan_run(&res, &req), 0);
    assert_true(res.rows[0].notes & GP_NOTE_NO_OFFER_IN_REGION);
    assert_false(res.rows[0].price_known);
    gp_plan_result_release(&res);
}

/* A reserved offer with no published term is a contract of at least 12 months: never bought
 * for a shorter horizon, priced flat over a longer one, and the row says term-unknown. Table:
 * the horizon and whether the offer is bought. */
static void test_term_unknown(void **state)
{
    static const struct {
        int horizon;
        bool bought;
    } cases[] = {{1, false}, {11, false}, {12, true}, {13, true}, {36, true}};
    struct gp_offer offers[4];
    const struct gp_gpu *gpus[1];
    struct gp_plan_request req;
    struct gp_plan_result res;
    (void)state;

    fixture(&req, offers, gpus);
    offers[0] = fixture_offer("do", "c2", 2, GP_TIER_RESERVED, 3.0, 0); /* term: not published */
    req.offer_count = 1;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        req.horizon_months = cases[i].horizon;
        assert_int_equal(gp_plan_run(&res, &req), 0);
        const struct gp_plan_row *r = &res.rows[0];
        assert_int_equal(r->price_known, cases[i].bought);
        if (cases[i].bought) {
            assert_true(r->notes & GP_NOTE_TERM_UNKNOWN);
            assert_float_equal(r->cost_per_hour, r->instances * 3.0, 1e-9);
        } else {
            assert_true(r->notes & GP_NOTE_NO_TERM_IN_HORIZON);
            assert_false(r->notes & GP_NOTE_TERM_UNKNOWN);
        }
        gp_plan_result_release(&res);
    }
}

/* When the best layout's TP group fits no instance on offer, the planner plans the other
 * tensor-parallel degrees before it says no-fitting-instance; a degree the workload pins is
 * kept. Llama 3.1 70B at fp8 plans at TP 2 on H200; only 1-GPU machines are for rent. */
static void test_refit_layout(void **state)
{
    struct gp_offer offers[4];
    const struct gp_gpu *gpus[1];
    struct gp_plan_request req;
    struct gp_plan_result res;
    (void)state;

    fixture(&req, offers, gpus);
    req.offer_count = 0;
    assert_int_equal(gp_plan_run(&res, &req), 0);
    int chosen = res.rows[0].tp;
    gp_plan_result_release(&res);
    assert_true(chosen > 1);

    offers[0] = fixture_offer("one", "h200x1", 1, GP_TIER_ON_DEMAND, 4.0, 0);
    offers[0].unit = GP_UNIT_INSTANCE_HOUR; /* a machine of one GPU, not GPUs by the hour */
    req.offer_count = 1;
    assert_int_equal(gp_plan_run(&res, &req), 0);
    assert_true(res.rows[0].price_known);
    assert_int_equal(res.rows[0].tp, 1);
    assert_false(res.rows[0].notes & GP_NOTE_NO_FITTING_INSTANCE);
    assert_string_equal(res.rows[0].instance_type, "h200x1");
    gp_plan_result_release(&res);

    req.base.workload.inference.tensor_parallel = chosen; /* pinned: no other layout */
    assert_int_equal(gp_plan_run(&res, &req), 0);
    assert_false(res.rows[0].price_known);
    assert_true(res.rows[0].notes & GP_NOTE_NO_FITTING_INSTANCE);
    gp_plan_result_release(&res);
}

/* A demand profile buys the baseline reserved, the peak on demand for its hours, half of it on
 * spot. */
static void test_blended_on_fixtures(void **state)
{
    struct gp_offer offers[4];
    const struct gp_gpu *gpus[1];
    struct gp_plan_request req;
    struct gp_plan_result res;
    (void)state;

    fixture(&req, offers, gpus);
    req.horizon_months = 12;
    struct gp_buying *b = &req.base.workload.buying;
    b->profile = true;
    b->baseline_rate = 5;
    b->peak_rate = 20;
    b->peak_hours_per_day = 6;
    b->spot_share = 0.5;
    b->spot_factor = 1.5;
    assert_int_equal(gp_plan_run(&res, &req), 0);
    const struct gp_plan_row *r = &res.rows[0];
    assert_true(r->price_known);
    assert_string_equal(r->price_tier, "blended");
    assert_non_null(strstr(r->price_mix, "baseline"));
    assert_non_null(strstr(r->price_mix, "x r2"));
    assert_non_null(strstr(r->price_mix, "peak"));
    assert_non_null(strstr(r->price_mix, "spot"));
    /* Cheaper than buying the peak around the clock on demand. */
    assert_true(r->cost_per_hour < r->gpus_needed * 4.0);
    gp_plan_result_release(&res);
}

/* Owned: the estimate says so, the user's map wins, and the break-even month is stated. */
static void test_owned(void **state)
{
    struct gp_plan_request req;
    struct gp_plan_result res;
    struct gp_capex_choice choice;
    (void)state;

    request(&req, "workloads/chat-llama-3.1-70b.json");
    req.pricing = GP_PRICING_OWNED;
    assert_int_equal(gp_plan_run(&res, &req), 0);
    const struct gp_plan_row *b200 = row_of(&res, "b200");
    assert_true(b200->price_known);
    assert_true(b200->notes & GP_NOTE_CAPEX_ESTIMATE);
    assert_true(b200->break_even_months > 0);
    double estimate = b200->cost_per_hour, months = b200->break_even_months;
    gp_plan_result_release(&res);

    assert_int_equal(gp_capex_choice_parse(&choice, "b200=70000"), 0);
    req.capex_prices = &choice;
    assert_int_equal(gp_plan_run(&res, &req), 0);
    b200 = row_of(&res, "b200");
    assert_false(b200->notes & GP_NOTE_CAPEX_ESTIMATE);
    assert_true(b200->cost_per_hour > estimate);
    assert_true(b200->break_even_months > months);
    assert_true(row_of(&res, "mi355x")->notes & GP_NOTE_CAPEX_ESTIMATE);
    gp_plan_result_release(&res);
}

/* An owned fleet is whole servers (an NVL72 rack is one): more GPUs than the work needs, the
 * extra ones idle, so the cost rises and the energy drawn does not grow with them. */
static void test_owned_buys_whole_servers(void **state)
{
    struct gp_plan_request req;
    struct gp_plan_result rented, owned;
    (void)state;

    request(&req, "workloads/chat-llama-3.1-70b.json");
    assert_int_equal(gp_plan_run(&rented, &req), 0);
    req.pricing = GP_PRICING_OWNED;
    assert_int_equal(gp_plan_run(&owned, &req), 0);
    for (size_t i = 0; i < owned.count; i++) {
        const struct gp_plan_row *r = &owned.rows[i];
        const struct gp_gpu *gpu = gp_catalog_find(&cat, r->gpu);
        assert_non_null(gpu);
        if (!r->feasible)
            continue;
        if (r->gpus % gpu->gpus_per_node != 0)
            fail_msg("%s: %d GPUs owned, not whole %d-GPU servers", gpu->id, r->gpus,
                     gpu->gpus_per_node);
        assert_int_equal(r->nodes, r->gpus / gpu->gpus_per_node);
        assert_true(r->gpus >= r->replicas * r->replica_gpus);
        bool idle = r->gpus > r->replicas * r->replica_gpus;
        assert_int_equal(!!(r->notes & GP_NOTE_WHOLE_SERVERS), idle);
    }
    const struct gp_plan_row *nvl = row_of(&owned, "gb200-nvl72");
    assert_int_equal(nvl->gpus, 72);
    assert_true(nvl->notes & GP_NOTE_WHOLE_SERVERS);
    /* the rented plan buys instances, never idle servers */
    for (size_t i = 0; i < rented.count; i++)
        assert_false(rented.rows[i].notes & GP_NOTE_WHOLE_SERVERS);
    /* idle GPUs draw less than busy ones: 72 owned draw less than 36 times 2 busy */
    const struct gp_plan_row *nvl_rented = row_of(&rented, "gb200-nvl72");
    if (nvl_rented->feasible && nvl_rented->gpus > 0 && nvl_rented->gpus < 72)
        assert_true(nvl->it_kw < nvl_rented->it_kw / nvl_rented->gpus * 72);
    gp_plan_result_release(&rented);
    gp_plan_result_release(&owned);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_preset_row_is_bought),
        cmocka_unit_test(test_issue_fleets),
        cmocka_unit_test(test_memo_buys_as_fresh),
        cmocka_unit_test(test_tiers_on_fixtures),
        cmocka_unit_test(test_blended_on_fixtures),
        cmocka_unit_test(test_owned),
        cmocka_unit_test(test_owned_buys_whole_servers),
        cmocka_unit_test(test_term_unknown),
        cmocka_unit_test(test_refit_layout),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
