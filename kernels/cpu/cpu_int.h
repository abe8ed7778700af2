/* Pieces shared by the CPU backend's files: the error slot and the two benchmark families. */
#ifndef GP_KERNELS_CPU_INT_H
#define GP_KERNELS_CPU_INT_H

#include <stddef.h>

#include "gpuplan/backend.h"

/* Record a message for last_error and return `code`. */
int gp_cpu__fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Worker threads to use for `requested` (0 = every online CPU). */
int gp_cpu__threads(int requested);

/* STREAM-style kernels on `params->threads` threads, timed with CLOCK_MONOTONIC. */
int gp_cpu__stream_bench(const struct gp_bench_params *params, struct gp_bench_result *out);

/* Free the bandwidth arrays kept between benchmarks. */
void gp_cpu__stream_release(void);

/* GEMM in fp32 or fp64 through the system BLAS (vendor) or the own blocked kernel. */
int gp_cpu__gemm_bench(const struct gp_bench_params *params, struct gp_bench_result *out);

/* "OpenBLAS 0.3.21 ..." of the BLAS that would be used, or "" when none loads. Borrowed. */
const char *gp_cpu__blas_version(void);

/* Unload the BLAS library. */
void gp_cpu__blas_unload(void);

#endif
