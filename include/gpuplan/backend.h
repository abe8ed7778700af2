/* The calibration backend ABI: the one header a backend module (built in or dlopen'd) needs. */
#ifndef GPUPLAN_BACKEND_H
#define GPUPLAN_BACKEND_H

/*
 * A backend is a table of functions, `struct gp_backend_ops`, returned by the module's single
 * exported symbol GP_BACKEND_ENTRY_SYMBOL. The loader rejects a table whose abi_version is not
 * GP_BACKEND_ABI_VERSION. Any change to a struct, enum value, function signature or calling
 * rule below bumps the version; members are only ever appended.
 *
 * This header is plain C with no dependency on the rest of gpuplan, so CUDA and HIP sources
 * (compiled as C++) include it too.
 *
 * Threads: probe, init, shutdown, device_count and device_info are called from one thread.
 * bench is called from one thread per device, concurrently for different devices (a node's
 * GPUs are calibrated together, as they run together), never twice at once for one device;
 * last_error reports the failure of the calling thread's last call.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GP_BACKEND_ABI_VERSION  3
#define GP_BACKEND_ENTRY_SYMBOL "gpuplan_backend_entry"

/* Return codes of backend functions. */
enum gp_backend_status {
    GP_BACKEND_OK = 0,
    GP_BACKEND_EFAIL = -1,        /* a device or library call failed; see last_error */
    GP_BACKEND_EUNSUPPORTED = -2, /* this kind, precision or implementation is not available */
    GP_BACKEND_ENOMEM = -3,       /* host or device memory ran out */
    GP_BACKEND_EVERIFY = -4,      /* the result did not match the reference: timings void */
};

/* What one benchmark measures. Bandwidth kernels work on double-precision arrays a, b, c
 * (STREAM naming); GEMM computes C = A * B. */
enum gp_bench_kind {
    GP_BENCH_COPY = 0,  /* c = a          2 arrays moved per element */
    GP_BENCH_SCALE = 1, /* b = s * c      2 */
    GP_BENCH_ADD = 2,   /* c = a + b      3 */
    GP_BENCH_TRIAD = 3, /* a = b + s * c  3 */
    GP_BENCH_READ = 4,  /* sum(a)         1 */
    GP_BENCH_GEMM = 5,
    GP_BENCH_KIND_COUNT
};

/* GEMM input formats. Accumulation is at least fp32 for every format. */
enum gp_bench_precision {
    GP_BENCH_FP64 = 0,
    GP_BENCH_FP32 = 1,
    GP_BENCH_TF32 = 2, /* fp32 storage, tf32 (or xf32) tensor math */
    GP_BENCH_BF16 = 3,
    GP_BENCH_FP16 = 4,
    GP_BENCH_FP8 = 5, /* e4m3: OCP e4m3fn on NVIDIA and gfx950, fnuz on gfx942 */
    GP_BENCH_PRECISION_COUNT
};

#define GP_BENCH_PRECISION_BIT(p) (1u << (unsigned)(p))

/* The inline helpers below also run in CUDA and HIP device code. */
#if defined(__CUDACC__) || defined(__HIPCC__)
#define GP_BENCH_FN static inline __host__ __device__
#else
#define GP_BENCH_FN static inline
#endif

/* Which GEMM code runs. */
enum gp_bench_impl {
    GP_BENCH_IMPL_AUTO = 0,   /* the vendor library when present, else the own kernel */
    GP_BENCH_IMPL_VENDOR = 1, /* cuBLASLt, rocBLAS/hipBLASLt, system BLAS */
    GP_BENCH_IMPL_OWN = 2,    /* the backend's own tiled kernel */
};

