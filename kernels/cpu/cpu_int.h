/* Pieces shared by the CPU backend's files: the error slot and the two benchmark families, which
 * take their operands from the arena of the device's run (kernels/cpu/cpu.h). */
#ifndef GP_KERNELS_CPU_INT_H
#define GP_KERNELS_CPU_INT_H

#include <stddef.h>

#include "gpuplan/backend.h"
#include "kernels/cpu/cpu.h"

/* Record a message for last_error and return `code`. */
int gp_cpu__fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Worker threads to use for `requested` (0 = every online CPU). */
int gp_cpu__threads(int requested);

/* STREAM-style kernels on `params->threads` threads, timed with CLOCK_MONOTONIC, on arrays
 * borrowed from `arena` for the call (grown to gp_cpu__stream_bytes when smaller). */
int gp_cpu__stream_bench(struct gp_cpu_arena *arena, const struct gp_bench_params *params,
                         struct gp_bench_result *out);

/* Bytes of the three STREAM arrays for `params`, 0 when the kernels reject them. */
uint64_t gp_cpu__stream_bytes(const struct gp_bench_params *params);

/* GEMM in fp32 or fp64 through the system BLAS (vendor) or the own blocked kernel, on operands
 * borrowed from `arena` for the call (grown to gp_cpu__gemm_bytes when smaller). */
int gp_cpu__gemm_bench(struct gp_cpu_arena *arena, const struct gp_bench_params *params,
                       struct gp_bench_result *out);

/* Bytes of the rotating A and B copies and C for `params`, 0 when the kernels reject them. */
uint64_t gp_cpu__gemm_bytes(const struct gp_bench_params *params);

/* "OpenBLAS 0.3.21 ..." of the BLAS that would be used, or "" when none loads. Borrowed. */
const char *gp_cpu__blas_version(void);

/* Unload the BLAS library. */
void gp_cpu__blas_unload(void);

#endif
