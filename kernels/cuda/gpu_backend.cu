/* The CUDA calibration backend module (libgpuplan-cuda.so), also built by hipcc as the HIP
 * module (libgpuplan-hip.so) through compat.h: STREAM kernels on 16-byte vectors, GEMM through
 * cuBLASLt/hipBLASLt and an own tiled kernel, event-timed; clocks and power limits from NVML or
 * ROCm SMI when those libraries are present at run time (dlopen). */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/backend.h"
#include "kernels/common/bench_common.h"
#include "kernels/cuda/blaslt.h"
#include "kernels/cuda/compat.h"

#define MAX_DEVICES     64
#define BLOCK           256
#define TILE            16
#define VERIFY_SAMPLES  1024
#define GEMM_SAMPLES    64
#define MAX_COPIES      512
#define WORKSPACE_BYTES ((size_t)32 << 20)

static struct gp_device_info infos[MAX_DEVICES];
static int sm_counts[MAX_DEVICES];
static int device_count;
static thread_local char last_error[1024];

static int fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof(last_error), fmt, ap);
    va_end(ap);
    return code;
}

/* Evaluate a runtime call; on failure record file, line, call and the runtime's message. */
#define GPU_CHECK(call)                                                                            \
    do {                                                                                           \
        gpuError_t err_ = (call);                                                                  \
        if (err_ != gpuSuccess) {                                                                  \
            rc = fail(GP_BACKEND_EFAIL, "%s:%d: %s: %s", __FILE__, __LINE__, #call,                \
                      gpuGetErrorString(err_));                                                    \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

/* ---- input formats ---------------------------------------------------------------------- */

/* Storage formats of GEMM operands and results. */
enum store_format { FMT_F32, FMT_BF16, FMT_F16, FMT_E4M3FN, FMT_E4M3FNUZ };

__host__ __device__ static size_t format_bytes(enum store_format f)
{
    return f == FMT_F32 ? 4 : f == FMT_BF16 || f == FMT_F16 ? 2 : 1;
}

/* Encoders are exact for the generator's values (multiples of 2^-bits in [-1, 1], normal). */
__device__ static uint32_t encode(float v, enum store_format f)
{
    uint32_t u = __float_as_uint(v);
    uint32_t sign = u >> 31;
    int e = (int)((u >> 23) & 0xff) - 127;

    if (f == FMT_F32)
        return u;
    if (f == FMT_BF16)
        return u >> 16;
    if (v == 0.0f)
        return f == FMT_F16 ? sign << 15 : 0u; /* fnuz has no negative zero */
    if (f == FMT_F16)
        return (sign << 15) | ((uint32_t)(e + 15) << 10) | ((u >> 13) & 0x3ff);
    int bias = f == FMT_E4M3FN ? 7 : 8;
    return (sign << 7) | ((uint32_t)(e + bias) << 3) | ((u >> 20) & 0x7);
}

__device__ static float decode(uint32_t b, enum store_format f)
{
    if (f == FMT_F32)
        return __uint_as_float(b);
    if (f == FMT_BF16)
        return __uint_as_float(b << 16);
    if (f == FMT_F16) {
        uint32_t sign = (b >> 15) & 1, e = (b >> 10) & 0x1f, m = b & 0x3ff;
        float mag = e == 0 ? (float)m * 0x1p-24f : ldexpf(1.0f + (float)m / 1024.0f, (int)e - 15);
        return sign ? -mag : mag;
    }
    uint32_t sign = (b >> 7) & 1, e = (b >> 3) & 0xf, m = b & 7;
    int bias = f == FMT_E4M3FN ? 7 : 8;
    float mag =
        e == 0 ? ldexpf((float)m / 8.0f, 1 - bias) : ldexpf(1.0f + (float)m / 8.0f, (int)e - bias);
    return sign ? -mag : mag;
}

__device__ static float value(uint64_t seed, uint64_t index, int bits)
{
    return gp_bench_value(seed, index, bits);
}

__device__ static uint32_t load(const void *base, size_t i, enum store_format f)
{
    switch (format_bytes(f)) {
    case 4:
        return ((const uint32_t *)base)[i];
    case 2:
        return ((const uint16_t *)base)[i];
    default:
        return ((const uint8_t *)base)[i];
    }
}

__device__ static void store(void *base, size_t i, uint32_t bits, enum store_format f)
{
    switch (format_bytes(f)) {
    case 4:
        ((uint32_t *)base)[i] = bits;
        break;
    case 2:
        ((uint16_t *)base)[i] = (uint16_t)bits;
        break;
    default:
        ((uint8_t *)base)[i] = (uint8_t)bits;
        break;
    }
}

/* ---- kernels ---------------------------------------------------------------------------- */

__global__ void stream_init(double *a, double *b, double *c, uint64_t seed, uint64_t n)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        a[i] = value(seed, i, 23);
        b[i] = value(seed + 1, i, 23);
        c[i] = value(seed + 2, i, 23);
    }
}

/* One STREAM kernel over double2 (16-byte) elements [off, off + n), four independent accesses
 * per thread per iteration so that enough bytes are in flight. */
