/* The calibration run on one device: build the plan, run each benchmark through the backend,
 * summarise its timings, check them against the datasheet, fit the curves, and record the
 * conditions the numbers were measured under. */
#include "calibrate/calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calibrate/device_map.h"
#include "calibrate/schedule.h"
#include "calibrate/stats.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/jsonw.h"
#include "util/text.h"
#include "util/timeutil.h"

#define MAX_STEPS GP_CALIBRATE_STEPS_MAX
#define MAX_REPS  64
#define MIB       (1024ull * 1024ull)
#define GIB       (1024ull * MIB)

static const char *const kind_names[GP_BENCH_KIND_COUNT] = {"copy",  "scale", "add",
                                                            "triad", "read",  "gemm"};
const char *const gp_calibrate__precision_names[GP_BENCH_PRECISION_COUNT] = {"fp64", "fp32", "tf32",
                                                                             "bf16", "fp16", "fp8"};
const enum gp_precision gp_calibrate__catalog_precision[GP_BENCH_PRECISION_COUNT] = {
    GP_FP64, GP_FP32, GP_TF32, GP_BF16, GP_FP16, GP_FP8};
#define precision_names   gp_calibrate__precision_names
#define catalog_precision gp_calibrate__catalog_precision

/* One planned benchmark and the share of the device's time budget it may use. */
struct step {
    struct gp_bench_params params;
    double weight; /* relative time share */
    int required;  /* part of the core every calibration measures (see calibrate/schedule.h) */
};

struct plan {
    struct step steps[MAX_STEPS];
    int count;
};

static void add_step(struct plan *plan, const struct gp_bench_params *p, double weight,
                     int required)
{
    if (plan->count >= MAX_STEPS)
        return;
    plan->steps[plan->count].params = *p;
    plan->steps[plan->count].weight = weight;
    plan->steps[plan->count].required = required;
    plan->count++;
}

/* Whether the 0-terminated list holds v. */
static int listed(const int *list, int v)
{
    for (; *list; list++)
        if (*list == v)
            return 1;
    return 0;
}

/* Bytes per array for the bandwidth kernels: at least 4x the last-level cache (STREAM's rule;
 * the 256 MiB Infinity Cache of MI300-class parts asks for 1 GiB), 1 GiB on GPUs, and no more
 * than an eighth of the memory for the three arrays together. */
static uint64_t stream_bytes(const struct gp_device_info *info, int is_cpu)
{
    uint64_t llc = info->llc_bytes ? info->llc_bytes : (is_cpu ? 32 * MIB : 256 * MIB);
    uint64_t bytes = 4 * llc;
    if (!is_cpu && bytes < GIB)
        bytes = GIB;
    if (is_cpu && bytes < 64 * MIB)
        bytes = 64 * MIB;
    if (info->memory_bytes && bytes > info->memory_bytes / 24)
        bytes = info->memory_bytes / 24;
    return bytes / 4096 * 4096;
}

/* The sizes a plan sweeps; each list ends with 0. */
struct sizes {
    const int *square, *square_core; /* square GEMMs; those the required core has */
    const int *m, *m_core;           /* decode-shape M; the core's */
    const int *nk;                   /* decode-shape N = K; the core has the first */
};

static void plan_sizes(struct sizes *out, int is_cpu, int quick)
{
    static const int gpu_square_full[] = {256, 512, 1024, 2048, 4096, 8192, 0};
    static const int gpu_square_quick[] = {512, 2048, 8192, 0};
    static const int cpu_square_full[] = {128, 256, 512, 1024, 2048, 0};
    static const int cpu_square_quick[] = {128, 512, 1024, 0};
    static const int gpu_m_full[] = {1, 8, 32, 128, 256, 0};
    static const int gpu_m_quick[] = {1, 32, 256, 0};
    static const int cpu_m_full[] = {1, 16, 64, 256, 0};
    static const int cpu_m_quick[] = {1, 16, 256, 0};
    static const int gpu_nk_full[] = {4096, 16384, 0};
    static const int gpu_nk_quick[] = {8192, 0};
    static const int cpu_nk_full[] = {4096, 8192, 0};
    static const int cpu_nk_quick[] = {4096, 0};

    out->square_core = is_cpu ? cpu_square_quick : gpu_square_quick;
    out->m_core = is_cpu ? cpu_m_quick : gpu_m_quick;
    out->square = quick ? out->square_core : is_cpu ? cpu_square_full : gpu_square_full;
    out->m = quick ? out->m_core : is_cpu ? cpu_m_full : gpu_m_full;
    out->nk = is_cpu ? (quick ? cpu_nk_quick : cpu_nk_full) : (quick ? gpu_nk_quick : gpu_nk_full);
}

