/* Unit tests for the planner's entry point: calibration choice, price choice, currency
 * conversion, whole plans from plain data (sweep points, ranking, why nothing fits), and the
 * formulas the model and the fleet sizing share. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "planner/model.h"
#include "planner/plan.h"
#include "util/buf.h"
#include "tests/unit/planner_fixture.h"
#include "util/error.h"

#define DAY 86400

static struct gp_calibration_curve curve(const char *gpu_id, const char *kernel,
                                         const char *precision, double eff_max, int64_t at,
                                         const char *host)
{
    struct gp_calibration_curve c;

    memset(&c, 0, sizeof(c));
    snprintf(c.gpu_id, sizeof(c.gpu_id), "%s", gpu_id);
    snprintf(c.kernel, sizeof(c.kernel), "%s", kernel);
    snprintf(c.precision, sizeof(c.precision), "%s", precision);
    c.eff_max = eff_max;
    c.s_half = 1e9;
    c.peak = 1;
    c.started_at = at;
    snprintf(c.host, sizeof(c.host), "%s", host);
    return c;
}

/* ---- calibration ---------------------------------------------------------------------------- */

/* The fleet median per curve over each GPU's newest run, the band widened by the spread. */
static void test_calibration_fleet_median(void **state)
{
    const int64_t t0 = 1790000000;
    /* Table: fits oldest first, as the store lists them; the host names say what they test. */
    const struct gp_calibration_curve fits[] = {
        curve("h200-sxm", "gemm", "bf16", 0.50, t0 - DAY, "new"), /* superseded by new's next */
        curve("h200-sxm", "gemm", "bf16", 0.70, t0, "old"),
        curve("h200-sxm", "bandwidth", "", 0.80, t0, "old"),
        curve("h200-sxm", "gemm", "bf16", 0.75, t0 + DAY, "new"),
        curve("h200-sxm", "gemm", "bf16", 0.76, t0 + DAY, "same-second"),
        curve("mi300x", "gemm", "bf16", 0.10, t0 + 2 * DAY, "other-gpu"),
        curve("h200-sxm", "gemm", "fp8", 1.50, t0 + 3 * DAY, "bad"), /* eff_max above 1 */
        curve("h200-sxm", "copy", "", 0.50, t0 + 4 * DAY, "unknown-kernel"),
    };
    struct gp_efficiency eff, defaults;
    (void)state;

    gp_efficiency_resolve(&defaults, &effs, "h200-sxm");
    defaults.band[0] = (struct gp_band){.low = 0.8, .high = 1.1, .cases = 10};
    eff = defaults;
    assert_int_equal(
        gp_plan_calibration_choose(&eff, fits, sizeof(fits) / sizeof(fits[0]), "h200-sxm"), 0);
    assert_float_equal(eff.gemm[GP_BF16].eff_max, 0.75, 1e-12); /* of 0.70, 0.75, 0.76 */
    assert_float_equal(eff.bandwidth.eff_max, 0.80, 1e-12);
    /* The bad newest fp8 curve leaves the default, and names no source. */
    assert_float_equal(eff.gemm[GP_FP8].eff_max, defaults.gemm[GP_FP8].eff_max, 1e-12);
    assert_string_equal(eff.source, "calibrated:median of 3 nodes:2026-09-22");
    /* The band: bf16's 10th and 90th percentile over its median. */
    double low = (0.70 + 0.2 * 0.05) / 0.75, high = (0.75 + 0.8 * 0.01) / 0.75;
    assert_float_equal(eff.band[0].low, 0.8 * low, 1e-12);
    assert_float_equal(eff.band[0].high, 1.1 * high, 1e-12);
    assert_float_equal(eff.uncertainty_low, defaults.uncertainty_low * low, 1e-12);
    assert_float_equal(eff.uncertainty_high, defaults.uncertainty_high * high, 1e-12);

    /* One node with two GPUs: their median, named by the node, the band as wide as they differ. */
    struct gp_calibration_curve node[] = {
        curve("h200-sxm", "gemm", "bf16", 0.70, t0, "node7"),
        curve("h200-sxm", "gemm", "bf16", 0.80, t0, "node7"),
    };
    node[1].device = 1;
    eff = defaults;
    assert_int_equal(gp_plan_calibration_choose(&eff, node, 2, "h200-sxm"), 0);
    assert_float_equal(eff.gemm[GP_BF16].eff_max, 0.75, 1e-12);
    assert_string_equal(eff.source, "calibrated:node7:2026-09-21");
    assert_float_equal(eff.band[0].low, 0.8 * 0.71 / 0.75, 1e-12);

    /* No fit for the GPU: the defaults stay, source included. */
    eff = defaults;
    assert_int_equal(gp_plan_calibration_choose(&eff, fits, sizeof(fits) / sizeof(fits[0]), "b200"),
                     0);
    assert_memory_equal(&eff, &defaults, sizeof(eff));
}

