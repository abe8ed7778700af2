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
#include "kernels/cuda/gemm_layout.h"

#define MAX_DEVICES     64
#define BLOCK           256
#define TILE            16
#define VERIFY_SAMPLES  1024
#define GEMM_SAMPLES    64
#define MAX_COPIES      512
#define WORKSPACE_BYTES ((size_t)32 << 20)
#define BLOCKS_PER_SM   8    /* STREAM grid: blocks per SM/CU the kernels are bounded for */
#define BATCH_S         2e-3 /* a timed run: back-to-back launches for at least this long, s */
#define MAX_LAUNCHES    256  /* most launches in one timed run */

/* STREAM kernels: at most 256 threads per block (so the compiler may use the registers that
 * allows); the grid is sized with the occupancy API to the blocks per SM that really fit, at
 * most 8. Bounding registers for 8 blocks instead made the add and triad kernels spill. */
#define STREAM_BOUNDS __launch_bounds__(BLOCK)

static struct gp_device_info infos[MAX_DEVICES];
static int sm_counts[MAX_DEVICES];
static char no_code[MAX_DEVICES][160]; /* HIP: why this module cannot run on the device, or "" */
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
__global__ void STREAM_BOUNDS stream_run(double2 *__restrict__ a, double2 *__restrict__ b,
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
__global__ void STREAM_BOUNDS stream_read(const double2 *__restrict__ a, uint64_t off, uint64_t n,
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

/* Resolve `name` from `lib` into the function pointer `fn` (NULL when absent). */
#define SYM(lib, fn, name)                                                                         \
    do {                                                                                           \
        void *sym_ = dlsym(lib, name);                                                             \
        memcpy(&(fn), &sym_, sizeof(sym_));                                                        \
    } while (0)

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

/* ROCm SMI, open from init to shutdown: power cap, driver version, power under load. */
static struct {
    void *lib;
    int (*shut_down)(void);
    int (*power_ave)(uint32_t, uint32_t, uint64_t *);
    int index[MAX_DEVICES]; /* SMI device of each HIP device, -1 unknown */
} smi;

static void mgmt_open(void)
{
    int (*init)(uint64_t) = NULL;

    memset(&smi, 0, sizeof(smi));
    for (int i = 0; i < MAX_DEVICES; i++)
        smi.index[i] = -1;
    smi.lib = dlopen("librocm_smi64.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!smi.lib)
        smi.lib = dlopen("librocm_smi64.so", RTLD_NOW | RTLD_LOCAL);
    if (!smi.lib)
        return;
    SYM(smi.lib, init, "rsmi_init");
    SYM(smi.lib, smi.shut_down, "rsmi_shut_down");
    SYM(smi.lib, smi.power_ave, "rsmi_dev_power_ave_get");
    if (!init || init(0) != 0) {
        dlclose(smi.lib);
        smi.lib = NULL;
    }
}

static void mgmt_close(void)
{
    if (!smi.lib)
        return;
    if (smi.shut_down)
        smi.shut_down();
    dlclose(smi.lib);
    smi.lib = NULL;
}

/* Power cap and driver version of the device whose PCI id matches. */
static void query_management(int dev, const gpuDeviceProp *prop, struct gp_device_info *info)
{
    int (*count)(uint32_t *) = NULL;
    int (*pci)(uint32_t, uint64_t *) = NULL;
    int (*cap)(uint32_t, uint32_t, uint64_t *) = NULL;
    int (*ver)(int, char *, uint32_t) = NULL;
    uint32_t n = 0;

    if (!smi.lib)
        return;
    SYM(smi.lib, count, "rsmi_num_monitor_devices");
    SYM(smi.lib, pci, "rsmi_dev_pci_id_get");
    SYM(smi.lib, cap, "rsmi_dev_power_cap_get");
    SYM(smi.lib, ver, "rsmi_version_str_get");
    if (!count || !pci || count(&n) != 0)
        return;
    uint64_t want = ((uint64_t)prop->pciDomainID << 32) | ((uint64_t)prop->pciBusID << 8) |
                    ((uint64_t)prop->pciDeviceID << 3);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t bdf = 0, microwatts = 0;
        if (pci(i, &bdf) != 0 || (bdf & ~(uint64_t)7) != want)
            continue;
        smi.index[dev] = (int)i;
        if (cap && cap(i, 0, &microwatts) == 0)
            info->power_limit_w = (double)microwatts / 1e6;
        break;
    }
    if (ver)
        ver(0 /* RSMI_SW_COMP_DRIVER */, info->driver_version,
            (uint32_t)sizeof(info->driver_version));
}

/* Average board power now (the clock table's layout differs across ROCm releases: not read). */
static void mgmt_sample(int dev, struct gp_bench_result *out)
{
    uint64_t microwatts = 0;
    if (smi.lib && smi.power_ave && smi.index[dev] >= 0 &&
        smi.power_ave((uint32_t)smi.index[dev], 0, &microwatts) == 0)
        out->power_w = (double)microwatts / 1e6;
}

#else

#define NVML_CLOCK_SM  1
#define NVML_CLOCK_MEM 2

/* NVML, open from init to shutdown: clocks, power limit and power under load per device. */
static struct {
    void *lib;
    int (*shutdown)(void);
    int (*clock)(void *, int, unsigned *);
    int (*max_clock)(void *, int, unsigned *);
    int (*power)(void *, unsigned *); /* mW */
    void *handle[MAX_DEVICES];
} nvml;

static void mgmt_open(void)
{
    int (*init)(void) = NULL;

    memset(&nvml, 0, sizeof(nvml));
    nvml.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nvml.lib)
        return;
    SYM(nvml.lib, init, "nvmlInit_v2");
    SYM(nvml.lib, nvml.shutdown, "nvmlShutdown");
    SYM(nvml.lib, nvml.clock, "nvmlDeviceGetClockInfo");
    SYM(nvml.lib, nvml.max_clock, "nvmlDeviceGetMaxClockInfo");
    SYM(nvml.lib, nvml.power, "nvmlDeviceGetPowerUsage");
    if (!init || init() != 0) {
        dlclose(nvml.lib);
        nvml.lib = NULL;
    }
}

static void mgmt_close(void)
{
    if (!nvml.lib)
        return;
    if (nvml.shutdown)
        nvml.shutdown();
    dlclose(nvml.lib);
    nvml.lib = NULL;
}

/* Driver version, enforced power limit and the maximum clocks (the current clocks at init are
 * idle clocks; under load they are sampled by mgmt_sample). */
static void query_management(int dev, const gpuDeviceProp *prop, struct gp_device_info *info)
{
    int (*by_bus)(const char *, void **) = NULL;
    int (*limit)(void *, unsigned *) = NULL;
    int (*ver)(char *, unsigned) = NULL;
    char bus[32];
    unsigned v = 0;

    (void)prop;
    if (!nvml.lib)
        return;
    SYM(nvml.lib, by_bus, "nvmlDeviceGetHandleByPciBusId_v2");
    SYM(nvml.lib, limit, "nvmlDeviceGetEnforcedPowerLimit");
    SYM(nvml.lib, ver, "nvmlSystemGetDriverVersion");
    if (ver)
        ver(info->driver_version, (unsigned)sizeof(info->driver_version));
    if (!by_bus || cudaDeviceGetPCIBusId(bus, sizeof(bus), dev) != cudaSuccess ||
        by_bus(bus, &nvml.handle[dev]) != 0) {
        nvml.handle[dev] = NULL;
        return;
    }
    if (limit && limit(nvml.handle[dev], &v) == 0)
        info->power_limit_w = v / 1000.0;
    if (nvml.max_clock && nvml.max_clock(nvml.handle[dev], NVML_CLOCK_SM, &v) == 0 && v > 0)
        info->clock_mhz = v;
    if (nvml.max_clock && nvml.max_clock(nvml.handle[dev], NVML_CLOCK_MEM, &v) == 0 && v > 0)
        info->memory_clock_mhz = v;
}

/* The SM clock and board power now, right after a warm-up. */
static void mgmt_sample(int dev, struct gp_bench_result *out)
{
    unsigned v = 0;
    if (!nvml.lib || !nvml.handle[dev])
        return;
    if (nvml.clock && nvml.clock(nvml.handle[dev], NVML_CLOCK_SM, &v) == 0)
        out->clock_mhz = v;
    if (nvml.power && nvml.power(nvml.handle[dev], &v) == 0)
        out->power_w = v / 1000.0;
}

#endif

/* ---- backend table ---------------------------------------------------------------------- */

#if defined(GP_BACKEND_HIP)
#ifndef GP_HIP_TARGETS
#define GP_HIP_TARGETS "" /* the offload architectures it was built for, ','-separated */
#endif

/* Whether the module has a code object for `arch` ("gfx942:sramecc+:xnack-" matches gfx942):
 * without one, every launch fails with "no binary for GPU". */
static int has_code_object(const char *arch)
{
    const char *list = GP_HIP_TARGETS;
    size_t n = strcspn(arch, ":");

    while (*list) {
        size_t len = strcspn(list, ","), base = strcspn(list, ":,");
        if (base == n && strncmp(list, arch, n) == 0)
            return 1;
        list += len;
        list += *list == ',';
    }
    return 0;
}

/* Set no_code[dev] when the module has no code object for the device; 1 when it has one. */
static int check_code_object(int dev, const char *arch)
{
    no_code[dev][0] = '\0';
    if (has_code_object(arch))
        return 1;
    snprintf(no_code[dev], sizeof(no_code[dev]),
             "this module has no code object for %.40s (built for %.60s): rebuild with a hipcc "
             "that knows it (ROCm >= 6 for gfx942/gfx950)",
             arch, GP_HIP_TARGETS);
    return 0;
}
#endif

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
#if defined(GP_BACKEND_HIP)
    int runnable = 0;
    for (int i = 0; i < n && i < MAX_DEVICES; i++) {
        gpuDeviceProp prop;
        if (gpuGetDeviceProperties(&prop, i) == gpuSuccess)
            runnable += check_code_object(i, prop.gcnArchName);
    }
    if (runnable == 0) {
        snprintf(reason, size, "%s", no_code[0]);
        return 0;
    }
#endif
    return 100;
}

