/* Benchmark: `gpuplan plan` and `gpuplan prices` against the number of offers in the database,
 * and whole `gpuplan` processes against `sqlite3` reading the same database. In one run it builds
 * three databases in a fresh working folder (removed at exit, with their -wal and -shm files):
 * the embedded snapshot alone, and the snapshot plus 200,000 and 1,000,000 generated offers
 * spread over the nine GPU types, 12 providers, 40 regions, four machine sizes and the on-demand,
 * spot and reserved tiers. Then, each comparison in interleaved rounds (every side once per
 * round, the first side rotating) with min / median / max of each side and of the per-round
 * ratios, CPU time (user + system of the child, wait4), wall time and peak resident memory:
 *   - `plan --workload chat-llama-3.1-70b` on each database, against the snapshot's;
 *   - `plan` and `--version` against `sqlite3 DB 'select count(*) from feed_offers'` (snapshot);
 *   - `prices` in CSV, JSON and the text table, listing every offer, against `sqlite3 -csv`
 *     printing the same offers' columns in a plain scan (200,000 and 1,000,000 offers);
 *   - a CSV and a JSON `plan --sweep input_tokens=1:N:1` (N = --points, or the largest count
 *     the binary accepts when it refuses N with exit status 2), CPU per point and peak memory.
 * Usage: offer_scale GPUPLAN [RUNS] [--points N] [--price-rounds N] [--sweep-rounds N]
 * [--offers N]. Figures go to stdout; docs/benchmarks.md ("Offers at scale") records them with
 * the machine and date. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "pairs.h"
#include "store/store.h"
#include "util/error.h"

enum { CHUNK_OFFERS = 100000 };

/* The goals the issue sets, as ratios and sizes. */
#define PLAN_VS_COUNT_GOAL 1.5  /* plain plan CPU / sqlite3 count CPU */
#define CSV_VS_SCAN_GOAL   1.5  /* prices --format csv CPU / sqlite3 -csv scan CPU */
#define JSON_VS_CSV_GOAL   2.0  /* JSON sweep CPU per point / CSV sweep CPU per point */
#define SWEEP_RSS_GOAL_MIB 32.0 /* peak RSS of a 100,000-point CSV sweep */
#define SCALE_GOAL         2.0  /* plan CPU at 1,000,000 offers / at the snapshot */

/* The columns `prices --format csv` prints that the store holds, read as the `offers` view
 * reads them (feed_offers and its source's URL), in the CSV's order, unordered: a plain scan.
 * The CSV's age_days and notes are computed by gpuplan and have no column. */
static const char scan_sql[] =
    "SELECT f.gpu_id, f.provider, f.tier, f.term_months, f.term_days, f.usd_per_gpu_hour, "
    "f.usd_per_instance_hour, 'USD', f.amount, f.currency, f.unit, f.gpus_per_instance, f.region, "
    "f.country, f.jurisdiction, f.instance_type, date(f.observed_at, 'unixepoch'), s.url "
    "FROM feed_offers f JOIN sources s ON s.id = f.source_id WHERE f.listed = 1";
static const char count_sql[] = "select count(*) from feed_offers";

static void die(const char *what)
{
    fprintf(stderr, "offer_scale: %s: %s\n", what, gp_error_last());
    exit(1); /* the working folder goes at exit */
}

/* One generated offer: realistic spreads, so the purchase read meets as many groups as a real
 * database of that size would (providers x machine sizes x terms), not one per offer. */
static void make_offer(struct gp_offer *o, const struct gp_catalog *cat, size_t i)
{
    static const int sizes[] = {1, 2, 4, 8};
    static const int terms[] = {12, 36};
    size_t k = i / cat->count;

    memset(o, 0, sizeof(*o));
    snprintf(o->feed, sizeof(o->feed), "bench-%zu", i / CHUNK_OFFERS);
    snprintf(o->provider, sizeof(o->provider), "provider%02zu", k % 12);
    snprintf(o->region, sizeof(o->region), "region-%02zu", (k / 12) % 40);
    snprintf(o->instance_type, sizeof(o->instance_type), "type-%08zu", i);
    snprintf(o->gpu_id, sizeof(o->gpu_id), "%s", cat->gpus[i % cat->count].id);
    o->gpus_per_instance = sizes[(k / 480) % 4];
    o->tier = (enum gp_tier)((k / 1920) % 3);
    if (o->tier == GP_TIER_RESERVED)
        o->term_months = terms[(k / 5760) % 2];
    o->usd_per_gpu_hour = 2.0 + (double)((i * 7919) % 10007) / 1000.0;
    o->usd_per_instance_hour = o->usd_per_gpu_hour * o->gpus_per_instance;
    o->amount = o->usd_per_instance_hour;
    o->unit = GP_UNIT_INSTANCE_HOUR;
    snprintf(o->currency, sizeof(o->currency), "USD");
    o->observed_at = 1790000000;
    snprintf(o->source_url, sizeof(o->source_url), "https://bench.invalid/offers");
}