template <int KIND>
__global__ void stream_run(double2 *__restrict__ a, double2 *__restrict__ b,
                           double2 *__restrict__ c, uint64_t off, uint64_t n)
{
    const double s = GP_BENCH_SCALAR;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;

    a += off;
    b += off;
    c += off;
    for (; i + 3 * stride < n; i += 4 * stride) {
#pragma unroll
        for (int u = 0; u < 4; u++) {
            uint64_t j = i + u * stride;
            if (KIND == GP_BENCH_COPY)
                c[j] = a[j];
            else if (KIND == GP_BENCH_SCALE)
                b[j] = make_double2(s * c[j].x, s * c[j].y);
            else if (KIND == GP_BENCH_ADD)
                c[j] = make_double2(a[j].x + b[j].x, a[j].y + b[j].y);
            else
                a[j] = make_double2(b[j].x + s * c[j].x, b[j].y + s * c[j].y);
        }
    }
    for (; i < n; i += stride) {
        if (KIND == GP_BENCH_COPY)
            c[i] = a[i];
        else if (KIND == GP_BENCH_SCALE)
            b[i] = make_double2(s * c[i].x, s * c[i].y);
        else if (KIND == GP_BENCH_ADD)
            c[i] = make_double2(a[i].x + b[i].x, a[i].y + b[i].y);
        else
            a[i] = make_double2(b[i].x + s * c[i].x, b[i].y + s * c[i].y);
    }
}

/* Sum of double2 elements [off, off + n): one partial sum per block. */
__global__ void stream_read(const double2 *__restrict__ a, uint64_t off, uint64_t n,
                            double *partial)
{
    __shared__ double scratch[BLOCK];
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;

    a += off;
    for (; i + 3 * stride < n; i += 4 * stride) {
        double2 v0 = a[i], v1 = a[i + stride], v2 = a[i + 2 * stride], v3 = a[i + 3 * stride];
        s0 += v0.x + v0.y;
        s1 += v1.x + v1.y;
        s2 += v2.x + v2.y;
        s3 += v3.x + v3.y;
    }
    for (; i < n; i += stride)
        s0 += a[i].x + a[i].y;
    scratch[threadIdx.x] = (s0 + s1) + (s2 + s3);
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {
        if (threadIdx.x < step)
            scratch[threadIdx.x] += scratch[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = scratch[0];
}

/* x[off + i] = value i of stream `seed` in format f, for i < n. */
__global__ void gemm_init(void *x, uint64_t off, uint64_t seed, uint64_t n, int bits,
                          enum store_format f)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        store(x, off + i, encode(value(seed, i, bits), f), f);
}

/* C (m x n, fp32, column-major) = A (k-major) * B (k-major), TILE x TILE tiles in shared
 * memory, inputs decoded to fp32 and accumulated in fp32. */
__global__ void gemm_tiled(int m, int n, int k, const void *A, const void *B, float *C,
                           enum store_format f)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE + 1];
    int tr = threadIdx.x, tc = threadIdx.y;
    int row = blockIdx.x * TILE + tr, col = blockIdx.y * TILE + tc;
    float acc = 0.0f;

    for (int p0 = 0; p0 < k; p0 += TILE) {
        as[tc][tr] =
            (row < m && p0 + tc < k) ? decode(load(A, (size_t)row * k + p0 + tc, f), f) : 0.0f;
        bs[tc][tr] =
            (col < n && p0 + tr < k) ? decode(load(B, (size_t)col * k + p0 + tr, f), f) : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < TILE; p++)
            acc += as[p][tr] * bs[tc][p];
        __syncthreads();
    }
    if (row < m && col < n)
        C[(size_t)col * m + row] = acc;
}

/* ---- management libraries (optional, dlopen) -------------------------------------------- */

#if defined(GP_BACKEND_HIP)

/* The number after `key ` in a KFD topology properties file, or -1. */
static long long kfd_property(const char *path, const char *key)
{
    char line[128];
    long long value = -1;
    size_t klen = strlen(key);
    FILE *f = fopen(path, "r");

    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ') {
            value = strtoll(line + klen + 1, NULL, 10);
            break;
        }
    fclose(f);
    return value;
}

/* The largest cache the KFD topology lists for the node at the device's PCI location, bytes;
 * 0 when there is no such node (no amdgpu driver, containers without /sys/class/kfd). */
static uint64_t kfd_llc_bytes(const gpuDeviceProp *prop)
{
    const long long location =
        ((long long)prop->pciBusID << 8) | ((long long)prop->pciDeviceID << 3);
    uint64_t best = 0;
    char path[160];

    for (int node = 0; node < 256; node++) {
        snprintf(path, sizeof(path), "/sys/class/kfd/kfd/topology/nodes/%d/properties", node);
        long long loc = kfd_property(path, "location_id");
        if (loc < 0 && node > 0)
            break;
        if (loc != location || kfd_property(path, "domain") != prop->pciDomainID)
            continue;
        for (int cache = 0; cache < 1024; cache++) {
            snprintf(path, sizeof(path),
                     "/sys/class/kfd/kfd/topology/nodes/%d/caches/%d/properties", node, cache);
            long long kib = kfd_property(path, "size");
            if (kib < 0)
                break;
            if ((uint64_t)kib * 1024u > best)
                best = (uint64_t)kib * 1024u;
        }
        break;
    }
    return best;
}