/* The vendor, architecture, versions, precisions and timing method of one device. */
static void describe_platform(const gpuDeviceProp *prop, int driver, int runtime,
                              struct gp_device_info *info)
{
    info->precisions = GP_BENCH_PRECISION_BIT(GP_BENCH_FP32) |
                       GP_BENCH_PRECISION_BIT(GP_BENCH_BF16) |
                       GP_BENCH_PRECISION_BIT(GP_BENCH_FP16);
#if defined(GP_BACKEND_HIP)
    snprintf(info->vendor, sizeof(info->vendor), "amd");
    snprintf(info->arch, sizeof(info->arch), "%.31s", prop->gcnArchName);
    info->arch[strcspn(info->arch, ":")] = '\0';
    snprintf(info->driver_version, sizeof(info->driver_version), "HIP driver %d", driver);
    snprintf(info->runtime_version, sizeof(info->runtime_version), "HIP %d.%d.%d",
             runtime / 10000000, runtime / 100000 % 100, runtime % 100000);
    /* The runtime reports the per-XCD L2 only; the kernel driver's topology also lists the
     * Infinity Cache (256 MiB on gfx942 and gfx950), which the working sets must beat. */
    uint64_t llc = kfd_llc_bytes(prop);
    if (llc > info->llc_bytes)
        info->llc_bytes = llc;
    if (strncmp(info->arch, "gfx94", 5) == 0 || strncmp(info->arch, "gfx95", 5) == 0) {
        if (info->llc_bytes < ((uint64_t)256 << 20))
            info->llc_bytes = (uint64_t)256 << 20;
        info->precisions |= GP_BENCH_PRECISION_BIT(GP_BENCH_FP8);
#if defined(GP_VENDOR_TF32)
        /* xf32 only through the library: the own kernel's fp32 FMA is not tf32 math. */
        if (strncmp(info->arch, "gfx94", 5) == 0)
            info->precisions |= GP_BENCH_PRECISION_BIT(GP_BENCH_TF32);
#endif
    }
    snprintf(info->timing, sizeof(info->timing),
             "HIP events around a batch of back-to-back launches (>= %.0f ms or %d launches), "
             "divided by the launches",
             BATCH_S * 1e3, MAX_LAUNCHES);
#else
    snprintf(info->vendor, sizeof(info->vendor), "nvidia");
    snprintf(info->arch, sizeof(info->arch), "sm_%d%d", prop->major, prop->minor);
    snprintf(info->driver_version, sizeof(info->driver_version), "CUDA driver %d.%d", driver / 1000,
             driver % 1000 / 10);
    snprintf(info->runtime_version, sizeof(info->runtime_version), "CUDA runtime %d.%d",
             runtime / 1000, runtime % 1000 / 10);
    if (prop->major >= 8)
        info->precisions |= GP_BENCH_PRECISION_BIT(GP_BENCH_TF32);
    if (prop->major > 8 || (prop->major == 8 && prop->minor >= 9))
        info->precisions |= GP_BENCH_PRECISION_BIT(GP_BENCH_FP8);
    snprintf(info->timing, sizeof(info->timing),
             "CUDA events around a batch of back-to-back launches (>= %.0f ms or %d launches), "
             "divided by the launches",
             BATCH_S * 1e3, MAX_LAUNCHES);
#endif
}

