/* Benchmark: planner scenario evaluations per second on one core, through the planner's entry
 * point (gp_plan_run, as `gpuplan plan` calls it) against the bare evaluation loop measured in
 * the same run, the two taking turns in interleaved rounds (bench/pairs.h) with min / median /
 * max of each and of the per-round ratio. One evaluation is one workload x GPU type x parameter
 * point through the whole model (central estimate and both uncertainty bounds), fleet sizing,
 * power and cost. Usage: plan_sweep [SECONDS [ROUNDS]]: SECONDS of CPU per case and path in all
 * (default 2), split over ROUNDS rounds (default 5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pairs.h"
#include "catalog/catalog.h"
#include "catalog/data.h"
#include "planner/efficiency.h"
#include "planner/fleet.h"
#include "planner/bands.h"
#include "planner/plan.h"
#include "planner/stack.h"
#include "planner/sweep.h"
#include "planner/workload.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/text.h"

#define POINTS 1000

/* CPU seconds this process has used: on a shared machine its other loads do not count, as
 * they would in wall time. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int load(struct gp_buf *buf, const char *rel)
{
    char origin[256];
    gp_buf_init(buf, 1 << 20);
    return gp_data_read(buf, rel, origin, sizeof(origin));
}

/* The baseline: the sweep of `key` over POINTS values on every GPU type, each point set with
 * gp_plan_set and evaluated with gp_plan_evaluate, until `min_seconds` pass; returns evaluations
 * per second and adds to the checksum that keeps the work observable. */
static double run_bare(const struct gp_plan_input *base, const char *key, double from, double step,
                       const struct gp_catalog *cat, const struct gp_efficiency *effs,
                       const struct gp_price *price, double min_seconds, double *checksum)
{
    long evaluations = 0;
    double start = cpu_seconds(), elapsed;

    do {
        for (int v = 0; v < POINTS; v++) {
            struct gp_plan_input in = *base;
            char value[32];
            snprintf(value, sizeof(value), "%g", from + v * step);
            if (gp_plan_set(&in, key, value)) {
                fprintf(stderr, "plan_sweep: %s\n", gp_error_last());
                exit(1);
            }
            for (size_t g = 0; g < cat->count; g++) {
                struct gp_plan_row row;
                gp_plan_evaluate(&row, &in.workload, &in.assumptions, &cat->gpus[g], &effs[g],
                                 price);
                *checksum += row.cost_per_hour + row.tokens_per_s_per_gpu + row.jobs_per_hour;
                evaluations++;
            }
        }
        elapsed = cpu_seconds() - start;
    } while (elapsed < min_seconds);
    return evaluations / elapsed;
}

/* The same sweep through gp_plan_run: calibration and price choice per GPU type, every point,
 * ranking and currency conversion. */
static double run_entry(const struct gp_plan_request *req, double min_seconds, double *checksum)
{
    long evaluations = 0;
    double start = cpu_seconds(), elapsed;

    do {
        struct gp_plan_result res;
        if (gp_plan_run(&res, req)) {
            fprintf(stderr, "plan_sweep: %s\n", gp_error_last());
            exit(1);
        }
        for (size_t i = 0; i < res.count; i++)
            *checksum += res.rows[i].cost_per_hour + res.rows[i].tokens_per_s_per_gpu +
                         res.rows[i].jobs_per_hour;
        evaluations += (long)res.count;
        gp_plan_result_release(&res);
        elapsed = cpu_seconds() - start;
    } while (elapsed < min_seconds);
    return evaluations / elapsed;
}

/* What every case shares: the catalog, the efficiency table, and one on-demand offer per GPU
 * type at the same price. */
struct bench {
    struct gp_catalog cat;
    struct gp_efficiency_table table;
    struct gp_model_table models;
    struct gp_stack_table stacks;
    struct gp_bands bands;
    struct gp_efficiency *effs; /* resolved per GPU type, for the baseline */
    const struct gp_gpu **gpus;
    struct gp_offer *offers;
    struct gp_price price; /* the baseline's price: the offers' */
};

