/* calib_buffers: the CPU backend's quick calibration plan run three ways in the same run, in
 * interleaved rounds, to show what keeping one operand arena per device run saves: minor page
 * faults, system CPU time and peak resident memory, against the largest step's operand bytes.
 *
 * Usage: calib_buffers [--rounds N] [--reps N] [--side reused|per-step|plain]
 *
 * The sides, each calling the same kernels (gp_cpu_bench_in) on the steps of the plan
 * `gpuplan calibrate --quick` runs on this machine (gp_calibrate_plan_steps), in its order:
 *   reused     one arena for the whole schedule, released at the end (what calibrate does);
 *   per-step   a fresh arena for every step, released after it (the same allocator, huge-page
 *              advice included: the cost of allocating per step alone);
 *   plain      a plain malloc block of the step's bytes for every step, freed after it (4 KiB
 *              pages: how the kernels allocated before the arena).
 * Every step runs its kernel `reps` times after one warm-up and is verified as in a calibration
 * (a step that fails verification fails the benchmark). Each side runs in a child process of
 * its own, so the child's getrusage (through wait4) gives that side's minor faults, system CPU
 * time and peak RSS alone. The rounds rotate which side goes first; each figure is given as the
 * minimum, median and maximum over the rounds. Nothing is written to disk. --side runs that side
 * alone, in this process, for a profiler. */
#define _DEFAULT_SOURCE /* wait4 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "calibrate/calibrate.h"
#include "calibrate/stats.h"
#include "kernels/cpu/cpu.h"
#include "util/timeutil.h"

#define MAX_ROUNDS 32
#define MAX_REPS   16
#define MIB        (1024.0 * 1024.0)

enum side { REUSED, PER_STEP, PLAIN, SIDES };

static const char *const side_names[SIDES] = {"reused arena", "arena per step",
                                              "plain malloc per step"};

/* What a child reports through its pipe. */
struct child_report {
    int steps;       /* steps run (EUNSUPPORTED ones excluded) */
    int failed;      /* steps that failed or did not verify */
    int allocations; /* blocks the side allocated */
    uint64_t most;   /* largest block the side held, bytes */
    double wall_s;   /* the schedule's wall time, s */
};

/* One round's figures of one side. */
struct sample {
    double minflt;  /* minor page faults */
    double stime_s; /* system CPU time, s */
    double maxrss;  /* peak resident set, MiB */
    double wall_s;  /* wall time of the schedule, s */
};

static struct gp_bench_params steps[GP_CALIBRATE_STEPS_MAX];
static int step_count;

static int run_step(struct gp_cpu_arena *arena, struct gp_bench_params *p, int reps, int index)
{
    double times[MAX_REPS];
    struct gp_bench_result r;

    memset(&r, 0, sizeof(r));
    r.times_s = times;
    p->repetitions = reps;
    p->min_repetitions = reps;
    p->warmup_max = 1;
    p->warmup_seconds = 0.0;
    p->settle_tolerance = 0.05;
    p->time_budget_s = 0.0;
    p->seed = 20261202u + (uint64_t)index * 7919u;
    return gp_cpu_bench_in(arena, p, &r);
}

/* The child's work: the whole schedule one way. */
static void run_side(enum side side, int reps, struct child_report *rep)
{
    struct gp_cpu_arena arena;
    double t0 = gp_time_monotonic();

    memset(&arena, 0, sizeof(arena));
    memset(rep, 0, sizeof(*rep));
    for (int i = 0; i < step_count; i++) {
        struct gp_bench_params p = steps[i];
        if (side == PLAIN) {
            /* The caller's own block, as the kernels once allocated theirs: the arena keeps it,
             * being large enough. */
            arena.bytes = (gp_cpu_bench_bytes(&p) + 63) / 64 * 64;
            arena.base = aligned_alloc(64, arena.bytes ? (size_t)arena.bytes : 64);
            arena.allocations = arena.base ? 1 : 0;
        }
        int rc = run_step(&arena, &p, reps, i);
        if (rc != GP_BACKEND_EUNSUPPORTED) {
            rep->steps++;
            if (rc != GP_BACKEND_OK) {
                fprintf(stderr, "calib_buffers: step %d: %s\n", i, gp_cpu_backend()->last_error());
                rep->failed++;
            }
        }
        if (arena.bytes > rep->most)
            rep->most = arena.bytes;
        if (side != REUSED) {
            rep->allocations += arena.allocations;
            gp_cpu_arena_release(&arena);
        }
    }
    if (side == REUSED)
        rep->allocations = arena.allocations;
    gp_cpu_arena_release(&arena);
    rep->wall_s = gp_time_monotonic() - t0;
}

/* Run one side in a child process; its resource use from wait4. 0 or -1. */
static int measure(enum side side, int reps, struct sample *out, struct child_report *rep)
{
    int fd[2];
    struct rusage ru;
    int status = 0;

    if (pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        struct child_report r;
        close(fd[0]);
        run_side(side, reps, &r);
        ssize_t n = write(fd[1], &r, sizeof(r));
        _exit(n == (ssize_t)sizeof(r) && r.failed == 0 ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], rep, sizeof(*rep));
    close(fd[0]);
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        got != (ssize_t)sizeof(*rep))
        return -1;
    out->minflt = (double)ru.ru_minflt;
    out->stime_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    out->maxrss = (double)ru.ru_maxrss * 1024.0 / MIB; /* ru_maxrss is in KiB */
    out->wall_s = rep->wall_s;
    return 0;
}