/* ROCm SMI: power cap and driver version of the device whose PCI id matches. */
static void query_management(int dev, const gpuDeviceProp *prop, struct gp_device_info *info)
{
    typedef int (*init_fn)(uint64_t);
    typedef int (*count_fn)(uint32_t *);
    typedef int (*pci_fn)(uint32_t, uint64_t *);
    typedef int (*cap_fn)(uint32_t, uint32_t, uint64_t *);
    typedef int (*ver_fn)(int, char *, uint32_t);
    void *lib = dlopen("librocm_smi64.so.1", RTLD_NOW | RTLD_LOCAL);
    init_fn init;
    count_fn count;
    pci_fn pci;
    cap_fn cap;
    ver_fn ver;
    void *s;

    (void)dev;
    if (!lib)
        lib = dlopen("librocm_smi64.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
#define SYM(var, name)                                                                             \
    s = dlsym(lib, name);                                                                          \
    memcpy(&var, &s, sizeof(s));
    SYM(init, "rsmi_init");
    SYM(count, "rsmi_num_monitor_devices");
    SYM(pci, "rsmi_dev_pci_id_get");
    SYM(cap, "rsmi_dev_power_cap_get");
    SYM(ver, "rsmi_version_str_get");
#undef SYM
    uint32_t n = 0;
    if (init && count && pci && init(0) == 0 && count(&n) == 0) {
        uint64_t want = ((uint64_t)prop->pciDomainID << 32) | ((uint64_t)prop->pciBusID << 8) |
                        ((uint64_t)prop->pciDeviceID << 3);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t bdf = 0, microwatts = 0;
            if (pci(i, &bdf) != 0 || (bdf & ~(uint64_t)7) != want)
                continue;
            if (cap && cap(i, 0, &microwatts) == 0)
                info->power_limit_w = (double)microwatts / 1e6;
            break;
        }
        if (ver)
            ver(0 /* RSMI_SW_COMP_DRIVER */, info->driver_version,
                (uint32_t)sizeof(info->driver_version));
    }
    dlclose(lib);
}

#else

/* NVML: enforced power limit, current clocks, driver version. */
static void query_management(int dev, const gpuDeviceProp *prop, struct gp_device_info *info)
{
    typedef int (*init_fn)(void);
    typedef int (*by_bus_fn)(const char *, void **);
    typedef int (*uint_fn)(void *, unsigned *);
    typedef int (*clock_fn)(void *, int, unsigned *);
    typedef int (*ver_fn)(char *, unsigned);
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    init_fn init, shutdown;
    by_bus_fn by_bus;
    uint_fn power;
    clock_fn clock;
    ver_fn ver;
    void *s, *handle = NULL;
    char bus[32];

    (void)prop;
    if (!lib)
        return;
#define SYM(var, name)                                                                             \
    s = dlsym(lib, name);                                                                          \
    memcpy(&var, &s, sizeof(s));
    SYM(init, "nvmlInit_v2");
    SYM(shutdown, "nvmlShutdown");
    SYM(by_bus, "nvmlDeviceGetHandleByPciBusId_v2");
    SYM(power, "nvmlDeviceGetEnforcedPowerLimit");
    SYM(clock, "nvmlDeviceGetClockInfo");
    SYM(ver, "nvmlSystemGetDriverVersion");
#undef SYM
    if (init && init() == 0) {
        unsigned v = 0;
        if (ver)
            ver(info->driver_version, (unsigned)sizeof(info->driver_version));
        if (by_bus && cudaDeviceGetPCIBusId(bus, sizeof(bus), dev) == cudaSuccess &&
            by_bus(bus, &handle) == 0) {
            if (power && power(handle, &v) == 0)
                info->power_limit_w = v / 1000.0;
            if (clock && clock(handle, 1 /* NVML_CLOCK_SM */, &v) == 0)
                info->clock_mhz = v;
            if (clock && clock(handle, 2 /* NVML_CLOCK_MEM */, &v) == 0)
                info->memory_clock_mhz = v;
        }
        if (shutdown)
            shutdown();
    }
    dlclose(lib);
}

#endif

/* ---- backend table ---------------------------------------------------------------------- */

static int gpu_probe(char *reason, size_t size)
{
    int n = 0;
    gpuError_t err;

    snprintf(reason, size, "%s", "");
#if !defined(GP_BACKEND_HIP)
    /* Without the driver library the runtime only says its version is "insufficient". */
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver) {
        snprintf(reason, size, "no NVIDIA driver: %s", dlerror());
        return 0;
    }
    dlclose(driver);
#endif
    err = gpuGetDeviceCount(&n);
    if (err != gpuSuccess) {
        snprintf(reason, size, "no usable device: %s", gpuGetErrorString(err));
        return 0;
    }
    if (n == 0) {
        snprintf(reason, size, "no devices");
        return 0;
    }
    return 100;
}