static int bench_load(struct bench *b)
{
    struct gp_buf effbuf, modbuf, stbuf, bdbuf;
    int rc;

    gp_buf_init(&effbuf, 1 << 20);
    gp_buf_init(&modbuf, 1 << 20);
    gp_buf_init(&stbuf, 1 << 20);
    gp_buf_init(&bdbuf, 1 << 20);
    rc = gp_catalog_load(&b->cat) || load(&effbuf, "efficiency.json") ||
         load(&modbuf, "models.json") || load(&stbuf, "stacks.json") ||
         load(&bdbuf, "bands.json") ||
         gp_efficiency_table_parse(&b->table, effbuf.data, effbuf.len, "efficiency.json") ||
         gp_model_table_parse(&b->models, modbuf.data, modbuf.len, "models.json") ||
         gp_stack_table_parse(&b->stacks, stbuf.data, stbuf.len, "stacks.json") ||
         gp_bands_parse(&b->bands, bdbuf.data, bdbuf.len, "bands.json");

    gp_buf_release(&effbuf);
    gp_buf_release(&modbuf);
    gp_buf_release(&stbuf);
    gp_buf_release(&bdbuf);
    if (rc)
        return -1;
    b->effs = calloc(b->cat.count, sizeof(*b->effs));
    b->gpus = calloc(b->cat.count, sizeof(*b->gpus));
    b->offers = calloc(b->cat.count, sizeof(*b->offers));
    if (!b->effs || !b->gpus || !b->offers)
        return -1;
    b->price =
        (struct gp_price){true, false, false, 2.5, "on-demand", "bench", "2026-09-01", 1788220800};
    for (size_t g = 0; g < b->cat.count; g++) {
        struct gp_offer *o = &b->offers[g];
        gp_efficiency_resolve(&b->effs[g], &b->table, b->cat.gpus[g].id);
        memcpy(b->effs[g].band, b->bands.band, sizeof(b->effs[g].band));
        b->gpus[g] = &b->cat.gpus[g];
        snprintf(o->gpu_id, sizeof(o->gpu_id), "%s", b->cat.gpus[g].id);
        snprintf(o->provider, sizeof(o->provider), "bench");
        o->tier = GP_TIER_ON_DEMAND;
        o->usd_per_gpu_hour = b->price.usd_per_gpu_hour;
        o->observed_at = b->price.observed_at;
    }
    return 0;
}

static void bench_release(struct bench *b)
{
    free(b->effs);
    free(b->gpus);
    free(b->offers);
    gp_catalog_release(&b->cat);
    gp_efficiency_table_release(&b->table);
    gp_model_table_release(&b->models);
    gp_stack_table_release(&b->stacks);
}

/* The two sides of a case: what run_bare and run_entry need, and the checksum they feed. */
struct sides {
    const struct bench *b;
    const struct gp_plan_request *req;
    const struct gp_efficiency *effs;
    const char *key;
    double from, step, seconds;
    double checksum;
};

static int bare_side(struct gp_bench_sample *out, void *payload)
{
    struct sides *p = payload;
    out->m[GP_BENCH_VALUE] = run_bare(&p->req->base, p->key, p->from, p->step, &p->b->cat, p->effs,
                                      &p->b->price, p->seconds, &p->checksum);
    return 0;
}

static int entry_side(struct gp_bench_sample *out, void *payload)
{
    struct sides *p = payload;
    out->m[GP_BENCH_VALUE] = run_entry(p->req, p->seconds, &p->checksum);
    return 0;
}

/* One case: the preset's sweep through the baseline loop and through the entry point, taking
 * turns for `rounds` rounds of `seconds` each; fills `r` (release it). */
