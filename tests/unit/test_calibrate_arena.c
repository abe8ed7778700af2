/* Unit tests for the working memory of a device's calibration run (kernels/cpu/cpu.h): what each
 * step takes, one block for a whole schedule sized by its largest step, growth only when a step
 * needs more, and the quick plan of a CPU allocating once. Sizes and counts only, no timings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "calibrate/calibrate.h"
#include "kernels/cpu/cpu.h"

#define KIB  (1024ull)
#define MIB  (1024ull * KIB)
#define REPS 4

static struct gp_bench_params stream_step(enum gp_bench_kind kind, uint64_t array, uint64_t rotate)
{
    struct gp_bench_params p;

    memset(&p, 0, sizeof(p));
    p.kind = kind;
    p.array_bytes = array;
    p.rotate_bytes = rotate;
    p.threads = 2;
    return p;
}

static struct gp_bench_params gemm_step(enum gp_bench_precision prec, int m, int n, int k,
                                        uint64_t rotate, enum gp_bench_impl impl)
{
    struct gp_bench_params p;

    memset(&p, 0, sizeof(p));
    p.kind = GP_BENCH_GEMM;
    p.precision = prec;
    p.impl = impl;
    p.m = m;
    p.n = n;
    p.k = k;
    p.rotate_bytes = rotate;
    p.threads = 2;
    return p;
}

/* The operand bytes of single steps: STREAM's three arrays with their windows, GEMM's copies of
 * A and B and C (each on a 64-byte line), 0 for what the backend does not run. */
