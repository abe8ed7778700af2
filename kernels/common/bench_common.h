/* Header-only pieces every backend shares: the warm-up and repetition loop, and the host-side
 * reference values that bandwidth and GEMM results are verified against. C and C++. */
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

/*
 * Warm up until settled (see gp_bench_settled), then time repetitions within the budget.
 * Fills out->times_s, samples and warmups. Returns the first failure of `run`.
 */
static inline int gp_bench_drive(const struct gp_bench_params *p, struct gp_bench_result *out,
                                 gp_bench_run_fn run, void *ctx)
{
    double warm[64];
    int max_warm = p->warmup_max < 64 ? p->warmup_max : 64;
    double start = gp_bench_wall();
    int rc;

    out->samples = 0;
    out->warmups = 0;
    while (out->warmups < max_warm) {
        rc = run(ctx, &warm[out->warmups]);
        if (rc != GP_BACKEND_OK)
            return rc;
        out->warmups++;
        if (gp_bench_settled(warm, out->warmups, p->settle_tolerance) ||
            gp_bench_wall() - start >= p->warmup_seconds)
            break;
    }
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
 * The error bound for one GEMM element, given the format it is stored in and the inner size:
 * rounding of the output (2^-8 bf16, 2^-11 fp16, 2^-24 fp32) plus fp32 accumulation over k
 * terms, relative to the sum of |a * b|, with a floor for exact zeros.
 */
static inline double gp_bench_gemm_bound(enum gp_bench_precision out_format, int k,
                                         double magnitude)
{
    double out_eps = out_format == GP_BENCH_BF16   ? 0x1p-8
                     : out_format == GP_BENCH_FP16 ? 0x1p-11
                     : out_format == GP_BENCH_FP64 ? 0x1p-53
                                                   : 0x1p-24;
    double acc_eps = out_format == GP_BENCH_FP64 ? 0x1p-53 : 0x1p-24;
    return (2.0 * out_eps + 2.0 * (double)k * acc_eps) * magnitude + 1e-30;
}

#ifdef __cplusplus
}
#endif

#endif