/* One device as the backend sees it. Strings are NUL-terminated; "" when unknown. */
struct gp_device_info {
    char name[128];            /* as the driver reports it, e.g. "NVIDIA H200" */
    char vendor[32];           /* "nvidia", "amd", "intel", "cpu", ... */
    char arch[32];             /* sm_90, gfx942, x86_64, ... */
    char bus_id[32];           /* PCI bus id, or "" */
    char driver_version[64];   /* kernel driver */
    char runtime_version[64];  /* CUDA/HIP runtime or OpenCL platform version */
    char library_version[128]; /* GEMM library used (cuBLASLt 13.0.0, OpenBLAS 0.3.21, ...) */
    char partition[32];        /* compute/memory partition mode (AMD), or "" */
    uint64_t memory_bytes;     /* device memory (host RAM for CPUs), bytes */
    uint64_t llc_bytes;        /* last-level cache (L2, Infinity Cache, L3), bytes; 0 unknown */
    int compute_units;         /* SMs, CUs, cores */
    int ecc;                   /* 1 on, 0 off, -1 unknown */
    double clock_mhz;          /* maximum core clock, MHz; 0 unknown */
    double memory_clock_mhz;   /* MHz; 0 unknown */
    double power_limit_w;      /* enforced board power limit, W; 0 unknown */
    unsigned precisions;       /* GP_BENCH_PRECISION_BIT set for each GEMM format it runs */
    char timing[128];          /* how bench times a run, e.g. "CUDA events around a batch of
                                  back-to-back launches, divided by the launches" (ABI 3) */
};

/*
 * What to run. Warm-up repeats the kernel until the last three warm-up times agree within
 * settle_tolerance (relative spread), or warmup_max runs, or warmup_seconds pass. Timed
 * repetitions stop at `repetitions` or once time_budget_s has been spent, whichever comes
 * first, but never before min_repetitions.
 */
struct gp_bench_params {
    enum gp_bench_kind kind;
    enum gp_bench_precision precision; /* GEMM only */
    enum gp_bench_impl impl;           /* GEMM only */
    uint64_t array_bytes;              /* bandwidth: bytes per array touched by one run */
    int m, n, k;                       /* GEMM: C is m x n, the inner dimension k */
    uint64_t rotate_bytes;             /* successive runs use fresh copies of the operands
                                          (bandwidth: windows of the arrays) until all copies
                                          span this many bytes, so no run finds its inputs in
                                          the cache; 0 = one copy */
    int repetitions;                   /* most timed runs (and capacity of times_s) */
    int min_repetitions;               /* fewest timed runs */
    int warmup_max;                    /* most warm-up runs */
    double warmup_seconds;             /* most time spent warming up, s */
    double settle_tolerance;           /* relative spread that counts as settled, e.g. 0.05 */
    double time_budget_s;              /* time the timed runs may take, s */
    uint64_t seed;                     /* input generator seed */
    int threads;                       /* CPU backends: worker threads, 0 = all online CPUs */
    int fast_accum;                    /* GEMM fp8 on the vendor library: 1 = its fast, lower
                                          precision accumulation (cuBLASLt FAST_ACCUM), 0 = full
                                          fp32 accumulation; EUNSUPPORTED where there is no such
                                          mode (ABI 3) */
};

/* What came out. times_s is provided by the caller with params->repetitions slots. */
struct gp_bench_result {
    double *times_s;  /* caller-owned; filled with `samples` device-timed durations, s */
    int samples;      /* timed runs done */
    int warmups;      /* warm-up runs done */
    double work;      /* per run: bytes moved (bandwidth) or floating-point ops (GEMM) */
    double max_error; /* verification: largest error relative to its bound (<= 1 passes) */
    int checked;      /* values compared against the reference */
    char impl[64];    /* what ran: "sse2-nt", "cuBLASLt algo 31 tile 20", "own-tiled16", ... */
    /* ABI 3: */
    int launches;     /* kernel launches per timed run (times_s are divided by them); 0 = 1 */
    double clock_mhz; /* core clock sampled after the warm-up, MHz; 0 unknown */
    double power_w;   /* board power sampled after the warm-up, W; 0 unknown */
};

/* The table a module exports. Every function pointer is set. */
struct gp_backend_ops {
    int abi_version;   /* GP_BACKEND_ABI_VERSION at build time; checked first */
    const char *name;  /* "cpu", "cuda", "hip", "opencl" */
    const char *about; /* one line: what the backend uses */

    /* How well this backend suits the machine: 0 = unusable (reason says why, e.g. "no
     * devices", "libOpenCL.so.1: cannot open shared object file"), higher is better (cpu 10,
     * opencl 50, hip/cuda 100). Cheap; may be called before init. reason[size] is always set
     * to a NUL-terminated string, "" when there is nothing to say. */
    int (*probe)(char *reason, size_t size);
    /* Set up libraries and enumerate devices. 0 or a gp_backend_status. */
    int (*init)(void);
    /* Release everything init acquired. Safe to call after a failed init. */
    void (*shutdown)(void);
    int (*device_count)(void);
    /* Fill *out for device `index` (0-based). 0 or a gp_backend_status. */
    int (*device_info)(int index, struct gp_device_info *out);
    /* Allocate, fill with random values, warm up, time, verify and free one benchmark.
     * 0, or a gp_backend_status with last_error set. */
    int (*bench)(int device, const struct gp_bench_params *params, struct gp_bench_result *out);
    /* The message of the calling thread's last failure; owned by the backend, valid until
     * that thread's next call. */
    const char *(*last_error)(void);
};

