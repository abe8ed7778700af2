/* Benchmark: the cost of rendering plan rows against the cost of modelling them, per row;
 * `gpuplan plan` with a 9,000-row CSV sweep against the same plan with no sweep, end to end; and
 * `gpuplan report` of three workloads in each format against a plain plan. All measured in one
 * run, each comparison in interleaved rounds (bench/pairs.h) with min / median / max of each
 * side and of the per-round ratios. The processes share one database in a fresh working folder,
 * removed at exit with its -wal and -shm files and the reports. Usage: plan_render [GPUPLAN]. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pairs.h"
#include "catalog/catalog.h"
#include "catalog/data.h"
#include "planner/bands.h"
#include "planner/efficiency.h"
#include "planner/fleet.h"
#include "planner/sweep.h"
#include "planner/workload.h"
#include "report/plan_table.h"
#include "util/buf.h"
#include "util/error.h"

enum { POINTS = 1000, PROCESS_RUNS = 21, IN_PROCESS_ROUNDS = 5, MAX_GPUS = 64 };

/* CPU seconds this process has used: steadier than wall time on a shared machine. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(void)
{
    fprintf(stderr, "plan_render: %s\n", gp_error_last());
    exit(1);
}

/* The planner inputs the chat preset needs, loaded from the embedded data, with the measured
 * error bands as `gpuplan plan` uses them. */
struct inputs {
    struct gp_catalog cat;
    struct gp_efficiency eff[MAX_GPUS];
    struct gp_plan_input base;
};

static void load_inputs(struct inputs *in)
{
    struct gp_buf effbuf, modbuf, wbuf, bandbuf;
    struct gp_efficiency_table table;
    struct gp_bands bands;
    struct gp_model_table models;
    char origin[256];

    gp_buf_init(&effbuf, 1 << 20);
    gp_buf_init(&modbuf, 1 << 20);
    gp_buf_init(&wbuf, 1 << 20);
    gp_buf_init(&bandbuf, 1 << 20);
    if (gp_catalog_load(&in->cat) ||
        gp_data_read(&effbuf, "efficiency.json", origin, sizeof(origin)) ||
        gp_data_read(&modbuf, "models.json", origin, sizeof(origin)) ||
        gp_data_read(&wbuf, "workloads/chat-llama-3.1-70b.json", origin, sizeof(origin)) ||
        gp_data_read(&bandbuf, "bands.json", origin, sizeof(origin)) ||
        gp_bands_parse(&bands, bandbuf.data, bandbuf.len, "bands.json") ||
        gp_efficiency_table_parse(&table, effbuf.data, effbuf.len, "efficiency.json") ||
        gp_model_table_parse(&models, modbuf.data, modbuf.len, "models.json") ||
        gp_workload_parse(&in->base.workload, wbuf.data, wbuf.len, origin, &models))
        die();
    if (in->cat.count > MAX_GPUS)
        exit(1);
    for (size_t g = 0; g < in->cat.count; g++) {
        gp_efficiency_resolve(&in->eff[g], &table, in->cat.gpus[g].id);
        memcpy(in->eff[g].band, bands.band, sizeof(in->eff[g].band));
    }
    gp_assumptions_init(&in->base.assumptions);
    gp_efficiency_table_release(&table);
    gp_model_table_release(&models);
    gp_buf_release(&effbuf);
    gp_buf_release(&modbuf);
    gp_buf_release(&wbuf);
    gp_buf_release(&bandbuf);
}

/* The sweep input_tokens=64:64000:64 on every GPU type: fills rows and values; returns seconds. */
static double model_rows(const struct inputs *in, struct gp_plan_row *rows,
                         char (*values)[GP_SWEEP_VALUE_MAX])
{
    struct gp_price price = {true, false, false, 2.5, "on-demand", "bench", "2026-09-01", 0};
    double start = cpu_seconds();
    size_t n = 0;

    for (int v = 0; v < POINTS; v++) {
        struct gp_plan_input point = in->base;
        snprintf(values[v], GP_SWEEP_VALUE_MAX, "%d", 64 * (v + 1));
        if (gp_plan_set(&point, "input_tokens", values[v]))
            die();
        for (size_t g = 0; g < in->cat.count; g++)
            gp_plan_evaluate(&rows[n++], &point.workload, &point.assumptions, &in->cat.gpus[g],
                             &in->eff[g], &price);
    }
    if (gp_plan_rank(rows, n, in->cat.count))
        die();
    return cpu_seconds() - start;
}

static int render(const struct gp_plan_view *view, const struct gp_table *table,
                  enum gp_format format, const struct gp_render_options *options, FILE *out)
{
    struct gp_csv_style style;

