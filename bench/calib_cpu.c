/* calib_cpu: the CPU backend's STREAM triad against mbw (Debian's memory bandwidth benchmark),
 * measured in the same run, on arrays of 4x the last-level cache. Prints a Markdown table and,
 * with --write FILE, puts it under the "Calibration (CPU)" section of FILE (docs/benchmarks.md),
 * leaving the other sections as they are.
 *
 * Usage: calib_cpu [--write FILE] [--seconds S]
 *
 * Bytes are counted the STREAM way: triad moves 3 arrays per element (read b and c, write a);
 * an mbw copy of X MiB/s moves 2X (read and write). The machine may be shared, so the
 * benchmarks take turns over several rounds, in pairs whose order alternates, and each figure is
 * the median of its per-round medians, with the lowest and highest round beside it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "calibrate/stats.h"
#include "kernels/cpu/cpu.h"
#include "util/timeutil.h"

#define MAX_RUNS 64
#define MIB      (1024.0 * 1024.0)

#define ROUNDS 5

struct figure {
    char name[96];
    double round[ROUNDS]; /* per-round median GB/s (10^9 bytes moved per second) */
    double gbs, lo, hi;   /* median, lowest and highest of the rounds */
};

/* The backend's triad (or another kernel) at `threads` threads (0 = all), median GB/s. */
static int run_kernel(double *gbs, enum gp_bench_kind kind, uint64_t bytes, int threads,
                      double seconds)
{
    const struct gp_backend_ops *cpu = gp_cpu_backend();
    double times[MAX_RUNS], rates[MAX_RUNS];
    struct gp_bench_params p;
    struct gp_bench_result r;
    struct gp_stats s;

    memset(&p, 0, sizeof(p));
    memset(&r, 0, sizeof(r));
    p.kind = kind;
    p.array_bytes = bytes;
    p.repetitions = MAX_RUNS;
    p.min_repetitions = 5;
    p.warmup_max = 10;
    p.warmup_seconds = 0.5;
    p.settle_tolerance = 0.05;
    p.time_budget_s = seconds;
    p.seed = 1;
    p.threads = threads;
    r.times_s = times;
    if (cpu->bench(0, &p, &r) != GP_BACKEND_OK) {
        fprintf(stderr, "calib_cpu: %s\n", cpu->last_error());
        return -1;
    }
    for (int i = 0; i < r.samples; i++)
        rates[i] = r.work / times[i] / 1e9;
    if (gp_stats_compute(&s, rates, (size_t)r.samples) != 0)
        return -1;
    *gbs = s.median;
    return 0;
}

/* One mbw process with method `method` (0 memcpy, 2 mcblock) over `mib` MiB arrays, `runs`
 * times; *gbs is the median rate as bytes moved (2x the copied bytes). */
static int run_mbw(double *gbs, int method, int mib, int runs)
{
    double rates[MAX_RUNS];
    size_t n = 0;
    char cmd[128], line[256];
    struct gp_stats s;

    snprintf(cmd, sizeof(cmd), "mbw -q -n %d -t%d %d 2>/dev/null", runs, method, mib);
    FILE *pipe = popen(cmd, "r");
    if (!pipe)
        return -1;
    while (fgets(line, sizeof(line), pipe)) {
        const char *copy = strstr(line, "Copy: ");
        if (copy && strncmp(line, "AVG", 3) != 0 && n < MAX_RUNS)
            rates[n++] = strtod(copy + 6, NULL) * MIB * 2.0 / 1e9;
    }
    if (pclose(pipe) != 0 || n == 0 || gp_stats_compute(&s, rates, n) != 0)
        return -1;
    *gbs = s.median;
    return 0;
}

static void summarise(struct figure *f)
{
    struct gp_stats s;
    if (gp_stats_compute(&s, f->round, ROUNDS) == 0) {
        f->gbs = s.median;
        f->lo = s.min;
        f->hi = s.max;
    }
}

