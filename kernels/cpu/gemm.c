/* CPU GEMM: the system BLAS (cblas_sgemm/cblas_dgemm) loaded with dlopen at run time, so the
 * executable needs no BLAS, and an own cache-blocked kernel as fallback and cross-check. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/common/bench_common.h"
#include "kernels/cpu/cpu_int.h"

#define VERIFY_SAMPLES  64
#define MAX_COPIES      1024
#define CBLAS_COL_MAJOR 102 /* CblasColMajor */
#define CBLAS_NO_TRANS  111 /* CblasNoTrans */
#define CBLAS_TRANS     112 /* CblasTrans */

/* The CBLAS prototypes, declared here so that no BLAS header is needed to build. */
typedef void (*sgemm_fn)(int order, int ta, int tb, int m, int n, int k, float alpha,
                         const float *a, int lda, const float *b, int ldb, float beta, float *c,
                         int ldc);
typedef void (*dgemm_fn)(int order, int ta, int tb, int m, int n, int k, double alpha,
                         const double *a, int lda, const double *b, int ldb, double beta, double *c,
                         int ldc);
typedef char *(*config_fn)(void);
typedef void (*set_threads_fn)(int threads);

static struct {
    int tried;
    void *handle;
    sgemm_fn sgemm;
    dgemm_fn dgemm;
    set_threads_fn set_threads;
    char version[128];
    char why[256]; /* why no BLAS loaded */
} blas;

/* Libraries tried in order; $GPUPLAN_CPU_BLAS, when set, is tried first. */
static const char *const blas_names[] = {"libopenblas.so.0", "libblas.so.3", "libcblas.so.3",
                                         "libmkl_rt.so.2", NULL};

/* ISO C has no conversion between object and function pointers: copy the bits. */
static int resolve(void *handle, const char *name, void *fn_out, size_t fn_size)
{
    void *sym = dlsym(handle, name);
    if (!sym)
        return -1;
    memcpy(fn_out, &sym, fn_size);
    return 0;
}

static void blas_load(void)
{
    const char *names[8];
    size_t count = 0;
    const char *env = getenv("GPUPLAN_CPU_BLAS");

    if (blas.tried)
        return;
    blas.tried = 1;
    if (env && *env)
        names[count++] = env;
    for (size_t i = 0; blas_names[i]; i++)
        names[count++] = blas_names[i];
    for (size_t i = 0; i < count; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            snprintf(blas.why, sizeof(blas.why), "%s", dlerror());
            continue;
        }
        if (resolve(h, "cblas_sgemm", &blas.sgemm, sizeof(blas.sgemm)) != 0 ||
            resolve(h, "cblas_dgemm", &blas.dgemm, sizeof(blas.dgemm)) != 0) {
            snprintf(blas.why, sizeof(blas.why), "%s: no cblas_sgemm/cblas_dgemm", names[i]);
            dlclose(h);
            continue;
        }
        blas.handle = h;
        if (resolve(h, "openblas_set_num_threads", &blas.set_threads, sizeof(blas.set_threads)))
            blas.set_threads = NULL;
        config_fn config = NULL;
        if (resolve(h, "openblas_get_config", &config, sizeof(config)) == 0 && config())
            snprintf(blas.version, sizeof(blas.version), "%s", config());
        else
            snprintf(blas.version, sizeof(blas.version), "%s", names[i]);
        return;
    }
}

const char *gp_cpu__blas_version(void)
{
    blas_load();
    return blas.version;
}

void gp_cpu__blas_unload(void)
{
    if (blas.handle)
        dlclose(blas.handle);
    memset(&blas, 0, sizeof(blas));
}

/* ---- own kernel ------------------------------------------------------------------------ */

#define BLOCK_J 64
#define BLOCK_P 256

/* C (m x n) = A (m x k, k-major) * B (k x n, column-major): every element is a dot product of
 * two contiguous k-vectors; blocking over j and p keeps a panel of B in cache while the rows
 * of A stream past. */