/* Bandwidth: every kernel over the full arrays, then the triad over windows of them, each run
 * on a fresh window: small sizes show the launch, synchronisation and latency overhead the
 * curve is about, not the cache. */
static void plan_bandwidth(struct plan *plan, uint64_t array, int quick)
{
    struct gp_bench_params p;
    uint64_t step = quick ? 8 : 4;
    int windows = 0;

    memset(&p, 0, sizeof(p));
    p.array_bytes = array;
    for (int k = GP_BENCH_COPY; k <= GP_BENCH_READ; k++) {
        p.kind = (enum gp_bench_kind)k;
        add_step(plan, &p, 1.0, 1);
    }
    p.kind = GP_BENCH_TRIAD;
    p.rotate_bytes = 3 * array;
    for (uint64_t w = array / step; w >= 64 * 1024 && windows < (quick ? 3 : 6); w /= step) {
        p.array_bytes = w / 4096 * 4096;
        add_step(plan, &p, 0.5, windows < 3);
        windows++;
    }
}

/* The library's squares and decode shapes of one precision, with `p` preset. */
static void plan_library_shapes(struct plan *plan, struct gp_bench_params *p, const struct sizes *z)
{
    for (int i = 0; z->square[i]; i++) {
        p->m = p->n = p->k = z->square[i];
        add_step(plan, p, 1.0, listed(z->square_core, p->m));
    }
    for (int j = 0; z->nk[j]; j++)
        for (int i = 0; z->m[i]; i++) {
            p->m = z->m[i];
            p->n = p->k = z->nk[j];
            add_step(plan, p, 0.7, j == 0 && listed(z->m_core, p->m));
        }
}

/* GEMM of one precision: a small odd shape and a mid-size square through the own kernel (checked
 * against the host; the square cross-checks the library), then the library's squares and
 * decode shapes; fp8 once more with the library's fast accumulation. */
static void plan_precision(struct plan *plan, enum gp_bench_precision prec, const struct sizes *z,
                           uint64_t rotate, int is_cpu)
{
    struct gp_bench_params p;

    memset(&p, 0, sizeof(p));
    p.kind = GP_BENCH_GEMM;
    p.rotate_bytes = rotate;
    p.precision = prec;
    p.m = 67;
    p.n = 45;
    p.k = 131;
    p.impl = GP_BENCH_IMPL_OWN;
    add_step(plan, &p, 0.2, 1);
    p.m = p.n = p.k = is_cpu ? 256 : 2048;
    add_step(plan, &p, 0.5, 1);
    p.impl = GP_BENCH_IMPL_AUTO;
    plan_library_shapes(plan, &p, z);
    if (prec != GP_BENCH_FP8)
        return;
    p.impl = GP_BENCH_IMPL_VENDOR;
    p.fast_accum = 1;
    plan_library_shapes(plan, &p, z);
}

static void build_plan(struct plan *plan, const struct gp_device_info *info, int is_cpu, int quick)
{
    /* Most used by the planner first; fp64 only on CPUs (the model plans fp32 and below on
     * GPUs). */
    static const enum gp_bench_precision order[] = {GP_BENCH_BF16, GP_BENCH_FP8,  GP_BENCH_FP16,
                                                    GP_BENCH_FP32, GP_BENCH_TF32, GP_BENCH_FP64};
    uint64_t llc = info->llc_bytes ? info->llc_bytes : 256 * MIB;
    struct sizes z;

    memset(plan, 0, sizeof(*plan));
    plan_sizes(&z, is_cpu, quick);
    plan_bandwidth(plan, stream_bytes(info, is_cpu), quick);
    for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
        enum gp_bench_precision prec = order[o];
        if (!(info->precisions & GP_BENCH_PRECISION_BIT(prec)) ||
            (!is_cpu && prec == GP_BENCH_FP64))
            continue;
        plan_precision(plan, prec, &z, 2 * llc > 64 * MIB ? 2 * llc : 64 * MIB, is_cpu);
    }
}