/* Add `count` generated offers to the database at `path`, one feed per CHUNK_OFFERS. */
static void fill(const char *path, size_t count)
{
    struct gp_catalog cat;
    struct gp_store *store = NULL;
    struct gp_offer *offers = calloc(CHUNK_OFFERS, sizeof(*offers));

    if (!offers || gp_catalog_load(&cat) || gp_store_open(&store, path, 0))
        die("set-up");
    for (size_t first = 0; first < count; first += CHUNK_OFFERS) {
        size_t n = count - first < CHUNK_OFFERS ? count - first : CHUNK_OFFERS;
        for (size_t i = 0; i < n; i++)
            make_offer(&offers[i], &cat, first + i);
        if (gp_store_feed_replace(store, offers[0].feed, offers, n, NULL))
            die("feed write");
    }
    gp_store_close(store);
    gp_catalog_release(&cat);
    free(offers);
}

/* fill() in a child process: posix_spawn shares this process's memory until the exec, so the
 * peak resident memory reported for a spawned command includes this process's own peak; the
 * generated offers (70 MB) must never be part of it. */
static void fill_apart(const char *path, size_t count)
{
    int status;
    pid_t pid;

    fflush(NULL); /* the child must not write this process's buffered output again */
    pid = fork();

    if (pid == 0) {
        fill(path, count);
        _exit(0);
    }
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "offer_scale: filling %s failed\n", path);
        exit(1);
    }
}

struct options {
    long runs;         /* rounds of the plan and start-up comparisons */
    long points;       /* sweep points asked for */
    long price_rounds; /* rounds of the prices comparison at the largest database */
    long sweep_rounds; /* rounds of the sweep comparison */
    long offers;       /* generated offers of the largest database; the middle one has a fifth */
};

static int parse_options(struct options *o, int argc, char **argv)
{
    int i = 2;

    *o = (struct options){11, 100000, 3, 3, 1000000};
    if (i < argc && argv[i][0] != '-' && gp_bench_arg_long(argv[i++], "RUNS", 1, 1000, &o->runs))
        return -1;
    for (; i < argc; i += 2) {
        long *dst = !strcmp(argv[i], "--points")         ? &o->points
                    : !strcmp(argv[i], "--price-rounds") ? &o->price_rounds
                    : !strcmp(argv[i], "--sweep-rounds") ? &o->sweep_rounds
                    : !strcmp(argv[i], "--offers")       ? &o->offers
                                                         : NULL;
        if (!dst || i + 1 >= argc) {
            fprintf(stderr, "offer_scale: unknown or incomplete option '%s'\n", argv[i]);
            return -1;
        }
        if (gp_bench_arg_long(argv[i + 1], argv[i], dst == &o->offers ? 0 : 1, 100000000, dst))
            return -1;
    }
    return 0;
}

/* Run `argv` once on `db` and insist on exit status 0 (set-up and warm-up runs). */
static void run_checked(char *const *argv, const char *db)
{
    struct gp_bench_command cmd = {argv, db, 0};
    struct gp_bench_sample s;

    if (gp_bench_command_side(&s, &cmd))
        exit(1);
}

/* Seed the database at `db` from the snapshot (a `prices` run creates it) and add `extra`
 * generated offers. */
static void build(char *gpuplan, const char *db, size_t extra)
{
    char *seed[] = {gpuplan, "prices", "--gpu", "b200", NULL};

    run_checked(seed, db);
    if (extra)
        fill_apart(db, extra);
}

