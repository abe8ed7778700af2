/* Interleaved rounds, min / median / max, whole processes by wait4 and the removed working
 * folder that the benchmarks share (bench/pairs.h). */
#define _DEFAULT_SOURCE /* wait4, lstat, sigaction */
#include "pairs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/text.h"
#include "util/timeutil.h"

extern char **environ;

static char workdir[4096];
static pid_t workdir_owner;
static char child_stderr[4200]; /* <workdir>/stderr.txt: the last child's standard error */

/* ---- rounds and figures --------------------------------------------------------------------- */

int gp_bench_rounds_run(struct gp_bench_rounds *out, const struct gp_bench_side *sides,
                        size_t nsides, size_t rounds)
{
    out->sides = nsides;
    out->rounds = rounds;
    out->samples = calloc(nsides * rounds, sizeof(*out->samples));
    if (!out->samples) {
        fprintf(stderr, "bench: out of memory for %zu rounds\n", rounds);
        return -1;
    }
    for (size_t r = 0; r < rounds; r++)
        for (size_t k = 0; k < nsides; k++) {
            size_t s = (r + k) % nsides;
            struct gp_bench_sample *sample = &out->samples[r * nsides + s];
            if (sides[s].run(sample, sides[s].payload)) {
                fprintf(stderr, "bench: %s failed in round %zu\n", sides[s].name, r + 1);
                gp_bench_rounds_release(out);
                return -1;
            }
        }
    return 0;
}