static void describe(int dev, struct gp_device_info *info, int *sms)
{
    gpuDeviceProp prop;
    int driver = 0, runtime = 0, attr = 0;

    memset(info, 0, sizeof(*info));
    if (gpuGetDeviceProperties(&prop, dev) != gpuSuccess)
        return;
    snprintf(info->name, sizeof(info->name), "%.127s", prop.name);
    info->memory_bytes = prop.totalGlobalMem;
    info->compute_units = prop.multiProcessorCount;
    *sms = prop.multiProcessorCount;
    info->ecc = prop.ECCEnabled ? 1 : 0;
    if (gpuDeviceGetAttribute(&attr, gpuAttrClockRate, dev) == gpuSuccess)
        info->clock_mhz = attr / 1000.0;
    if (gpuDeviceGetAttribute(&attr, gpuAttrMemoryClockRate, dev) == gpuSuccess)
        info->memory_clock_mhz = attr / 1000.0;
    if (gpuDeviceGetAttribute(&attr, gpuAttrL2CacheSize, dev) == gpuSuccess)
        info->llc_bytes = (uint64_t)attr;
    if (gpuDeviceGetPCIBusId(info->bus_id, sizeof(info->bus_id), dev) != gpuSuccess)
        info->bus_id[0] = '\0';
    if (gpuDriverGetVersion(&driver) != gpuSuccess)
        driver = 0;
    if (gpuRuntimeGetVersion(&runtime) != gpuSuccess)
        runtime = 0;
    info->precisions = GP_BENCH_PRECISION_BIT(GP_BENCH_FP32) |
                       GP_BENCH_PRECISION_BIT(GP_BENCH_BF16) |
                       GP_BENCH_PRECISION_BIT(GP_BENCH_FP16);
#if defined(GP_BACKEND_HIP)
    snprintf(info->vendor, sizeof(info->vendor), "amd");
    snprintf(info->arch, sizeof(info->arch), "%.31s", prop.gcnArchName);
    info->arch[strcspn(info->arch, ":")] = '\0';
    snprintf(info->driver_version, sizeof(info->driver_version), "HIP driver %d", driver);
    snprintf(info->runtime_version, sizeof(info->runtime_version), "HIP %d.%d.%d",
             runtime / 10000000, runtime / 100000 % 100, runtime % 100000);
    /* The runtime reports the per-XCD L2 only; the kernel driver's topology also lists the
     * Infinity Cache (256 MiB on gfx942 and gfx950), which the working sets must beat. */
    uint64_t llc = kfd_llc_bytes(&prop);
    if (llc > info->llc_bytes)
        info->llc_bytes = llc;
    if (strncmp(info->arch, "gfx94", 5) == 0 || strncmp(info->arch, "gfx95", 5) == 0) {
        if (info->llc_bytes < ((uint64_t)256 << 20))
            info->llc_bytes = (uint64_t)256 << 20;
        info->precisions |= GP_BENCH_PRECISION_BIT(GP_BENCH_FP8);
        if (strncmp(info->arch, "gfx94", 5) == 0)
            info->precisions |= GP_BENCH_PRECISION_BIT(GP_BENCH_TF32);
    }
#else
    snprintf(info->vendor, sizeof(info->vendor), "nvidia");
    snprintf(info->arch, sizeof(info->arch), "sm_%d%d", prop.major, prop.minor);
    snprintf(info->driver_version, sizeof(info->driver_version), "CUDA driver %d.%d", driver / 1000,
             driver % 1000 / 10);
    snprintf(info->runtime_version, sizeof(info->runtime_version), "CUDA runtime %d.%d",
             runtime / 1000, runtime % 1000 / 10);
    if (prop.major >= 8)
        info->precisions |= GP_BENCH_PRECISION_BIT(GP_BENCH_TF32);
    if (prop.major > 8 || (prop.major == 8 && prop.minor >= 9))
        info->precisions |= GP_BENCH_PRECISION_BIT(GP_BENCH_FP8);
#endif
#if defined(GP_HAVE_VENDOR_GEMM) && !defined(GP_BACKEND_HIP)
    size_t lt = cublasLtGetVersion(); /* major * 10000 + minor * 100 + patch */
    snprintf(info->library_version, sizeof(info->library_version), "cuBLASLt %zu.%zu.%zu",
             lt / 10000, lt / 100 % 100, lt % 100);
#elif defined(GP_HAVE_VENDOR_GEMM)
    snprintf(info->library_version, sizeof(info->library_version), "%s", GP_VENDOR_GEMM_NAME);
#else
    snprintf(info->library_version, sizeof(info->library_version), "own tiled kernel only");
#endif
    query_management(dev, &prop, info);
}

static int gpu_init(void)
{
    int n = 0;
    gpuError_t err = gpuGetDeviceCount(&n);

    if (err != gpuSuccess)
        return fail(GP_BACKEND_EFAIL, "%s", gpuGetErrorString(err));
    device_count = n < MAX_DEVICES ? n : MAX_DEVICES;
    for (int i = 0; i < device_count; i++)
        describe(i, &infos[i], &sm_counts[i]);
    return GP_BACKEND_OK;
}

static void gpu_shutdown(void)
{
    device_count = 0;
}

static int gpu_device_count(void)
{
    return device_count;
}

static int gpu_device_info(int index, struct gp_device_info *out)
{
    if (index < 0 || index >= device_count)
        return fail(GP_BACKEND_EFAIL, "no device %d", index);
    *out = infos[index];
    return GP_BACKEND_OK;
}

/* ---- timing ----------------------------------------------------------------------------- */

struct timer {
    gpuStream_t stream;
    gpuEvent_t start, stop;
};