int gp_calibrate_plan_steps(struct gp_bench_params *out, int cap, const struct gp_device_info *info,
                            int quick)
{
    struct plan *plan = malloc(sizeof(*plan));
    int count = 0;

    if (!plan)
        return gp_error_set(GP_ENOMEM, "out of memory planning the calibration");
    build_plan(plan, info, strcmp(info->vendor, "cpu") == 0, quick);
    for (int pass = 1; pass >= 0; pass--) /* run_plan's order: required, then optional */
        for (int i = 0; i < plan->count && count < cap; i++)
            if (plan->steps[i].required == pass)
                out[count++] = plan->steps[i].params;
    free(plan);
    return count;
}

/* One device's run: what every step needs besides its own parameters. */
struct run {
    const struct gp_backend_candidate *b;
    int device;
    int is_cpu;
    int quick;
    const struct gp_gpu *gpu; /* datasheet peaks, or NULL */
    uint64_t seed;
    int settled;           /* the clock-settling warm-up has run */
    unsigned first_square; /* precisions whose first library square has run (bits) */
    double clock_loaded;   /* MHz and W the backend sampled after that warm-up; 0 unknown */
    double power_loaded;
};

/* Host name, or "unknown". */
static void host_name(char *out, size_t size)
{
    if (gethostname(out, size) != 0 || !out[0])
        gp_text_copy(out, size, "unknown");
    out[size - 1] = '\0';
}

static char *conditions_json(const struct gp_device_info *d, const struct run *run, int planned,
                             int skipped, int over_budget, const struct gp_calibrate_failed *failed)
{
    struct gp_jsonw w;

    gp_jsonw_init(&w, 0);
    gp_jsonw_open(&w, NULL, '{');
    gp_jsonw_number(&w, "device_index", run->device);
    gp_jsonw_string(&w, "vendor", d->vendor);
    gp_jsonw_string(&w, "arch", d->arch);
    gp_jsonw_string(&w, "bus_id", d->bus_id);
    gp_jsonw_number(&w, "memory_bytes", (double)d->memory_bytes);
    gp_jsonw_number(&w, "llc_bytes", (double)d->llc_bytes);
    gp_jsonw_number(&w, "compute_units", d->compute_units);
    gp_jsonw_string(&w, "driver_version", d->driver_version);
    gp_jsonw_string(&w, "runtime_version", d->runtime_version);
    gp_jsonw_string(&w, "library_version", d->library_version);
    gp_jsonw_string(&w, "partition", d->partition);
    if (d->ecc >= 0)
        gp_jsonw_bool(&w, "ecc", d->ecc);
    if (d->clock_mhz > 0)
        gp_jsonw_number(&w, "clock_mhz", d->clock_mhz);
    if (d->memory_clock_mhz > 0)
        gp_jsonw_number(&w, "memory_clock_mhz", d->memory_clock_mhz);
    if (d->power_limit_w > 0)
        gp_jsonw_number(&w, "power_limit_w", d->power_limit_w);
    if (run->clock_loaded > 0)
        gp_jsonw_number(&w, "clock_mhz_loaded", run->clock_loaded);
    if (run->power_loaded > 0)
        gp_jsonw_number(&w, "power_w_loaded", run->power_loaded);
    gp_jsonw_string(&w, "backend_path", run->b->path);
    gp_jsonw_string(&w, "statistic", "median of device-timed runs after warm-up");
    gp_jsonw_string(&w, "timing", d->timing);
    gp_jsonw_string(&w, "plan", run->quick ? "quick" : "full");
    gp_jsonw_number(&w, "steps_planned", planned);
    gp_jsonw_number(&w, "steps_skipped_for_time", skipped);
    gp_jsonw_number(&w, "steps_run_over_budget", over_budget);
    gp_jsonw_number(&w, "steps_failed", failed->count);
    gp_jsonw_open(&w, "failed_steps", '[');
    for (int i = 0; i < failed->count && i < GP_CALIBRATE_FAILED_MAX; i++)
        gp_jsonw_string(&w, NULL, failed->steps[i]);
    gp_jsonw_close(&w, ']');
    gp_jsonw_close(&w, '}');
    return gp_jsonw_finish(&w);
}

/* The datasheet peak (TFLOP/s, or GB/s for bandwidth) for a point, 0 when unknown. */
static double point_peak(const struct gp_gpu *gpu, const struct gp_bench_params *p)
{
    if (!gpu)
        return 0.0;
    if (p->kind != GP_BENCH_GEMM)
        return gpu->hbm_tbs * 1000.0;
    return gpu->peak_tflops[catalog_precision[p->precision]];
}

