/* The built-in CPU backend's table: probing, the one "device" (the host) with the arena its
 * calibration run works in, and dispatch. */
#define _DEFAULT_SOURCE /* madvise */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernels/cpu/cpu.h"
#include "kernels/cpu/cpu_int.h"

#define HUGE_PAGE ((uint64_t)2 << 20)

static _Thread_local char last_error[512];

/* The host's arena: the operands of every benchmark the table's bench runs, from the first to
 * shutdown, i.e. over the device's whole calibration run. Only bench and shutdown touch it, and
 * the ABI never runs two benchmarks of one device at once. */
static struct gp_cpu_arena host_arena;

int gp_cpu__fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof(last_error), fmt, ap);
    va_end(ap);
    return code;
}

int gp_cpu__threads(int requested)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (requested > 0)
        return requested;
    return online > 0 ? (int)online : 1;
}

static int cpu_probe(char *reason, size_t size)
{
    snprintf(reason, size, "%s", "");
    return 10;
}

static int cpu_init(void)
{
    return GP_BACKEND_OK;
}

static void cpu_shutdown(void)
{
    gp_cpu_arena_release(&host_arena);
    gp_cpu__blas_unload();
}

int gp_cpu_arena_reserve(struct gp_cpu_arena *arena, uint64_t bytes)
{
    uint64_t size;
    size_t align;

    if (arena->base && arena->bytes >= bytes)
        return GP_BACKEND_OK;
    /* Free first: nothing in the block survives a benchmark, and holding the old block while
     * faulting in the new one would put both in the peak. */
    free(arena->base);
    arena->base = NULL;
    arena->bytes = 0;
    if (bytes > SIZE_MAX - HUGE_PAGE)
        return gp_cpu__fail(GP_BACKEND_ENOMEM, "cannot allocate %llu bytes of operands",
                            (unsigned long long)bytes);
    size = bytes < HUGE_PAGE ? (bytes ? bytes : 1) : bytes;
    align = size < HUGE_PAGE ? 64 : (size_t)HUGE_PAGE;
    size = (size + align - 1) / align * align; /* aligned_alloc: a multiple of the alignment */
    if (!(arena->base = aligned_alloc(align, (size_t)size)))
        return gp_cpu__fail(GP_BACKEND_ENOMEM, "cannot allocate %llu bytes of operands",
                            (unsigned long long)bytes);
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE)
        (void)madvise(arena->base, (size_t)size, MADV_HUGEPAGE); /* a hint: else 4 KiB pages */
#endif
    arena->bytes = size;
    arena->allocations++;
    return GP_BACKEND_OK;
}

void gp_cpu_arena_release(struct gp_cpu_arena *arena)
{
    if (!arena)
        return;
    free(arena->base);
    memset(arena, 0, sizeof(*arena));
}

uint64_t gp_cpu_bench_bytes(const struct gp_bench_params *params)
{
    if (params->kind == GP_BENCH_GEMM)
        return gp_cpu__gemm_bytes(params);
    if (params->kind < GP_BENCH_GEMM)
        return gp_cpu__stream_bytes(params);
    return 0;
}

static int cpu_device_count(void)
{
    return 1;
}

/* First line of `path` starting with `key`, value after the colon, into out[size]. */
static void read_field(const char *path, const char *key, char *out, size_t size)
{
    char line[512];
    FILE *f = fopen(path, "r");

    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, key, strlen(key)) != 0)
            continue;
        const char *v = strchr(line, ':');
        if (!v)
            continue;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        snprintf(out, size, "%.*s", (int)strcspn(v, "\n"), v);
        break;
    }
    fclose(f);
}

/* The largest cache any level of CPU 0 reports in sysfs, bytes. */
static uint64_t llc_bytes(void)
{
    uint64_t best = 0;
    for (int i = 0; i < 8; i++) {
        char path[96], text[32] = "";
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (fgets(text, sizeof(text), f)) {
            char *end;
            unsigned long long v = strtoull(text, &end, 10);
            if (*end == 'K')
                v <<= 10;
            else if (*end == 'M')
                v <<= 20;
            if (v > best)
                best = v;
        }
        fclose(f);
    }
    return best;
}

