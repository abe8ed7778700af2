/* How the CUDA and HIP modules lay out a vendor-library GEMM: which operand goes first (the
 * transposed product for skinny C), leading dimensions, where a result element lives, and the
 * 256-byte stride of rotating operand copies. Plain C, so the host tests check it. */
#ifndef GP_KERNELS_CUDA_GEMM_LAYOUT_H
#define GP_KERNELS_CUDA_GEMM_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define GP_LAYOUT_FN static inline __host__ __device__
#else
#define GP_LAYOUT_FN static inline
#endif

#define GP_GEMM_LD_ALIGN   16  /* bytes: the leading-dimension alignment FP8 paths require */
#define GP_GEMM_COPY_ALIGN 256 /* bytes: start of every rotating operand copy */

/*
 * The library call for C (m x n, column-major) = A (m x k, stored k-major) * B (k x n, stored
 * k-major), both operands "TN": the first is transposed, the second is not. When m elements of
 * C do not make a 16-byte aligned leading dimension but n do (LLM decode: m = 1..8), the call
 * computes C^T = B^T * A^T instead, still TN, with the operands swapped and m exchanged with n:
 * cuBLASLt's FP8 kernels need the aligned leading dimension, and without the swap the heuristic
 * returns nothing for m = 1.
 */
struct gp_gemm_call {
    int swapped;      /* 1: C^T = B^T * A^T */
    int rows, cols;   /* the library's m and n: the stored result is rows x cols */
    int inner;        /* k */
    int first_is_b;   /* the library's first (transposed) operand is our B */
    int64_t ld_first; /* leading dimensions of the first and second operand and of C */
    int64_t ld_second;
    int64_t ld_result;
};

GP_LAYOUT_FN void gp_gemm_layout(struct gp_gemm_call *out, int m, int n, int k, size_t out_bytes)
{
    int swap = (m * out_bytes) % GP_GEMM_LD_ALIGN != 0 && (n * out_bytes) % GP_GEMM_LD_ALIGN == 0;

    out->swapped = swap;
    out->rows = swap ? n : m;
    out->cols = swap ? m : n;
    out->inner = k;
    out->first_is_b = swap;
    out->ld_first = k;
    out->ld_second = k;
    out->ld_result = out->rows;
}

/* The element offset in the stored result of C's element number `cell` in column-major m x n
 * order (row cell % m, column cell / m). */
GP_LAYOUT_FN uint64_t gp_gemm_result_offset(const struct gp_gemm_call *c, int m, uint64_t cell)
{
    uint64_t i = cell % (uint64_t)m, j = cell / (uint64_t)m;
    return c->swapped ? j + i * (uint64_t)c->rows : cell;
}

/* Bytes from one rotating copy of an operand to the next: its size rounded up to 256. */
GP_LAYOUT_FN size_t gp_gemm_copy_stride(size_t elements, size_t element_bytes)
{
    size_t bytes = elements * element_bytes;
    return (bytes + GP_GEMM_COPY_ALIGN - 1) / GP_GEMM_COPY_ALIGN * GP_GEMM_COPY_ALIGN;
}

#endif