/* `plan` on each database against the snapshot's. */
static double plan_at_scale(char *gpuplan, char db[][600], const size_t *extra, long runs)
{
    char *plan[] = {gpuplan, "plan", "--workload", "chat-llama-3.1-70b", NULL};
    struct gp_bench_command cmd[3];
    struct gp_bench_side sides[3];
    struct gp_bench_rounds r;
    struct gp_bench_stats st;
    char names[3][64];

    for (int s = 0; s < 3; s++) {
        cmd[s] = (struct gp_bench_command){plan, db[s], 0};
        snprintf(names[s], sizeof(names[s]), "plan, snapshot + %zu", extra[s]);
        sides[s] = (struct gp_bench_side){names[s], gp_bench_command_side, &cmd[s]};
        run_checked(plan, db[s]); /* warm the page cache */
    }
    if (gp_bench_rounds_run(&r, sides, 3, (size_t)runs))
        exit(1);
    printf("\n== gpuplan plan --workload chat-llama-3.1-70b against the offers stored ==\n");
    gp_bench_print_processes(stdout, &r, sides, 1e3, "ms", true);
    gp_bench_ratio_stats(&st, &r, 2, 0, GP_BENCH_CPU);
    gp_bench_rounds_release(&r);
    return st.median;
}

/* `plan` and `--version` against the sqlite3 count on the snapshot database; returns the
 * median per-round CPU ratio plan / count. */
static double startup(char *gpuplan, const char *db, long runs)
{
    char *count[] = {"sqlite3", (char *)db, (char *)count_sql, NULL};
    char *version[] = {gpuplan, "--version", NULL};
    char *plan[] = {gpuplan, "plan", "--workload", "chat-llama-3.1-70b", NULL};
    struct gp_bench_command cmd[3] = {{count, db, 0}, {version, db, 0}, {plan, db, 0}};
    struct gp_bench_side sides[3] = {
        {"sqlite3 count", gp_bench_command_side, &cmd[0]},
        {"--version", gp_bench_command_side, &cmd[1]},
        {"plan", gp_bench_command_side, &cmd[2]},
    };
    struct gp_bench_rounds r;
    struct gp_bench_stats st;

    for (int s = 0; s < 3; s++)
        run_checked(cmd[s].argv, db);
    if (gp_bench_rounds_run(&r, sides, 3, (size_t)runs))
        exit(1);
    printf("\n== whole processes on the snapshot database, against the sqlite3 count ==\n");
    printf("sqlite3 count: sqlite3 DB '%s'\n--version: gpuplan --version\nplan: gpuplan plan "
           "--workload chat-llama-3.1-70b\n",
           count_sql);
    gp_bench_print_processes(stdout, &r, sides, 1e3, "ms", false);
    gp_bench_ratio_stats(&st, &r, 2, 0, GP_BENCH_CPU);
    gp_bench_rounds_release(&r);
    return st.median;
}

/* Every offer listed by `prices` in CSV, JSON and the table, against the sqlite3 scan of the
 * same columns, output to /dev/null; returns the median per-round CPU ratio CSV / scan. */
static double prices(char *gpuplan, const char *db, size_t offers, long rounds)
{
    char *scan[] = {"sqlite3", "-csv", (char *)db, (char *)scan_sql, NULL};
    char *csv[] = {gpuplan, "prices", "--format", "csv", NULL};
    char *json[] = {gpuplan, "prices", "--format", "json", NULL};
    char *table[] = {gpuplan, "prices", NULL};
    struct gp_bench_command cmd[4] = {{scan, db, 0}, {csv, db, 0}, {json, db, 0}, {table, db, 0}};
    struct gp_bench_side sides[4] = {
        {"sqlite3 scan", gp_bench_command_side, &cmd[0]},
        {"prices csv", gp_bench_command_side, &cmd[1]},
        {"prices json", gp_bench_command_side, &cmd[2]},
        {"prices table", gp_bench_command_side, &cmd[3]},
    };
    struct gp_bench_rounds r;
    struct gp_bench_sample s;
    struct gp_bench_stats st;
    size_t bytes[2] = {0, 0};
    int status[2];

    /* Warm-up runs that also count what the two comparable sides print. */
    if (gp_bench_spawn(&s, &status[0], &cmd[0], &bytes[0]) ||
        gp_bench_spawn(&s, &status[1], &cmd[1], &bytes[1]) || status[0] || status[1]) {
        fprintf(stderr, "offer_scale: the prices warm-up failed\n");
        exit(1);
    }
    if (gp_bench_rounds_run(&r, sides, 4, (size_t)rounds))
        exit(1);
    printf("\n== every offer listed, snapshot + %zu offers, output to /dev/null ==\n", offers);
    printf("sqlite3 scan: sqlite3 -csv DB '%s'\n", scan_sql);
    printf("prices csv, json, table: gpuplan prices --format csv, --format json, (no --format)\n");
    printf("output: sqlite3 -csv %zu bytes, gpuplan prices --format csv %zu bytes\n", bytes[0],
           bytes[1]);
    gp_bench_print_processes(stdout, &r, sides, 1, "s", true);
    gp_bench_ratio_stats(&st, &r, 1, 0, GP_BENCH_CPU);
    gp_bench_rounds_release(&r);
    return st.median;
}

