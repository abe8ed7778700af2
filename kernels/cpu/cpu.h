/* The built-in CPU calibration backend: threaded STREAM kernels and GEMM via the system BLAS. */
#ifndef GP_KERNELS_CPU_H
#define GP_KERNELS_CPU_H

#include <stdint.h>

#include "gpuplan/backend.h"

/* The CPU backend's table (static storage; never NULL). */
const struct gp_backend_ops *gp_cpu_backend(void);

/*
 * The working memory of one device's calibration run: a single block that every benchmark of
 * the run takes its operands from (the three STREAM arrays, or the rotating GEMM operand copies
 * and the result), so that a run allocates, and faults in, its memory once instead of at every
 * step. It grows only when a benchmark needs more than it holds, to exactly that need (the old
 * block is freed first: no benchmark's data outlives its call, every one regenerates its
 * inputs), and is never shrunk or freed between benchmarks. Blocks of 2 MiB and more are 2 MiB
 * aligned and advised to use transparent huge pages.
 *
 * Ownership: whoever runs the device's schedule owns the arena. The backend table's bench keeps
 * one per device from its first benchmark to shutdown (calibrate/ runs a device's whole
 * schedule inside one backend session); gp_cpu_bench_in lets a caller that runs the schedule
 * itself (bench/, tests/) pass its own. Zero-initialise before first use; not thread-safe (one
 * arena per device, and a device runs one benchmark at a time).
 */
struct gp_cpu_arena {
    void *base;      /* the block, owned; NULL until the first benchmark */
    uint64_t bytes;  /* capacity of the block, bytes */
    int allocations; /* blocks allocated so far (1 for a schedule whose first step is its largest)
                      */
};

/* Make room for `bytes` bytes: keep the block when it holds that many, else free it and
 * allocate one of `bytes` (rounded up to 64 bytes, or to 2 MiB from 2 MiB on). 0, or
 * GP_BACKEND_ENOMEM with the block freed (capacity 0) and last_error set. */
int gp_cpu_arena_reserve(struct gp_cpu_arena *arena, uint64_t bytes);

/* Free the block and zero the arena (the allocation count too). Accepts NULL. */
void gp_cpu_arena_release(struct gp_cpu_arena *arena);

/* Operand bytes one benchmark with these parameters takes from the arena (STREAM: the three
 * arrays with their rotating windows; GEMM: every rotating copy of A and B, and C); 0 for
 * parameters the CPU backend does not run. */
uint64_t gp_cpu_bench_bytes(const struct gp_bench_params *params);

/* The table's bench for the one device, on `arena` (caller-owned, grown as needed and kept for
 * the caller's next benchmark). Same results and errors as the table's bench. */
int gp_cpu_bench_in(struct gp_cpu_arena *arena, const struct gp_bench_params *params,
                    struct gp_bench_result *out);

#endif