/* ---- prices --------------------------------------------------------------------------------- */

static struct gp_offer offer(const char *gpu_id, const char *provider, enum gp_tier tier,
                             double usd, int64_t at)
{
    struct gp_offer o;

    memset(&o, 0, sizeof(o));
    snprintf(o.gpu_id, sizeof(o.gpu_id), "%s", gpu_id);
    snprintf(o.provider, sizeof(o.provider), "%s", provider);
    o.tier = tier;
    o.gpus_per_instance = 8; /* an 8-GPU machine at `usd` per GPU-hour */
    o.usd_per_gpu_hour = usd;
    o.usd_per_instance_hour = usd * 8;
    o.observed_at = at;
    return o;
}

/* ---- currency ------------------------------------------------------------------------------- */

static void test_currency(void **state)
{
    struct gp_fx_rate rates[] = {
        {"DKK", 7.0, 1780000000, ""},
        {"DKK", 6.5, 1790000000, ""},
    };
    const struct gp_fx_table fx = {rates, 2};
    struct gp_plan_request req;
    struct gp_assumptions usd;
    double r = 0;
    (void)state;

    /* The rate in force on a date; before the first, the earliest. */
    assert_int_equal(gp_plan_rate_at(&fx, "DKK", 1785000000, &r), 0);
    assert_float_equal(r, 7.0, 1e-12);
    assert_int_equal(gp_plan_rate_at(&fx, "DKK", 1795000000, &r), 0);
    assert_float_equal(r, 6.5, 1e-12);
    assert_int_equal(gp_plan_rate_at(&fx, "DKK", 1, &r), 0);
    assert_float_equal(r, 7.0, 1e-12);
    assert_int_equal(gp_plan_rate_at(NULL, "USD", 1, &r), 0);
    assert_float_equal(r, 1.0, 1e-12);
    assert_int_equal(gp_plan_rate_at(&fx, "EUR", 1, &r), GP_ENOTFOUND);
    assert_int_equal(gp_plan_request_init(&req, &fx, "EUR", 1), GP_ENOTFOUND);
    assert_int_equal(gp_plan_request_init(&req, &fx, "DK", 1), GP_EINVALID);

    /* The USD defaults, converted at the rate in force now. */
    gp_assumptions_init(&usd);
    assert_int_equal(gp_plan_request_init(&req, &fx, "DKK", 1795000000), 0);
    assert_float_equal(req.base.assumptions.fx_per_usd, 6.5, 1e-12);
    assert_float_equal(req.base.assumptions.kwh_price, usd.kwh_price * 6.5, 1e-12);
    assert_float_equal(req.base.assumptions.pue, usd.pue, 1e-12);
    assert_string_equal(req.currency, "DKK");
    assert_int_equal(req.pricing, GP_PRICING_CHEAPEST);
    assert_int_equal(req.max_age_days, GP_PLAN_DEFAULT_MAX_AGE_DAYS);

    /* A row: price figures at the price's rate, energy at the other. */
    struct gp_plan_row row;
    memset(&row, 0, sizeof(row));
    row.price_per_gpu_hour = 2;
    row.cost_per_hour = 16;
    row.cost_per_month = 16 * GP_HOURS_PER_MONTH;
    row.cost_per_mtok = 0.5;
    row.total_cost = 100;
    row.cost_low = 0.4;
    row.cost_high = 0.6;
    row.energy_cost_per_month = 10;
    row.tokens_per_s = 1000;
    gp_plan_row_convert(&row, 7.0, 6.5);
    assert_float_equal(row.price_per_gpu_hour, 14, 1e-12);
    assert_float_equal(row.cost_per_hour, 112, 1e-12);
    assert_float_equal(row.cost_per_month, 112 * GP_HOURS_PER_MONTH, 1e-9);
    assert_float_equal(row.cost_per_mtok, 3.5, 1e-12);
    assert_float_equal(row.total_cost, 700, 1e-12);
    assert_float_equal(row.cost_low, 2.8, 1e-12);
    assert_float_equal(row.cost_high, 4.2, 1e-12);
    assert_float_equal(row.energy_cost_per_month, 65, 1e-12);
    assert_float_equal(row.tokens_per_s, 1000, 1e-12);
}

