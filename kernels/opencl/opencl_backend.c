/* The OpenCL calibration backend module (libgpuplan-opencl.so). It loads libOpenCL.so.1 at run
 * time and declares the few entry points it calls itself, so building it needs no OpenCL SDK.
 * Kernels are timed with OpenCL profiling events. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/backend.h"
#include "kernels/common/bench_common.h"
#include "kernels/opencl/kernels_cl.h"

/* ---- the OpenCL API subset, from the Khronos headers' values ---------------------------- */

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef uint64_t cl_bitfield;
typedef struct cl_opaque *cl_handle; /* every object type is an opaque pointer */

#define CL_SUCCESS                         0
#define CL_DEVICE_TYPE_CPU                 (1u << 1)
#define CL_DEVICE_TYPE_GPU                 (1u << 2)
#define CL_DEVICE_TYPE_ALL                 0xFFFFFFFFu
#define CL_PLATFORM_VERSION                0x0901
#define CL_PLATFORM_NAME                   0x0902
#define CL_DEVICE_TYPE                     0x1000
#define CL_DEVICE_MAX_COMPUTE_UNITS        0x1002
#define CL_DEVICE_MAX_WORK_GROUP_SIZE      0x1004
#define CL_DEVICE_MAX_CLOCK_FREQUENCY      0x100C
#define CL_DEVICE_MAX_MEM_ALLOC_SIZE       0x1010
#define CL_DEVICE_GLOBAL_MEM_CACHE_SIZE    0x101E
#define CL_DEVICE_GLOBAL_MEM_SIZE          0x101F
#define CL_DEVICE_ERROR_CORRECTION_SUPPORT 0x1024
#define CL_DEVICE_NAME                     0x102B
#define CL_DEVICE_VENDOR                   0x102C
#define CL_DRIVER_VERSION                  0x102D
#define CL_DEVICE_EXTENSIONS               0x1030
#define CL_QUEUE_PROFILING_ENABLE          (1u << 1)
#define CL_MEM_READ_WRITE                  (1u << 0)
#define CL_PROGRAM_BUILD_LOG               0x1183
#define CL_PROFILING_COMMAND_START         0x1282
#define CL_PROFILING_COMMAND_END           0x1283

#define CL_FUNCTIONS(X)                                                                            \
    X(clGetPlatformIDs, cl_int, (cl_uint, cl_handle *, cl_uint *))                                 \
    X(clGetPlatformInfo, cl_int, (cl_handle, cl_uint, size_t, void *, size_t *))                   \
    X(clGetDeviceIDs, cl_int, (cl_handle, cl_bitfield, cl_uint, cl_handle *, cl_uint *))           \
    X(clGetDeviceInfo, cl_int, (cl_handle, cl_uint, size_t, void *, size_t *))                     \
    X(clCreateContext, cl_handle,                                                                  \
      (const intptr_t *, cl_uint, const cl_handle *, void *, void *, cl_int *))                    \
    X(clCreateCommandQueue, cl_handle, (cl_handle, cl_handle, cl_bitfield, cl_int *))              \
    X(clCreateBuffer, cl_handle, (cl_handle, cl_bitfield, size_t, void *, cl_int *))               \
    X(clCreateProgramWithSource, cl_handle,                                                        \
      (cl_handle, cl_uint, const char **, const size_t *, cl_int *))                               \
    X(clBuildProgram, cl_int,                                                                      \
      (cl_handle, cl_uint, const cl_handle *, const char *, void *, void *))                       \
    X(clGetProgramBuildInfo, cl_int, (cl_handle, cl_handle, cl_uint, size_t, void *, size_t *))    \
    X(clCreateKernel, cl_handle, (cl_handle, const char *, cl_int *))                              \
    X(clSetKernelArg, cl_int, (cl_handle, cl_uint, size_t, const void *))                          \
    X(clEnqueueNDRangeKernel, cl_int,                                                              \
      (cl_handle, cl_handle, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint,     \
       const cl_handle *, cl_handle *))                                                            \
    X(clEnqueueReadBuffer, cl_int,                                                                 \
      (cl_handle, cl_handle, cl_uint, size_t, size_t, void *, cl_uint, const cl_handle *,          \
       cl_handle *))                                                                               \
    X(clFinish, cl_int, (cl_handle))                                                               \
    X(clWaitForEvents, cl_int, (cl_uint, const cl_handle *))                                       \
    X(clGetEventProfilingInfo, cl_int, (cl_handle, cl_uint, size_t, void *, size_t *))             \
    X(clReleaseEvent, cl_int, (cl_handle))                                                         \
    X(clReleaseKernel, cl_int, (cl_handle))                                                        \
    X(clReleaseProgram, cl_int, (cl_handle))                                                       \
    X(clReleaseMemObject, cl_int, (cl_handle))                                                     \
    X(clReleaseCommandQueue, cl_int, (cl_handle))                                                  \
    X(clReleaseContext, cl_int, (cl_handle))

