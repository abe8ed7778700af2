/* The throughput-interactivity frontier of an inference workload: per GPU type, the most output
 * tokens per second per GPU at each speed a user sees, across layouts and batch sizes. The
 * curve buyers compare GPUs on. */
#ifndef GP_PLANNER_FRONTIER_H
#define GP_PLANNER_FRONTIER_H

#include <stddef.h>

#include "gpuplan/gpu.h"
#include "planner/layout.h"
#include "planner/plan.h"

/* One point: a layout and batch no other point of its GPU type beats on both axes. */
struct gp_frontier_point {
    char gpu[GP_GPU_ID_MAX];      /* catalog id */
    char stack[32];               /* profile planned with, "" none */
    enum gp_layout layout;        /* how a replica splits the model */
    int replica_gpus;             /* GPUs per replica */
    int batch;                    /* sequences per attention group in a step */
    double tokens_per_s_per_user; /* output tokens/s each user sees: 1000 / TPOT ms */
    double tokens_per_s_per_gpu;  /* output tokens/s per GPU */
    double tpot_ms, ttft_ms;      /* time per output token and to the first token, ms */
};

/* Points of every GPU type, each type's in order of falling interactivity. Owns `points`. */
struct gp_frontier {
    struct gp_frontier_point *points;
    size_t count, cap;
};

/*
 * Append the frontier of `w` (an inference workload) on `gpu` with `eff`: every layout the
 * workload allows, at batches 1, 2, 4, ... up to the most that fit, planned without the
 * workload's latency targets, reduced to the points no other beats on throughput per GPU and
 * per user at once. `stack` names the profile. Returns 0 or GP_ENOMEM.
 */
int gp_frontier_add(struct gp_frontier *out, const struct gp_workload *w, const struct gp_gpu *gpu,
                    const struct gp_efficiency *eff, const char *stack);

/* The frontier of req->base.workload on every GPU type of `req`, with the profile each is
 * planned with (gp_plan_stacks_for). Returns 0, GP_EINVALID (not an inference workload) or
 * GP_ENOMEM. */
int gp_plan_frontier(struct gp_frontier *out, const struct gp_plan_request *req);

void gp_frontier_release(struct gp_frontier *f);

#endif