/* ---- whole plans ---------------------------------------------------------------------------- */

/* A request for the chat preset's model on two GPU types, priced by two offers. */
struct fixture {
    const struct gp_gpu *gpus[2];
    struct gp_offer offers[2];
    struct gp_plan_request req;
};

static void make_request(struct fixture *f, const struct gp_fx_table *fx, const char *currency)
{
    const int64_t now = 1790000000;

    f->gpus[0] = gpu("h100-sxm");
    f->gpus[1] = gpu("h200-sxm");
    f->offers[0] = offer("h100-sxm", "a", GP_TIER_ON_DEMAND, 2.0, now - 30 * DAY);
    f->offers[1] = offer("h200-sxm", "b", GP_TIER_ON_DEMAND, 3.0, now);
    assert_int_equal(gp_plan_request_init(&f->req, fx, currency, now), 0);
    struct gp_workload *w = &f->req.base.workload;
    w->kind = GP_WORKLOAD_INFERENCE;
    w->model = *gp_model_table_find(&models, "llama-3.1-70b");
    w->inference.precision = GP_FP8;
    w->inference.kv_precision = GP_FP8;
    w->inference.input_tokens = 1024;
    w->inference.output_tokens = 256;
    w->inference.load = GP_LOAD_REQUESTS;
    w->inference.rate = 20;
    w->inference.memory_fraction = 0.9;
    f->req.gpus = f->gpus;
    f->req.gpu_count = 2;
    f->req.efficiencies = &effs;
    f->req.offers = f->offers;
    f->req.offer_count = 2;
}

