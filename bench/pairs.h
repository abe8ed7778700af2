/* What the benchmarks share: the sides of a comparison run in interleaved rounds with min /
 * median / max of each side and of each per-round ratio, whole processes measured with wait4,
 * and a fresh working folder that is removed with everything in it however the program ends. */
#ifndef GP_BENCH_PAIRS_H
#define GP_BENCH_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The figures one run of a side can fill; a side leaves the ones it does not measure at 0. */
enum gp_bench_metric {
    GP_BENCH_WALL,  /* s, monotonic clock */
    GP_BENCH_CPU,   /* s, user + system */
    GP_BENCH_RSS,   /* MiB (2^20 bytes), peak resident memory of a child process */
    GP_BENCH_VALUE, /* the side's own figure (a rate, a count), in the unit its caller names */
    GP_BENCH_METRICS
};

struct gp_bench_sample {
    double m[GP_BENCH_METRICS]; /* indexed by enum gp_bench_metric */
};

/* Run one side once into `out` (cleared to 0 before the call). Returns 0, or nonzero after
 * printing why to stderr. */
typedef int (*gp_bench_side_fn)(struct gp_bench_sample *out, void *payload);

struct gp_bench_side {
    const char *name; /* shown in the figures */
    gp_bench_side_fn run;
    void *payload;
};

/* The samples of `sides` sides over `rounds` rounds: samples[r * sides + s]. */
struct gp_bench_rounds {
    size_t sides, rounds;
    struct gp_bench_sample *samples; /* owned; gp_bench_rounds_release frees it */
};

/*
 * Run every side once per round, `rounds` rounds; round r starts with side r mod `nsides` and
 * takes the others in turn, so with two sides the order is A B, B A, A B, ... and neither side
 * always runs first (warm caches, a neighbour's load). Fills `out` (release it with
 * gp_bench_rounds_release). Returns 0, or -1 when a side failed or memory ran out (printed).
 */
int gp_bench_rounds_run(struct gp_bench_rounds *out, const struct gp_bench_side *sides,
                        size_t nsides, size_t rounds);
void gp_bench_rounds_release(struct gp_bench_rounds *r);

struct gp_bench_stats {
    double min, median, max; /* in the unit of the figures they summarise */
};

/* min, median and max of `n` values (n >= 1; `v` is left as it was). */
void gp_bench_stats_of(struct gp_bench_stats *out, const double *v, size_t n);
/* Side `side`'s `metric` over the rounds. */
void gp_bench_side_stats(struct gp_bench_stats *out, const struct gp_bench_rounds *r, size_t side,
                         enum gp_bench_metric metric);
/* The per-round ratio side `side` / side `base` of `metric`: each round's own pair. */
void gp_bench_ratio_stats(struct gp_bench_stats *out, const struct gp_bench_rounds *r, size_t side,
                          size_t base, enum gp_bench_metric metric);

/*
 * Print `metric` of every side as "min / median / max" in `unit` (each figure times `scale`),
 * then the per-round ratio of every other side to side `base`, one line each, indented by two
 * spaces under a heading line `title`.
 */
void gp_bench_print(FILE *out, const struct gp_bench_rounds *r, const struct gp_bench_side *sides,
                    size_t base, enum gp_bench_metric metric, const char *title, double scale,
                    const char *unit);

/* gp_bench_print of whole processes against side 0: CPU time and wall time in `unit` (the
 * seconds times `scale`), then, when `memory`, the peak resident memory in MiB. */
void gp_bench_print_processes(FILE *out, const struct gp_bench_rounds *r,
                              const struct gp_bench_side *sides, double scale, const char *unit,
                              bool memory);

/* ---- whole processes ------------------------------------------------------------------------ */

/* One command, as a side's payload for gp_bench_command_side. */
struct gp_bench_command {
    char *const *argv;      /* argv[0] is looked up on PATH when it has no slash */
    const char *gpuplan_db; /* GPUPLAN_DB for the child, or NULL to leave the environment */
    int expect_status;      /* the exit status that counts as success (usually 0) */
};

/*
 * Run `cmd` once with standard output to /dev/null (or, when `bytes` is not NULL, to a pipe
 * this process reads and counts into *bytes), standard error to the working folder's stderr.txt
 * once there is one (shown when gp_bench_command_side fails; inherited before), and fill `out`
 * with its wall time, CPU time and peak resident memory (wait4). *status is its exit status,
 * 128 + the signal's number when a signal ended it (as a shell says), or -1 when it could not be
 * started. Returns 0 when it ran (whatever its status), -1 when it could not (printed).
 */
int gp_bench_spawn(struct gp_bench_sample *out, int *status, const struct gp_bench_command *cmd,
                   size_t *bytes);
/* gp_bench_side_fn for a struct gp_bench_command: fails (printed) on any other exit status. */
int gp_bench_command_side(struct gp_bench_sample *out, void *payload);

/* ---- the working folder --------------------------------------------------------------------- */

/*
 * Make a fresh folder $TMPDIR/<prefix>-XXXXXX (/tmp without TMPDIR) and copy its path into
 * `out` (`size` bytes). The folder and everything in it (databases with their -wal, -shm and
 * -journal files, report folders) is removed when the process exits, by exit() from any path,
 * or on SIGINT, SIGTERM or SIGHUP; forked children never remove it. One folder per process.
 * Returns 0, or -1 (printed).
 */
int gp_bench_workdir(char *out, size_t size, const char *prefix);
/* Remove the working folder now (also done at exit); safe to call twice. */
void gp_bench_workdir_remove(void);

/* ---- arguments ------------------------------------------------------------------------------ */

/* The whole number `text` in [min, max] into *out; returns 0, or -1 (printed, naming `what`). */
int gp_bench_arg_long(const char *text, const char *what, long min, long max, long *out);

#endif