static int timer_open(struct timer *t)
{
    int rc = GP_BACKEND_OK;
    memset(t, 0, sizeof(*t));
    GPU_CHECK(gpuStreamCreate(&t->stream));
    GPU_CHECK(gpuEventCreate(&t->start));
    GPU_CHECK(gpuEventCreate(&t->stop));
done:
    return rc;
}

static void timer_close(struct timer *t)
{
    if (t->start)
        (void)gpuEventDestroy(t->start);
    if (t->stop)
        (void)gpuEventDestroy(t->stop);
    if (t->stream)
        (void)gpuStreamDestroy(t->stream);
}

/* Seconds between the two events after the stream reached `stop`. */
static int timer_read(struct timer *t, double *seconds)
{
    int rc = GP_BACKEND_OK;
    float ms = 0.0f;
    GPU_CHECK(gpuEventSynchronize(t->stop));
    GPU_CHECK(gpuGetLastError());
    GPU_CHECK(gpuEventElapsedTime(&ms, t->start, t->stop));
    *seconds = ms * 1e-3;
done:
    return rc;
}

/* ---- bandwidth -------------------------------------------------------------------------- */

struct stream_ctx {
    const struct gp_bench_params *p;
    struct timer *t;
    double2 *a, *b, *c;
    double *partial;
    uint64_t window, windows; /* double2 elements per run; windows in the arrays */
    int grid, runs;
    double first_sum;
};

static int stream_once(void *arg, double *seconds)
{
    struct stream_ctx *s = (struct stream_ctx *)arg;
    uint64_t off = (uint64_t)s->runs % s->windows * s->window;
    int rc = GP_BACKEND_OK;

    GPU_CHECK(gpuEventRecord(s->t->start, s->t->stream));
    switch (s->p->kind) {
    case GP_BENCH_COPY:
        stream_run<GP_BENCH_COPY>
            <<<s->grid, BLOCK, 0, s->t->stream>>>(s->a, s->b, s->c, off, s->window);
        break;
    case GP_BENCH_SCALE:
        stream_run<GP_BENCH_SCALE>
            <<<s->grid, BLOCK, 0, s->t->stream>>>(s->a, s->b, s->c, off, s->window);
        break;
    case GP_BENCH_ADD:
        stream_run<GP_BENCH_ADD>
            <<<s->grid, BLOCK, 0, s->t->stream>>>(s->a, s->b, s->c, off, s->window);
        break;
    case GP_BENCH_TRIAD:
        stream_run<GP_BENCH_TRIAD>
            <<<s->grid, BLOCK, 0, s->t->stream>>>(s->a, s->b, s->c, off, s->window);
        break;
    default:
        stream_read<<<s->grid, BLOCK, 0, s->t->stream>>>(s->a, off, s->window, s->partial);
        break;
    }
    GPU_CHECK(gpuEventRecord(s->t->stop, s->t->stream));
    rc = timer_read(s->t, seconds);
    if (rc == GP_BACKEND_OK && s->p->kind == GP_BENCH_READ && s->runs == 0) {
        double *host = (double *)malloc((size_t)s->grid * sizeof(double));
        if (!host)
            return fail(GP_BACKEND_ENOMEM, "out of host memory");
        gpuError_t err =
            gpuMemcpy(host, s->partial, (size_t)s->grid * sizeof(double), gpuMemcpyDeviceToHost);
        s->first_sum = 0.0;
        for (int g = 0; g < s->grid; g++)
            s->first_sum += host[g];
        free(host);
        if (err != gpuSuccess)
            return fail(GP_BACKEND_EFAIL, "reading partial sums: %s", gpuGetErrorString(err));
    }
    s->runs++;
done:
    return rc;
}

static int read_stream_element(void *ctx, int which, uint64_t index, double *value)
{
    struct stream_ctx *s = (struct stream_ctx *)ctx;
    const double *arr = (const double *)(which == 0 ? s->a : which == 1 ? s->b : s->c);
    int rc = GP_BACKEND_OK;

    GPU_CHECK(gpuMemcpy(value, arr + index, sizeof(*value), gpuMemcpyDeviceToHost));
done:
    return rc;
}

static int stream_verify(struct stream_ctx *s, struct gp_bench_result *out)
{
    int rc = gp_bench_stream_check(s->p->kind, s->p->seed, s->window * 2, s->first_sum,
                                   VERIFY_SAMPLES, read_stream_element, s, out);

    if (rc == GP_BACKEND_OK && out->max_error > 1.0)
        rc = fail(GP_BACKEND_EVERIFY, "stream kernel %d: result differs from the reference",
                  (int)s->p->kind);
    return rc;
}