static int run_case(const struct bench *b, const char *preset, const char *key, double from,
                    double step, double seconds, size_t rounds, struct gp_bench_rounds *r,
                    double *checksum)
{
    struct gp_plan_request req;
    struct gp_sweep sweep;
    struct gp_buf wbuf;
    char rel[128], origin[256], spec[128];
    int rc;

    snprintf(rel, sizeof(rel), "workloads/%s.json", preset);
    snprintf(spec, sizeof(spec), "%s=%g:%g:%g", key, from, from + (POINTS - 1) * step, step);
    gp_buf_init(&wbuf, 1 << 20);
    rc = gp_plan_request_init(&req, NULL, "USD", b->price.observed_at) ||
         gp_data_read(&wbuf, rel, origin, sizeof(origin)) ||
         gp_workload_parse(&req.base.workload, wbuf.data, wbuf.len, origin, &b->models) ||
         gp_sweep_parse(&sweep, spec);
    gp_buf_release(&wbuf);
    if (rc)
        return -1;
    req.sweep = &sweep;
    req.gpus = b->gpus;
    req.gpu_count = b->cat.count;
    req.efficiencies = &b->table;
    req.stacks = &b->stacks;
    req.bands = &b->bands;
    req.offers = b->offers;
    req.offer_count = b->cat.count;
    /* The baseline uses what the entry point chooses: each vendor's default stack. */
    struct gp_efficiency *effs = calloc(b->cat.count, sizeof(*effs));
    if (!effs)
        return -1;
    for (size_t g = 0; g < b->cat.count; g++) {
        const struct gp_stack *st = NULL;
        effs[g] = b->effs[g];
        gp_plan_stacks_for(&st, 1, &req, &b->cat.gpus[g], req.base.workload.kind);
        if (st)
            gp_stack_apply(&effs[g], &b->stacks, st);
    }
    struct sides p = {b, &req, effs, key, from, step, seconds, 0};
    struct gp_bench_side sides[2] = {{"bare", bare_side, &p}, {"gp_plan_run", entry_side, &p}};
    rc = gp_bench_rounds_run(r, sides, 2, rounds);
    *checksum += p.checksum;
    free(effs);
    gp_sweep_release(&sweep);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *preset, *key;
        double from, step;
    } cases[] = {
        {"chat-llama-3.1-70b", "input_tokens", 64, 64},
        {"chat-deepseek-r1", "input_tokens", 64, 64},
        {"llama-2-70b-offline", "output_tokens", 16, 16},
        {"train-llama-3.1-70b", "deadline_hours", 24, 1},
        {"gemm-bf16", "jobs_per_hour", 1000, 1000},
    };
    const size_t ncases = sizeof(cases) / sizeof(cases[0]);
    struct bench b;
    double seconds = 2.0, checksum = 0, total[3] = {0, 0, 0};
    long rounds = 5;

    if (argc > 1 && gp_text_to_double(argv[1], &seconds)) {
        fprintf(stderr, "usage: plan_sweep [SECONDS [ROUNDS]]\n");
        return 2;
    }
    if (argc > 2 && gp_bench_arg_long(argv[2], "ROUNDS", 1, 1000, &rounds))
        return 2;
    memset(&b, 0, sizeof(b));
    if (bench_load(&b)) {
        fprintf(stderr, "plan_sweep: %s\n", gp_error_last());
        return 1;
    }
    printf("planner sweep: %d parameter points x %zu GPU types per pass, %.1f s per case and "
           "path in %ld rounds taking turns; min / median / max over the rounds\n",
           POINTS, b.cat.count, seconds, rounds);
    printf("  %-22s %-15s %-28s %-28s %s\n", "preset", "swept key", "bare eval/s",
           "gp_plan_run eval/s", "gp_plan_run / bare");
    for (size_t c = 0; c < ncases; c++) {
        struct gp_bench_rounds r;
        struct gp_bench_stats bare, entry, ratio;
        if (run_case(&b, cases[c].preset, cases[c].key, cases[c].from, cases[c].step,
                     seconds / (double)rounds, (size_t)rounds, &r, &checksum)) {
            fprintf(stderr, "plan_sweep: %s: %s\n", cases[c].preset, gp_error_last());
            return 1;
        }
        gp_bench_side_stats(&bare, &r, 0, GP_BENCH_VALUE);
        gp_bench_side_stats(&entry, &r, 1, GP_BENCH_VALUE);
        gp_bench_ratio_stats(&ratio, &r, 1, 0, GP_BENCH_VALUE);
        gp_bench_rounds_release(&r);
        total[0] += bare.median;
        total[1] += entry.median;
        total[2] += ratio.median;
        printf("  %-22s %-15s %8.0f/%8.0f/%8.0f  %8.0f/%8.0f/%8.0f  %.2f/%.2f/%.2f\n",
               cases[c].preset, cases[c].key, bare.min, bare.median, bare.max, entry.min,
               entry.median, entry.max, ratio.min, ratio.median, ratio.max);
    }
    printf("mean of the medians: %.0f bare, %.0f through gp_plan_run evaluations/s on one core, "
           "ratio %.2f (checksum %.6g)\n",
           total[0] / ncases, total[1] / ncases, total[2] / ncases, checksum);
    bench_release(&b);
    return 0;
}