/* Which GEMM library the module measures with: for cuBLASLt its version and its file. */
static void describe_library(struct gp_device_info *info)
{
#if defined(GP_HAVE_VENDOR_GEMM) && !defined(GP_BACKEND_HIP)
    /* The version and the file the dynamic linker chose: the module's RUNPATH points at the
     * toolkit it was built with, but LD_LIBRARY_PATH or a second toolkit can win. */
    size_t lt = cublasLtGetVersion(); /* major * 10000 + minor * 100 + patch */
    Dl_info where;
    void *fn = (void *)&cublasLtGetVersion;
    int found = dladdr(fn, &where) != 0 && where.dli_fname;
    snprintf(info->library_version, sizeof(info->library_version), "cuBLASLt %zu.%zu.%zu%s%.90s%s",
             lt / 10000, lt / 100 % 100, lt % 100, found ? " (" : "", found ? where.dli_fname : "",
             found ? ")" : "");
#elif defined(GP_HAVE_VENDOR_GEMM)
    snprintf(info->library_version, sizeof(info->library_version), "%s", GP_VENDOR_GEMM_NAME);
#else
    snprintf(info->library_version, sizeof(info->library_version), "own tiled kernel only");
#endif
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
    describe_platform(&prop, driver, runtime, info);
    describe_library(info);
    query_management(dev, &prop, info);
}