static void describe(char *out, size_t size, const struct gp_bench_params *p)
{
    if (p->kind == GP_BENCH_GEMM)
        snprintf(out, size, "gemm %s %dx%dx%d%s", precision_names[p->precision], p->m, p->n, p->k,
                 p->impl == GP_BENCH_IMPL_OWN ? " (own kernel)"
                 : p->fast_accum              ? " (fast accumulation)"
                                              : "");
    else if (p->array_bytes >= MIB)
        snprintf(out, size, "%s %llu MiB", kind_names[p->kind],
                 (unsigned long long)(p->array_bytes / MIB));
    else
        snprintf(out, size, "%s %llu KiB", kind_names[p->kind],
                 (unsigned long long)(p->array_bytes / 1024));
}

/* A first square on the vendor library: the GPU's clocks take seconds of back-to-back GEMMs to
 * settle (CUTLASS measured about 3 s), so the first one of the run warms up for that long
 * whatever the spread of its times; the first of each later precision warms up for its whole
 * budget. Returns the warm-up time, s, and sets the tolerance and the most runs. */
static double warmup_for(struct run *run, struct gp_bench_params *p, double budget_s)
{
    int square = p->kind == GP_BENCH_GEMM && p->impl != GP_BENCH_IMPL_OWN && p->m == p->n &&
                 p->n == p->k && p->m >= 128;
    unsigned bit = GP_BENCH_PRECISION_BIT(p->precision);

    p->warmup_max = 32;
    p->settle_tolerance = 0.05;
    if (!square || (run->first_square & bit))
        return budget_s / 2;
    run->first_square |= bit;
    if (run->settled || run->is_cpu)
        return budget_s;
    run->settled = 1;
    p->warmup_max = 1 << 20;
    p->settle_tolerance = 0.0;
    return run->quick ? GP_CALIBRATE_SETTLE_QUICK_S : GP_CALIBRATE_SETTLE_S;
}

/* Run one step and turn it into a point. 1 when the backend does not support it (skipped). */
static int run_step(struct gp_calibration_point *out, struct run *run, const struct step *st,
                    double budget_s, uint64_t seed)
{
    const struct gp_backend_candidate *b = run->b;
    const struct gp_gpu *gpu = run->gpu;
    double times[MAX_REPS], rates[MAX_REPS];
    struct gp_bench_params p = st->params;
    struct gp_bench_result r;
    struct gp_stats ts, rs;
    char what[96];
    int rc;

    memset(&r, 0, sizeof(r));
    r.times_s = times;
    p.repetitions = MAX_REPS;
    p.min_repetitions = 3;
    int settling = !run->settled;
    p.warmup_seconds = warmup_for(run, &p, budget_s);
    settling = settling && run->settled;
    p.time_budget_s = budget_s;
    p.seed = seed;
    describe(what, sizeof(what), &p);
    rc = b->ops->bench(run->device, &p, &r);
    if (settling) {
        run->clock_loaded = r.clock_mhz;
        run->power_loaded = r.power_w;
    }
    if (rc == GP_BACKEND_EUNSUPPORTED)
        return 1;
    if (rc != GP_BACKEND_OK)
        return gp_error_set(rc == GP_BACKEND_ENOMEM ? GP_ENOMEM : GP_ERROR, "%s on %s: %s", what,
                            b->name, b->ops->last_error());
    if (r.samples < 1 || r.work <= 0)
        return gp_error_set(GP_ERROR, "%s on %s: no timed runs", what, b->name);
    for (int i = 0; i < r.samples; i++) {
        if (!(times[i] > 0))
            return gp_error_set(GP_ERROR, "%s on %s: a run took no time", what, b->name);
        rates[i] = r.work / times[i] / (p.kind == GP_BENCH_GEMM ? 1e12 : 1e9);
    }
    if (gp_stats_compute(&ts, times, (size_t)r.samples) ||
        gp_stats_compute(&rs, rates, (size_t)r.samples))
        return gp_error_wrap("%s", what);

    memset(out, 0, sizeof(*out));
    gp_text_copy(out->kernel, sizeof(out->kernel), kind_names[p.kind]);
    if (p.kind == GP_BENCH_GEMM)
        gp_text_copy(out->precision, sizeof(out->precision), precision_names[p.precision]);
    gp_text_copy(out->impl, sizeof(out->impl), r.impl);
    out->m = p.kind == GP_BENCH_GEMM ? p.m : 0;
    out->n = p.kind == GP_BENCH_GEMM ? p.n : 0;
    out->k = p.kind == GP_BENCH_GEMM ? p.k : 0;
    out->bytes = p.kind == GP_BENCH_GEMM ? 0 : p.array_bytes;
    out->size = r.work;
    out->median = r.work / ts.median / (p.kind == GP_BENCH_GEMM ? 1e12 : 1e9);
    out->p10 = rs.p10;
    out->p90 = rs.p90;
    out->cv = ts.cv;
    out->repetitions = r.samples;
    out->warmups = r.warmups;
    out->max_error = r.max_error;

    double peak = point_peak(gpu, &p);
    if (peak > 0 && out->median > peak)
        return gp_error_set(GP_EINVALID,
                            "%s on %s: %.4g %s is above the %s datasheet peak of %.4g; the "
                            "device or its timer is not what it claims, result discarded",
                            what, b->name, out->median,
                            p.kind == GP_BENCH_GEMM ? "TFLOP/s" : "GB/s", gpu->id, peak);
    return 0;
}