static int cpu_device_info(int index, struct gp_device_info *out)
{
    if (index != 0)
        return gp_cpu__fail(GP_BACKEND_EFAIL, "the CPU backend has one device, not %d", index);
    memset(out, 0, sizeof(*out));
    snprintf(out->name, sizeof(out->name), "%s", "CPU");
    read_field("/proc/cpuinfo", "model name", out->name, sizeof(out->name));
    snprintf(out->vendor, sizeof(out->vendor), "%s", "cpu");
#if defined(__x86_64__)
    snprintf(out->arch, sizeof(out->arch), "%s", "x86_64");
#elif defined(__aarch64__)
    snprintf(out->arch, sizeof(out->arch), "%s", "aarch64");
#endif
    FILE *f = fopen("/proc/sys/kernel/osrelease", "r");
    if (f) {
        if (fgets(out->driver_version, sizeof(out->driver_version), f))
            out->driver_version[strcspn(out->driver_version, "\n")] = '\0';
        fclose(f);
    }
    snprintf(out->library_version, sizeof(out->library_version), "%s", gp_cpu__blas_version());
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        out->memory_bytes = (uint64_t)pages * (uint64_t)page;
    out->llc_bytes = llc_bytes();
    out->compute_units = gp_cpu__threads(0);
    out->ecc = -1;
    /* The maximum clock from cpufreq (kHz), else the current one from /proc/cpuinfo. */
    char mhz[32] = "";
    FILE *freq = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    if (freq) {
        if (fgets(mhz, sizeof(mhz), freq) && sscanf(mhz, "%lf", &out->clock_mhz) == 1)
            out->clock_mhz /= 1000.0;
        fclose(freq);
    }
    if (!(out->clock_mhz > 0)) {
        read_field("/proc/cpuinfo", "cpu MHz", mhz, sizeof(mhz));
        sscanf(mhz, "%lf", &out->clock_mhz);
    }
    snprintf(out->timing, sizeof(out->timing), "%s",
             "CLOCK_MONOTONIC around each parallel run (STREAM) or BLAS call");
    out->precisions = GP_BENCH_PRECISION_BIT(GP_BENCH_FP32) | GP_BENCH_PRECISION_BIT(GP_BENCH_FP64);
    return GP_BACKEND_OK;
}

int gp_cpu_bench_in(struct gp_cpu_arena *arena, const struct gp_bench_params *params,
                    struct gp_bench_result *out)
{
    last_error[0] = '\0';
    if (params->repetitions <= 0 || !out->times_s)
        return gp_cpu__fail(GP_BACKEND_EFAIL, "no room for timings");
    if (params->kind == GP_BENCH_GEMM)
        return gp_cpu__gemm_bench(arena, params, out);
    if (params->kind < GP_BENCH_GEMM)
        return gp_cpu__stream_bench(arena, params, out);
    return gp_cpu__fail(GP_BACKEND_EUNSUPPORTED, "unknown benchmark kind %d", (int)params->kind);
}

static int cpu_bench(int device, const struct gp_bench_params *params, struct gp_bench_result *out)
{
    last_error[0] = '\0';
    if (device != 0)
        return gp_cpu__fail(GP_BACKEND_EFAIL, "the CPU backend has one device, not %d", device);
    return gp_cpu_bench_in(&host_arena, params, out);
}

static const char *cpu_last_error(void)
{
    return last_error;
}

static const struct gp_backend_ops cpu_ops = {
    GP_BACKEND_ABI_VERSION,
    "cpu",
    "host CPU: pthread STREAM kernels, GEMM via the system BLAS (dlopen)",
    cpu_probe,
    cpu_init,
    cpu_shutdown,
    cpu_device_count,
    cpu_device_info,
    cpu_bench,
    cpu_last_error,
};

const struct gp_backend_ops *gp_cpu_backend(void)
{
    return &cpu_ops;
}