#define DECLARE(name, ret, args) ret(*name) args;
static struct {
    void *lib;
    CL_FUNCTIONS(DECLARE)
} cl;
#undef DECLARE

/* ---- state ------------------------------------------------------------------------------ */

#define MAX_DEVICES    16
#define LOCAL_SIZE     64
#define VERIFY_SAMPLES 1024
#define GEMM_SAMPLES   64
#define MAX_COPIES     256

struct device {
    cl_handle platform, id, context, queue, program;
    cl_handle k_init, k_run[4], k_read, k_ginit, k_gemm; /* k_run by enum gp_bench_kind */
    struct gp_device_info info;
    size_t max_group;
    uint64_t max_alloc;
    int fp64;
    cl_int blocked; /* CPU device: each work-item streams through one contiguous slice */
    /* The device's working memory over its calibration run: STREAM takes slots 0-2 for its
     * arrays a, b, c and slot 3 for the partial sums, GEMM slots 0-2 for A, B and C (buffers
     * are untyped). A slot is replaced only by a larger buffer when a benchmark needs more than
     * it holds, and released with the device (shutdown), never between benchmarks. Only bench
     * on this device touches them, which the ABI never runs twice at once. */
    struct {
        cl_handle mem; /* owned, or NULL */
        size_t bytes;  /* its size, bytes */
    } kept[4];
};

static struct device devices[MAX_DEVICES];
static int device_count;
static _Thread_local char last_error[1024];

static int fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof(last_error), fmt, ap);
    va_end(ap);
    return code;
}

#define CHECK(call, what)                                                                          \
    do {                                                                                           \
        cl_int err_ = (call);                                                                      \
        if (err_ != CL_SUCCESS)                                                                    \
            return fail(GP_BACKEND_EFAIL, "%s failed: OpenCL error %d", what, (int)err_);          \
    } while (0)

static int load_library(char *reason, size_t size)
{
    if (cl.lib)
        return 0;
    void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(reason, size, "%s", dlerror());
        return -1;
    }
#define RESOLVE(name, ret, args)                                                                   \
    {                                                                                              \
        void *sym = dlsym(lib, #name);                                                             \
        if (!sym) {                                                                                \
            snprintf(reason, size, "libOpenCL.so.1 lacks %s", #name);                              \
            dlclose(lib);                                                                          \
            return -1;                                                                             \
        }                                                                                          \
        memcpy(&cl.name, &sym, sizeof(sym));                                                       \
    }
    CL_FUNCTIONS(RESOLVE)
#undef RESOLVE
    cl.lib = lib;
    return 0;
}

/* Every device of every platform, in platform order. Returns the count; 0 with a reason. */
static int enumerate(cl_handle *platforms_out, cl_handle *ids, int max, char *reason, size_t size)
{
    cl_handle platforms[8];
    cl_uint np = 0;
    int n = 0;

    if (cl.clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS || np == 0) {
        snprintf(reason, size, "no OpenCL platforms (no ICD installed)");
        return 0;
    }
    for (cl_uint p = 0; p < np && n < max; p++) {
        cl_uint nd = 0;
        if (cl.clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, (cl_uint)(max - n), ids + n, &nd) !=
            CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd; d++)
            platforms_out[n + (int)d] = platforms[p];
        n += (int)nd;
    }
    if (n == 0)
        snprintf(reason, size, "no devices");
    return n;
}