/* Each device's working memory over its calibration run. Slot 0 holds one benchmark's operands,
 * one after another, each on 256 bytes: the STREAM arrays a, b, c and the partial sums, or the
 * rotating GEMM copies of A, then of B, then C; slot 1 the library's GEMM workspace. A slot is
 * replaced only by a larger block when a benchmark needs more than it holds (freed first: no
 * benchmark's data outlives its call) and freed at shutdown, never between benchmarks. Slots of
 * device d are touched only by bench on d, which the ABI never runs twice at once. */
enum { KEPT_OPERANDS, KEPT_WORKSPACE, KEPT_SLOTS };
static struct {
    char *mem;    /* device memory, owned; NULL until a benchmark needs it */
    size_t bytes; /* its size, bytes */
} kept[MAX_DEVICES][KEPT_SLOTS];

/* Slot `slot` of the current device `dev` with room for `bytes` bytes; NULL when the device is
 * out of memory. Borrowed: the device keeps it. */
static char *kept_block(int dev, int slot, size_t bytes)
{
    if (kept[dev][slot].mem && kept[dev][slot].bytes >= bytes)
        return kept[dev][slot].mem;
    if (kept[dev][slot].mem)
        (void)gpuFree(kept[dev][slot].mem);
    kept[dev][slot].mem = NULL;
    kept[dev][slot].bytes = 0;
    if (gpuMalloc((void **)&kept[dev][slot].mem, bytes ? bytes : 256) != gpuSuccess) {
        (void)gpuGetLastError();
        kept[dev][slot].mem = NULL;
        return NULL;
    }
    kept[dev][slot].bytes = bytes;
    return kept[dev][slot].mem;
}

static void kept_release(void)
{
    for (int d = 0; d < device_count; d++)
        for (int slot = 0; slot < KEPT_SLOTS; slot++) {
            if (!kept[d][slot].mem || gpuSetDevice(d) != gpuSuccess)
                continue;
            (void)gpuFree(kept[d][slot].mem);
            kept[d][slot].mem = NULL;
            kept[d][slot].bytes = 0;
        }
}

static int gpu_init(void)
{
    int n = 0;
    gpuError_t err = gpuGetDeviceCount(&n);

    if (err != gpuSuccess)
        return fail(GP_BACKEND_EFAIL, "%s", gpuGetErrorString(err));
    device_count = n < MAX_DEVICES ? n : MAX_DEVICES;
    mgmt_open();
    for (int i = 0; i < device_count; i++)
        describe(i, &infos[i], &sm_counts[i]);
    return GP_BACKEND_OK;
}