#define OWN_GEMM(NAME, T)                                                                          \
    static void NAME(int m, int n, int k, const T *a, const T *b, T *c)                            \
    {                                                                                              \
        memset(c, 0, sizeof(T) * (size_t)m * (size_t)n);                                           \
        for (int j0 = 0; j0 < n; j0 += BLOCK_J) {                                                  \
            int j1 = j0 + BLOCK_J < n ? j0 + BLOCK_J : n;                                          \
            for (int p0 = 0; p0 < k; p0 += BLOCK_P) {                                              \
                int p1 = p0 + BLOCK_P < k ? p0 + BLOCK_P : k;                                      \
                for (int i = 0; i < m; i++) {                                                      \
                    const T *restrict ai = a + (size_t)i * (size_t)k;                              \
                    for (int j = j0; j < j1; j++) {                                                \
                        const T *restrict bj = b + (size_t)j * (size_t)k;                          \
                        T acc = 0;                                                                 \
                        for (int p = p0; p < p1; p++)                                              \
                            acc += ai[p] * bj[p];                                                  \
                        c[(size_t)j * (size_t)m + (size_t)i] += acc;                               \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

OWN_GEMM(own_sgemm, float)
OWN_GEMM(own_dgemm, double)

/* ---- benchmark ------------------------------------------------------------------------- */

struct gemm_ctx {
    const struct gp_bench_params *params;
    int dbl;         /* fp64 rather than fp32 */
    int vendor;      /* through the BLAS rather than the own kernel */
    int copies;      /* rotating operand copies */
    char *a, *b;     /* the copies of A, B (float or double), stride_a / stride_b bytes apart;
                        borrowed from the device's arena */
    size_t stride_a; /* bytes of one copy of A, rounded up to 64 */
    size_t stride_b;
    void *c; /* the result, in the arena after the copies */
    int runs;
};

#define ALIGN64(n) (((n) + 63) / 64 * 64)

/* The operands' places in the arena: `copies` copies of A, then of B, then C, each on a 64-byte
 * line. Fills g->copies and the strides; returns the bytes they take together. */
static uint64_t layout(struct gemm_ctx *g)
{
    const struct gp_bench_params *params = g->params;
    size_t elem = g->dbl ? sizeof(double) : sizeof(float);
    size_t na = (size_t)params->m * (size_t)params->k, nb = (size_t)params->k * params->n;
    size_t copy_bytes = (na + nb) * elem;

    g->copies = 1;
    if (params->rotate_bytes > copy_bytes)
        g->copies = (int)(params->rotate_bytes / copy_bytes) + 1;
    if (g->copies > MAX_COPIES)
        g->copies = MAX_COPIES;
    g->stride_a = ALIGN64(na * elem);
    g->stride_b = ALIGN64(nb * elem);
    return (uint64_t)g->copies * (g->stride_a + g->stride_b) +
           ALIGN64((uint64_t)params->m * (uint64_t)params->n * elem);
}

/* Whether the CPU backend runs GEMMs of these parameters at all (the format and the sizes). */
static int runnable(const struct gp_bench_params *params)
{
    return (params->precision == GP_BENCH_FP32 || params->precision == GP_BENCH_FP64) &&
           params->m > 0 && params->n > 0 && params->k > 0;
}

uint64_t gp_cpu__gemm_bytes(const struct gp_bench_params *params)
{
    struct gemm_ctx g = {params, params->precision == GP_BENCH_FP64, 0, 1, NULL, NULL, 0, 0, NULL,
                         0};

    return runnable(params) ? layout(&g) : 0;
}

static int run_once(void *arg, double *seconds)
{
    struct gemm_ctx *g = arg;
    const struct gp_bench_params *p = g->params;
    size_t r = (size_t)(g->runs % g->copies);
    const void *a = g->a + r * g->stride_a, *b = g->b + r * g->stride_b;
    double t0 = gp_bench_wall();

    if (g->vendor && g->dbl)
        blas.dgemm(CBLAS_COL_MAJOR, CBLAS_TRANS, CBLAS_NO_TRANS, p->m, p->n, p->k, 1.0, a, p->k, b,
                   p->k, 0.0, g->c, p->m);
    else if (g->vendor)
        blas.sgemm(CBLAS_COL_MAJOR, CBLAS_TRANS, CBLAS_NO_TRANS, p->m, p->n, p->k, 1.0f, a, p->k, b,
                   p->k, 0.0f, g->c, p->m);
    else if (g->dbl)
        own_dgemm(p->m, p->n, p->k, a, b, g->c);
    else
        own_sgemm(p->m, p->n, p->k, a, b, g->c);
    *seconds = gp_bench_wall() - t0;
    g->runs++;
    return GP_BACKEND_OK;
}

static void fill(void *dst, int dbl, uint64_t stream, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        float v = gp_bench_value(stream, i, 23);
        if (dbl)
            ((double *)dst)[i] = v;
        else
            ((float *)dst)[i] = v;
    }
}

/* Host memory: reading cannot fail. */
static int read_cell(void *ctx, uint64_t cell, double *value)
{
    const struct gemm_ctx *g = ctx;

    *value = g->dbl ? ((double *)g->c)[cell] : ((float *)g->c)[cell];
    return GP_BACKEND_OK;
}

static int verify(struct gemm_ctx *g, struct gp_bench_result *out)
{
    const struct gp_bench_params *p = g->params;
    int rc = gp_bench_gemm_check(p, 0, 23, /* every copy holds copy 0's values */
                                 g->dbl ? GP_BENCH_FP64 : GP_BENCH_FP32, VERIFY_SAMPLES, read_cell,
                                 g, out);

    if (rc == GP_BACKEND_OK && out->max_error > 1.0)
        rc = gp_cpu__fail(GP_BACKEND_EVERIFY,
                          "gemm %dx%dx%d: result off by %.3g times the error bound", p->m, p->n,
                          p->k, out->max_error);
    return rc;
}

int gp_cpu__gemm_bench(struct gp_cpu_arena *arena, const struct gp_bench_params *params,
                       struct gp_bench_result *out)
{
    struct gemm_ctx g = {params, 0, 0, 1, NULL, NULL, 0, 0, NULL, 0};
    int rc = GP_BACKEND_OK;

    if (params->precision != GP_BENCH_FP32 && params->precision != GP_BENCH_FP64)
        return gp_cpu__fail(GP_BACKEND_EUNSUPPORTED, "the CPU backend runs fp32 and fp64 only");
    if (!runnable(params))
        return gp_cpu__fail(GP_BACKEND_EUNSUPPORTED, "gemm sizes must be positive");
    g.dbl = params->precision == GP_BENCH_FP64;
    blas_load();
    if (params->impl == GP_BENCH_IMPL_VENDOR && !blas.handle)
        return gp_cpu__fail(GP_BACKEND_EUNSUPPORTED, "no BLAS library: %s", blas.why);
    g.vendor = params->impl != GP_BENCH_IMPL_OWN && blas.handle;
    if (g.vendor && blas.set_threads)
        blas.set_threads(gp_cpu__threads(params->threads));

    size_t elem = g.dbl ? sizeof(double) : sizeof(float);
    size_t na = (size_t)params->m * (size_t)params->k, nb = (size_t)params->k * params->n;
    rc = gp_cpu_arena_reserve(arena, layout(&g));
    if (rc != GP_BACKEND_OK)
        return rc;
    g.a = arena->base;
    g.b = g.a + (size_t)g.copies * g.stride_a;
    g.c = g.b + (size_t)g.copies * g.stride_b;
    fill(g.a, g.dbl, gp_bench_stream_a(params->seed, 0), na);
    fill(g.b, g.dbl, gp_bench_stream_b(params->seed, 0), nb);
    /* Copies after the first are byte copies of it: the rotation is there to defeat the cache,
     * and generating every copy on the host took longer than the runs. */
    for (size_t r = 1; r < (size_t)g.copies; r++) {
        memcpy(g.a + r * g.stride_a, g.a, na * elem);
        memcpy(g.b + r * g.stride_b, g.b, nb * elem);
    }

    out->work = 2.0 * params->m * (double)params->n * (double)params->k;
    snprintf(out->impl, sizeof(out->impl), "%s", g.vendor ? "blas" : "own-blocked");
    rc = gp_bench_drive(params, out, run_once, &g);
    if (rc == GP_BACKEND_OK)
        rc = verify(&g, out);
    return rc;
}