/* The exit status of a CSV sweep of `points` points (output to /dev/null). */
static int sweep_status(char *gpuplan, const char *db, long points)
{
    char spec[64];
    char *argv[] = {gpuplan,    "plan", "-w", "chat-llama-3.1-70b", "--sweep", spec,
                    "--format", "csv",  NULL};
    struct gp_bench_command cmd = {argv, db, 0};
    struct gp_bench_sample s;
    int status;

    snprintf(spec, sizeof(spec), "input_tokens=1:%ld:1", points);
    if (gp_bench_spawn(&s, &status, &cmd, NULL))
        exit(1);
    return status;
}

/* `want`, or the largest count below it that the binary accepts when it refuses `want` with
 * exit status 2 (a cap on the sweep's points): a bisection between an accepted and a refused
 * count. */
static long sweep_points(char *gpuplan, const char *db, long want)
{
    long lo = 1, hi = want;
    int status = sweep_status(gpuplan, db, want);

    if (status == 0)
        return want;
    if (status != 2 || sweep_status(gpuplan, db, 1) != 0) {
        fprintf(stderr, "offer_scale: a sweep of %ld points exits with status %d\n", want, status);
        exit(1);
    }
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        status = sweep_status(gpuplan, db, mid);
        if (status == 0)
            lo = mid;
        else if (status == 2)
            hi = mid;
        else {
            fprintf(stderr, "offer_scale: a sweep of %ld points exits with status %d\n", mid,
                    status);
            exit(1);
        }
    }
    return lo;
}

struct sweep_figures {
    long points;
    double json_vs_csv; /* median per-round CPU ratio */
    double csv_rss_mib; /* median peak RSS of the CSV sweep */
};

/* The CSV sweep against the same sweep in JSON. */
static struct sweep_figures sweep(char *gpuplan, const char *db, long want, long rounds)
{
    char spec[64];
    char *csv[] = {gpuplan,    "plan", "-w", "chat-llama-3.1-70b", "--sweep", spec,
                   "--format", "csv",  NULL};
    char *json[] = {gpuplan,    "plan", "-w", "chat-llama-3.1-70b", "--sweep", spec,
                    "--format", "json", NULL};
    struct gp_bench_command cmd[2] = {{csv, db, 0}, {json, db, 0}};
    struct gp_bench_side sides[2] = {{"sweep csv", gp_bench_command_side, &cmd[0]},
                                     {"sweep json", gp_bench_command_side, &cmd[1]}};
    struct sweep_figures f;
    struct gp_bench_rounds r;
    struct gp_bench_stats st;
    char title[160];

