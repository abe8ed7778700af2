/* STREAM-style bandwidth kernels on the CPU: a pool of pthreads running 16-byte vector loops
 * with non-temporal stores, timed with CLOCK_MONOTONIC around each parallel run. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "kernels/common/bench_common.h"
#include "kernels/cpu/cpu_int.h"

#define MAX_THREADS    256
#define VERIFY_SAMPLES 4096
#define CHUNK_ALIGN    8     /* elements: chunk borders fall on 64-byte lines */
#define BLOCK          16384 /* elements taken at a time: 128 KiB of each array */

enum phase { PHASE_INIT, PHASE_RUN, PHASE_STOP };

/* A thread's share of the current run, on its own cache line: the next block to take from its
 * range [start, end) and its partial sum. Other threads take blocks from it once they finished
 * their own, so a thread the OS preempts does not hold the whole run up. */
struct share {
    _Alignas(64) atomic_size_t next;
    size_t end;
    double sum;
};

struct pool {
    double *a, *b, *c; /* `total` elements each, borrowed from the device's arena */
    size_t total;      /* elements per array */
    size_t window;     /* elements one run touches (multiple of CHUNK_ALIGN) */
    size_t windows;    /* total / window */
    size_t current;    /* window of the running run */
    enum gp_bench_kind kind;
    uint64_t seed;
    int threads;
    enum phase phase;
    pthread_mutex_t lock;
    pthread_cond_t go;       /* a new phase began: `generation` moved on */
    pthread_cond_t finished; /* `pending` reached 0 */
    unsigned generation;     /* phases begun so far */
    int pending;             /* workers still busy with the current phase */
    struct share share[MAX_THREADS];
};

struct worker {
    struct pool *pool;
    int index;
};

/* [lo, hi) of `n` elements for thread t of `threads`, on CHUNK_ALIGN borders. */
static void chunk(size_t n, int t, int threads, size_t *lo, size_t *hi)
{
    size_t blocks = n / CHUNK_ALIGN;
    *lo = blocks * (size_t)t / (size_t)threads * CHUNK_ALIGN;
    *hi = t == threads - 1 ? n : blocks * (size_t)(t + 1) / (size_t)threads * CHUNK_ALIGN;
}

static void fill(struct pool *p, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i++) {
        p->a[i] = gp_bench_value(p->seed, i, 23);
        p->b[i] = gp_bench_value(p->seed + 1, i, 23);
        p->c[i] = gp_bench_value(p->seed + 2, i, 23);
    }
}

#if defined(__SSE2__)

static double kernel(enum gp_bench_kind kind, double *restrict a, double *restrict b,
                     double *restrict c, size_t lo, size_t hi)
{
    const __m128d s = _mm_set1_pd(GP_BENCH_SCALAR);
    __m128d s0 = _mm_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
    size_t i;

    switch (kind) {
    case GP_BENCH_COPY:
        for (i = lo; i < hi; i += 8) {
            _mm_stream_pd(c + i, _mm_load_pd(a + i));
            _mm_stream_pd(c + i + 2, _mm_load_pd(a + i + 2));
            _mm_stream_pd(c + i + 4, _mm_load_pd(a + i + 4));
            _mm_stream_pd(c + i + 6, _mm_load_pd(a + i + 6));
        }
        break;
    case GP_BENCH_SCALE:
        for (i = lo; i < hi; i += 8) {
            _mm_stream_pd(b + i, _mm_mul_pd(s, _mm_load_pd(c + i)));
            _mm_stream_pd(b + i + 2, _mm_mul_pd(s, _mm_load_pd(c + i + 2)));
            _mm_stream_pd(b + i + 4, _mm_mul_pd(s, _mm_load_pd(c + i + 4)));
            _mm_stream_pd(b + i + 6, _mm_mul_pd(s, _mm_load_pd(c + i + 6)));
        }
        break;
    case GP_BENCH_ADD:
        for (i = lo; i < hi; i += 8) {
            _mm_stream_pd(c + i, _mm_add_pd(_mm_load_pd(a + i), _mm_load_pd(b + i)));
            _mm_stream_pd(c + i + 2, _mm_add_pd(_mm_load_pd(a + i + 2), _mm_load_pd(b + i + 2)));
            _mm_stream_pd(c + i + 4, _mm_add_pd(_mm_load_pd(a + i + 4), _mm_load_pd(b + i + 4)));
            _mm_stream_pd(c + i + 6, _mm_add_pd(_mm_load_pd(a + i + 6), _mm_load_pd(b + i + 6)));
        }
        break;
    case GP_BENCH_TRIAD:
        for (i = lo; i < hi; i += 8) {
            _mm_stream_pd(a + i, _mm_add_pd(_mm_load_pd(b + i), _mm_mul_pd(s, _mm_load_pd(c + i))));
            _mm_stream_pd(a + i + 2, _mm_add_pd(_mm_load_pd(b + i + 2),
                                                _mm_mul_pd(s, _mm_load_pd(c + i + 2))));
            _mm_stream_pd(a + i + 4, _mm_add_pd(_mm_load_pd(b + i + 4),
                                                _mm_mul_pd(s, _mm_load_pd(c + i + 4))));
            _mm_stream_pd(a + i + 6, _mm_add_pd(_mm_load_pd(b + i + 6),
                                                _mm_mul_pd(s, _mm_load_pd(c + i + 6))));
        }
        break;
    default:
        for (i = lo; i < hi; i += 8) {
            s0 = _mm_add_pd(s0, _mm_load_pd(a + i));
            s1 = _mm_add_pd(s1, _mm_load_pd(a + i + 2));
            s2 = _mm_add_pd(s2, _mm_load_pd(a + i + 4));
            s3 = _mm_add_pd(s3, _mm_load_pd(a + i + 6));
        }
        break;
    }
    _mm_sfence();
    double lanes[2];
    _mm_storeu_pd(lanes, _mm_add_pd(_mm_add_pd(s0, s1), _mm_add_pd(s2, s3)));
    return lanes[0] + lanes[1];
}