static void test_step_bytes(void **state)
{
    struct {
        struct gp_bench_params p;
        uint64_t want;
    } cases[] = {
        {stream_step(GP_BENCH_COPY, 1 * MIB, 0), 3 * MIB},
        {stream_step(GP_BENCH_READ, 1 * MIB, 0), 3 * MIB},
        /* 16 windows of 64 KiB rotate through 3 MiB */
        {stream_step(GP_BENCH_TRIAD, 64 * KIB, 3 * MIB), 3 * MIB},
        {stream_step(GP_BENCH_TRIAD, 8, 0), 0}, /* below a chunk per thread */
        {gemm_step(GP_BENCH_FP32, 64, 64, 64, 0, GP_BENCH_IMPL_AUTO), 3 * 16 * KIB},
        /* A 70216, B 47160 and C 24120 bytes, each rounded up to 64 */
        {gemm_step(GP_BENCH_FP64, 67, 45, 131, 0, GP_BENCH_IMPL_OWN), 70272 + 47168 + 24128},
        /* 1 MiB of rotation over 128 KiB copies: 9 copies of A and B, one C */
        {gemm_step(GP_BENCH_FP32, 128, 128, 128, 1 * MIB, GP_BENCH_IMPL_AUTO),
         9 * 128 * KIB + 64 * KIB},
        {gemm_step(GP_BENCH_BF16, 64, 64, 64, 0, GP_BENCH_IMPL_AUTO), 0},
        {gemm_step(GP_BENCH_FP32, 0, 64, 64, 0, GP_BENCH_IMPL_AUTO), 0},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_int_equal(gp_cpu_bench_bytes(&cases[i].p), cases[i].want);
}

/* The largest operand bytes over steps[0..count). */
static uint64_t largest_need(const struct gp_bench_params *steps, int count)
{
    uint64_t need = 0;
    for (int i = 0; i < count; i++) {
        uint64_t b = gp_cpu_bench_bytes(&steps[i]);
        need = b > need ? b : need;
    }
    return need;
}

/* Run every step for real on `arena`; each must verify. */
static void run_schedule(struct gp_cpu_arena *arena, struct gp_bench_params *steps, int count)
{
    for (int i = 0; i < count; i++) {
        double times[REPS];
        struct gp_bench_result r;
        memset(&r, 0, sizeof(r));
        r.times_s = times;
        steps[i].repetitions = REPS;
        steps[i].min_repetitions = 1;
        steps[i].warmup_max = 1;
        steps[i].settle_tolerance = 0.05;
        steps[i].seed = 20261202u + (uint64_t)i;
        assert_int_equal(gp_cpu_bench_in(arena, &steps[i], &r), GP_BACKEND_OK);
        assert_true(r.checked > 0);
        assert_true(r.max_error <= 1.0);
        assert_non_null(arena->base);
        assert_true(arena->bytes >= gp_cpu_bench_bytes(&steps[i]));
    }
}

/* A schedule that starts with its largest step, as a calibration does (the STREAM arrays
 * first): one block for every step, no bigger than 1.2x that step's need. */
static void test_schedule_allocates_once(void **state)
{
    struct gp_bench_params steps[] = {
        stream_step(GP_BENCH_COPY, 4 * MIB, 0),
        stream_step(GP_BENCH_TRIAD, 256 * KIB, 12 * MIB),
        stream_step(GP_BENCH_READ, 1 * MIB, 0),
        gemm_step(GP_BENCH_FP32, 96, 80, 112, 2 * MIB, GP_BENCH_IMPL_OWN),
        gemm_step(GP_BENCH_FP64, 64, 64, 64, 1 * MIB, GP_BENCH_IMPL_AUTO),
        stream_step(GP_BENCH_ADD, 2 * MIB, 0),
    };
    int count = (int)(sizeof(steps) / sizeof(steps[0]));
    struct gp_cpu_arena arena;
    uint64_t need = largest_need(steps, count);

    (void)state;
    memset(&arena, 0, sizeof(arena));
    assert_int_equal(need, 12 * MIB);
    run_schedule(&arena, steps, 1);
    void *first = arena.base;
    run_schedule(&arena, steps + 1, count - 1);
    assert_int_equal(arena.allocations, 1);
    assert_ptr_equal(arena.base, first);
    assert_true(arena.bytes >= need);
    assert_true((double)arena.bytes <= 1.2 * (double)need);
    gp_cpu_arena_release(&arena);
    assert_null(arena.base);
    assert_int_equal(arena.bytes, 0);
    gp_cpu_arena_release(NULL);
}

/* Steps that grow: a new block only for a step larger than the block, kept for the smaller
 * steps after it, and never more than 1.2x the largest need. */
static void test_arena_grows_only_when_needed(void **state)
{
    struct gp_bench_params steps[] = {
        gemm_step(GP_BENCH_FP32, 64, 64, 64, 0, GP_BENCH_IMPL_OWN), /* 48 KiB */
        stream_step(GP_BENCH_COPY, 1 * MIB, 0),                     /* 3 MiB: grows */
        gemm_step(GP_BENCH_FP32, 64, 64, 64, 0, GP_BENCH_IMPL_OWN), /* fits */
        stream_step(GP_BENCH_SCALE, 2 * MIB, 0),                    /* 6 MiB: grows */
        stream_step(GP_BENCH_TRIAD, 1 * MIB, 0),                    /* fits */
    };
    int count = (int)(sizeof(steps) / sizeof(steps[0]));
    struct gp_cpu_arena arena;

    (void)state;
    memset(&arena, 0, sizeof(arena));
    run_schedule(&arena, steps, count);
    assert_int_equal(arena.allocations, 3);
    assert_true((double)arena.bytes <= 1.2 * (double)largest_need(steps, count));
    gp_cpu_arena_release(&arena);
}

/* The quick plan of a CPU with a 32 MiB last-level cache: its largest step is the three STREAM
 * arrays of 4x the cache, which come first, so reserving every step's need in run order makes
 * one block of exactly that size. */
static void test_quick_cpu_plan_allocates_once(void **state)
{
    static struct gp_bench_params steps[GP_CALIBRATE_STEPS_MAX];
    struct gp_device_info info;
    struct gp_cpu_arena arena;
    uint64_t gemm_need = 0;

    (void)state;
    memset(&info, 0, sizeof(info));
    memset(&arena, 0, sizeof(arena));
    snprintf(info.vendor, sizeof(info.vendor), "%s", "cpu");
    info.llc_bytes = 32 * MIB;
    info.memory_bytes = 16384 * MIB;
    info.compute_units = 2;
    info.precisions = GP_BENCH_PRECISION_BIT(GP_BENCH_FP32) | GP_BENCH_PRECISION_BIT(GP_BENCH_FP64);
    int count = gp_calibrate_plan_steps(steps, GP_CALIBRATE_STEPS_MAX, &info, 1);
    assert_true(count > 10);
    for (int i = 0; i < count; i++) {
        steps[i].threads = 2;
        if (steps[i].kind == GP_BENCH_GEMM && gp_cpu_bench_bytes(&steps[i]) > gemm_need)
            gemm_need = gp_cpu_bench_bytes(&steps[i]);
    }
    uint64_t need = largest_need(steps, count);
    assert_int_equal(need, 3 * 128 * MIB);
    assert_true(gemm_need > 0 && gemm_need < need);
    for (int i = 0; i < count; i++)
        assert_int_equal(gp_cpu_arena_reserve(&arena, gp_cpu_bench_bytes(&steps[i])),
                         GP_BACKEND_OK);
    assert_int_equal(arena.allocations, 1);
    assert_true(arena.bytes >= need);
    assert_true((double)arena.bytes <= 1.2 * (double)need);
    gp_cpu_arena_release(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_bytes),
        cmocka_unit_test(test_schedule_allocates_once),
        cmocka_unit_test(test_arena_grows_only_when_needed),
        cmocka_unit_test(test_quick_cpu_plan_allocates_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