    f.points = sweep_points(gpuplan, db, want);
    snprintf(spec, sizeof(spec), "input_tokens=1:%ld:1", f.points);
    printf("\n== gpuplan plan -w chat-llama-3.1-70b --sweep %s, snapshot database ==\n", spec);
    if (f.points != want)
        printf("asked for %ld points; this binary refuses more than %ld (exit status 2), so the "
               "sweep has %ld\n",
               want, f.points, f.points);
    run_checked(json, db);
    if (gp_bench_rounds_run(&r, sides, 2, (size_t)rounds))
        exit(1);
    gp_bench_print(stdout, &r, sides, 0, GP_BENCH_CPU, "CPU time (user + system)", 1e3, "ms");
    snprintf(title, sizeof(title), "CPU time per point (%ld points, start-up included)", f.points);
    gp_bench_print(stdout, &r, sides, 0, GP_BENCH_CPU, title, 1e6 / (double)f.points, "us");
    gp_bench_print(stdout, &r, sides, 0, GP_BENCH_WALL, "wall time", 1e3, "ms");
    gp_bench_print(stdout, &r, sides, 0, GP_BENCH_RSS, "peak resident memory", 1, "MiB");
    gp_bench_ratio_stats(&st, &r, 1, 0, GP_BENCH_CPU);
    f.json_vs_csv = st.median;
    gp_bench_side_stats(&st, &r, 0, GP_BENCH_RSS);
    f.csv_rss_mib = st.median;
    gp_bench_rounds_release(&r);
    return f;
}

/* One line of the goals: the figure, the goal and whether it is met. */
static void goal(const char *label, double value, const char *unit, const char *op, double target,
                 const char *verdict)
{
    printf("  %-56s %8.2f %-3s goal %s %.1f %s: %s\n", label, value, unit, op, target, unit,
           verdict);
}

static const char *met(bool yes)
{
    return yes ? "met" : "NOT met";
}

int main(int argc, char **argv)
{
    struct options o;
    size_t extra[3];
    char dir[512], db[3][600], label[128];
    double scale, plan_vs_count, csv_vs_scan;
    struct sweep_figures sw;

    if (argc < 2 || parse_options(&o, argc, argv)) {
        fprintf(stderr, "usage: offer_scale GPUPLAN [RUNS] [--points N] [--price-rounds N] "
                        "[--sweep-rounds N] [--offers N]\n");
        return 2;
    }
    extra[0] = 0;
    extra[1] = (size_t)o.offers / 5;
    extra[2] = (size_t)o.offers;
    if (gp_bench_workdir(dir, sizeof(dir), "gpuplan-offer-scale"))
        return 1;
    setenv("GPUPLAN_NOW", "2026-10-01T12:00:00Z", 1);
    for (int s = 0; s < 3; s++) {
        snprintf(db[s], sizeof(db[s]), "%s/offers-%d-%zu.db", dir, s, extra[s]);
        build(argv[1], db[s], extra[s]);
    }
    printf("offer_scale: databases of the snapshot + 0, %zu and %zu offers in %s\n", extra[1],
           extra[2], dir);
    scale = plan_at_scale(argv[1], db, extra, o.runs);
    plan_vs_count = startup(argv[1], db[0], o.runs);
    prices(argv[1], db[1], extra[1], 1);
    csv_vs_scan = prices(argv[1], db[2], extra[2], o.price_rounds);
    sw = sweep(argv[1], db[0], o.points, o.sweep_rounds);

    printf("\n== goals (ratios: the median of the per-round CPU ratios) ==\n");
    snprintf(label, sizeof(label), "plan at %zu offers / at the snapshot", extra[2]);
    goal(label, scale, "x", "<=", SCALE_GOAL, met(scale <= SCALE_GOAL));
    goal("plan / sqlite3 count", plan_vs_count, "x", "<=", PLAN_VS_COUNT_GOAL,
         met(plan_vs_count <= PLAN_VS_COUNT_GOAL));
    snprintf(label, sizeof(label), "prices --format csv / sqlite3 -csv scan, %zu offers", extra[2]);
    goal(label, csv_vs_scan, "x", "<=", CSV_VS_SCAN_GOAL, met(csv_vs_scan <= CSV_VS_SCAN_GOAL));
    snprintf(label, sizeof(label), "sweep JSON / CSV per point, %ld points", sw.points);
    goal(label, sw.json_vs_csv, "x", "<=", JSON_VS_CSV_GOAL,
         met(sw.json_vs_csv <= JSON_VS_CSV_GOAL));
    snprintf(label, sizeof(label), "CSV sweep peak resident memory, %ld points", sw.points);
    goal(label, sw.csv_rss_mib, "MiB", "<", SWEEP_RSS_GOAL_MIB,
         sw.points < 100000 ? "not measured (the goal is for 100,000 points)"
                            : met(sw.csv_rss_mib < SWEEP_RSS_GOAL_MIB));
    return 0; /* the working folder goes at exit */
}