static void test_plan_run(void **state)
{
    struct gp_fx_rate rates[] = {{"DKK", 7.0, 1780000000, ""}, {"DKK", 6.0, 1789000000, ""}};
    const struct gp_fx_table fx = {rates, 2};
    struct fixture usd, dkk;
    struct gp_plan_result a, b;
    struct gp_sweep sweep;
    (void)state;

    make_request(&usd, NULL, "USD");
    make_request(&dkk, &fx, "DKK");
    assert_int_equal(gp_sweep_parse(&sweep, "output_tokens=128,256,512"), 0);
    usd.req.sweep = dkk.req.sweep = &sweep;
    assert_int_equal(gp_plan_run(&a, &usd.req), 0);
    assert_int_equal(gp_plan_run(&b, &dkk.req), 0);
    assert_int_equal(a.count, 6);
    assert_int_equal(a.per_point, 2);
    assert_int_equal(a.infeasible, GP_PLAN_FEASIBLE);
    assert_true(a.best < a.count && (a.rows[a.best].notes & GP_NOTE_BEST));
    /* The best row is the cheapest point's (longer answers cost less per output token: the
     * last), and the runner-up the next feasible priced row of that point. */
    assert_int_equal(a.best, 4);
    assert_string_equal(a.best_value, "512");
    assert_true(a.rows[5].feasible && a.rows[5].price_known);
    assert_int_equal(a.runner_up, 5);
    for (size_t i = 0; i < a.count; i++) /* bought from each type's own offer, per GPU */
        assert_string_equal(a.rows[i].provider, strcmp(a.rows[i].gpu, "h100-sxm") ? "b" : "a");
    /* Each point is ranked on its own: the first row of each is the best. */
    for (size_t p = 0; p < 3; p++) {
        const struct gp_plan_row *r = &a.rows[p * 2];
        assert_true(r->notes & GP_NOTE_BEST);
        assert_true(gp_plan_unit_cost(r) <= gp_plan_unit_cost(r + 1));
    }
    /* In DKK: the h100 price (observed 30 days ago) at the older rate, the h200 at today's;
     * energy at today's. */
    assert_float_equal(b.fx_per_usd, 6.0, 1e-12);
    for (size_t i = 0; i < b.count; i++) {
        const struct gp_plan_row *r = &b.rows[i], *u = NULL;
        for (size_t j = 0; j < a.count; j++)
            if (j / 2 == i / 2 && strcmp(a.rows[j].gpu, r->gpu) == 0)
                u = &a.rows[j];
        assert_non_null(u);
        double rate = strcmp(r->gpu, "h100-sxm") == 0 ? 7.0 : 6.0;
        assert_float_equal(r->cost_per_hour, u->cost_per_hour * rate, 1e-9);
        assert_float_equal(r->energy_cost_per_month, u->energy_cost_per_month * 6.0, 1e-6);
        assert_int_equal(r->gpus, u->gpus);
    }
    gp_plan_result_release(&b);
    gp_plan_result_release(&a);

    /* A limit nothing meets: the reason and the nearest miss. */
    usd.req.sweep = NULL;
    usd.req.base.assumptions.max_gpus = 1;
    assert_int_equal(gp_plan_run(&a, &usd.req), 0);
    assert_int_equal(a.count, 2);
    assert_int_equal(a.infeasible, GP_PLAN_OVER_MAX_GPUS);
    assert_non_null(a.smallest);
    assert_true(a.smallest->gpus > 1);
    assert_int_equal(a.best, SIZE_MAX);
    assert_int_equal(a.runner_up, SIZE_MAX);
    gp_plan_result_release(&a);
    usd.req.base.assumptions.max_gpus = 0;
    usd.req.base.assumptions.power_budget_kw = 0.001;
    assert_int_equal(gp_plan_run(&a, &usd.req), 0);
    assert_int_equal(a.infeasible, GP_PLAN_OVER_POWER_BUDGET);
    gp_plan_result_release(&a);

    /* A sweep value the workload refuses fails the whole plan, before any row. */
    gp_sweep_release(&sweep);
    assert_int_equal(gp_sweep_parse(&sweep, "memory_fraction=0.5,1.5"), 0);
    usd.req.sweep = &sweep;
    assert_int_equal(gp_plan_sweep_check(&usd.req.base, &sweep), GP_EINVALID);
    assert_int_equal(gp_plan_run(&a, &usd.req), GP_EINVALID);
    assert_null(a.rows);
    gp_plan_result_release(&a);
    gp_sweep_release(&sweep);
}

/* What a sink saw: each point's rows in turn, copied; it fails at point `fail_at`. */
struct seen {
    struct gp_plan_row rows[16];
    size_t points[16], count, calls, fail_at;
};

static int see(void *ctx, size_t point, const struct gp_plan_row *rows, size_t count)
{
    struct seen *s = ctx;

    assert_true(s->count + count <= 16);
    memcpy(&s->rows[s->count], rows, count * sizeof(*rows));
    for (size_t i = 0; i < count; i++)
        s->points[s->count + i] = point;
    s->count += count;
    return s->calls++ == s->fail_at ? gp_error_set(GP_ERROR, "cannot write output") : 0;
}

/* Streamed, the sink gets every point's rows in point order, as gp_plan_run ranks, marks and
 * converts them; the result keeps the best row's point and the figures over every row. */