static int opencl_probe(char *reason, size_t size)
{
    cl_handle platforms[MAX_DEVICES], ids[MAX_DEVICES];
    int gpus = 0;

    snprintf(reason, size, "%s", "");
    if (load_library(reason, size) != 0)
        return 0;
    int n = enumerate(platforms, ids, MAX_DEVICES, reason, size);
    for (int i = 0; i < n; i++) {
        cl_bitfield type = 0;
        cl.clGetDeviceInfo(ids[i], CL_DEVICE_TYPE, sizeof(type), &type, NULL);
        gpus += (type & CL_DEVICE_TYPE_GPU) != 0;
    }
    if (n > 0 && gpus == 0)
        snprintf(reason, size, "CPU devices only (the built-in cpu backend is preferred)");
    /* A GPU beats the built-in CPU backend; OpenCL on a CPU (PoCL) does not. */
    return n == 0 ? 0 : gpus ? 50 : 5;
}

static void text_info(cl_handle id, cl_uint what, char *out, size_t size)
{
    out[0] = '\0';
    if (cl.clGetDeviceInfo(id, what, size, out, NULL) != CL_SUCCESS)
        out[0] = '\0';
    out[size - 1] = '\0';
}

static void describe_device(struct device *d)
{
    struct gp_device_info *info = &d->info;
    cl_bitfield type = 0;
    cl_uint units = 0, mhz = 0, ecc = 0;
    cl_ulong mem = 0, cache = 0, alloc = 0;
    char ext[8192], platform[256], version[256];

    memset(info, 0, sizeof(*info));
    text_info(d->id, CL_DEVICE_NAME, info->name, sizeof(info->name));
    text_info(d->id, CL_DEVICE_VENDOR, info->vendor, sizeof(info->vendor));
    text_info(d->id, CL_DRIVER_VERSION, info->driver_version, sizeof(info->driver_version));
    text_info(d->id, CL_DEVICE_EXTENSIONS, ext, sizeof(ext));
    platform[0] = version[0] = '\0';
    cl.clGetPlatformInfo(d->platform, CL_PLATFORM_NAME, sizeof(platform), platform, NULL);
    cl.clGetPlatformInfo(d->platform, CL_PLATFORM_VERSION, sizeof(version), version, NULL);
    platform[sizeof(platform) - 1] = version[sizeof(version) - 1] = '\0';
    snprintf(info->runtime_version, sizeof(info->runtime_version), "%.30s %.30s", platform,
             version);
    snprintf(info->library_version, sizeof(info->library_version), "%s",
             "own tiled kernel (no vendor BLAS through OpenCL)");
    cl.clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
    cl.clGetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, NULL);
    cl.clGetDeviceInfo(d->id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(mhz), &mhz, NULL);
    cl.clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(mem), &mem, NULL);
    cl.clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cache), &cache, NULL);
    cl.clGetDeviceInfo(d->id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(alloc), &alloc, NULL);
    cl.clGetDeviceInfo(d->id, CL_DEVICE_ERROR_CORRECTION_SUPPORT, sizeof(ecc), &ecc, NULL);
    cl.clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(d->max_group), &d->max_group,
                       NULL);
    /* A CPU device is labelled "cpu" so that it maps to no GPU id and gets CPU-sized plans. */
    if (type & CL_DEVICE_TYPE_CPU)
        snprintf(info->vendor, sizeof(info->vendor), "%s", "cpu");
    info->memory_bytes = mem;
    info->llc_bytes = cache;
    info->compute_units = (int)units;
    info->clock_mhz = mhz;
    info->ecc = ecc ? 1 : 0;
    d->max_alloc = alloc;
    d->fp64 = strstr(ext, "cl_khr_fp64") != NULL;
    d->blocked = (type & CL_DEVICE_TYPE_GPU) == 0;
    info->precisions = GP_BENCH_PRECISION_BIT(GP_BENCH_FP32);
    snprintf(info->timing, sizeof(info->timing), "%s",
             "OpenCL profiling events of each kernel (start to end)");
}