static int bench_stream(int dev, const struct gp_bench_params *p, struct gp_bench_result *out)
{
    struct timer t;
    struct stream_ctx s;
    int rc = timer_open(&t);

    memset(&s, 0, sizeof(s));
    if (rc != GP_BACKEND_OK)
        goto done;
    s.p = p;
    s.t = &t;
    s.window = p->array_bytes / 16;
    s.windows = p->rotate_bytes > 3 * p->array_bytes ? p->rotate_bytes / (3 * p->array_bytes) : 1;
    s.grid = sm_counts[dev] * 8 > 0 ? sm_counts[dev] * 8 : 1024;
    if (s.window == 0) {
        rc = fail(GP_BACKEND_EUNSUPPORTED, "array too small");
        goto done;
    }
    {
        size_t bytes = (size_t)(s.window * s.windows * 16);
        if (gpuMalloc((void **)&s.a, bytes) != gpuSuccess ||
            gpuMalloc((void **)&s.b, bytes) != gpuSuccess ||
            gpuMalloc((void **)&s.c, bytes) != gpuSuccess ||
            gpuMalloc((void **)&s.partial, (size_t)s.grid * sizeof(double)) != gpuSuccess) {
            (void)gpuGetLastError();
            rc = fail(GP_BACKEND_ENOMEM, "cannot allocate 3 arrays of %zu bytes", bytes);
            goto done;
        }
        stream_init<<<s.grid, BLOCK, 0, t.stream>>>((double *)s.a, (double *)s.b, (double *)s.c,
                                                    p->seed, bytes / sizeof(double));
        GPU_CHECK(gpuGetLastError());
        GPU_CHECK(gpuStreamSynchronize(t.stream));
    }
    out->work = (double)gp_bench_arrays_moved(p->kind) * (double)s.window * 16.0;
    snprintf(out->impl, sizeof(out->impl), "double2 x4 grid-stride");
    rc = gp_bench_drive(p, out, stream_once, &s);
    if (rc == GP_BACKEND_OK)
        rc = stream_verify(&s, out);
done:
    if (s.a)
        (void)gpuFree(s.a);
    if (s.b)
        (void)gpuFree(s.b);
    if (s.c)
        (void)gpuFree(s.c);
    if (s.partial)
        (void)gpuFree(s.partial);
    timer_close(&t);
    return rc;
}

/* ---- GEMM ------------------------------------------------------------------------------- */

struct gemm_ctx {
    const struct gp_bench_params *p;
    struct timer *t;
    enum store_format in, out; /* operand and result storage */
    char *a, *b;               /* `copies` operand copies each */
    void *c;
    int copies, runs, vendor;
#if defined(GP_HAVE_VENDOR_GEMM)
    ltHandle_t lt;
    ltMatmulDesc_t op;
    ltLayout_t la, lb, lc;
    ltPreference_t pref;
    ltHeuristic_t heur;
    void *workspace;
#endif
};

static enum store_format input_format(enum gp_bench_precision p, const char *arch)
{
    switch (p) {
    case GP_BENCH_BF16:
        return FMT_BF16;
    case GP_BENCH_FP16:
        return FMT_F16;
    case GP_BENCH_FP8:
        return strncmp(arch, "gfx94", 5) == 0 ? FMT_E4M3FNUZ : FMT_E4M3FN;
    default:
        return FMT_F32;
    }
}

#if defined(GP_HAVE_VENDOR_GEMM)

/* Set up the library's matmul for the context's precision; EUNSUPPORTED when it has none. */
static int vendor_setup(struct gemm_ctx *g)
{
    const struct gp_bench_params *p = g->p;
    ltComputeType_t compute = LT_COMPUTE_32F;
    ltDataType_t ab, cd;
    ltOperation_t ta = LT_OP_T, tb = LT_OP_N;
    size_t ws = WORKSPACE_BYTES;
    int returned = 0;

    switch (p->precision) {
    case GP_BENCH_FP32:
        ab = cd = LT_R_32F;
        break;
#if defined(GP_VENDOR_TF32)
    case GP_BENCH_TF32:
        ab = cd = LT_R_32F;
        compute = LT_COMPUTE_32F_FAST_TF32;
        break;
#endif
    case GP_BENCH_BF16:
        ab = cd = LT_R_16BF;
        break;
    case GP_BENCH_FP16:
        ab = cd = LT_R_16F;
        break;
#if defined(GP_VENDOR_FP8)
    case GP_BENCH_FP8:
        ab = LT_R_8F_E4M3;
        cd = LT_R_16BF;
        break;
#endif
    default:
        return fail(GP_BACKEND_EUNSUPPORTED, "%s has no path for this precision",
                    GP_VENDOR_GEMM_NAME);
    }
    if (ltCreate(&g->lt) != LT_SUCCESS ||
        ltMatmulDescCreate(&g->op, compute, LT_R_32F) != LT_SUCCESS ||
        ltMatmulDescSetAttribute(g->op, LT_DESC_TRANSA, &ta, sizeof(ta)) != LT_SUCCESS ||
        ltMatmulDescSetAttribute(g->op, LT_DESC_TRANSB, &tb, sizeof(tb)) != LT_SUCCESS ||
        ltLayoutCreate(&g->la, ab, (uint64_t)p->k, (uint64_t)p->m, (int64_t)p->k) != LT_SUCCESS ||
        ltLayoutCreate(&g->lb, ab, (uint64_t)p->k, (uint64_t)p->n, (int64_t)p->k) != LT_SUCCESS ||
        ltLayoutCreate(&g->lc, cd, (uint64_t)p->m, (uint64_t)p->n, (int64_t)p->m) != LT_SUCCESS ||
        ltPreferenceCreate(&g->pref) != LT_SUCCESS ||
        ltPreferenceSetAttribute(g->pref, LT_PREF_MAX_WORKSPACE, &ws, sizeof(ws)) != LT_SUCCESS)
        return fail(GP_BACKEND_EFAIL, "%s set-up failed", GP_VENDOR_GEMM_NAME);
    if (ltAlgoGetHeuristic(g->lt, g->op, g->la, g->lb, g->lc, g->lc, g->pref, 1, &g->heur,
                           &returned) != LT_SUCCESS ||
        returned == 0)
        return fail(GP_BACKEND_EUNSUPPORTED, "%s has no algorithm for %dx%dx%d",
                    GP_VENDOR_GEMM_NAME, p->m, p->n, p->k);
    if (gpuMalloc(&g->workspace, ws) != gpuSuccess) {
        (void)gpuGetLastError();
        return fail(GP_BACKEND_ENOMEM, "cannot allocate the GEMM workspace");
    }
    return GP_BACKEND_OK;
}