static void test_plan_stream(void **state)
{
    struct gp_fx_rate rates[] = {{"DKK", 7.0, 1780000000, ""}, {"DKK", 6.0, 1789000000, ""}};
    const struct gp_fx_table fx = {rates, 2};
    struct fixture f;
    struct gp_plan_result all, streamed;
    struct gp_sweep sweep;
    struct seen seen = {.fail_at = SIZE_MAX};
    struct gp_plan_sink sink = {see, &seen};
    (void)state;

    make_request(&f, &fx, "DKK");
    assert_int_equal(gp_sweep_parse(&sweep, "output_tokens=128,256,512,1024"), 0);
    f.req.sweep = &sweep;
    assert_int_equal(gp_plan_run(&all, &f.req), 0);
    /* checked once by the caller: the points only set their values, to the same rows */
    assert_int_equal(gp_plan_sweep_check(&f.req.base, &sweep), 0);
    f.req.sweep_checked = true;
    assert_int_equal(gp_plan_stream(&streamed, &f.req, &sink), 0);
    f.req.sweep_checked = false;
    assert_int_equal(seen.calls, 4);
    assert_int_equal(seen.count, all.count);
    for (size_t i = 0; i < all.count; i++) {
        assert_int_equal(seen.points[i], i / 2);
        assert_memory_equal(&seen.rows[i], &all.rows[i], sizeof(all.rows[i]));
    }
    assert_int_equal(streamed.count, 2);
    assert_int_equal(streamed.per_point, 2);
    assert_int_equal(streamed.planned, 8);
    assert_int_equal(all.planned, 8);
    assert_true(all.stale > 0); /* the h100 offer is 30 days old */
    assert_int_equal(streamed.stale, all.stale);
    assert_int_equal(streamed.oldest_stale, all.oldest_stale);
    assert_int_equal(streamed.oldest_price, all.oldest_price);
    assert_int_equal(streamed.newest_price, all.newest_price);
    assert_int_equal(streamed.infeasible, all.infeasible);
    assert_true(all.best < all.count);
    /* The best row is of the point whose best row costs least per unit of work (here not the
     * first point: the sink's later rows were copied back), named by its swept value. */
    for (size_t i = 0; i < all.count; i++)
        if (all.rows[i].notes & GP_NOTE_BEST)
            assert_true(gp_plan_unit_cost(&all.rows[all.best]) <= gp_plan_unit_cost(&all.rows[i]));
    assert_true(all.best / 2 > 0);
    assert_string_equal(all.sweep_key, "output_tokens");
    assert_string_equal(all.best_value, sweep.values[all.best / 2]);
    assert_int_equal(all.best_point, all.best / 2);
    assert_int_equal(streamed.best_point, all.best_point);
    assert_string_equal(streamed.best_value, all.best_value);
    assert_int_equal(streamed.best, all.best % 2);
    assert_int_equal(streamed.runner_up, all.runner_up - all.best / 2 * 2);
    assert_memory_equal(streamed.rows, &all.rows[all.best / 2 * 2], 2 * sizeof(all.rows[0]));
    assert_memory_equal(streamed.smallest, all.smallest, sizeof(*all.smallest));
    gp_plan_result_release(&streamed);

    /* A sink that fails stops the plan: no later point reaches it, nothing is left to release. */
    memset(&seen, 0, sizeof(seen));
    seen.fail_at = 1;
    assert_int_equal(gp_plan_stream(&streamed, &f.req, &sink), GP_ERROR);
    assert_int_equal(seen.calls, 2);
    assert_int_equal(seen.count, 4);
    assert_null(streamed.rows);
    gp_plan_result_release(&streamed);

    /* A sweep value the workload refuses is found before the first point: the sink sees none. */
    struct gp_sweep refused;
    assert_int_equal(gp_sweep_parse(&refused, "memory_fraction=0.5,1.5"), 0);
    f.req.sweep = &refused;
    memset(&seen, 0, sizeof(seen));
    seen.fail_at = SIZE_MAX;
    assert_int_equal(gp_plan_stream(&streamed, &f.req, &sink), GP_EINVALID);
    assert_int_equal(seen.calls, 0);
    assert_null(streamed.rows);
    gp_plan_result_release(&streamed);
    gp_sweep_release(&refused);
    f.req.sweep = &sweep;

    /* Nothing feasible: the smallest fleet is a copy that outlives the points' rows. */
    memset(&seen, 0, sizeof(seen));
    seen.fail_at = SIZE_MAX;
    f.req.base.assumptions.max_gpus = 1;
    gp_plan_result_release(&all);
    assert_int_equal(gp_plan_run(&all, &f.req), 0);
    assert_int_equal(gp_plan_stream(&streamed, &f.req, &sink), 0);
    assert_int_equal(streamed.infeasible, GP_PLAN_OVER_MAX_GPUS);
    assert_int_equal(streamed.best, SIZE_MAX);
    assert_int_equal(streamed.runner_up, SIZE_MAX);
    assert_ptr_equal(streamed.smallest, &streamed.smallest_row);
    assert_int_equal(streamed.smallest->gpus, all.smallest->gpus);
    assert_string_equal(streamed.smallest->gpu, all.smallest->gpu);
    gp_plan_result_release(&streamed);
    gp_plan_result_release(&all);
    gp_sweep_release(&sweep);
}