static void release_device(struct device *d)
{
    for (size_t i = 0; i < sizeof(d->kept) / sizeof(d->kept[0]); i++)
        if (d->kept[i].mem)
            cl.clReleaseMemObject(d->kept[i].mem);
    cl_handle kernels[] = {d->k_init,   d->k_run[0], d->k_run[1], d->k_run[2],
                           d->k_run[3], d->k_read,   d->k_ginit,  d->k_gemm};
    for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
        if (kernels[i])
            cl.clReleaseKernel(kernels[i]);
    if (d->program)
        cl.clReleaseProgram(d->program);
    if (d->queue)
        cl.clReleaseCommandQueue(d->queue);
    if (d->context)
        cl.clReleaseContext(d->context);
    memset(d, 0, sizeof(*d));
}

static int opencl_init(void)
{
    cl_handle platforms[MAX_DEVICES], ids[MAX_DEVICES];
    char reason[256];

    if (load_library(reason, sizeof(reason)) != 0)
        return fail(GP_BACKEND_EFAIL, "%s", reason);
    device_count = enumerate(platforms, ids, MAX_DEVICES, reason, sizeof(reason));
    for (int i = 0; i < device_count; i++) {
        devices[i].platform = platforms[i];
        devices[i].id = ids[i];
        describe_device(&devices[i]);
    }
    return GP_BACKEND_OK;
}

/* Releases every OpenCL object; libOpenCL.so.1 itself stays loaded, since ICD drivers keep
 * threads that must not outlive their code. */
static void opencl_shutdown(void)
{
    for (int i = 0; i < device_count; i++)
        release_device(&devices[i]);
    device_count = 0;
}

static int opencl_device_count(void)
{
    return device_count;
}

static int opencl_device_info(int index, struct gp_device_info *out)
{
    if (index < 0 || index >= device_count)
        return fail(GP_BACKEND_EFAIL, "no OpenCL device %d", index);
    *out = devices[index].info;
    return GP_BACKEND_OK;
}

/* Create the context, queue and program of a device on first use. */
static int prepare(struct device *d)
{
    cl_int err = CL_SUCCESS;
    const char *src = gp_opencl_kernels_source;
    size_t len = strlen(src);

    if (d->program)
        return GP_BACKEND_OK;
    d->context = cl.clCreateContext(NULL, 1, &d->id, NULL, NULL, &err);
    if (!d->context)
        return fail(GP_BACKEND_EFAIL, "clCreateContext failed: OpenCL error %d", (int)err);
    d->queue = cl.clCreateCommandQueue(d->context, d->id, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!d->queue)
        return fail(GP_BACKEND_EFAIL, "clCreateCommandQueue failed: OpenCL error %d", (int)err);
    d->program = cl.clCreateProgramWithSource(d->context, 1, &src, &len, &err);
    if (!d->program)
        return fail(GP_BACKEND_EFAIL, "clCreateProgramWithSource failed: error %d", (int)err);
    if (cl.clBuildProgram(d->program, 1, &d->id, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
        size_t need = 0;
        char *log = NULL;
        cl.clGetProgramBuildInfo(d->program, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &need);
        if (need > 0 && need < ((size_t)1 << 20))
            log = calloc(need + 1, 1);
        if (log)
            cl.clGetProgramBuildInfo(d->program, d->id, CL_PROGRAM_BUILD_LOG, need, log, NULL);
        fail(GP_BACKEND_EFAIL, "kernel build failed: %s", log ? log : "(no log)");
        free(log);
        cl.clReleaseProgram(d->program);
        d->program = NULL;
        return GP_BACKEND_EFAIL;
    }
    struct {
        cl_handle *slot;
        const char *name;
    } kernels[] = {{&d->k_init, "stream_init"},
                   {&d->k_run[GP_BENCH_COPY], "stream_copy"},
                   {&d->k_run[GP_BENCH_SCALE], "stream_scale"},
                   {&d->k_run[GP_BENCH_ADD], "stream_add"},
                   {&d->k_run[GP_BENCH_TRIAD], "stream_triad"},
                   {&d->k_read, "stream_read"},
                   {&d->k_ginit, "gemm_init"},
                   {&d->k_gemm, "gemm_tiled"}};
    for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
        *kernels[i].slot = cl.clCreateKernel(d->program, kernels[i].name, &err);
        if (!*kernels[i].slot)
            return fail(GP_BACKEND_EFAIL, "clCreateKernel(%s) failed: error %d", kernels[i].name,
                        (int)err);
    }
    return GP_BACKEND_OK;
}