    if (format != GP_FORMAT_CSV)
        return gp_table_render(table, format, options, out);
    gp_csv_style_init(&style, gp_locale_default());
    return gp_render_csv_header(table, options, out) || gp_plan_view_csv_rows(view, &style, out);
}

/* Render the rows as `format` into a memory buffer `repeat` times, CSV as `plan --format csv`
 * writes it (the header from the table, the rows straight from the view); returns seconds per
 * pass. */
static double render_rows(const struct gp_plan_row *rows, size_t nrows, size_t group,
                          char (*values)[GP_SWEEP_VALUE_MAX], enum gp_format format, int repeat,
                          size_t *bytes)
{
    static struct gp_plan_view view;
    struct gp_render_options options = {false, 1, SIZE_MAX, NULL, 0, false};
    struct gp_table table;
    double start = cpu_seconds();

    for (int i = 0; i < repeat; i++) {
        char *text = NULL;
        FILE *out = open_memstream(&text, bytes);
        gp_plan_view_init(&view, rows, nrows, GP_WORKLOAD_INFERENCE, "USD", 1.0);
        gp_plan_view_sweep(&view, "input_tokens", values[0], sizeof(values[0]), group);
        gp_plan_view_table(&view, &table);
        if (!out || render(&view, &table, format, &options, out))
            die();
        fclose(out);
        free(text);
        gp_table_release(&table);
    }
    return (cpu_seconds() - start) / repeat;
}

/* `gpuplan report` of three workloads in each format against a plain plan, in interleaved rounds
 * (a plain plan and one report of each format per round). */
static void reports(char *gpuplan, const char *dir, char *const *plain)
{
    static const char *const names[] = {"report.xlsx", "report.html", "report-csv/", "report.json"};
    enum { NREPORTS = sizeof(names) / sizeof(names[0]) };
    char out[NREPORTS][600];
    char *argv[NREPORTS][12];
    struct gp_bench_command cmd[1 + NREPORTS];
    struct gp_bench_side sides[1 + NREPORTS];
    struct gp_bench_rounds r;
    struct gp_bench_stats st;

    cmd[0] = (struct gp_bench_command){plain, NULL, 0};
    sides[0] = (struct gp_bench_side){"plain plan (9 rows)", gp_bench_command_side, &cmd[0]};
    for (size_t f = 0; f < NREPORTS; f++) {
        char *const a[] = {gpuplan, "report",
                           "-w",    "chat-llama-3.1-70b",
                           "-w",    "train-llama-3.1-70b",
                           "-w",    "stream-fp32",
                           "--out", out[f],
                           "-q",    NULL};
        snprintf(out[f], sizeof(out[f]), "%s/%s", dir, names[f]);
        memcpy(argv[f], a, sizeof(a));
        cmd[1 + f] = (struct gp_bench_command){argv[f], NULL, 0};
        sides[1 + f] = (struct gp_bench_side){names[f], gp_bench_command_side, &cmd[1 + f]};
    }
    if (gp_bench_rounds_run(&r, sides, 1 + NREPORTS, PROCESS_RUNS))
        exit(1);
    gp_bench_print(stdout, &r, sides, 0, GP_BENCH_CPU,
                   "gpuplan report, three workloads (chat, training, generic), CPU time", 1e3,
                   "ms");
    for (size_t f = 0; f < NREPORTS; f++) {
        gp_bench_side_stats(&st, &r, 1 + f, GP_BENCH_CPU);
        printf("  %-12s median %8.1f ms (target < 200 ms)\n", names[f], st.median * 1e3);
    }
    gp_bench_rounds_release(&r);
}

/* `gpuplan plan` with and without the sweep, in interleaved rounds, each process on the same
 * database in a fresh working folder that is removed at exit (with its -wal and -shm files). */