/* FNV-1a, 64 bits, continued from `h`. */
static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    return h;
}

void gp_calibrate_fingerprint(struct gp_calibration *cal)
{
    uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
    char num[64];

    const char *fields[] = {cal->backend, cal->device_name, cal->host,
                            cal->conditions ? cal->conditions : ""};
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        h1 = fnv(h1, fields[i]);
        h2 = fnv(h2, fields[i]);
        h1 = fnv(h1, "\x1f");
        h2 = fnv(h2, "\x1e");
    }
    snprintf(num, sizeof(num), "%lld", (long long)cal->started_at);
    h1 = fnv(h1, num);
    h2 = fnv(h2, num);
    for (size_t i = 0; i < cal->point_count; i++) {
        const struct gp_calibration_point *p = &cal->points[i];
        snprintf(num, sizeof(num), "%s/%s/%d/%d/%d/%.17g", p->kernel, p->precision, p->m, p->n,
                 p->k, p->median);
        h1 = fnv(h1, num);
        h2 = fnv(h2, num);
    }
    snprintf(cal->fingerprint, sizeof(cal->fingerprint), "%016llx%016llx", (unsigned long long)h1,
             (unsigned long long)h2);
}

/* The least time a step can take: a warm-up and three timed runs at the last rate seen for its
 * kind (GEMM per precision, bandwidth), s; 0 when nothing comparable has run yet. */
static double predict(const double *rate, const struct gp_bench_params *p)
{
    double r = rate[p->kind == GP_BENCH_GEMM ? (int)p->precision : GP_BENCH_PRECISION_COUNT];
    double work = p->kind == GP_BENCH_GEMM
                      ? 2.0 * p->m * (double)p->n * p->k
                      : gp_bench_arrays_moved(p->kind) * (double)p->array_bytes;
    return r > 0 ? 4.0 * work / r : 0.0;
}

/* Note a failed step (the error slot holds its message) and go on with the plan. */
static void note_failure(struct gp_calibrate_failed *failed)
{
    if (failed->count < GP_CALIBRATE_FAILED_MAX)
        snprintf(failed->steps[failed->count], sizeof(failed->steps[0]), "%s", gp_error_last());
    if (failed->count == 0)
        failed->first_code = gp_error_code();
    failed->count++;
}

/*
 * Run the plan's steps through the scheduler: required ones first, then the optional ones that
 * fit. Points land in plan order; a step that fails is noted in *failed and the plan goes on.
 * *skipped and *over_budget count what the budget cut or stretched.
 */
static void run_plan(struct gp_calibration *out, struct run *run, const struct plan *plan,
                     double limit_s, const struct gp_calibrate_options *options,
                     struct gp_calibrate_failed *failed, int *skipped, int *over_budget)
{
    struct gp_schedule sched;
    double t0;
    /* The last rate seen (work per s) per GEMM precision, and for bandwidth in the last slot. */
    double rate[GP_BENCH_PRECISION_COUNT + 1] = {0};
    double total = 0.0, done = 0.0;
    int ran[MAX_STEPS] = {0};