void gp_bench_rounds_release(struct gp_bench_rounds *r)
{
    if (!r)
        return;
    free(r->samples);
    r->samples = NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void gp_bench_stats_of(struct gp_bench_stats *out, const double *v, size_t n)
{
    double *sorted = malloc(n * sizeof(*sorted));

    if (!sorted || n == 0) {
        free(sorted);
        out->min = out->median = out->max = n ? v[0] : 0;
        return;
    }
    memcpy(sorted, v, n * sizeof(*sorted));
    qsort(sorted, n, sizeof(*sorted), by_value);
    out->min = sorted[0];
    out->max = sorted[n - 1];
    out->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    free(sorted);
}

/* Side `side`'s metric, divided by side `base`'s of the same round when `base` is not `side`. */
static void collect(struct gp_bench_stats *out, const struct gp_bench_rounds *r, size_t side,
                    size_t base, enum gp_bench_metric metric)
{
    double *v = calloc(r->rounds ? r->rounds : 1, sizeof(*v));

    if (!v) {
        out->min = out->median = out->max = 0;
        return;
    }
    for (size_t i = 0; i < r->rounds; i++) {
        double x = r->samples[i * r->sides + side].m[metric];
        double y = r->samples[i * r->sides + base].m[metric];
        v[i] = side == base ? x : (y > 0 ? x / y : 0);
    }
    gp_bench_stats_of(out, v, r->rounds);
    free(v);
}

void gp_bench_side_stats(struct gp_bench_stats *out, const struct gp_bench_rounds *r, size_t side,
                         enum gp_bench_metric metric)
{
    collect(out, r, side, side, metric);
}

void gp_bench_ratio_stats(struct gp_bench_stats *out, const struct gp_bench_rounds *r, size_t side,
                          size_t base, enum gp_bench_metric metric)
{
    collect(out, r, side, base, metric);
}

void gp_bench_print(FILE *out, const struct gp_bench_rounds *r, const struct gp_bench_side *sides,
                    size_t base, enum gp_bench_metric metric, const char *title, double scale,
                    const char *unit)
{
    struct gp_bench_stats st;

    fprintf(out, "%s, min / median / max of %zu round%s:\n", title, r->rounds,
            r->rounds == 1 ? "" : "s");
    for (size_t s = 0; s < r->sides; s++) {
        gp_bench_side_stats(&st, r, s, metric);
        fprintf(out, "  %-44s %10.3f / %10.3f / %10.3f %s\n", sides[s].name, st.min * scale,
                st.median * scale, st.max * scale, unit);
    }
    for (size_t s = 0; s < r->sides; s++) {
        char label[160];
        if (s == base)
            continue;
        gp_bench_ratio_stats(&st, r, s, base, metric);
        snprintf(label, sizeof(label), "%s / %s", sides[s].name, sides[base].name);
        fprintf(out, "  %-44s %10.3f / %10.3f / %10.3f x\n", label, st.min, st.median, st.max);
    }
}

void gp_bench_print_processes(FILE *out, const struct gp_bench_rounds *r,
                              const struct gp_bench_side *sides, double scale, const char *unit,
                              bool memory)
{
    gp_bench_print(out, r, sides, 0, GP_BENCH_CPU, "CPU time (user + system)", scale, unit);
    gp_bench_print(out, r, sides, 0, GP_BENCH_WALL, "wall time", scale, unit);
    if (memory)
        gp_bench_print(out, r, sides, 0, GP_BENCH_RSS, "peak resident memory", 1, "MiB");
}

/* ---- whole processes ------------------------------------------------------------------------ */

static double seconds_of(const struct timeval *tv)
{
    return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

int gp_bench_spawn(struct gp_bench_sample *out, int *status, const struct gp_bench_command *cmd,
                   size_t *bytes)
{
    posix_spawn_file_actions_t actions;
    struct rusage ru;
    int pipefd[2] = {-1, -1}, wstatus = 0, rc;
    pid_t pid;
    double t0;

    memset(out, 0, sizeof(*out));
    *status = -1;
    if (cmd->gpuplan_db)
        setenv("GPUPLAN_DB", cmd->gpuplan_db, 1);
    if (bytes && pipe(pipefd) != 0) {
        perror("bench: pipe");
        return -1;
    }
    posix_spawn_file_actions_init(&actions);
    if (bytes) {
        posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
        posix_spawn_file_actions_addclose(&actions, pipefd[0]);
        posix_spawn_file_actions_addclose(&actions, pipefd[1]);
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    }
    if (child_stderr[0])
        posix_spawn_file_actions_addopen(&actions, 2, child_stderr, O_WRONLY | O_CREAT | O_TRUNC,
                                         0600);
    t0 = gp_time_monotonic();
    rc = posix_spawnp(&pid, cmd->argv[0], &actions, NULL, cmd->argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (bytes) {
        close(pipefd[1]);
        if (rc == 0) {
            char chunk[1 << 16];
            ssize_t n;
            *bytes = 0;
            while ((n = read(pipefd[0], chunk, sizeof(chunk))) > 0 || (n < 0 && errno == EINTR))
                if (n > 0)
                    *bytes += (size_t)n;
        }
        close(pipefd[0]);
    }
    if (rc != 0) {
        fprintf(stderr, "bench: cannot start %s: %s\n", cmd->argv[0], strerror(rc));
        return -1;
    }
    while (wait4(pid, &wstatus, 0, &ru) < 0)
        if (errno != EINTR) {
            perror("bench: wait4");
            return -1;
        }
    out->m[GP_BENCH_WALL] = gp_time_monotonic() - t0;
    out->m[GP_BENCH_CPU] = seconds_of(&ru.ru_utime) + seconds_of(&ru.ru_stime);
    out->m[GP_BENCH_RSS] = (double)ru.ru_maxrss / 1024.0; /* Linux: KiB */
    if (WIFEXITED(wstatus))
        *status = WEXITSTATUS(wstatus);
    else if (WIFSIGNALED(wstatus))
        *status = 128 + WTERMSIG(wstatus);
    return 0;
}

/* What the last child wrote to standard error, after it failed. */
static void print_child_stderr(void)
{
    char line[1024];
    FILE *f = child_stderr[0] ? fopen(child_stderr, "r") : NULL;

    while (f && fgets(line, sizeof(line), f))
        fprintf(stderr, "  | %s", line);
    if (f)
        fclose(f);
}

int gp_bench_command_side(struct gp_bench_sample *out, void *payload)
{
    const struct gp_bench_command *cmd = payload;
    int status;

    if (gp_bench_spawn(out, &status, cmd, NULL))
        return -1;
    if (status != cmd->expect_status) {
        fprintf(stderr, "bench: %s", cmd->argv[0]);
        for (size_t i = 1; cmd->argv[i]; i++)
            fprintf(stderr, " %s", cmd->argv[i]);
        if (status > 128)
            fprintf(stderr, ": killed by signal %d (%s), expected exit status %d\n", status - 128,
                    strsignal(status - 128), cmd->expect_status);
        else
            fprintf(stderr, ": exit status %d, expected %d\n", status, cmd->expect_status);
        print_child_stderr();
        return -1;
    }
    return 0;
}

/* ---- the working folder --------------------------------------------------------------------- */

/* Remove `path` and, if it is a folder, everything under it; lstat, so links are not followed. */
static void remove_tree(const char *path)
{
    struct stat st;
    DIR *dir;
    struct dirent *e;

    if (lstat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    dir = opendir(path);
    if (dir) {
        while ((e = readdir(dir)) != NULL) {
            char child[4096];
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            if ((size_t)snprintf(child, sizeof(child), "%s/%s", path, e->d_name) < sizeof(child))
                remove_tree(child);
        }
        closedir(dir);
    }
    rmdir(path);
}

void gp_bench_workdir_remove(void)
{
    if (!workdir[0] || getpid() != workdir_owner)
        return;
    child_stderr[0] = '\0';
    remove_tree(workdir);
    workdir[0] = '\0';
}

/* On a signal that ends the program: remove the folder (not async-signal-safe, which is fine in
 * a benchmark that is being stopped), then die of the signal as before. */
static void on_signal(int sig)
{
    gp_bench_workdir_remove();
    signal(sig, SIG_DFL);
    raise(sig);
}

int gp_bench_workdir(char *out, size_t size, const char *prefix)
{
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    const char *tmp = getenv("TMPDIR");
    struct sigaction sa;

    if (workdir[0]) {
        fprintf(stderr, "bench: one working folder per process\n");
        return -1;
    }
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if ((size_t)snprintf(workdir, sizeof(workdir), "%s/%s-XXXXXX", tmp, prefix) >=
            sizeof(workdir) ||
        strlen(workdir) >= size) {
        fprintf(stderr, "bench: working folder name too long under %s\n", tmp);
        workdir[0] = '\0';
        return -1;
    }
    if (!mkdtemp(workdir)) {
        fprintf(stderr, "bench: mkdtemp %s: %s\n", workdir, strerror(errno));
        workdir[0] = '\0';
        return -1;
    }
    workdir_owner = getpid();
    atexit(gp_bench_workdir_remove);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
        sigaction(signals[i], &sa, NULL);
    gp_text_copy(out, size, workdir);
    snprintf(child_stderr, sizeof(child_stderr), "%s/stderr.txt", workdir);
    return 0;
}

/* ---- arguments ------------------------------------------------------------------------------ */

int gp_bench_arg_long(const char *text, const char *what, long min, long max, long *out)
{
    if (gp_text_to_int(text, min, max, out)) {
        fprintf(stderr, "bench: %s: '%s' is not a whole number from %ld to %ld\n", what, text, min,
                max);
        return -1;
    }
    return 0;
}
