/* Unit tests for the host-side pieces the backends share: the GEMM verification bound (a result
 * 10% off must fail, a correctly rounded one pass) and the CUDA/HIP library call layout (the
 * transposed product for decode shapes, where each result element lives, aligned copies). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/common/bench_common.h"
#include "kernels/cuda/gemm_layout.h"

/* Round to bf16 (8 significant bits, to nearest even), as the library stores the result. */
static double to_bf16(double v)
{
    int e;
    double f = frexp(v, &e);
    return ldexp(nearbyint(ldexp(f, 8)), e - 8);
}

/* bf16 at k = 8192: every sampled element that is not near zero fails at 10% off, while the
 * exact and the bf16-rounded results pass. */
static void test_bound_catches_a_ten_percent_error(void **state)
{
    const int m = 64, n = 64, k = 8192, bits = gp_bench_value_bits(GP_BENCH_BF16);
    int tested = 0;

    (void)state;
    for (int cell = 0; cell < 48; cell++) {
        int i = cell % m, j = (cell * 7) % n;
        double mag, want = gp_bench_gemm_expect(1234, 0, bits, m, n, k, i, j, &mag);
        double bound = gp_bench_gemm_bound(GP_BENCH_BF16, k, want, mag);
        assert_true(fabs(to_bf16(want) - want) <= bound);
        if (fabs(want) < 12.0)
            continue; /* 10% of a value near zero is inside the accumulation term (about 1) */
        assert_true(fabs(1.1 * want - want) > bound);
        assert_true(fabs(0.9 * want - want) > bound);
        tested++;
    }
    assert_true(tested >= 10);
}

/* The old bound, 2 (eps_out + k 2^-24) sum|ab|, let a result 50% off pass at this size; the new
 * one is a small fraction of |C|. */
static void test_bound_is_tight_against_the_result(void **state)
{
    double mag, want = gp_bench_gemm_expect(99, 0, 7, 8, 8, 8192, 3, 5, &mag);
    double bound = gp_bench_gemm_bound(GP_BENCH_BF16, 8192, 30.0, mag);

    (void)state;
    (void)want;
    assert_true(mag > 1000.0);
    assert_true(bound < 0.1 * 30.0);
    assert_true(gp_bench_gemm_bound(GP_BENCH_FP32, 0, 0.0, 0.0) > 0.0); /* floor for zeros */
}

static void test_decode_shapes_use_the_transposed_product(void **state)
{
    struct gp_gemm_call c;

    (void)state;
    /* m = 1 with a 2-byte result: C's leading dimension would be 2 bytes. */
    gp_gemm_layout(&c, 1, 8192, 8192, 2);
    assert_int_equal(c.swapped, 1);
    assert_int_equal(c.first_is_b, 1);
    assert_int_equal(c.rows, 8192);
    assert_int_equal(c.cols, 1);
    assert_int_equal(c.inner, 8192);
    assert_int_equal(c.ld_first, 8192);
    assert_int_equal(c.ld_second, 8192);
    assert_int_equal(c.ld_result, 8192);
    assert_int_equal(c.ld_result * 2 % GP_GEMM_LD_ALIGN, 0);
    /* m = 4 in fp32 is 16 bytes: aligned, no swap; m = 2 in fp32 is not. */
    gp_gemm_layout(&c, 4, 4096, 4096, 4);
    assert_int_equal(c.swapped, 0);
    gp_gemm_layout(&c, 2, 4096, 4096, 4);
    assert_int_equal(c.swapped, 1);
    /* Squares and large M stay as they are. */
    gp_gemm_layout(&c, 256, 8192, 8192, 2);
    assert_int_equal(c.swapped, 0);
    assert_int_equal(c.first_is_b, 0);
    assert_int_equal(c.rows, 256);
    assert_int_equal(c.ld_result, 256);
    /* Both sides unaligned (67 x 45): left alone, the library or the own kernel copes. */
    gp_gemm_layout(&c, 67, 45, 131, 2);
    assert_int_equal(c.swapped, 0);
}

/* Element (i, j) of C lands at i + j m, or at j + i n when the transposed product was stored. */
static void test_result_offsets_follow_the_layout(void **state)
{
    struct gp_gemm_call c;
    const int m = 3, n = 64;

    (void)state;
    gp_gemm_layout(&c, m, n, 128, 2);
    assert_int_equal(c.swapped, 1);
    for (uint64_t cell = 0; cell < (uint64_t)m * n; cell += 13) {
        uint64_t i = cell % m, j = cell / m;
        assert_int_equal(gp_gemm_result_offset(&c, m, cell), j + i * n);
    }
    gp_gemm_layout(&c, 64, 64, 128, 2);
    assert_int_equal(gp_gemm_result_offset(&c, 64, 77), 77);
}

static void test_copies_start_256_byte_aligned(void **state)
{
    (void)state;
    assert_int_equal(gp_gemm_copy_stride(67 * 131, 2), 17664); /* 17554 bytes rounded up */
    assert_int_equal(gp_gemm_copy_stride(256, 1), 256);
    assert_int_equal(gp_gemm_copy_stride(1, 1), 256);
    assert_int_equal(gp_gemm_copy_stride(4096 * 4096, 2) % 256, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_catches_a_ten_percent_error),
        cmocka_unit_test(test_bound_is_tight_against_the_result),
        cmocka_unit_test(test_decode_shapes_use_the_transposed_product),
        cmocka_unit_test(test_result_offsets_follow_the_layout),
        cmocka_unit_test(test_copies_start_256_byte_aligned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