    for (int i = 0; i < plan->count; i++)
        total += plan->steps[i].weight;
    gp_schedule_init(&sched, limit_s, total);
    t0 = gp_time_monotonic();
    for (int pass = 1; pass >= 0; pass--)
        for (int i = 0; i < plan->count; i++) {
            const struct step *st = &plan->steps[i];
            const struct gp_bench_params *sp = &st->params;
            char what[96];
            if (st->required != pass || gp_interrupted())
                continue;
            double budget = gp_schedule_next(&sched, gp_time_monotonic() - t0, st->weight,
                                             st->required, predict(rate, sp));
            done += st->weight;
            if (budget <= 0)
                continue;
            describe(what, sizeof(what), sp);
            if (options->progress)
                options->progress(options->payload, (done - st->weight) / total, what);
            int rc = run_step(&out->points[i], run, st, budget, run->seed + (uint64_t)i * 7919u);
            if (rc < 0)
                note_failure(failed);
            if (rc != 0)
                continue;
            rate[sp->kind == GP_BENCH_GEMM ? (int)sp->precision : GP_BENCH_PRECISION_COUNT] =
                out->points[i].median * (sp->kind == GP_BENCH_GEMM ? 1e12 : 1e9);
            ran[i] = 1;
        }
    for (int i = 0; i < plan->count; i++)
        if (ran[i])
            out->points[out->point_count++] = out->points[i];
    *skipped = sched.skipped;
    *over_budget = sched.over_budget;
}

int gp_calibrate_measure(struct gp_calibration *out, struct gp_calibrate_failed *failed,
                         const struct gp_backend_candidate *backend, int device,
                         const struct gp_gpu *gpu, const struct gp_calibrate_options *options)
{
    struct plan *plan = NULL;
    const struct gp_device_info *info;
    struct run run;
    const char *gpu_id;
    int rc = 0, skipped = 0, over = 0;

    memset(out, 0, sizeof(*out));
    memset(failed, 0, sizeof(*failed));
    memset(&run, 0, sizeof(run));
    if (!backend->loaded || device < 0 || device >= backend->device_count)
        return gp_error_set(GP_EINVALID, "backend %s has no device %d", backend->name, device);
    info = &backend->devices[device];
    run.b = backend;
    run.device = device;
    run.quick = options->quick;
    run.is_cpu = strcmp(info->vendor, "cpu") == 0;
    run.gpu = gpu;
    gpu_id = run.is_cpu ? NULL : gp_calibrate_map_device(info->name, info->memory_bytes);

    plan = malloc(sizeof(*plan));
    out->points = calloc(MAX_STEPS, sizeof(*out->points));
    if (!plan || !out->points) {
        rc = gp_error_set(GP_ENOMEM, "out of memory planning the calibration");
        goto done;
    }
    build_plan(plan, info, run.is_cpu, options->quick);
    gp_text_copy(out->backend, sizeof(out->backend), backend->name);
    gp_text_copy(out->device_name, sizeof(out->device_name), info->name);
    gp_text_copy(out->gpu_id, sizeof(out->gpu_id), gpu_id ? gpu_id : "");
    host_name(out->host, sizeof(out->host));
    out->started_at = gp_time_now();
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    run.seed = options->seed ? options->seed : (uint64_t)now.tv_nsec ^ (uint64_t)now.tv_sec;

    run_plan(out, &run, plan, options->quick ? GP_CALIBRATE_QUICK_S : GP_CALIBRATE_FULL_S, options,
             failed, &skipped, &over);
    if (out->point_count == 0 && failed->count > 0) {
        rc = gp_error_set(failed->first_code, "%s%s", failed->steps[0],
                          failed->count > 1 ? " (and the other steps failed too)" : "");
        goto done;
    }
    out->conditions = conditions_json(info, &run, plan->count, skipped, over, failed);
    if (!out->conditions) {
        rc = gp_error_set(GP_ENOMEM, "out of memory recording conditions");
        goto done;
    }
    if (options->progress)
        options->progress(options->payload, 1.0, "fitting");
    if (out->point_count == 0) {
        rc = gp_error_set(GP_ERROR, "no benchmark ran: the backend supports none of the plan");
        goto done;
    }
    gp_calibrate_fingerprint(out);

done:
    free(plan);
    if (rc < 0)
        gp_calibration_release(out);
    return rc;
}