static void text_of(const char *path, const char *key, char *out, size_t size)
{
    char line[512];
    FILE *f = fopen(path, "r");
    out[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, key, strlen(key)) == 0) {
            const char *v = strchr(line, ':');
            if (v) {
                v++;
                v += strspn(v, " \t");
                snprintf(out, size, "%.*s", (int)strcspn(v, "\n"), v);
            }
            break;
        }
    fclose(f);
}

/* Replace (or append) the "## Calibration (CPU)" section of `path` with `section`. */
static int write_section(const char *path, const char *section)
{
    static const char header[] = "## Calibration (CPU)";
    char *old = NULL;
    size_t len = 0;
    FILE *f = fopen(path, "r");

    if (f) {
        if (fseek(f, 0, SEEK_END) == 0) {
            long n = ftell(f);
            if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (old = malloc((size_t)n + 1))) {
                len = fread(old, 1, (size_t)n, f);
                old[len] = '\0';
            }
        }
        fclose(f);
    }
    if (!old) {
        old = strdup("# Benchmarks\n");
        if (!old)
            return -1;
        len = strlen(old);
    }
    char *start = strstr(old, header), *end = NULL;
    if (start) {
        end = strstr(start + sizeof(header) - 1, "\n## ");
        end = end ? end + 1 : old + len;
    }
    f = fopen(path, "w");
    if (!f) {
        free(old);
        return -1;
    }
    if (start) {
        fwrite(old, 1, (size_t)(start - old), f);
        fputs(section, f);
        if (*end)
            fputc('\n', f);
        fputs(end, f);
    } else {
        fputs(old, f);
        if (len && old[len - 1] != '\n')
            fputc('\n', f);
        fputc('\n', f);
        fputs(section, f);
    }
    free(old);
    return fclose(f);
}

enum { OURS_ALL, OURS_ONE, COPY_ALL, MBW_MEMCPY, MBW_MCBLOCK, FIGURES };

/* The docs/benchmarks.md section for the figures, with the machine and date; 0, or -1 when it
 * does not fit section[size]. */