/* The exported entry: `const struct gp_backend_ops *gpuplan_backend_entry(void);`. */
typedef const struct gp_backend_ops *(*gp_backend_entry_fn)(void);

/* Bytes moved per element for a bandwidth kernel (STREAM counting, no write-allocate). */
static inline int gp_bench_arrays_moved(enum gp_bench_kind kind)
{
    switch (kind) {
    case GP_BENCH_COPY:
    case GP_BENCH_SCALE:
        return 2;
    case GP_BENCH_ADD:
    case GP_BENCH_TRIAD:
        return 3;
    case GP_BENCH_READ:
        return 1;
    default:
        return 0;
    }
}

/* The warm-up rule every backend applies: true once the last three times (oldest first in
 * t[n-3..n-1]) spread by no more than `tolerance` of their median. */
static inline int gp_bench_settled(const double *t, int n, double tolerance)
{
    if (n < 3)
        return 0;
    double a = t[n - 3], b = t[n - 2], c = t[n - 1];
    double lo = a < b ? (a < c ? a : c) : (b < c ? b : c);
    double hi = a > b ? (a > c ? a : c) : (b > c ? b : c);
    double mid = a + b + c - lo - hi;
    return mid > 0 && (hi - lo) <= tolerance * mid;
}

/*
 * Counter-based input generator shared by every backend and the host reference, so any input
 * element can be recomputed on the host from (seed, index) alone. Values are multiples of
 * 2^-bits in [-1, 1], hence exactly representable in the target format:
 * bits = 23 (fp32/fp64), 10 (tf32, fp16), 7 (bf16), 3 (fp8 e4m3).
 */
GP_BENCH_FN uint64_t gp_bench_hash(uint64_t seed, uint64_t index)
{
    uint64_t z = seed + index * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline int gp_bench_value_bits(enum gp_bench_precision p)
{
    switch (p) {
    case GP_BENCH_FP64:
    case GP_BENCH_FP32:
        return 23;
    case GP_BENCH_TF32:
    case GP_BENCH_FP16:
        return 10;
    case GP_BENCH_BF16:
        return 7;
    default:
        return 3;
    }
}

GP_BENCH_FN float gp_bench_value(uint64_t seed, uint64_t index, int bits)
{
    /* An integer in -2^bits .. 2^bits from the hash's top 32 bits by multiply-shift (no
     * division: generating gigabytes of inputs stays cheap). */
    uint64_t span = (2ull << bits) + 1;
    int64_t q =
        (int64_t)(((gp_bench_hash(seed, index) >> 32) * span) >> 32) - (int64_t)(1ull << bits);
    return (float)q / (float)(1ull << bits);
}

/*
 * GEMM operands are stored k-major (the "TN" layout BLAS libraries favour): A (m x k) element
 * (i, p) is value number p + i * k of stream gp_bench_stream_a(seed, copy), i.e. A is held as
 * its k x m column-major transpose; B (k x n) element (p, j) is value number p + j * k of
 * stream gp_bench_stream_b(seed, copy), column-major. C (m x n) is column-major. `copy`
 * counts the rotating copies from 0.
 */
GP_BENCH_FN uint64_t gp_bench_stream_a(uint64_t seed, int copy)
{
    return seed + 0x1000ull * (uint64_t)copy;
}

GP_BENCH_FN uint64_t gp_bench_stream_b(uint64_t seed, int copy)
{
    return seed + 0x1000ull * (uint64_t)copy + 0x800ull;
}

/* Bandwidth arrays a, b, c hold value numbers 0..n-1 of streams seed, seed + 1, seed + 2 at 23
 * bits; the scalar is GP_BENCH_SCALAR. Every kernel is idempotent, so after any number of runs
 * the result array is a fixed function of the initial values. */
#define GP_BENCH_SCALAR 3.0

#ifdef __cplusplus
}
#endif

#endif
