/* Throughput per GPU against interactivity: every layout and batch, then the Pareto front. */
#include "planner/frontier.h"

#include <stdlib.h>
#include <string.h>

#include "planner/model.h"
#include "util/error.h"
#include "util/text.h"

/* Most batches tried per layout: 1, 2, 4, ... 2^20 sequences. */
#define MAX_BATCH_STEPS 21

static int push(struct gp_frontier *f, const struct gp_frontier_point *p)
{
    if (f->count == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        void *grown = realloc(f->points, cap * sizeof(*f->points));
        if (!grown)
            return gp_error_set(GP_ENOMEM, "out of memory tracing the frontier");
        f->points = grown;
        f->cap = cap;
    }
    f->points[f->count++] = *p;
    return 0;
}

/* Faster for each user first; at equal speed the higher throughput first. */
static int by_interactivity(const void *a, const void *b)
{
    const struct gp_frontier_point *x = a, *y = b;
    if (x->tokens_per_s_per_user != y->tokens_per_s_per_user)
        return x->tokens_per_s_per_user > y->tokens_per_s_per_user ? -1 : 1;
    return (x->tokens_per_s_per_gpu < y->tokens_per_s_per_gpu) -
           (x->tokens_per_s_per_gpu > y->tokens_per_s_per_gpu);
}

/* Keep, of points[0..n) sorted by interactivity, those whose throughput beats every faster
 * point's; returns how many, moved to the front. */
static size_t pareto(struct gp_frontier_point *points, size_t n)
{
    size_t kept = 0;
    double best = 0;

    if (n > 1) /* none: a GPU type no layout fits has no points, and no array */
        qsort(points, n, sizeof(*points), by_interactivity);
    for (size_t i = 0; i < n; i++) {
        if (!(points[i].tokens_per_s_per_gpu > best))
            continue;
        best = points[i].tokens_per_s_per_gpu;
        points[kept++] = points[i];
    }
    return kept;
}

/* The point of one layout at batch limit `batch`; 0 when it runs, else 1. */
static int point_at(struct gp_frontier_point *out, struct gp_workload *w, const struct gp_gpu *gpu,
                    const struct gp_efficiency *eff, int batch)
{
    struct gp_perf p;

    w->inference.max_batch = batch;
    gp_model_evaluate(&p, w, gpu, eff, 1.0, 0);
    if (!p.feasible || !(p.tpot_ms > 0) || p.replica_gpus <= 0)
        return 1;
    memset(out, 0, sizeof(*out));
    gp_text_copy(out->gpu, sizeof(out->gpu), gpu->id);
    out->layout = p.layout;
    out->replica_gpus = p.replica_gpus;
    out->batch = p.batch;
    out->tokens_per_s_per_user = 1000.0 / p.tpot_ms;
    out->tokens_per_s_per_gpu = p.replica_rate / p.replica_gpus;
    out->tpot_ms = p.tpot_ms;
    out->ttft_ms = p.ttft_ms;
    return 0;
}

/* Every batch of one layout (scheme, gpus); stops once the batch no longer grows. */
static int trace_layout(struct gp_frontier *out, struct gp_workload *w, const struct gp_gpu *gpu,
                        const struct gp_efficiency *eff, const char *stack)
{
    struct gp_frontier_point p;
    int last = 0;

    for (int step = 0, batch = 1; step < MAX_BATCH_STEPS; step++, batch *= 2) {
        if (point_at(&p, w, gpu, eff, batch))
            continue;
        if (p.batch == last)
            break;
        last = p.batch;
        gp_text_copy(p.stack, sizeof(p.stack), stack ? stack : "");
        if (push(out, &p))
            return GP_ENOMEM;
    }
    return 0;
}

int gp_frontier_add(struct gp_frontier *out, const struct gp_workload *w, const struct gp_gpu *gpu,
                    const struct gp_efficiency *eff, const char *stack)
{
    struct gp_workload open = *w;
    size_t first = out->count;
    const struct gp_inference *in = &w->inference;

    /* The curve is every speed: no latency target, no interactivity floor, the whole engine. */
    open.inference.load = GP_LOAD_MAX;
    open.inference.tpot_ms = open.inference.ttft_ms = 0;
    open.inference.min_tokens_per_s_per_user = 0;
    for (size_t s = 0; s < GP_LAYOUT_SEARCHED; s++) {
        if (in->layout != GP_LAYOUT_CHOOSE && gp_layout_searched[s] != in->layout)
            continue;
        for (int gpus = 1; gpus <= gpu->gpus_per_node && gpus <= 8; gpus *= 2) {
            if ((in->layout_gpus > 0 && gpus != in->layout_gpus) ||
                !gp_layout_valid_for(gp_layout_searched[s], gpus, w->model.experts))
                continue;
            open.inference.layout = gp_layout_searched[s];
            open.inference.layout_gpus = gpus;
            if (trace_layout(out, &open, gpu, eff, stack))
                return GP_ENOMEM;
        }
    }
    out->count = first + pareto(out->points + first, out->count - first);
    return 0;
}

int gp_plan_frontier(struct gp_frontier *out, const struct gp_plan_request *req)
{
    const struct gp_workload *w = &req->base.workload;
    const struct gp_stack *list[GP_PLAN_MAX_STACKS];
    struct gp_efficiency eff;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    if (w->kind != GP_WORKLOAD_INFERENCE)
        return gp_error_set(GP_EINVALID, "the frontier is of inference workloads; '%s' is %s",
                            w->name, gp_workload_kind_name(w->kind));
    for (size_t g = 0; g < req->gpu_count && !rc; g++) {
        size_t k = gp_plan_stacks_for(list, GP_PLAN_MAX_STACKS, req, req->gpus[g], w->kind);
        for (size_t i = 0; i < k && !rc; i++) {
            rc = gp_plan_efficiency(&eff, req, req->gpus[g], list[i]);
            if (!rc)
                rc = gp_frontier_add(out, w, req->gpus[g], &eff, list[i] ? list[i]->name : NULL);
        }
    }
    if (rc)
        gp_frontier_release(out);
    return rc;
}

void gp_frontier_release(struct gp_frontier *f)
{
    if (!f)
        return;
    free(f->points);
    memset(f, 0, sizeof(*f));
}