static int format_section(char *section, size_t size, const struct figure fig[FIGURES], int mib,
                          int threads)
{
    char date[32], model[128], kernel[160];
    struct utsname un;
    const struct figure *best =
        fig[MBW_MCBLOCK].gbs > fig[MBW_MEMCPY].gbs ? &fig[MBW_MCBLOCK] : &fig[MBW_MEMCPY];

    gp_time_format_date(gp_time_now(), date, sizeof(date));
    text_of("/proc/cpuinfo", "model name", model, sizeof(model));
    uname(&un);
    snprintf(kernel, sizeof(kernel), "%s %s", un.sysname, un.release);

    int n = snprintf(
        section, size,
        "## Calibration (CPU)\n\n"
        "`bench/calib_cpu` runs the CPU backend's STREAM triad (the kernel `gpuplan calibrate\n"
        "--backend cpu` times) and, in the same run, Debian's `mbw` memory benchmark, on arrays\n"
        "of 4x the last-level cache (%d MiB each). Triad counts 3 arrays moved per element, an\n"
        "mbw copy 2 (read and write); GB/s = 10^9 B/s. The benchmarks take turns over %d rounds\n"
        "(the machine is shared), gpuplan's kernels and mbw as a pair whose order alternates;\n"
        "each figure is the median of the per-round medians, with the lowest (min) and highest\n"
        "(max) round. mbw has no threads, so the 1-thread triad is the like-for-like comparison.\n"
        "Run it with `calib_cpu [--seconds S] [--write docs/benchmarks.md]`.\n\n"
        "Machine: %s, %d CPUs, %s (shared virtual machine), `-O2`.\nDate: %s.\n\n"
        "| benchmark | min GB/s | median GB/s | max GB/s |\n|---|---:|---:|---:|\n",
        mib, ROUNDS, model, threads, kernel, date);
    for (size_t i = 0; i < FIGURES && n > 0 && (size_t)n < size; i++)
        n += snprintf(section + n, size - (size_t)n, "| %s | %.1f | %.1f | %.1f |\n", fig[i].name,
                      fig[i].lo, fig[i].gbs, fig[i].hi);
    if (n > 0 && (size_t)n < size)
        n += snprintf(section + n, size - (size_t)n,
                      "\nTriad reaches **%.0f%%** of the better mbw figure (%s) with %d threads\n"
                      "and **%.0f%%** with 1 thread; the target is at least 90%%.\n",
                      100.0 * fig[OURS_ALL].gbs / best->gbs, best->name, threads,
                      100.0 * fig[OURS_ONE].gbs / best->gbs);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *write_path = NULL;
    double seconds = 2.0;
    struct gp_device_info info;
    struct figure fig[FIGURES];
    char section[8192];

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--write") == 0 && i + 1 < argc)
            write_path = argv[++i];
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            seconds = strtod(argv[++i], NULL);
        else {
            fprintf(stderr, "usage: %s [--write FILE] [--seconds S]\n", argv[0]);
            return 2;
        }
    }
    if (gp_cpu_backend()->device_info(0, &info) != GP_BACKEND_OK)
        return 1;
    int threads = info.compute_units;
    uint64_t bytes = 4 * (info.llc_bytes ? info.llc_bytes : (uint64_t)32 << 20);
    if (bytes < (uint64_t)64 << 20)
        bytes = (uint64_t)64 << 20;
    int mib = (int)(bytes / (1 << 20));
    int mbw_runs = (int)(seconds * 4) < 3 ? 3 : (int)(seconds * 4) > 20 ? 20 : (int)(seconds * 4);
    double slice = seconds / ROUNDS;

    memset(fig, 0, sizeof(fig));
    snprintf(fig[OURS_ALL].name, sizeof(fig[0].name), "gpuplan triad, %d threads", threads);
    snprintf(fig[OURS_ONE].name, sizeof(fig[0].name), "gpuplan triad, 1 thread");
    snprintf(fig[COPY_ALL].name, sizeof(fig[0].name), "gpuplan copy, %d threads", threads);
    snprintf(fig[MBW_MEMCPY].name, sizeof(fig[0].name), "mbw MEMCPY (1 thread)");
    snprintf(fig[MBW_MCBLOCK].name, sizeof(fig[0].name), "mbw MCBLOCK (1 thread)");
    printf("arrays of %d MiB (4x the %llu MiB last-level cache), %d threads, %d rounds\n", mib,
           (unsigned long long)(info.llc_bytes >> 20), threads, ROUNDS);
    /* Each round runs both sides, gpuplan's kernels and mbw, as a pair; odd rounds start with
     * mbw, so that neither side always finds the machine as the other left it. */
    for (int r = 0; r < ROUNDS; r++)
        for (int turn = 0; turn < 2; turn++) {
            if ((turn + r) % 2 == 0) {
                if (run_kernel(&fig[OURS_ALL].round[r], GP_BENCH_TRIAD, bytes, 0, slice) ||
                    run_kernel(&fig[OURS_ONE].round[r], GP_BENCH_TRIAD, bytes, 1, slice) ||
                    run_kernel(&fig[COPY_ALL].round[r], GP_BENCH_COPY, bytes, 0, slice))
                    return 1;
            } else if (run_mbw(&fig[MBW_MEMCPY].round[r], 0, mib, mbw_runs / ROUNDS + 2) ||
                       run_mbw(&fig[MBW_MCBLOCK].round[r], 2, mib, mbw_runs / ROUNDS + 2)) {
                fprintf(stderr, "calib_cpu: mbw failed (Debian package mbw)\n");
                return 1;
            }
        }
    gp_cpu_backend()->shutdown(); /* the kernels' arena */
    for (int i = 0; i < FIGURES; i++)
        summarise(&fig[i]);
    if (format_section(section, sizeof(section), fig, mib, threads))
        return 1;
    fputs(section, stdout);
    if (write_path && write_section(write_path, section) != 0) {
        fprintf(stderr, "calib_cpu: cannot write %s: %s\n", write_path, strerror(errno));
        return 1;
    }
    return 0;
}
