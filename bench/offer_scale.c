/* Benchmark: `gpuplan plan` and `gpuplan prices` against the number of offers in the database.
 * In one run it builds three databases under a fresh folder in /tmp (removed afterwards): the
 * embedded snapshot alone, and the snapshot plus 200,000 and 1,000,000 generated offers spread
 * over the nine GPU types, 12 providers, 40 regions, four machine sizes and the on-demand, spot
 * and reserved tiers; then times `plan --workload chat-llama-3.1-70b` on each (median wall and
 * CPU time of several runs, as a ratio to the snapshot's) and the peak resident memory of
 * `prices --format csv` and `prices --format json` listing every offer. Usage: offer_scale
 * GPUPLAN [RUNS]. Figures go to stdout; docs/benchmarks.md ("Offers at scale") records them
 * with the machine and date. */
#define _DEFAULT_SOURCE /* wait4: the resources of one child */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "store/store.h"
#include "util/error.h"
#include "util/timeutil.h"

extern char **environ;

enum { CHUNK_OFFERS = 100000, MAX_RUNS = 51 };

static void die(const char *what)
{
    fprintf(stderr, "offer_scale: %s: %s\n", what, gp_error_last());
    exit(1);
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
    pid_t pid = fork();

    if (pid == 0) {
        fill(path, count);
        _exit(0);
    }
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "offer_scale: filling %s failed\n", path);
        exit(1);
    }
}

struct run {
    double wall_s, cpu_s;
    long max_rss_kib;
};

/* One run of `argv` with GPUPLAN_DB=`db` and stdout to /dev/null. */
static struct run run_once(char *const *argv, const char *db)
{
    posix_spawn_file_actions_t actions;
    struct rusage ru;
    struct run r;
    pid_t pid;
    int status;
    double t0 = gp_time_monotonic();

    setenv("GPUPLAN_DB", db, 1);
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 1 /* O_WRONLY */, 0);
    if (posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) != 0 ||
        wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "offer_scale: %s %s failed\n", argv[0], argv[1]);
        exit(1);
    }
    posix_spawn_file_actions_destroy(&actions);
    r.wall_s = gp_time_monotonic() - t0;
    r.cpu_s = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
              (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    r.max_rss_kib = ru.ru_maxrss;
    return r;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct figures {
    size_t offers;
    double wall_s, cpu_s;
    long prices_rss_kib, json_rss_kib;
    double prices_wall_s, json_wall_s;
};

/* The database with the snapshot and `extra` generated offers, and its figures. */
static struct figures measure(char *gpuplan, const char *dir, size_t extra, int runs)
{
    char db[600];
    char *seed[] = {gpuplan, "prices", "--gpu", "b200", NULL};
    char *plan[] = {gpuplan, "plan", "--workload", "chat-llama-3.1-70b", NULL};
    char *prices[] = {gpuplan, "prices", "--format", "csv", NULL};
    char *prices_json[] = {gpuplan, "prices", "--format", "json", NULL};
    double wall[MAX_RUNS], cpu[MAX_RUNS];
    struct figures f = {0, 0, 0, 0, 0, 0, 0};
    struct run r;

    snprintf(db, sizeof(db), "%s/offers-%zu.db", dir, extra);
    run_once(seed, db); /* creates and seeds the database */
    if (extra)
        fill_apart(db, extra);
    run_once(plan, db); /* warm the page cache */
    for (int i = 0; i < runs; i++) {
        r = run_once(plan, db);
        wall[i] = r.wall_s;
        cpu[i] = r.cpu_s;
    }
    f.offers = extra;
    f.wall_s = median(wall, runs);
    f.cpu_s = median(cpu, runs);
    r = run_once(prices, db);
    f.prices_rss_kib = r.max_rss_kib;
    f.prices_wall_s = r.wall_s;
    r = run_once(prices_json, db);
    f.json_rss_kib = r.max_rss_kib;
    f.json_wall_s = r.wall_s;
    return f;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {0, 200000, 1000000};
    struct figures f[3];
    char dir[] = "/tmp/gpuplan-offer-scale-XXXXXX";
    int runs = argc > 2 ? atoi(argv[2]) : 11;

    if (argc < 2) {
        fprintf(stderr, "usage: offer_scale GPUPLAN [RUNS]\n");
        return 2;
    }
    if (runs < 1 || runs > MAX_RUNS)
        runs = 11;
    if (!mkdtemp(dir))
        die("mkdtemp");
    setenv("GPUPLAN_NOW", "2026-10-01T12:00:00Z", 1);
    for (int s = 0; s < 3; s++)
        f[s] = measure(argv[1], dir, sizes[s], runs);
    printf("gpuplan plan --workload chat-llama-3.1-70b, median of %d runs; gpuplan prices --format "
           "csv and json, one run each:\n",
           runs);
    printf("%-28s %10s %8s %10s %8s %12s %10s %12s %10s\n", "offers", "plan wall", "ratio",
           "plan CPU", "ratio", "csv max RSS", "csv wall", "json max RSS", "json wall");
    for (int s = 0; s < 3; s++)
        printf("snapshot + %-17zu %8.1f ms %7.2fx %8.1f ms %7.2fx %8.1f MiB %8.2f s %8.1f MiB "
               "%8.2f s\n",
               f[s].offers, f[s].wall_s * 1e3, f[s].wall_s / f[0].wall_s, f[s].cpu_s * 1e3,
               f[s].cpu_s / f[0].cpu_s, (double)f[s].prices_rss_kib / 1024.0, f[s].prices_wall_s,
               (double)f[s].json_rss_kib / 1024.0, f[s].json_wall_s);
    for (int s = 0; s < 3; s++) {
        char path[700];
        snprintf(path, sizeof(path), "%s/offers-%zu.db", dir, sizes[s]);
        unlink(path);
        snprintf(path, sizeof(path), "%s/offers-%zu.db-wal", dir, sizes[s]);
        unlink(path);
        snprintf(path, sizeof(path), "%s/offers-%zu.db-shm", dir, sizes[s]);
        unlink(path);
    }
    rmdir(dir);
    return 0;
}