#define KERNEL_NAME "sse2-nt"

#else

static double kernel(enum gp_bench_kind kind, double *restrict a, double *restrict b,
                     double *restrict c, size_t lo, size_t hi)
{
    double sum = 0.0;

    switch (kind) {
    case GP_BENCH_COPY:
        for (size_t i = lo; i < hi; i++)
            c[i] = a[i];
        break;
    case GP_BENCH_SCALE:
        for (size_t i = lo; i < hi; i++)
            b[i] = GP_BENCH_SCALAR * c[i];
        break;
    case GP_BENCH_ADD:
        for (size_t i = lo; i < hi; i++)
            c[i] = a[i] + b[i];
        break;
    case GP_BENCH_TRIAD:
        for (size_t i = lo; i < hi; i++)
            a[i] = b[i] + GP_BENCH_SCALAR * c[i];
        break;
    default:
        for (size_t i = lo; i < hi; i++)
            sum += a[i];
        break;
    }
    return sum;
}

#define KERNEL_NAME "scalar"

#endif

/* Thread t's share of the current phase. */
static void work(struct pool *p, int t)
{
    size_t lo, hi;

    if (p->phase == PHASE_INIT) {
        chunk(p->total, t, p->threads, &lo, &hi);
        fill(p, lo, hi);
        return;
    }
    size_t base = p->current * p->window;
    double sum = 0.0;
    for (int k = 0; k < p->threads; k++) {
        struct share *sh = &p->share[(t + k) % p->threads];
        size_t at;
        while ((at = atomic_fetch_add(&sh->next, BLOCK)) < sh->end) {
            size_t end = at + BLOCK < sh->end ? at + BLOCK : sh->end;
            sum += kernel(p->kind, p->a, p->b, p->c, base + at, base + end);
        }
    }
    p->share[t].sum = sum;
}

