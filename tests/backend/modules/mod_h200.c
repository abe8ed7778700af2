/* A test module that pretends to be one NVIDIA H200 behind the CUDA backend's name, for the
 * rehearsal of scripts/gpu-check.sh without a GPU: the datasheet's device info, run times from
 * efficiency curves in the range published for the part, cuBLASLt-style implementation names,
 * clocks and power after the warm-up, and one injected step failure (fp16 32x8192x8192). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gpuplan/backend.h"

#define EXPORT __attribute__((visibility("default")))

static _Thread_local char last_error[256];

/* Dense datasheet peaks (TFLOP/s by precision, HBM GB/s) and the fractions a tuned kernel and
 * cuBLASLt reach on the part (kernels-and-calibration reference: HBM about 74-81%, BF16 about
 * 76-80%, FP8 about 73%). */
static const double peak_tflops[GP_BENCH_PRECISION_COUNT] = {66.9,  66.9,  494.7,
                                                             989.4, 989.4, 1978.9};
static const double eff_max[GP_BENCH_PRECISION_COUNT] = {0.0, 0.80, 0.74, 0.78, 0.77, 0.72};
#define PEAK_GBS    4800.0
#define BW_EFF      0.80
#define LAUNCH_S    4e-6   /* fixed cost per launch that the small sizes show */
#define GEMM_S_HALF 4.0e10 /* FLOP at half of eff_max */

static int fake_probe(char *reason, size_t size)
{
    snprintf(reason, size, "%s", "");
    return 100;
}

static int fake_init(void)
{
    return GP_BACKEND_OK;
}

static void fake_shutdown(void)
{
}

static int fake_device_count(void)
{
    return 1;
}

static int fake_device_info(int index, struct gp_device_info *out)
{
    memset(out, 0, sizeof(*out));
    if (index != 0)
        return GP_BACKEND_EFAIL;
    snprintf(out->name, sizeof(out->name), "NVIDIA H200");
    snprintf(out->vendor, sizeof(out->vendor), "nvidia");
    snprintf(out->arch, sizeof(out->arch), "sm_90");
    snprintf(out->bus_id, sizeof(out->bus_id), "00000000:19:00.0");
    snprintf(out->driver_version, sizeof(out->driver_version), "570.124.06 (rehearsal)");
    snprintf(out->runtime_version, sizeof(out->runtime_version), "CUDA runtime 12.8");
    snprintf(out->library_version, sizeof(out->library_version),
             "cuBLASLt 12.8.4 (rehearsal module, no GPU)");
    snprintf(out->timing, sizeof(out->timing), "rehearsal: times computed from curves");
    out->memory_bytes = 150754820096ull;
    out->llc_bytes = 50ull << 20;
    out->compute_units = 132;
    out->ecc = 1;
    out->clock_mhz = 1980;
    out->memory_clock_mhz = 3201;
    out->power_limit_w = 700;
    out->precisions = GP_BENCH_PRECISION_BIT(GP_BENCH_FP32) |
                      GP_BENCH_PRECISION_BIT(GP_BENCH_TF32) |
                      GP_BENCH_PRECISION_BIT(GP_BENCH_BF16) |
                      GP_BENCH_PRECISION_BIT(GP_BENCH_FP16) | GP_BENCH_PRECISION_BIT(GP_BENCH_FP8);
    return GP_BACKEND_OK;
}

/* Seconds one run of the benchmark takes on the pretend device; 0 when it has no such path. */
static double run_seconds(const struct gp_bench_params *p, double *work, const char **impl)
{
    if (p->kind != GP_BENCH_GEMM) {
        *work = gp_bench_arrays_moved(p->kind) * (double)p->array_bytes;
        *impl = "double2 x4 grid-stride 792x256";
        return *work / (PEAK_GBS * 1e9 * BW_EFF) + LAUNCH_S;
    }
    *work = 2.0 * p->m * (double)p->n * p->k;
    if (p->impl == GP_BENCH_IMPL_OWN) {
        if (p->precision == GP_BENCH_TF32)
            return 0.0; /* the own kernel has no tf32 math */
        *impl = "own-tiled16";
        return *work / (0.12 * peak_tflops[GP_BENCH_FP32] * 1e12) + LAUNCH_S;
    }
    double eff = eff_max[p->precision] * (p->fast_accum ? 1.08 : 1.0);
    if (p->precision == GP_BENCH_FP8)
        *impl = p->fast_accum ? "cuBLASLt algo 66 tile 20 stages 8 fast-accum"
                              : "cuBLASLt algo 66 tile 20 stages 8 full-accum";
    else
        *impl = "cuBLASLt algo 31 tile 20 stages 8";
    /* Decode shapes are bound by reading B: at most the HBM rate. */
    double bytes = (double)p->n * p->k * (p->precision == GP_BENCH_FP8 ? 1 : 2);
    double compute =
        *work / (peak_tflops[p->precision] * 1e12 * eff * *work / (*work + GEMM_S_HALF));
    double memory = bytes / (PEAK_GBS * 1e9 * BW_EFF);
    return (compute > memory ? compute : memory) + LAUNCH_S;
}

static int fake_bench(int device, const struct gp_bench_params *p, struct gp_bench_result *out)
{
    const char *impl = "";
    double work = 0.0, t;

    last_error[0] = '\0';
    if (device != 0) {
        snprintf(last_error, sizeof(last_error), "no device %d", device);
        return GP_BACKEND_EFAIL;
    }
    if (p->fast_accum && p->precision != GP_BENCH_FP8) {
        snprintf(last_error, sizeof(last_error), "fast accumulation is an fp8 mode");
        return GP_BACKEND_EUNSUPPORTED;
    }
    if (p->kind == GP_BENCH_GEMM && p->precision == GP_BENCH_FP16 && p->m == 32 &&
        p->impl != GP_BENCH_IMPL_OWN) {
        snprintf(last_error, sizeof(last_error),
                 "cuBLASLt: ltMatmul(...): "
                 "CUBLAS_STATUS_EXECUTION_FAILED (13) (injected)");
        return GP_BACKEND_EFAIL;
    }
    t = run_seconds(p, &work, &impl);
    if (!(t > 0)) {
        snprintf(last_error, sizeof(last_error), "the own kernel has fp32 FMA, not tf32 math");
        return GP_BACKEND_EUNSUPPORTED;
    }
    out->samples = p->repetitions < 12 ? p->repetitions : 12;
    if (out->samples < p->min_repetitions)
        out->samples = p->min_repetitions;
    for (int i = 0; i < out->samples; i++) /* +-1.5% jitter, symmetric around t */
        out->times_s[i] = t * (1.0 + 0.015 * sin(1.7 * i + (double)p->m));
    out->warmups = 3;
    out->work = work;
    out->max_error = 0.02;
    out->checked = 64;
    out->launches = t < 2e-3 ? (int)(2e-3 / t) + 1 : 1;
    out->clock_mhz = p->kind == GP_BENCH_GEMM ? 1755 : 1980;
    out->power_w = p->kind == GP_BENCH_GEMM ? 662 : 540;
    snprintf(out->impl, sizeof(out->impl), "%s", impl);
    return GP_BACKEND_OK;
}

static const char *fake_last_error(void)
{
    return last_error;
}

static const struct gp_backend_ops ops = {
    GP_BACKEND_ABI_VERSION,
    "cuda",
    "rehearsal H200 (no GPU)",
    fake_probe,
    fake_init,
    fake_shutdown,
    fake_device_count,
    fake_device_info,
    fake_bench,
    fake_last_error,
};

EXPORT const struct gp_backend_ops *gpuplan_backend_entry(void)
{
    return &ops;
}