/* Enqueue `kernel` over `global` (1 or 2 dims) and return its profiled duration in s. */
static int launch(struct device *d, cl_handle kernel, cl_uint dims, const size_t *global,
                  const size_t *local, double *seconds)
{
    cl_handle ev = NULL;
    cl_ulong t0 = 0, t1 = 0;

    CHECK(cl.clEnqueueNDRangeKernel(d->queue, kernel, dims, NULL, global, local, 0, NULL, &ev),
          "clEnqueueNDRangeKernel");
    cl_int err = cl.clWaitForEvents(1, &ev);
    if (err == CL_SUCCESS && seconds) {
        err = cl.clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL);
        if (err == CL_SUCCESS)
            err = cl.clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL);
        *seconds = (double)(t1 - t0) * 1e-9;
    }
    cl.clReleaseEvent(ev);
    if (err != CL_SUCCESS)
        return fail(GP_BACKEND_EFAIL, "kernel run failed: OpenCL error %d", (int)err);
    return GP_BACKEND_OK;
}

#define ARG(kernel, index, value)                                                                  \
    CHECK(cl.clSetKernelArg(kernel, index, sizeof(value), &(value)), "clSetKernelArg")

static size_t group_size(const struct device *d)
{
    return d->max_group && d->max_group < LOCAL_SIZE ? d->max_group : LOCAL_SIZE;
}

/* Buffer slot `slot` of `d` with room for `bytes` bytes, grown (replaced) when smaller; NULL when
 * the device cannot allocate it. Borrowed: the device keeps it (see struct device). */