/* Hand every thread its static range of the window again (blocks start on CHUNK_ALIGN). */
static void reset_shares(struct pool *p)
{
    for (int t = 0; t < p->threads; t++) {
        size_t lo, hi;
        chunk(p->window, t, p->threads, &lo, &hi);
        atomic_store(&p->share[t].next, lo);
        p->share[t].end = hi;
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct pool *p = w->pool;
    unsigned seen = 0;

    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->generation == seen)
            pthread_cond_wait(&p->go, &p->lock);
        seen = p->generation;
        if (p->phase == PHASE_STOP)
            break;
        pthread_mutex_unlock(&p->lock);
        work(p, w->index);
        pthread_mutex_lock(&p->lock);
        if (--p->pending == 0)
            pthread_cond_signal(&p->finished);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Run one phase on every thread, the calling thread doing share 0; returns when all are done. */
static void run_phase(struct pool *p, enum phase phase)
{
    if (phase == PHASE_RUN)
        reset_shares(p);
    pthread_mutex_lock(&p->lock);
    p->phase = phase;
    p->pending = p->threads - 1;
    p->generation++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    if (phase == PHASE_STOP)
        return;
    work(p, 0);
    pthread_mutex_lock(&p->lock);
    while (p->pending > 0)
        pthread_cond_wait(&p->finished, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

struct run_ctx {
    struct pool *pool;
    double first_sum; /* read kernel: the sum of the very first run (window 0) */
    int runs;
};

static int run_once(void *arg, double *seconds)
{
    struct run_ctx *ctx = arg;
    struct pool *p = ctx->pool;

    p->current = (size_t)ctx->runs % p->windows;
    double t0 = gp_bench_wall();
    run_phase(p, PHASE_RUN);
    *seconds = gp_bench_wall() - t0;
    if (ctx->runs == 0) {
        double sum = 0.0;
        for (int t = 0; t < p->threads; t++)
            sum += p->share[t].sum;
        ctx->first_sum = sum;
    }
    ctx->runs++;
    return GP_BACKEND_OK;
}

/* Host memory: reading cannot fail. */
static int read_element(void *ctx, int which, uint64_t index, double *value)
{
    const struct pool *p = ctx;

    *value = (which == 0 ? p->a : which == 1 ? p->b : p->c)[index];
    return GP_BACKEND_OK;
}

/* Compare window 0 of the written array (or the first read sum) with the host reference. */
static int verify(struct pool *p, const struct run_ctx *ctx, struct gp_bench_result *out)
{
    int rc = gp_bench_stream_check(p->kind, p->seed, p->window, ctx->first_sum, VERIFY_SAMPLES,
                                   read_element, p, out);

    if (rc == GP_BACKEND_OK && out->max_error > 1.0)
        rc = gp_cpu__fail(GP_BACKEND_EVERIFY, "%s: result differs from the reference",
                          p->kind == GP_BENCH_READ ? "read" : "stream kernel");
    return rc;
}

/* Threads a run of `params` asks for, at most MAX_THREADS. */
static int wanted_threads(const struct gp_bench_params *params)
{
    int wanted = gp_cpu__threads(params->threads);
    return wanted > MAX_THREADS ? MAX_THREADS : wanted;
}

/* A run's window (elements per array per run, on CHUNK_ALIGN) and how many windows rotate; 0
 * when the arrays are too small for `wanted` threads. */
static int layout(const struct gp_bench_params *params, int wanted, size_t *window, size_t *windows)
{
    *window = (size_t)(params->array_bytes / sizeof(double)) / CHUNK_ALIGN * CHUNK_ALIGN;
    *windows = 1;
    if (params->rotate_bytes > 3 * params->array_bytes)
        *windows = (size_t)(params->rotate_bytes / (3 * params->array_bytes));
    return *window >= (size_t)CHUNK_ALIGN * (size_t)wanted;
}

uint64_t gp_cpu__stream_bytes(const struct gp_bench_params *params)
{
    size_t window, windows;

    if (!layout(params, wanted_threads(params), &window, &windows))
        return 0;
    return 3 * (uint64_t)window * windows * sizeof(double);
}

/* The pool's window and windows, and its three arrays, one after another in `arena` (each
 * `total` doubles, a multiple of CHUNK_ALIGN: every array starts on a 64-byte line). */
static int size_arrays(struct pool *p, struct gp_cpu_arena *arena,
                       const struct gp_bench_params *params, int wanted)
{
    if (!layout(params, wanted, &p->window, &p->windows))
        return gp_cpu__fail(GP_BACKEND_EUNSUPPORTED, "array of %llu bytes is too small",
                            (unsigned long long)params->array_bytes);
    p->total = p->window * p->windows;

    int rc = gp_cpu_arena_reserve(arena, 3 * (uint64_t)p->total * sizeof(double));
    if (rc != GP_BACKEND_OK)
        return rc;
    p->a = arena->base;
    p->b = p->a + p->total;
    p->c = p->b + p->total;
    return GP_BACKEND_OK;
}

int gp_cpu__stream_bench(struct gp_cpu_arena *arena, const struct gp_bench_params *params,
                         struct gp_bench_result *out)
{
    struct pool *p = NULL;
    pthread_t tids[MAX_THREADS];
    struct worker workers[MAX_THREADS];
    int wanted, started = 0, synced = 0;
    int rc = GP_BACKEND_OK;

    p = aligned_alloc(_Alignof(struct pool), (sizeof(*p) + 63) / 64 * 64);
    if (!p)
        return gp_cpu__fail(GP_BACKEND_ENOMEM, "out of memory");
    memset(p, 0, sizeof(*p));
    p->kind = params->kind;
    p->seed = params->seed;
    wanted = wanted_threads(params);
    if ((rc = size_arrays(p, arena, params, wanted)) != GP_BACKEND_OK)
        goto done;
    if (pthread_mutex_init(&p->lock, NULL) != 0 || pthread_cond_init(&p->go, NULL) != 0 ||
        pthread_cond_init(&p->finished, NULL) != 0) {
        rc = gp_cpu__fail(GP_BACKEND_EFAIL, "cannot create the thread pool's locks");
        goto done;
    }
    synced = 1;
    /* Workers take their share from p->threads when a phase starts, so a pool that could not
     * start every thread simply runs with fewer. */
    p->threads = 1;
    for (int t = 1; t < wanted; t++) {
        workers[t].pool = p;
        workers[t].index = t;
        if (pthread_create(&tids[t], NULL, worker_main, &workers[t]) != 0)
            break;
        started++;
        p->threads++;
    }

    run_phase(p, PHASE_INIT);
    struct run_ctx ctx = {p, 0.0, 0};
    out->work = (double)gp_bench_arrays_moved(p->kind) * (double)p->window * sizeof(double);
    snprintf(out->impl, sizeof(out->impl), "%s x%d", KERNEL_NAME, p->threads);
    rc = gp_bench_drive(params, out, run_once, &ctx);
    if (rc == GP_BACKEND_OK)
        rc = verify(p, &ctx, out);

done:
    if (started > 0)
        run_phase(p, PHASE_STOP);
    for (int t = 1; t <= started; t++)
        pthread_join(tids[t], NULL);
    if (synced) {
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->go);
        pthread_cond_destroy(&p->finished);
    }
    free(p);
    return rc;
}