static void vendor_release(struct gemm_ctx *g)
{
    if (g->workspace)
        (void)gpuFree(g->workspace);
    if (g->pref)
        ltPreferenceDestroy(g->pref);
    if (g->lc)
        ltLayoutDestroy(g->lc);
    if (g->lb)
        ltLayoutDestroy(g->lb);
    if (g->la)
        ltLayoutDestroy(g->la);
    if (g->op)
        ltMatmulDescDestroy(g->op);
    if (g->lt)
        ltDestroy(g->lt);
}

#endif

static int gemm_once(void *arg, double *seconds)
{
    struct gemm_ctx *g = (struct gemm_ctx *)arg;
    const struct gp_bench_params *p = g->p;
    size_t r = (size_t)(g->runs % g->copies);
    size_t eb = format_bytes(g->in);
    const char *a = g->a + r * (size_t)p->m * (size_t)p->k * eb;
    const char *b = g->b + r * (size_t)p->k * (size_t)p->n * eb;
    int rc = GP_BACKEND_OK;

    GPU_CHECK(gpuEventRecord(g->t->start, g->t->stream));
#if defined(GP_HAVE_VENDOR_GEMM)
    if (g->vendor) {
        const float alpha = 1.0f, beta = 0.0f;
        if (ltMatmul(g->lt, g->op, &alpha, a, g->la, b, g->lb, &beta, g->c, g->lc, g->c, g->lc,
                     &g->heur.algo, g->workspace, WORKSPACE_BYTES, g->t->stream) != LT_SUCCESS)
            return fail(GP_BACKEND_EFAIL, "%s matmul failed", GP_VENDOR_GEMM_NAME);
    } else
#endif
    {
        dim3 block(TILE, TILE), grid((p->m + TILE - 1) / TILE, (p->n + TILE - 1) / TILE);
        gemm_tiled<<<grid, block, 0, g->t->stream>>>(p->m, p->n, p->k, a, b, (float *)g->c, g->in);
    }
    GPU_CHECK(gpuEventRecord(g->t->stop, g->t->stream));
    rc = timer_read(g->t, seconds);
    g->runs++;
done:
    return rc;
}

/* Host value of a result element stored in format f. */
static double host_decode(const unsigned char *raw, enum store_format f)
{
    uint32_t u = 0;
    float v;
    if (f == FMT_F32) {
        memcpy(&v, raw, 4);
        return v;
    }
    uint16_t h;
    memcpy(&h, raw, 2);
    if (f == FMT_BF16) {
        u = (uint32_t)h << 16;
        memcpy(&v, &u, 4);
        return v;
    }
    uint32_t sign = (h >> 15) & 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double mag = e == 0 ? m * 0x1p-24 : ldexp(1.0 + m / 1024.0, (int)e - 15);
    return sign ? -mag : mag;
}

static int read_gemm_cell(void *ctx, uint64_t cell, double *value)
{
    struct gemm_ctx *g = (struct gemm_ctx *)ctx;
    size_t ob = format_bytes(g->out);
    unsigned char raw[4];
    int rc = GP_BACKEND_OK;

    GPU_CHECK(gpuMemcpy(raw, (const char *)g->c + cell * ob, ob, gpuMemcpyDeviceToHost));
    *value = host_decode(raw, g->out);
done:
    return rc;
}

static int gemm_verify(struct gemm_ctx *g, struct gp_bench_result *out)
{
    const struct gp_bench_params *p = g->p;
    enum gp_bench_precision bound_fmt = g->out == FMT_BF16  ? GP_BENCH_BF16
                                        : g->out == FMT_F16 ? GP_BENCH_FP16
                                                            : GP_BENCH_FP32;
    int rc = gp_bench_gemm_check(p, (g->runs - 1) % g->copies, gp_bench_value_bits(p->precision),
                                 bound_fmt, GEMM_SAMPLES, read_gemm_cell, g, out);

    if (rc == GP_BACKEND_OK && out->max_error > 1.0)
        rc = fail(GP_BACKEND_EVERIFY, "gemm %dx%dx%d: off by %.3g times the error bound", p->m,
                  p->n, p->k, out->max_error);
    return rc;
}

