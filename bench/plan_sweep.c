/* Benchmark: planner scenario evaluations per second on one core. One evaluation is one
 * workload x GPU type x parameter point through the whole model (central estimate and both
 * uncertainty bounds), fleet sizing, power and cost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "planner/efficiency.h"
#include "planner/fleet.h"
#include "planner/sweep.h"
#include "planner/workload.h"
#include "util/buf.h"
#include "util/error.h"

#define POINTS 1000

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int load(struct gp_buf *buf, const char *rel)
{
    char origin[256];
    gp_buf_init(buf, 1 << 20);
    return gp_data_read(buf, rel, origin, sizeof(origin));
}

/* Run the sweep of `key` over POINTS values on every GPU type until `min_seconds` pass;
 * returns evaluations per second and the checksum that keeps the work observable. */
static double run(const struct gp_plan_input *base, const char *key, double from, double step,
                  const struct gp_catalog *cat, const struct gp_efficiency *effs,
                  const struct gp_price *price, double min_seconds, double *checksum)
{
    long evaluations = 0;
    double start = now_s(), elapsed;

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
        elapsed = now_s() - start;
    } while (elapsed < min_seconds);
    return evaluations / elapsed;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *preset, *key;
        double from, step;
    } cases[] = {
        {"chat-llama-3.1-70b", "input_tokens", 64, 64},
        {"llama-2-70b-offline", "output_tokens", 16, 16},
        {"train-llama-3.1-70b", "deadline_hours", 24, 1},
        {"gemm-bf16", "jobs_per_hour", 1000, 1000},
    };
    struct gp_buf effbuf, modbuf, wbuf;
    struct gp_catalog cat;
    struct gp_efficiency_table table;
    struct gp_model_table models;
    struct gp_efficiency *effs;
    struct gp_price price = {true, false, false, 2.5, "on-demand", "bench", "2026-09-01"};
    double seconds = argc > 1 ? atof(argv[1]) : 2.0, checksum = 0, total = 0;

    if (gp_catalog_load(&cat) || load(&effbuf, "efficiency.json") || load(&modbuf, "models.json") ||
        gp_efficiency_table_parse(&table, effbuf.data, effbuf.len, "efficiency.json") ||
        gp_model_table_parse(&models, modbuf.data, modbuf.len, "models.json")) {
        fprintf(stderr, "plan_sweep: %s\n", gp_error_last());
        return 1;
    }
    effs = calloc(cat.count, sizeof(*effs));
    if (!effs)
        return 1;
    for (size_t g = 0; g < cat.count; g++)
        gp_efficiency_resolve(&effs[g], &table, cat.gpus[g].id);

    printf("planner sweep: %d parameter points x %zu GPU types per pass, %.1f s per case\n", POINTS,
           cat.count, seconds);
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct gp_plan_input in;
        char rel[128], origin[256];
        snprintf(rel, sizeof(rel), "workloads/%s.json", cases[c].preset);
        gp_buf_init(&wbuf, 1 << 20);
        if (gp_data_read(&wbuf, rel, origin, sizeof(origin)) ||
            gp_workload_parse(&in.workload, wbuf.data, wbuf.len, origin, &models)) {
            fprintf(stderr, "plan_sweep: %s\n", gp_error_last());
            return 1;
        }
        gp_buf_release(&wbuf);
        gp_assumptions_init(&in.assumptions);
        double rate = run(&in, cases[c].key, cases[c].from, cases[c].step, &cat, effs, &price,
                          seconds, &checksum);
        total += rate;
        printf("  %-22s sweep %-15s %12.0f evaluations/s\n", cases[c].preset, cases[c].key, rate);
    }
    printf("mean: %.0f evaluations/s on one core (checksum %.6g)\n",
           total / (sizeof(cases) / sizeof(cases[0])), checksum);
    free(effs);
    gp_buf_release(&effbuf);
    gp_buf_release(&modbuf);
    gp_catalog_release(&cat);
    gp_efficiency_table_release(&table);
    gp_model_table_release(&models);
    return 0;
}