/* The minimum, median and maximum of one figure of one side over the rounds. */
static void summary(const struct sample *rounds, int n, size_t offset, struct gp_stats *s)
{
    double v[MAX_ROUNDS];
    for (int i = 0; i < n; i++)
        memcpy(&v[i], (const char *)&rounds[i] + offset, sizeof(double));
    memset(s, 0, sizeof(*s));
    (void)gp_stats_compute(s, v, (size_t)n);
}

static void describe(char *out, size_t size, const struct gp_bench_params *p)
{
    static const char *const kinds[] = {"copy", "scale", "add", "triad", "read", "gemm"};
    if (p->kind == GP_BENCH_GEMM)
        snprintf(out, size, "gemm %s %dx%dx%d", p->precision == GP_BENCH_FP64 ? "fp64" : "fp32",
                 p->m, p->n, p->k);
    else
        snprintf(out, size, "%s %.0f MiB arrays", kinds[p->kind], (double)p->array_bytes / MIB);
}

int main(int argc, char **argv)
{
    int rounds = 5, reps = 3, only = -1;
    struct gp_device_info info;
    struct sample samples[SIDES][MAX_ROUNDS];
    struct child_report last[SIDES];

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--side") == 0 && i + 1 < argc) {
            i++;
            only = strcmp(argv[i], "reused") == 0     ? REUSED
                   : strcmp(argv[i], "per-step") == 0 ? PER_STEP
                   : strcmp(argv[i], "plain") == 0    ? PLAIN
                                                      : -2;
        } else {
            fprintf(stderr, "usage: %s [--rounds N] [--reps N]\n", argv[0]);
            return 2;
        }
    }
    if (rounds < 1 || rounds > MAX_ROUNDS || reps < 1 || reps > MAX_REPS || only == -2) {
        fprintf(stderr,
                "calib_buffers: --rounds 1..%d, --reps 1..%d, --side reused|per-step|plain\n",
                MAX_ROUNDS, MAX_REPS);
        return 2;
    }
    if (gp_cpu_backend()->device_info(0, &info) != GP_BACKEND_OK)
        return 1;
    step_count = gp_calibrate_plan_steps(steps, GP_CALIBRATE_STEPS_MAX, &info, 1);
    if (step_count <= 0)
        return 1;

    uint64_t need = 0, gemm_need = 0;
    int largest = 0;
    for (int i = 0; i < step_count; i++) {
        uint64_t b = gp_cpu_bench_bytes(&steps[i]);
        if (b > need) {
            need = b;
            largest = i;
        }
        if (steps[i].kind == GP_BENCH_GEMM && b > gemm_need)
            gemm_need = b;
    }
    char what[96];
    describe(what, sizeof(what), &steps[largest]);
    printf("quick plan: %d steps on %s (%d threads, %llu MiB last-level cache); %d rounds, "
           "%d timed runs per step\n",
           step_count, info.name, info.compute_units, (unsigned long long)(info.llc_bytes >> 20),
           rounds, reps);
    printf("largest step's need: %.1f MiB (%s); largest GEMM step: %.1f MiB\n\n",
           (double)need / MIB, what, (double)gemm_need / MIB);

    if (only >= 0) {
        struct child_report rep;
        run_side((enum side)only, reps, &rep);
        printf("%s: %d steps, %d failed, %d blocks, %.2f s\n", side_names[only], rep.steps,
               rep.failed, rep.allocations, rep.wall_s);
        return rep.failed ? 1 : 0;
    }
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < SIDES; k++) {
            enum side side = (enum side)((r + k) % SIDES);
            if (measure(side, reps, &samples[side][r], &last[side]) != 0) {
                fprintf(stderr, "calib_buffers: the %s run failed\n", side_names[side]);
                return 1;
            }
        }

    static const struct {
        const char *name;
        size_t offset;
        const char *format;
    } figures[] = {
        {"minor page faults", offsetof(struct sample, minflt), "%.0f"},
        {"system CPU time, s", offsetof(struct sample, stime_s), "%.2f"},
        {"peak RSS, MiB", offsetof(struct sample, maxrss), "%.1f"},
        {"schedule wall time, s", offsetof(struct sample, wall_s), "%.2f"},
    };
    struct gp_stats med[SIDES][4];
    printf("| side | figure | min | median | max |\n|---|---|---:|---:|---:|\n");
    for (int side = 0; side < SIDES; side++)
        for (size_t f = 0; f < sizeof(figures) / sizeof(figures[0]); f++) {
            struct gp_stats *s = &med[side][f];
            char lo[32], mid[32], hi[32];
            summary(samples[side], rounds, figures[f].offset, s);
            snprintf(lo, sizeof(lo), figures[f].format, s->min);
            snprintf(mid, sizeof(mid), figures[f].format, s->median);
            snprintf(hi, sizeof(hi), figures[f].format, s->max);
            printf("| %s | %s | %s | %s | %s |\n", side_names[side], figures[f].name, lo, mid, hi);
        }
    printf("\nblocks allocated per schedule: reused %d (largest %.1f MiB), arena per step %d, "
           "plain %d\n",
           last[REUSED].allocations, (double)last[REUSED].most / MIB, last[PER_STEP].allocations,
           last[PLAIN].allocations);
    printf("reused arena: peak RSS %.2fx the largest step's need (goal <= 1.2x); minor faults "
           "%.3fx the plain per-step side's (goal <= 0.1x)\n",
           med[REUSED][2].median * MIB / (double)need,
           med[REUSED][0].median / (med[PLAIN][0].median > 0 ? med[PLAIN][0].median : 1.0));
    return 0;
}
