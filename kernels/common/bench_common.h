/* Header-only pieces every backend shares: the warm-up and repetition loop, the host-side
 * reference values bandwidth and GEMM results are verified against, and those checks. C and C++. */
#ifndef GP_KERNELS_BENCH_COMMON_H
#define GP_KERNELS_BENCH_COMMON_H

#include <math.h>
#include <stdint.h>
#include <time.h>

#include "gpuplan/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Host monotonic clock, s. Budgets only; kernel times come from the device's own timer. */
static inline double gp_bench_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run one instance of the kernel and store its device-timed duration (s). 0 or a status. */
typedef int (*gp_bench_run_fn)(void *ctx, double *seconds);

/* Called once between warm-up and timed runs, e.g. to sample clocks and power under load. */
typedef void (*gp_bench_sample_fn)(void *ctx, struct gp_bench_result *out);

/*
 * Warm up until settled (see gp_bench_settled), call `sample` (may be NULL), then time
 * repetitions within the budget. Fills out->times_s, samples and warmups. Returns the first
 * failure of `run`.
 */
static inline int gp_bench_drive_sampled(const struct gp_bench_params *p,
                                         struct gp_bench_result *out, gp_bench_run_fn run,
                                         gp_bench_sample_fn sample, void *ctx)
{
    double warm[3] = {0, 0, 0}, t = 0.0; /* the last three warm-up times, oldest first */
    double start = gp_bench_wall();
    int rc;

    out->samples = 0;
    out->warmups = 0;
    while (out->warmups < p->warmup_max) {
        rc = run(ctx, &t);
        if (rc != GP_BACKEND_OK)
            return rc;
        warm[0] = warm[1];
        warm[1] = warm[2];
        warm[2] = t;
        out->warmups++;
        if (gp_bench_settled(warm, out->warmups >= 3 ? 3 : 0, p->settle_tolerance) ||
            gp_bench_wall() - start >= p->warmup_seconds)
            break;
    }
    if (sample)
        sample(ctx, out);
    start = gp_bench_wall();
    while (out->samples < p->repetitions) {
        rc = run(ctx, &out->times_s[out->samples]);
        if (rc != GP_BACKEND_OK)
            return rc;
        out->samples++;
        if (out->samples >= p->min_repetitions && gp_bench_wall() - start >= p->time_budget_s)
            break;
    }
    return GP_BACKEND_OK;
}

/* gp_bench_drive_sampled without a sample. */
static inline int gp_bench_drive(const struct gp_bench_params *p, struct gp_bench_result *out,
                                 gp_bench_run_fn run, void *ctx)
{
    return gp_bench_drive_sampled(p, out, run, NULL, ctx);
}

/* The value of bandwidth array `which` (0 = a, 1 = b, 2 = c) at `index` after any number of
 * runs of `kind`, in double (all operations involved are exact in double). */
static inline double gp_bench_stream_expect(enum gp_bench_kind kind, uint64_t seed, int which,
                                            uint64_t index)
{
    double a = gp_bench_value(seed, index, 23);
    double b = gp_bench_value(seed + 1, index, 23);
    double c = gp_bench_value(seed + 2, index, 23);

    switch (kind) {
    case GP_BENCH_COPY:
        c = a;
        break;
    case GP_BENCH_SCALE:
        b = GP_BENCH_SCALAR * c;
        break;
    case GP_BENCH_ADD:
        c = a + b;
        break;
    case GP_BENCH_TRIAD:
        a = b + GP_BENCH_SCALAR * c;
        break;
    default:
        break;
    }
    return which == 0 ? a : which == 1 ? b : c;
}

/* The array a kernel writes (0 = a, 1 = b, 2 = c); the read kernel writes none (-1). */
static inline int gp_bench_stream_output(enum gp_bench_kind kind)
{
    switch (kind) {
    case GP_BENCH_COPY:
    case GP_BENCH_ADD:
        return 2;
    case GP_BENCH_SCALE:
        return 1;
    case GP_BENCH_TRIAD:
        return 0;
    default:
        return -1;
    }
}

/* The exact sum of array a of length n, for verifying the read kernel. */
static inline double gp_bench_stream_sum(uint64_t seed, uint64_t n)
{
    double sum = 0.0;
    for (uint64_t i = 0; i < n; i++)
        sum += gp_bench_value(seed, i, 23);
    return sum;
}

/* Sample position number `s` of `count` over [0, n): spread evenly, first and last included. */
static inline uint64_t gp_bench_sample_index(uint64_t n, int s, int count)
{
    if (count <= 1 || n <= 1)
        return 0;
    return (uint64_t)((double)(n - 1) * (double)s / (double)(count - 1));
}

/* Read element `index` of bandwidth array `which` (0 = a, 1 = b, 2 = c) from wherever the
 * backend keeps it. 0 or a status. */
typedef int (*gp_bench_read_element_fn)(void *ctx, int which, uint64_t index, double *value);

/*
 * Check a run of bandwidth kernel `kind` on arrays generated from `seed` against the host
 * reference. The read kernel's `first_sum` over the `n` doubles of window 0 must be within
 * rounding; a kernel that writes must match at `samples` positions spread over window 0 exactly
 * (every operation involved is exact). Sets out->max_error (above 1 is a failure) and
 * out->checked; returns the first failure of `read`.
 */