static int bench_gemm(int dev, const struct gp_bench_params *p, struct gp_bench_result *out)
{
    struct timer t;
    struct gemm_ctx g;
    int rc = timer_open(&t);

    memset(&g, 0, sizeof(g));
    if (rc != GP_BACKEND_OK)
        goto done;
    if (!(infos[dev].precisions & GP_BENCH_PRECISION_BIT(p->precision))) {
        rc = fail(GP_BACKEND_EUNSUPPORTED, "the device has no %d path", (int)p->precision);
        goto done;
    }
    g.p = p;
    g.t = &t;
    g.copies = 1;
    g.in = input_format(p->precision, infos[dev].arch);
    g.out = FMT_F32;
#if defined(GP_HAVE_VENDOR_GEMM)
    if (p->impl != GP_BENCH_IMPL_OWN) {
        rc = vendor_setup(&g);
        if (rc == GP_BACKEND_OK) {
            g.vendor = 1;
            g.out = p->precision == GP_BENCH_BF16 || p->precision == GP_BENCH_FP8 ? FMT_BF16
                    : p->precision == GP_BENCH_FP16                               ? FMT_F16
                                                                                  : FMT_F32;
        } else if (p->impl == GP_BENCH_IMPL_VENDOR || rc != GP_BACKEND_EUNSUPPORTED) {
            goto done;
        }
        rc = GP_BACKEND_OK;
    }
#else
    if (p->impl == GP_BENCH_IMPL_VENDOR) {
        rc = fail(GP_BACKEND_EUNSUPPORTED, "built without a vendor GEMM library");
        goto done;
    }
#endif
    {
        size_t eb = format_bytes(g.in);
        size_t na = (size_t)p->m * (size_t)p->k, nb = (size_t)p->k * (size_t)p->n;
        size_t copy_bytes = (na + nb) * eb;
        if (p->rotate_bytes > copy_bytes)
            g.copies = (int)(p->rotate_bytes / copy_bytes) + 1;
        if (g.copies > MAX_COPIES)
            g.copies = MAX_COPIES;
        if (gpuMalloc((void **)&g.a, na * eb * (size_t)g.copies) != gpuSuccess ||
            gpuMalloc((void **)&g.b, nb * eb * (size_t)g.copies) != gpuSuccess ||
            gpuMalloc(&g.c, (size_t)p->m * (size_t)p->n * format_bytes(g.out)) != gpuSuccess) {
            (void)gpuGetLastError();
            rc = fail(GP_BACKEND_ENOMEM, "cannot allocate GEMM operands (%d copies)", g.copies);
            goto done;
        }
        int bits = gp_bench_value_bits(p->precision);
        for (int r = 0; r < g.copies; r++) {
            gemm_init<<<1024, BLOCK, 0, t.stream>>>(g.a, (uint64_t)r * na,
                                                    gp_bench_stream_a(p->seed, r), na, bits, g.in);
            gemm_init<<<1024, BLOCK, 0, t.stream>>>(g.b, (uint64_t)r * nb,
                                                    gp_bench_stream_b(p->seed, r), nb, bits, g.in);
        }
        GPU_CHECK(gpuGetLastError());
        GPU_CHECK(gpuStreamSynchronize(t.stream));
    }
    out->work = 2.0 * p->m * (double)p->n * (double)p->k;
    snprintf(out->impl, sizeof(out->impl), "%s",
             g.vendor ?
#if defined(GP_HAVE_VENDOR_GEMM)
                      GP_VENDOR_GEMM_NAME
#else
                      ""
#endif
                      : "own-tiled16");
    rc = gp_bench_drive(p, out, gemm_once, &g);
    if (rc == GP_BACKEND_OK)
        rc = gemm_verify(&g, out);
done:
#if defined(GP_HAVE_VENDOR_GEMM)
    vendor_release(&g);
#endif
    if (g.a)
        (void)gpuFree(g.a);
    if (g.b)
        (void)gpuFree(g.b);
    if (g.c)
        (void)gpuFree(g.c);
    timer_close(&t);
    return rc;
}

static int gpu_bench(int device, const struct gp_bench_params *params, struct gp_bench_result *out)
{
    int rc = GP_BACKEND_OK;

    last_error[0] = '\0';
    if (device < 0 || device >= device_count)
        return fail(GP_BACKEND_EFAIL, "no device %d", device);
    GPU_CHECK(gpuSetDevice(device));
    if (params->kind == GP_BENCH_GEMM)
        return bench_gemm(device, params, out);
    if (params->kind < GP_BENCH_GEMM)
        return bench_stream(device, params, out);
    rc = fail(GP_BACKEND_EUNSUPPORTED, "unknown benchmark kind %d", (int)params->kind);
done:
    return rc;
}

static const char *gpu_last_error(void)
{
    return last_error;
}

static const struct gp_backend_ops ops = {
    GP_BACKEND_ABI_VERSION,
    GP_BACKEND_NAME,
#if defined(GP_BACKEND_HIP)
    "AMD GPUs through HIP: double2 STREAM kernels, hipBLASLt (when built with it) and own GEMM",
#else
    "NVIDIA GPUs through CUDA: double2 STREAM kernels, cuBLASLt and own GEMM",
#endif
    gpu_probe,
    gpu_init,
    gpu_shutdown,
    gpu_device_count,
    gpu_device_info,
    gpu_bench,
    gpu_last_error,
};

extern "C" __attribute__((visibility("default"))) const struct gp_backend_ops *
gpuplan_backend_entry(void)
{
    return &ops;
}