static void test_shared_formulas(void **state)
{
    struct gp_inference in;
    (void)state;

    /* Whole units: a quotient a rounding error above a whole number is that number. */
    assert_float_equal(gp_model_whole_units(12.0), 12.0, 0);
    assert_float_equal(gp_model_whole_units(12.0 * (1 + 1e-14)), 12.0, 0);
    assert_float_equal(gp_model_whole_units(12.001), 13.0, 0);
    assert_float_equal(gp_model_whole_units(0.2), 1.0, 0);
    /* Demand: requests/s times output tokens, or output tokens/s as given. */
    memset(&in, 0, sizeof(in));
    in.load = GP_LOAD_REQUESTS;
    in.rate = 40;
    in.output_tokens = 256;
    assert_float_equal(gp_inference_demand(&in), 10240, 1e-9);
    in.load = GP_LOAD_OUTPUT_TOKENS;
    assert_float_equal(gp_inference_demand(&in), 40, 1e-9);
}

/* The saving the conclusion line and the report's summary state: per unit of work of the kind. */
static void test_saving(void **state)
{
    struct gp_plan_row best, runner;
    (void)state;

    memset(&best, 0, sizeof(best));
    memset(&runner, 0, sizeof(runner));
    best.kind = runner.kind = GP_WORKLOAD_INFERENCE;
    best.cost_per_mtok = 0.75;
    runner.cost_per_mtok = 1.0;
    best.total_cost = runner.total_cost = 5.0; /* not the inference unit: must not count */
    assert_float_equal(gp_plan_saving(&best, &runner), 0.25, 1e-12);
    best.kind = runner.kind = GP_WORKLOAD_TRAINING;
    runner.total_cost = 8.0;
    assert_float_equal(gp_plan_saving(&best, &runner), 0.375, 1e-12);
    runner.total_cost = 0.0; /* nothing to save against */
    assert_float_equal(gp_plan_saving(&best, &runner), 0.0, 0);
}

static void test_pricing_names(void **state)
{
    (void)state;
    for (int p = 0; p < GP_PRICING_COUNT; p++)
        assert_int_equal(gp_pricing_parse(gp_pricing_name((enum gp_pricing)p)), p);
    assert_int_equal(gp_pricing_parse("cheap"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibration_fleet_median),
        cmocka_unit_test(test_currency),
        cmocka_unit_test(test_plan_run),
        cmocka_unit_test(test_plan_stream),
        cmocka_unit_test(test_shared_formulas),
        cmocka_unit_test(test_saving),
        cmocka_unit_test(test_pricing_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