static inline int gp_bench_stream_check(enum gp_bench_kind kind, uint64_t seed, uint64_t n,
                                        double first_sum, int samples,
                                        gp_bench_read_element_fn read, void *ctx,
                                        struct gp_bench_result *out)
{
    int which = gp_bench_stream_output(kind);

    out->max_error = 0.0;
    out->checked = 0;
    if (which < 0) {
        double err = first_sum - gp_bench_stream_sum(seed, n);
        out->max_error = (err < 0 ? -err : err) / ((double)n * (double)n * 0x1p-52 + 1e-12);
        out->checked = 1;
        return GP_BACKEND_OK;
    }
    for (int s = 0; s < samples; s++) {
        uint64_t i = gp_bench_sample_index(n, s, samples);
        double got = 0.0;
        int rc = read(ctx, which, i, &got);
        if (rc != GP_BACKEND_OK)
            return rc;
        if (got != gp_bench_stream_expect(kind, seed, which, i))
            out->max_error = 1e300;
        out->checked++;
    }
    return GP_BACKEND_OK;
}

/*
 * Reference for element (i, j) of C = A * B with the operands of rotation copy `copy`:
 * returns the exact product sum in double and the sum of |a * b| in *magnitude.
 */
static inline double gp_bench_gemm_expect(uint64_t seed, int copy, int bits, int m, int n, int k,
                                          int i, int j, double *magnitude)
{
    uint64_t sa = gp_bench_stream_a(seed, copy), sb = gp_bench_stream_b(seed, copy);
    double sum = 0.0, mag = 0.0;

    (void)m;
    (void)n;
    for (int p = 0; p < k; p++) {
        double a = gp_bench_value(sa, (uint64_t)p + (uint64_t)i * (uint64_t)k, bits);
        double b = gp_bench_value(sb, (uint64_t)p + (uint64_t)j * (uint64_t)k, bits);
        sum += a * b;
        mag += fabs(a * b);
    }
    *magnitude = mag;
    return sum;
}

/*
 * The error bound for one GEMM element, eps_out * |want| + k * eps_acc * sum|a * b|: rounding of
 * the stored output relative to the exact value (eps_out 2^-8 bf16, 2^-11 fp16, 2^-24 fp32,
 * 2^-53 fp64) plus the classic worst case of accumulating k products in fp32 (eps_acc 2^-24;
 * 2^-53 for fp64), with a floor for exact zeros. At bf16 and k = 8192 (|want| about 30,
 * sum|a b| about 2000) it is about 1.1, so a result 10% off fails; the inputs are multiples of
 * 2^-bits, so exact accumulation, as tensor cores do it, stays far inside.
 */
static inline double gp_bench_gemm_bound(enum gp_bench_precision out_format, int k, double want,
                                         double magnitude)
{
    double out_eps = out_format == GP_BENCH_BF16   ? 0x1p-8
                     : out_format == GP_BENCH_FP16 ? 0x1p-11
                     : out_format == GP_BENCH_FP64 ? 0x1p-53
                                                   : 0x1p-24;
    double acc_eps = out_format == GP_BENCH_FP64 ? 0x1p-53 : 0x1p-24;
    return out_eps * fabs(want) + (double)k * acc_eps * magnitude + 1e-30;
}

/* Read element `cell` (column-major: row cell % m, column cell / m) of the GEMM result C as a
 * double. 0 or a status. */
typedef int (*gp_bench_read_cell_fn)(void *ctx, uint64_t cell, double *value);

/*
 * Check `samples` pseudo-random cells of C = A * B, computed with operand copy `copy` from values
 * of `bits` mantissa bits and stored in `out_format`, against the host reference. Sets
 * out->max_error (the worst error relative to gp_bench_gemm_bound; above 1 is a failure) and
 * out->checked; returns the first failure of `read`.
 */
static inline int gp_bench_gemm_check(const struct gp_bench_params *p, int copy, int bits,
                                      enum gp_bench_precision out_format, int samples,
                                      gp_bench_read_cell_fn read, void *ctx,
                                      struct gp_bench_result *out)
{
    uint64_t cells = (uint64_t)p->m * (uint64_t)p->n;

    out->max_error = 0.0;
    out->checked = 0;
    for (int s = 0; s < samples; s++) {
        uint64_t cell = gp_bench_hash(p->seed ^ 0x5eedull, (uint64_t)s) % cells;
        int i = (int)(cell % (uint64_t)p->m), j = (int)(cell / (uint64_t)p->m);
        double got = 0.0, mag;
        int rc = read(ctx, cell, &got);
        if (rc != GP_BACKEND_OK)
            return rc;
        double want = gp_bench_gemm_expect(p->seed, copy, bits, p->m, p->n, p->k, i, j, &mag);
        double err = (got > want ? got - want : want - got) /
                     gp_bench_gemm_bound(out_format, p->k, want, mag);
        if (err > out->max_error)
            out->max_error = err;
        out->checked++;
    }
    return GP_BACKEND_OK;
}

#ifdef __cplusplus
}
#endif

#endif
