/* What the planner fuzz targets share: a model table, an H100 SXM with default-like
 * efficiencies, and the check that a planned row holds only finite numbers. */
#ifndef GP_TESTS_FUZZ_PLANNER_H
#define GP_TESTS_FUZZ_PLANNER_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/efficiency.h"
#include "planner/fleet.h"
#include "planner/model.h"

static const char models_json[] =
    "{\"schema_version\": 1, \"models\": [{\"name\": \"llama-3.1-70b\", \"layers\": 80, "
    "\"hidden\": 8192, \"heads\": 64, \"kv_heads\": 8, \"head_dim\": 128, \"ffn\": 28672, "
    "\"vocab\": 128256}, {\"name\": \"mixtral-8x7b\", \"layers\": 32, \"hidden\": 4096, "
    "\"heads\": 32, \"kv_heads\": 8, \"ffn\": 14336, \"vocab\": 32000, \"experts\": 8, "
    "\"active_experts\": 2}]}";

/* An H100 SXM as the catalog describes it, with default-like efficiencies. */
static void fixtures(struct gp_gpu *gpu, struct gp_efficiency *eff)
{
    memset(gpu, 0, sizeof(*gpu));
    snprintf(gpu->id, sizeof(gpu->id), "h100-sxm");
    gpu->peak_tflops[GP_FP32] = 66.9;
    gpu->peak_tflops[GP_TF32] = 494.7;
    gpu->peak_tflops[GP_BF16] = 989.4;
    gpu->peak_tflops[GP_FP16] = 989.4;
    gpu->peak_tflops[GP_FP8] = 1978.9;
    gpu->peak_tflops[GP_FP64] = 66.9;
    gpu->hbm_gb = 80;
    gpu->hbm_tbs = 3.35;
    gpu->tdp_w = 700;
    gpu->scaleup_gbs = 900;
    gpu->gpus_per_node = 8;
    gpu->node_overhead_w = 2500;
    memset(eff, 0, sizeof(*eff));
    for (int p = 0; p < GP_PRECISION_COUNT; p++)
        eff->gemm[p] = (struct gp_eff_curve){0.75, 5e9};
    eff->bandwidth = (struct gp_eff_curve){0.85, 2e6};
    eff->serve_compute = 0.7;
    eff->serve_memory = 0.85;
    eff->step_overhead_s = 500e-6;
    eff->layer_overhead_s = 20e-6;
    eff->runtime_overhead_gb = 4;
    eff->max_batch = 2048;
    eff->net_efficiency = 0.65;
    eff->net_latency_s = 8e-6;
    eff->mfu = 0.4;
    eff->idle_power = 0.15;
    eff->busy_power = 0.8;
    eff->uncertainty_low = 0.8;
    eff->uncertainty_high = 1.15;
    snprintf(eff->source, sizeof(eff->source), "default");
}

static void check_finite(const struct gp_plan_row *r)
{
    const double v[] = {r->tokens_per_s,
                        r->tokens_per_s_per_gpu,
                        r->ttft_ms,
                        r->tpot_ms,
                        r->it_kw,
                        r->facility_kw,
                        r->cost_per_hour,
                        r->cost_per_mtok,
                        r->energy_cost_per_month,
                        r->train_hours,
                        r->total_cost,
                        r->jobs_per_hour,
                        r->cost_low,
                        r->cost_high};
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        if (!isfinite(v[i]))
            abort();
}

#endif