static void gpu_shutdown(void)
{
    kept_release();
    mgmt_close();
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

/*
 * A timed run is a batch of back-to-back launches between one event pair, its time divided by
 * the launches: one launch between two events, with a host synchronisation after each, would
 * count the host's launch cost into every small kernel (up to about 2x at 512^3 and 2 MiB).
 * The batch is sized once per benchmark from one untimed launch, which also takes the module
 * load and any JIT out of the warm-up.
 */
struct timer {
    gpuStream_t stream;
    gpuEvent_t start, stop;
    int launches; /* per timed run */
};

static int timer_open(struct timer *t)
{
    int rc = GP_BACKEND_OK;
    memset(t, 0, sizeof(*t));
    t->launches = 1;
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

/* Seconds between the two events after the stream reached `stop`, per launch. */
static int timer_read(struct timer *t, double *seconds)
{
    int rc = GP_BACKEND_OK;
    float ms = 0.0f;
    GPU_CHECK(gpuEventSynchronize(t->stop));
    GPU_CHECK(gpuGetLastError());
    GPU_CHECK(gpuEventElapsedTime(&ms, t->start, t->stop));
    *seconds = ms * 1e-3 / t->launches;
done:
    return rc;
}

/* Launch one instance of the kernel on the timer's stream (no synchronisation). */
typedef int (*launch_fn)(void *ctx);

/* One timed run: `t->launches` back-to-back launches between the events. */
static int timed_batch(struct timer *t, launch_fn launch, void *ctx, double *seconds)
{
    int rc = GP_BACKEND_OK;

    GPU_CHECK(gpuEventRecord(t->start, t->stream));
    for (int i = 0; i < t->launches; i++) {
        rc = launch(ctx);
        if (rc != GP_BACKEND_OK)
            return rc;
    }
    GPU_CHECK(gpuEventRecord(t->stop, t->stream));
    rc = timer_read(t, seconds);
done:
    return rc;
}

/* Size the batch from one launch: enough launches for BATCH_S, at most MAX_LAUNCHES. */
static int size_batch(struct timer *t, launch_fn launch, void *ctx)
{
    double one = 0.0;
    int rc;

    t->launches = 1;
    rc = timed_batch(t, launch, ctx, &one);
    if (rc != GP_BACKEND_OK)
        return rc;
    t->launches = one > 0 ? (int)(BATCH_S / one) + 1 : MAX_LAUNCHES;
    if (t->launches > MAX_LAUNCHES)
        t->launches = MAX_LAUNCHES;
    return GP_BACKEND_OK;
}

/* ---- bandwidth -------------------------------------------------------------------------- */

struct stream_ctx {
    const struct gp_bench_params *p;
    struct timer *t;
    double2 *a, *b, *c;
    double *partial;
    uint64_t window, windows; /* double2 elements per run; windows in the arrays */
    int grid, device;
    long launched; /* launches so far; each takes the next window */
    double first_sum;
};

static int stream_launch(void *arg)
{
    struct stream_ctx *s = (struct stream_ctx *)arg;
    uint64_t off = (uint64_t)s->launched % s->windows * s->window;
    int rc = GP_BACKEND_OK;

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
    GPU_CHECK(gpuGetLastError());
    s->launched++;
done:
    return rc;
}

/* The read kernel's sum over window 0, from its first launch's partial sums. */
static int stream_first_sum(struct stream_ctx *s)
{
    double *host = (double *)malloc((size_t)s->grid * sizeof(double));
    int rc = GP_BACKEND_OK;

    if (!host)
        return fail(GP_BACKEND_ENOMEM, "out of host memory");
    GPU_CHECK(gpuStreamSynchronize(s->t->stream));
    GPU_CHECK(gpuMemcpy(host, s->partial, (size_t)s->grid * sizeof(double), gpuMemcpyDeviceToHost));
    s->first_sum = 0.0;
    for (int g = 0; g < s->grid; g++)
        s->first_sum += host[g];
done:
    free(host);
    return rc;
}

static int stream_once(void *arg, double *seconds)
{
    struct stream_ctx *s = (struct stream_ctx *)arg;
    return timed_batch(s->t, stream_launch, s, seconds);
}

static void stream_sample(void *arg, struct gp_bench_result *out)
{
    mgmt_sample(((struct stream_ctx *)arg)->device, out);
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

/* Blocks per SM the STREAM kernel of `kind` reaches at BLOCK threads (the occupancy API), at
 * most BLOCKS_PER_SM; the grid is that many per SM. */
static int stream_blocks_per_sm(enum gp_bench_kind kind)
{
    int n = 0;
    gpuError_t err;

    switch (kind) {
    case GP_BENCH_COPY:
        err = gpuOccupancyMaxActiveBlocksPerMultiprocessor(&n, stream_run<GP_BENCH_COPY>, BLOCK, 0);
        break;
    case GP_BENCH_SCALE:
        err =
            gpuOccupancyMaxActiveBlocksPerMultiprocessor(&n, stream_run<GP_BENCH_SCALE>, BLOCK, 0);
        break;
    case GP_BENCH_ADD:
        err = gpuOccupancyMaxActiveBlocksPerMultiprocessor(&n, stream_run<GP_BENCH_ADD>, BLOCK, 0);
        break;
    case GP_BENCH_TRIAD:
        err =
            gpuOccupancyMaxActiveBlocksPerMultiprocessor(&n, stream_run<GP_BENCH_TRIAD>, BLOCK, 0);
        break;
    default:
        err = gpuOccupancyMaxActiveBlocksPerMultiprocessor(&n, stream_read, BLOCK, 0);
        break;
    }
    if (err != gpuSuccess || n <= 0) {
        (void)gpuGetLastError();
        return BLOCKS_PER_SM;
    }
    return n < BLOCKS_PER_SM ? n : BLOCKS_PER_SM;
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
    s.device = dev;
    s.window = p->array_bytes / 16;
    s.windows = p->rotate_bytes > 3 * p->array_bytes ? p->rotate_bytes / (3 * p->array_bytes) : 1;
    s.grid = sm_counts[dev] > 0 ? sm_counts[dev] * stream_blocks_per_sm(p->kind) : 1024;
    if (s.window == 0) {
        rc = fail(GP_BACKEND_EUNSUPPORTED, "array too small");
        goto done;
    }
    {
        size_t bytes = (size_t)(s.window * s.windows * 16), stride = gp_gemm_copy_stride(bytes, 1);
        char *base = kept_block(dev, KEPT_OPERANDS, 3 * stride + (size_t)s.grid * sizeof(double));
        if (!base) {
            rc = fail(GP_BACKEND_ENOMEM, "cannot allocate 3 arrays of %zu bytes", bytes);
            goto done;
        }
        s.a = (double2 *)base;
        s.b = (double2 *)(base + stride);
        s.c = (double2 *)(base + 2 * stride);
        s.partial = (double *)(base + 3 * stride);
        stream_init<<<s.grid, BLOCK, 0, t.stream>>>((double *)s.a, (double *)s.b, (double *)s.c,
                                                    p->seed, bytes / sizeof(double));
        GPU_CHECK(gpuGetLastError());
        GPU_CHECK(gpuStreamSynchronize(t.stream));
    }
    out->work = (double)gp_bench_arrays_moved(p->kind) * (double)s.window * 16.0;
    snprintf(out->impl, sizeof(out->impl), "double2 x4 grid-stride %dx%d", s.grid, BLOCK);
    rc = size_batch(&t, stream_launch, &s);
    if (rc == GP_BACKEND_OK && p->kind == GP_BENCH_READ)
        rc = stream_first_sum(&s); /* the sizing launch read window 0 */
    if (rc == GP_BACKEND_OK)
        rc = gp_bench_drive_sampled(p, out, stream_once, stream_sample, &s);
    out->launches = t.launches;
    if (rc == GP_BACKEND_OK)
        rc = stream_verify(&s, out);
done:
    timer_close(&t);
    return rc;
}

/* ---- GEMM ------------------------------------------------------------------------------- */

struct gemm_ctx {
    const struct gp_bench_params *p;
    struct timer *t;
    enum store_format in, out; /* operand and result storage */
    char *a, *b; /* `copies` operand copies each, stride_a / stride_b bytes apart, in the device's
                    kept operand block (borrowed) */
    size_t stride_a, stride_b;
    void *c;
    struct gp_gemm_call call; /* the library call's layout (own kernel: not swapped) */
    int copies, vendor, device;
    long launched; /* launches so far; each takes the next copy */
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

/* Evaluate a library call; on failure name the call and the library's status. */
#define LT_CHECK(call)                                                                             \
    do {                                                                                           \
        ltStatus_t st_ = (call);                                                                   \
        if (st_ != LT_SUCCESS)                                                                     \
            return fail(GP_BACKEND_EFAIL, "%s: %s: %s (%d)", GP_VENDOR_GEMM_NAME, #call,           \
                        ltStatusName(st_), (int)st_);                                              \
    } while (0)

/* The library's data types for the context's precision; EUNSUPPORTED when it has none. */
static int vendor_types(const struct gp_bench_params *p, ltComputeType_t *compute, ltDataType_t *ab,
                        ltDataType_t *cd)
{
    *compute = LT_COMPUTE_32F;
    switch (p->precision) {
    case GP_BENCH_FP32:
        *ab = *cd = LT_R_32F;
        return GP_BACKEND_OK;
#if defined(GP_VENDOR_TF32)
    case GP_BENCH_TF32:
        *ab = *cd = LT_R_32F;
        *compute = LT_COMPUTE_32F_FAST_TF32;
        return GP_BACKEND_OK;
#endif
    case GP_BENCH_BF16:
        *ab = *cd = LT_R_16BF;
        return GP_BACKEND_OK;
    case GP_BENCH_FP16:
        *ab = *cd = LT_R_16F;
        return GP_BACKEND_OK;
#if defined(GP_VENDOR_FP8)
    case GP_BENCH_FP8:
        *ab = LT_R_8F_E4M3;
        *cd = LT_R_16BF;
        return GP_BACKEND_OK;
#endif
    default:
        return fail(GP_BACKEND_EUNSUPPORTED, "%s has no path for this precision",
                    GP_VENDOR_GEMM_NAME);
    }
}

/* Set up the library's matmul for the context's precision and layout; EUNSUPPORTED when it has
 * no path or no algorithm for it. */
static int vendor_setup(struct gemm_ctx *g)
{
    const struct gp_bench_params *p = g->p;
    const struct gp_gemm_call *c = &g->call;
    ltComputeType_t compute = LT_COMPUTE_32F;
    ltDataType_t ab = LT_R_32F, cd = LT_R_32F;
    ltOperation_t ta = LT_OP_T, tb = LT_OP_N;
    size_t ws = WORKSPACE_BYTES;
    int returned = 0;
    int rc = vendor_types(p, &compute, &ab, &cd);

    if (rc != GP_BACKEND_OK)
        return rc;
    LT_CHECK(ltCreate(&g->lt));
    LT_CHECK(ltMatmulDescCreate(&g->op, compute, LT_R_32F));
    LT_CHECK(ltMatmulDescSetAttribute(g->op, LT_DESC_TRANSA, &ta, sizeof(ta)));
    LT_CHECK(ltMatmulDescSetAttribute(g->op, LT_DESC_TRANSB, &tb, sizeof(tb)));
#if defined(GP_VENDOR_FP8)
    if (p->precision == GP_BENCH_FP8) {
        int8_t fast = p->fast_accum ? 1 : 0;
        LT_CHECK(ltMatmulDescSetAttribute(g->op, LT_DESC_FAST_ACCUM, &fast, sizeof(fast)));
    }
#endif
    LT_CHECK(ltLayoutCreate(&g->la, ab, (uint64_t)c->inner, (uint64_t)c->rows, c->ld_first));
    LT_CHECK(ltLayoutCreate(&g->lb, ab, (uint64_t)c->inner, (uint64_t)c->cols, c->ld_second));
    LT_CHECK(ltLayoutCreate(&g->lc, cd, (uint64_t)c->rows, (uint64_t)c->cols, c->ld_result));
    LT_CHECK(ltPreferenceCreate(&g->pref));
    LT_CHECK(ltPreferenceSetAttribute(g->pref, LT_PREF_MAX_WORKSPACE, &ws, sizeof(ws)));
    ltStatus_t st = ltAlgoGetHeuristic(g->lt, g->op, g->la, g->lb, g->lc, g->lc, g->pref, 1,
                                       &g->heur, &returned);
    if (st != LT_SUCCESS || returned == 0)
        return fail(GP_BACKEND_EUNSUPPORTED, "%s has no algorithm for %dx%dx%d%s: %s (%d)",
                    GP_VENDOR_GEMM_NAME, p->m, p->n, p->k, c->swapped ? " (as its transpose)" : "",
                    st != LT_SUCCESS ? ltStatusName(st) : "no heuristic result", (int)st);
    g->workspace = kept_block(g->device, KEPT_WORKSPACE, ws);
    if (!g->workspace)
        return fail(GP_BACKEND_ENOMEM, "cannot allocate the GEMM workspace");
    return GP_BACKEND_OK;
}

/* "cuBLASLt algo 31 tile 20 stages 8", and the FP8 accumulation mode. */
static void vendor_name(const struct gemm_ctx *g, char *out, size_t size)
{
    int used = snprintf(out, size, "%s", GP_VENDOR_GEMM_NAME);
#if defined(GP_VENDOR_ALGO_CONFIG)
    int id = 0, tile = 0, stages = 0;
    size_t written = 0;
    if (ltAlgoConfigGet(&g->heur.algo, LT_ALGO_CONFIG_ID, &id, sizeof(id), &written) ==
            LT_SUCCESS &&
        ltAlgoConfigGet(&g->heur.algo, LT_ALGO_CONFIG_TILE_ID, &tile, sizeof(tile), &written) ==
            LT_SUCCESS &&
        ltAlgoConfigGet(&g->heur.algo, LT_ALGO_CONFIG_STAGES_ID, &stages, sizeof(stages),
                        &written) == LT_SUCCESS)
        used += snprintf(out + used, size - (size_t)used, " algo %d tile %d stages %d", id, tile,
                         stages);
#endif
    if (g->p->precision == GP_BENCH_FP8 && used > 0 && (size_t)used < size)
        snprintf(out + used, size - (size_t)used, "%s",
                 g->p->fast_accum ? " fast-accum" : " full-accum");
}

static void vendor_release(struct gemm_ctx *g)
{
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

static int gemm_launch(void *arg)
{
    struct gemm_ctx *g = (struct gemm_ctx *)arg;
    const struct gp_bench_params *p = g->p;
    size_t r = (size_t)(g->launched % g->copies);
    const char *a = g->a + r * g->stride_a;
    const char *b = g->b + r * g->stride_b;
    int rc = GP_BACKEND_OK;

#if defined(GP_HAVE_VENDOR_GEMM)
    if (g->vendor) {
        const float alpha = 1.0f, beta = 0.0f;
        const char *first = g->call.first_is_b ? b : a, *second = g->call.first_is_b ? a : b;
        LT_CHECK(ltMatmul(g->lt, g->op, &alpha, first, g->la, second, g->lb, &beta, g->c, g->lc,
                          g->c, g->lc, &g->heur.algo, g->workspace, WORKSPACE_BYTES, g->t->stream));
    } else
#endif
    {
        dim3 block(TILE, TILE), grid((p->m + TILE - 1) / TILE, (p->n + TILE - 1) / TILE);
        gemm_tiled<<<grid, block, 0, g->t->stream>>>(p->m, p->n, p->k, a, b, (float *)g->c, g->in);
        GPU_CHECK(gpuGetLastError());
    }
    g->launched++;
done:
    return rc;
}

static int gemm_once(void *arg, double *seconds)
{
    struct gemm_ctx *g = (struct gemm_ctx *)arg;
    return timed_batch(g->t, gemm_launch, g, seconds);
}

static void gemm_sample(void *arg, struct gp_bench_result *out)
{
    mgmt_sample(((struct gemm_ctx *)arg)->device, out);
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
    uint64_t at = gp_gemm_result_offset(&g->call, g->p->m, cell);
    unsigned char raw[4];
    int rc = GP_BACKEND_OK;

    GPU_CHECK(gpuMemcpy(raw, (const char *)g->c + at * ob, ob, gpuMemcpyDeviceToHost));
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
    int last = (int)((g->launched - 1) % g->copies); /* the copy the result came from */
    int rc = gp_bench_gemm_check(p, last, gp_bench_value_bits(p->precision), bound_fmt,
                                 GEMM_SAMPLES, read_gemm_cell, g, out);

    if (rc == GP_BACKEND_OK && out->max_error > 1.0)
        rc = fail(GP_BACKEND_EVERIFY, "gemm %dx%dx%d: off by %.3g times the error bound", p->m,
                  p->n, p->k, out->max_error);
    return rc;
}

/* Choose the vendor library or the own kernel for the request and set the result format.
 * EUNSUPPORTED when neither may run it. */
static int gemm_choose(struct gemm_ctx *g)
{
    const struct gp_bench_params *p = g->p;
    int vendor_only = p->impl == GP_BENCH_IMPL_VENDOR || p->fast_accum;

    g->out = FMT_F32;
    if (p->fast_accum && p->precision != GP_BENCH_FP8)
        return fail(GP_BACKEND_EUNSUPPORTED, "fast accumulation is an fp8 mode");
    if (p->precision == GP_BENCH_TF32 && p->impl == GP_BENCH_IMPL_OWN)
        return fail(GP_BACKEND_EUNSUPPORTED, "the own kernel has fp32 FMA, not tf32 math");
#if defined(GP_HAVE_VENDOR_GEMM)
    if (p->impl != GP_BENCH_IMPL_OWN) {
        int rc = vendor_setup(g);
        if (rc == GP_BACKEND_OK) {
            g->vendor = 1;
            g->out = p->precision == GP_BENCH_BF16 || p->precision == GP_BENCH_FP8 ? FMT_BF16
                     : p->precision == GP_BENCH_FP16                               ? FMT_F16
                                                                                   : FMT_F32;
            return GP_BACKEND_OK;
        }
        if (vendor_only || rc != GP_BACKEND_EUNSUPPORTED)
            return rc;
    }
#else
    if (vendor_only)
        return fail(GP_BACKEND_EUNSUPPORTED, "built without a vendor GEMM library");
#endif
    if (p->precision == GP_BENCH_TF32)
        return fail(GP_BACKEND_EUNSUPPORTED, "no tf32 path without the vendor library");
    memset(&g->call, 0, sizeof(g->call)); /* the own kernel writes C m x n column-major */
    return GP_BACKEND_OK;
}

/* Allocate the rotating operand copies (each starting 256-byte aligned) and C, and fill the
 * copies from the generator on the device. */
static int gemm_alloc(struct gemm_ctx *g)
{
    const struct gp_bench_params *p = g->p;
    size_t eb = format_bytes(g->in);
    size_t na = (size_t)p->m * (size_t)p->k, nb = (size_t)p->k * (size_t)p->n;
    int bits = gp_bench_value_bits(p->precision);
    int rc = GP_BACKEND_OK;

    g->stride_a = gp_gemm_copy_stride(na, eb);
    g->stride_b = gp_gemm_copy_stride(nb, eb);
    g->copies = 1;
    if (p->rotate_bytes > g->stride_a + g->stride_b)
        g->copies = (int)(p->rotate_bytes / (g->stride_a + g->stride_b)) + 1;
    if (g->copies > MAX_COPIES)
        g->copies = MAX_COPIES;
    size_t c_bytes = (size_t)p->m * (size_t)p->n * format_bytes(g->out);
    char *base = kept_block(g->device, KEPT_OPERANDS,
                            (g->stride_a + g->stride_b) * (size_t)g->copies + c_bytes);
    if (!base)
        return fail(GP_BACKEND_ENOMEM, "cannot allocate GEMM operands (%d copies)", g->copies);
    g->a = base;
    g->b = base + g->stride_a * (size_t)g->copies;
    g->c = g->b + g->stride_b * (size_t)g->copies;
    for (int r = 0; r < g->copies; r++) {
        gemm_init<<<1024, BLOCK, 0, g->t->stream>>>(g->a + (size_t)r * g->stride_a, 0,
                                                    gp_bench_stream_a(p->seed, r), na, bits, g->in);
        gemm_init<<<1024, BLOCK, 0, g->t->stream>>>(g->b + (size_t)r * g->stride_b, 0,
                                                    gp_bench_stream_b(p->seed, r), nb, bits, g->in);
    }
    GPU_CHECK(gpuGetLastError());
    GPU_CHECK(gpuStreamSynchronize(g->t->stream));
done:
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
    g.device = dev;
    g.in = input_format(p->precision, infos[dev].arch);
    gp_gemm_layout(&g.call, p->m, p->n, p->k,
                   format_bytes(p->precision == GP_BENCH_FP8 ? FMT_BF16 : g.in));
    rc = gemm_choose(&g);
    if (rc == GP_BACKEND_OK)
        rc = gemm_alloc(&g);
    if (rc != GP_BACKEND_OK)
        goto done;
    out->work = 2.0 * p->m * (double)p->n * (double)p->k;
#if defined(GP_HAVE_VENDOR_GEMM)
    if (g.vendor)
        vendor_name(&g, out->impl, sizeof(out->impl));
    else
#endif
        snprintf(out->impl, sizeof(out->impl), "own-tiled16");
    rc = size_batch(&t, gemm_launch, &g);
    if (rc == GP_BACKEND_OK)
        rc = gp_bench_drive_sampled(p, out, gemm_once, gemm_sample, &g);
    out->launches = t.launches;
    if (rc == GP_BACKEND_OK)
        rc = gemm_verify(&g, out);
done:
#if defined(GP_HAVE_VENDOR_GEMM)
    vendor_release(&g);
#endif
    timer_close(&t);
    return rc;
}

static int gpu_bench(int device, const struct gp_bench_params *params, struct gp_bench_result *out)
{
    int rc = GP_BACKEND_OK;

    last_error[0] = '\0';
    if (device < 0 || device >= device_count)
        return fail(GP_BACKEND_EFAIL, "no device %d", device);
    if (no_code[device][0])
        return fail(GP_BACKEND_EFAIL, "device %d: %s", device, no_code[device]);
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