static cl_handle kept_buffer(struct device *d, int slot, size_t bytes)
{
    cl_int err = CL_SUCCESS;

    if (d->kept[slot].mem && d->kept[slot].bytes >= bytes)
        return d->kept[slot].mem;
    if (d->kept[slot].mem)
        cl.clReleaseMemObject(d->kept[slot].mem);
    d->kept[slot].mem = cl.clCreateBuffer(d->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    d->kept[slot].bytes = d->kept[slot].mem ? bytes : 0;
    return d->kept[slot].mem;
}

/* ---- bandwidth -------------------------------------------------------------------------- */

struct stream_ctx {
    struct device *d;
    const struct gp_bench_params *p;
    cl_handle a, b, c, partial;
    uint64_t window;  /* double2 elements per run */
    uint64_t windows; /* windows in the arrays */
    size_t global, groups;
    int runs;
    double first_sum;
};

static int stream_once(void *arg, double *seconds)
{
    struct stream_ctx *s = arg;
    struct device *d = s->d;
    cl_ulong off = (cl_ulong)((uint64_t)s->runs % s->windows * s->window), n = s->window;
    size_t local = group_size(d);
    int rc;

    if (s->p->kind == GP_BENCH_READ) {
        ARG(d->k_read, 0, s->a);
        ARG(d->k_read, 1, off);
        ARG(d->k_read, 2, n);
        ARG(d->k_read, 3, d->blocked);
        ARG(d->k_read, 4, s->partial);
        CHECK(cl.clSetKernelArg(d->k_read, 5, local * sizeof(double), NULL), "clSetKernelArg");
        rc = launch(d, d->k_read, 1, &s->global, &local, seconds);
        if (rc == GP_BACKEND_OK && s->runs == 0) {
            double partial[4096];
            CHECK(cl.clEnqueueReadBuffer(d->queue, s->partial, 1, 0, s->groups * sizeof(double),
                                         partial, 0, NULL, NULL),
                  "clEnqueueReadBuffer");
            s->first_sum = 0.0;
            for (size_t g = 0; g < s->groups; g++)
                s->first_sum += partial[g];
        }
    } else {
        cl_handle k = d->k_run[s->p->kind];
        ARG(k, 0, s->a);
        ARG(k, 1, s->b);
        ARG(k, 2, s->c);
        ARG(k, 3, off);
        ARG(k, 4, n);
        ARG(k, 5, d->blocked);
        rc = launch(d, k, 1, &s->global, &local, seconds);
    }
    s->runs++;
    return rc;
}

static int read_stream_element(void *ctx, int which, uint64_t index, double *value)
{
    struct stream_ctx *s = ctx;
    cl_handle buf = which == 0 ? s->a : which == 1 ? s->b : s->c;

    CHECK(cl.clEnqueueReadBuffer(s->d->queue, buf, 1, index * sizeof(double), sizeof(double), value,
                                 0, NULL, NULL),
          "clEnqueueReadBuffer");
    return GP_BACKEND_OK;
}

static int stream_verify(struct stream_ctx *s, struct gp_bench_result *out)
{
    uint64_t n = s->window * 2; /* doubles in window 0 */
    int rc = gp_bench_stream_check(s->p->kind, s->p->seed, n, s->first_sum, VERIFY_SAMPLES,
                                   read_stream_element, s, out);

    if (rc == GP_BACKEND_OK && out->max_error > 1.0)
        rc = fail(GP_BACKEND_EVERIFY, "stream kernel %d: result differs from the reference",
                  (int)s->p->kind);
    return rc;
}

static int bench_stream(struct device *d, const struct gp_bench_params *p,
                        struct gp_bench_result *out)
{
    struct stream_ctx s = {d, p, NULL, NULL, NULL, NULL, 0, 1, 0, 0, 0, 0.0};
    int rc = GP_BACKEND_OK;

    if (!d->fp64)
        return fail(GP_BACKEND_EUNSUPPORTED, "device has no fp64 (cl_khr_fp64)");
    s.window = p->array_bytes / 16;
    if (s.window == 0)
        return fail(GP_BACKEND_EUNSUPPORTED, "array too small");
    if (p->rotate_bytes > 3 * p->array_bytes)
        s.windows = p->rotate_bytes / (3 * p->array_bytes);
    uint64_t bytes = s.window * s.windows * 16;
    if (d->max_alloc && bytes > d->max_alloc)
        return fail(GP_BACKEND_EUNSUPPORTED, "arrays of %llu bytes exceed the device's limit",
                    (unsigned long long)bytes);
    size_t local = group_size(d);
    s.groups = (size_t)(d->info.compute_units > 0 ? d->info.compute_units : 1) * 4;
    if (s.groups > 4096)
        s.groups = 4096;
    s.global = s.groups * local;
    s.a = kept_buffer(d, 0, bytes);
    s.b = kept_buffer(d, 1, bytes);
    s.c = kept_buffer(d, 2, bytes);
    s.partial = kept_buffer(d, 3, s.groups * sizeof(double));
    if (!s.a || !s.b || !s.c || !s.partial)
        return fail(GP_BACKEND_ENOMEM, "cannot allocate 3 arrays of %llu bytes",
                    (unsigned long long)bytes);
    cl_ulong seed = p->seed, total = bytes / sizeof(double);
    if (cl.clSetKernelArg(d->k_init, 0, sizeof(s.a), &s.a) != CL_SUCCESS ||
        cl.clSetKernelArg(d->k_init, 1, sizeof(s.b), &s.b) != CL_SUCCESS ||
        cl.clSetKernelArg(d->k_init, 2, sizeof(s.c), &s.c) != CL_SUCCESS ||
        cl.clSetKernelArg(d->k_init, 3, sizeof(seed), &seed) != CL_SUCCESS ||
        cl.clSetKernelArg(d->k_init, 4, sizeof(total), &total) != CL_SUCCESS ||
        cl.clSetKernelArg(d->k_init, 5, sizeof(d->blocked), &d->blocked) != CL_SUCCESS)
        return fail(GP_BACKEND_EFAIL, "clSetKernelArg failed");
    rc = launch(d, d->k_init, 1, &s.global, &local, NULL);
    if (rc != GP_BACKEND_OK)
        return rc;
    out->work = (double)gp_bench_arrays_moved(p->kind) * (double)s.window * 16.0;
    snprintf(out->impl, sizeof(out->impl), "%s", "double2 grid-stride");
    rc = gp_bench_drive(p, out, stream_once, &s);
    if (rc == GP_BACKEND_OK)
        rc = stream_verify(&s, out);
    return rc;
}

/* ---- GEMM ------------------------------------------------------------------------------- */

struct gemm_ctx {
    struct device *d;
    const struct gp_bench_params *p;
    cl_handle a, b, c;
    int copies, runs;
};

static int gemm_once(void *arg, double *seconds)
{
    struct gemm_ctx *g = arg;
    struct device *d = g->d;
    const struct gp_bench_params *p = g->p;
    int r = g->runs % g->copies;
    cl_int m = p->m, n = p->n, k = p->k;
    cl_ulong a_off = (cl_ulong)r * (cl_ulong)p->m * (cl_ulong)p->k;
    cl_ulong b_off = (cl_ulong)r * (cl_ulong)p->k * (cl_ulong)p->n;
    size_t local[2] = {16, 16};
    size_t global[2] = {((size_t)p->m + 15) / 16 * 16, ((size_t)p->n + 15) / 16 * 16};

    ARG(d->k_gemm, 0, m);
    ARG(d->k_gemm, 1, n);
    ARG(d->k_gemm, 2, k);
    ARG(d->k_gemm, 3, g->a);
    ARG(d->k_gemm, 4, a_off);
    ARG(d->k_gemm, 5, g->b);
    ARG(d->k_gemm, 6, b_off);
    ARG(d->k_gemm, 7, g->c);
    g->runs++;
    return launch(d, d->k_gemm, 2, global, local, seconds);
}

/* Elements [offset, offset + count) of `buf` := values 0..count-1 of stream `stream`. */
static int fill(struct device *d, cl_handle buf, uint64_t offset, uint64_t stream, uint64_t count)
{
    cl_ulong off = offset, seed = stream, n = count;
    cl_int bits = 23;
    size_t local = group_size(d), global = local * 64;

    ARG(d->k_ginit, 0, buf);
    ARG(d->k_ginit, 1, off);
    ARG(d->k_ginit, 2, seed);
    ARG(d->k_ginit, 3, n);
    ARG(d->k_ginit, 4, bits);
    ARG(d->k_ginit, 5, d->blocked);
    return launch(d, d->k_ginit, 1, &global, &local, NULL);
}

static int read_gemm_cell(void *ctx, uint64_t cell, double *value)
{
    struct gemm_ctx *g = ctx;
    float got;

    if (cl.clEnqueueReadBuffer(g->d->queue, g->c, 1, cell * sizeof(float), sizeof(float), &got, 0,
                               NULL, NULL) != CL_SUCCESS)
        return fail(GP_BACKEND_EFAIL, "clEnqueueReadBuffer failed");
    *value = got;
    return GP_BACKEND_OK;
}

static int bench_gemm(struct device *d, const struct gp_bench_params *p,
                      struct gp_bench_result *out)
{
    struct gemm_ctx g = {d, p, NULL, NULL, NULL, 1, 0};
    int rc = GP_BACKEND_OK;

    if (p->precision != GP_BENCH_FP32)
        return fail(GP_BACKEND_EUNSUPPORTED, "the OpenCL backend runs fp32 GEMM only");
    if (p->impl == GP_BENCH_IMPL_VENDOR)
        return fail(GP_BACKEND_EUNSUPPORTED, "no vendor BLAS through OpenCL");
    uint64_t na = (uint64_t)p->m * (uint64_t)p->k, nb = (uint64_t)p->k * (uint64_t)p->n;
    uint64_t copy_bytes = (na + nb) * sizeof(float);
    if (p->rotate_bytes > copy_bytes)
        g.copies = (int)(p->rotate_bytes / copy_bytes) + 1;
    if (g.copies > MAX_COPIES)
        g.copies = MAX_COPIES;
    if (d->max_alloc && (na > nb ? na : nb) * sizeof(float) * (uint64_t)g.copies > d->max_alloc)
        g.copies = 1;
    g.a = kept_buffer(d, 0, na * sizeof(float) * (size_t)g.copies);
    g.b = kept_buffer(d, 1, nb * sizeof(float) * (size_t)g.copies);
    g.c = kept_buffer(d, 2, (size_t)p->m * (size_t)p->n * sizeof(float));
    if (!g.a || !g.b || !g.c)
        return fail(GP_BACKEND_ENOMEM, "cannot allocate GEMM operands");
    for (int r = 0; r < g.copies && rc == GP_BACKEND_OK; r++) {
        rc = fill(d, g.a, (uint64_t)r * na, gp_bench_stream_a(p->seed, r), na);
        if (rc == GP_BACKEND_OK)
            rc = fill(d, g.b, (uint64_t)r * nb, gp_bench_stream_b(p->seed, r), nb);
    }
    if (rc != GP_BACKEND_OK)
        return rc;
    out->work = 2.0 * p->m * (double)p->n * (double)p->k;
    snprintf(out->impl, sizeof(out->impl), "%s", "own-tiled16");
    rc = gp_bench_drive(p, out, gemm_once, &g);
    if (rc == GP_BACKEND_OK)
        rc = gp_bench_gemm_check(p, (g.runs - 1) % g.copies, 23, GP_BENCH_FP32, GEMM_SAMPLES,
                                 read_gemm_cell, &g, out);
    if (rc == GP_BACKEND_OK && out->max_error > 1.0)
        rc = fail(GP_BACKEND_EVERIFY, "gemm %dx%dx%d: off by %.3g times the error bound", p->m,
                  p->n, p->k, out->max_error);
    return rc;
}

static int opencl_bench(int device, const struct gp_bench_params *params,
                        struct gp_bench_result *out)
{
    last_error[0] = '\0';
    if (device < 0 || device >= device_count)
        return fail(GP_BACKEND_EFAIL, "no OpenCL device %d", device);
    struct device *d = &devices[device];
    int rc = prepare(d);
    if (rc != GP_BACKEND_OK)
        return rc;
    if (params->kind == GP_BENCH_GEMM)
        return bench_gemm(d, params, out);
    if (params->kind < GP_BENCH_GEMM)
        return bench_stream(d, params, out);
    return fail(GP_BACKEND_EUNSUPPORTED, "unknown benchmark kind %d", (int)params->kind);
}

static const char *opencl_last_error(void)
{
    return last_error;
}

static const struct gp_backend_ops ops = {
    GP_BACKEND_ABI_VERSION,
    "opencl",
    "OpenCL devices through libOpenCL.so.1 (dlopen): double2 STREAM kernels, tiled fp32 GEMM",
    opencl_probe,
    opencl_init,
    opencl_shutdown,
    opencl_device_count,
    opencl_device_info,
    opencl_bench,
    opencl_last_error,
};

__attribute__((visibility("default"))) const struct gp_backend_ops *gpuplan_backend_entry(void)
{
    return &ops;
}