static void end_to_end(char *gpuplan)
{
    char *plain[] = {gpuplan, "plan", "--workload", "chat-llama-3.1-70b", "--format", "csv", NULL};
    char *sweep[] = {gpuplan,      "plan",
                     "--workload", "chat-llama-3.1-70b",
                     "--sweep",    "input_tokens=64:64000:64",
                     "--format",   "csv",
                     NULL};
    char *narrow[] = {gpuplan,
                      "plan",
                      "--workload",
                      "chat-llama-3.1-70b",
                      "--sweep",
                      "input_tokens=64:64000:64",
                      "--format",
                      "csv",
                      "--columns=gpu", /* the same plan with almost nothing to render */
                      NULL};
    struct gp_bench_command cmd[3] = {{plain, NULL, 0}, {sweep, NULL, 0}, {narrow, NULL, 0}};
    struct gp_bench_side sides[3] = {
        {"plain plan (9 rows)", gp_bench_command_side, &cmd[0]},
        {"sweep (9,000 rows)", gp_bench_command_side, &cmd[1]},
        {"sweep, --columns gpu", gp_bench_command_side, &cmd[2]},
    };
    struct gp_bench_rounds r;
    struct gp_bench_stats with, without;
    char dir[512], db[600];

    if (gp_bench_workdir(dir, sizeof(dir), "gpuplan-plan-render"))
        exit(1);
    snprintf(db, sizeof(db), "%s/gpuplan.db", dir);
    setenv("GPUPLAN_DB", db, 1);
    for (int s = 0; s < 3; s++) { /* the first creates and seeds the database */
        struct gp_bench_sample warm;
        if (gp_bench_command_side(&warm, &cmd[s]))
            exit(1);
    }
    if (gp_bench_rounds_run(&r, sides, 3, PROCESS_RUNS))
        exit(1);
    printf("end to end, whole processes: gpuplan plan --workload chat-llama-3.1-70b --format csv, "
           "plain and with --sweep input_tokens=64:64000:64 (9,000 rows), and that sweep with "
           "--columns=gpu\n");
    gp_bench_print_processes(stdout, &r, sides, 1e3, "ms", false);
    gp_bench_ratio_stats(&with, &r, 1, 0, GP_BENCH_CPU);
    gp_bench_ratio_stats(&without, &r, 2, 0, GP_BENCH_CPU);
    printf("  sweep / plain: %.2fx median (target <= 2x); without rendering it would be %.2fx\n",
           with.median, without.median);
    gp_bench_rounds_release(&r);
    reports(gpuplan, dir, plain);
}

/* The model pass and the render pass of one format, as the two sides of a round. */
struct in_process {
    const struct inputs *in;
    struct gp_plan_row *rows;
    char (*values)[GP_SWEEP_VALUE_MAX];
    enum gp_format format;
    size_t bytes; /* what the last render wrote */
};

static int model_side(struct gp_bench_sample *out, void *payload)
{
    struct in_process *p = payload;
    out->m[GP_BENCH_CPU] = model_rows(p->in, p->rows, p->values);
    return 0;
}

static int render_side(struct gp_bench_sample *out, void *payload)
{
    struct in_process *p = payload;
    out->m[GP_BENCH_CPU] = render_rows(p->rows, POINTS * p->in->cat.count, p->in->cat.count,
                                       p->values, p->format, 1, &p->bytes);
    return 0;
}

int main(int argc, char **argv)
{
    static struct gp_plan_row rows[POINTS * MAX_GPUS];
    static char values[POINTS][GP_SWEEP_VALUE_MAX];
    static const struct {
        const char *name;
        enum gp_format format;
    } formats[] = {{"CSV", GP_FORMAT_CSV}, {"table", GP_FORMAT_TABLE}, {"JSON", GP_FORMAT_JSON}};
    struct inputs in;

    load_inputs(&in);
    model_rows(&in, rows, values); /* the rows the first render reads */
    size_t nrows = POINTS * in.cat.count;
    printf("plan rows: %zu (input_tokens swept over %d points x %zu GPU types), CPU time per row, "
           "model and render taking turns\n",
           nrows, POINTS, in.cat.count);
    for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
        struct in_process p = {&in, rows, values, formats[f].format, 0};
        char render_name[32], title[96];
        struct gp_bench_side sides[2] = {{"model", model_side, &p}, {render_name, render_side, &p}};
        struct gp_bench_rounds r;
        struct gp_bench_stats st;

        snprintf(render_name, sizeof(render_name), "render %s", formats[f].name);
        if (gp_bench_rounds_run(&r, sides, 2, IN_PROCESS_ROUNDS))
            return 1;
        snprintf(title, sizeof(title), "%s, ns per row", formats[f].name);
        gp_bench_print(stdout, &r, sides, 0, GP_BENCH_CPU, title, 1e9 / (double)nrows, "ns");
        gp_bench_ratio_stats(&st, &r, 1, 0, GP_BENCH_CPU);
        printf("  %zu bytes; render / model median %.2fx%s\n", p.bytes, st.median,
               formats[f].format == GP_FORMAT_CSV ? " (target <= 3x)" : "");
        gp_bench_rounds_release(&r);
    }
    if (argc > 1)
        end_to_end(argv[1]);
    gp_catalog_release(&in.cat);
    return 0; /* the working folder goes at exit */
}
