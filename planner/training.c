/* Training at scale: tensor parallelism inside a node, context parallelism for long sequences,
 * pipeline stages across nodes with an interleaved schedule, data parallelism over the scale-out
 * network with its gradient reduce-scatter and parameter all-gather partly hidden behind compute,
 * and a global batch that grows when the data-parallel ranks outnumber its sequences. */
#include "planner/training.h"

#include <math.h>
#include <string.h>

#include "util/fminmax.h"

/* Gradients and gathered parameters travel in bf16. */
#define GRAD_BYTES 2.0
/* Context parallelism splits a sequence into chunks of at least this many tokens. */
#define MIN_CP_CHUNK 1024
/* Fleets are counted in int; beyond this no target is reachable anyway. */
#define MAX_FLEET 1e9

/* One layout: model-parallel degrees, the data-parallel width and what a run takes. */
struct layout {
    int tp, cp, pp, dp;
    double n;       /* GPUs */
    double seconds; /* wall-clock time of the run */
    double mfu;     /* achieved model-FLOPs utilisation of the fleet */
};

/* The constants of one planning run. */
struct job {
    const struct gp_workload *w;
    const struct gp_gpu *gpu;
    const struct gp_efficiency *eff;
    double peak;        /* FLOP/s per GPU at the precision */
    double mfu;         /* the GPU's MFU for large GEMMs, after `scale` */
    double net;         /* achieved share of link bandwidth */
    double flops_token; /* FLOPs per trained token */
};

/* FLOPs per token: forward 2, activation gradients 2, weight gradients 2 x the trainable share,
 * and another forward with full recomputation. */
static double flops_per_token(const struct gp_workload *w)
{
    const struct gp_training *t = &w->training;
    double trainable = t->trainable_fraction > 0 ? t->trainable_fraction : 1.0;
    return (4.0 + 2.0 * trainable + (t->recompute ? 2.0 : 0.0)) * gp_model_active_params(&w->model);
}

static double trainable(const struct gp_training *t)
{
    return t->trainable_fraction > 0 ? t->trainable_fraction : 1.0;
}

/* Sequences per optimizer step: the configured batch, grown so every data-parallel rank gets at
 * least one micro-batch. */
static double batch_sequences(const struct gp_training *t, int dp)
{
    double seqs = gp_fmax(1.0, floor(t->global_batch_tokens / t->seq_len));
    return gp_fmax(seqs, (double)dp * t->micro_batch);
}

/* Bytes one GPU holds apart from activations: weights, gradients and optimizer states sharded
 * by ZeRO stage over dp, and the runtime. */
static double state_bytes(const struct job *j, int tp, int pp, double dp)
{
    const struct gp_training *t = &j->w->training;
    double params = j->w->model.params / (tp * pp), live = params * trainable(t);
    double weights = params * 2.0 / (t->zero_stage >= 3 ? dp : 1);
    double grads = live * GRAD_BYTES / (t->zero_stage >= 2 ? dp : 1);
    double optim = live * t->optimizer_bytes / (t->zero_stage >= 1 ? dp : 1);
    return weights + grads + optim + j->eff->runtime_overhead_gb * 1e9;
}

/* Activation bytes one GPU holds without context parallelism (they shrink as 1/cp). Korthikanti
 * et al.: 34 s b d bytes per layer with tensor and sequence parallelism (flash attention removes
 * the s^2 term); full recomputation keeps only each layer's input. With 1F1B the first stage
 * holds min(pp, micro-batches) micro-batches of L/pp layers. */
static double activation_bytes(const struct job *j, int tp, int pp, double dp)
{
    const struct gp_training *t = &j->w->training;
    const struct gp_model_arch *m = &j->w->model;
    double sbd = (double)t->seq_len * t->micro_batch * m->hidden;
    double micro = batch_sequences(t, (int)gp_fmin(dp, 2e9)) / (dp * t->micro_batch);
    double layer_full = 34.0 * sbd / tp, layers = (double)m->layers / pp;
    double in_flight = gp_fmin((double)pp, micro);
    return t->recompute ? in_flight * layers * 2.0 * sbd / tp + layer_full
                        : in_flight * layers * layer_full;
}

static double memory_bytes(const struct job *j, int tp, int cp, int pp, double dp)
{
    return state_bytes(j, tp, pp, dp) + activation_bytes(j, tp, pp, dp) / cp;
}

/* Bandwidth of the slowest link a group of `span` consecutive GPUs talks over, B/s one way. */
static double link_bw(const struct job *j, double span)
{
    if (span <= j->gpu->gpus_per_node)
        return j->gpu->scaleup_gbs * 1e9 / 2.0 * j->net;
    double nic = j->gpu->scaleout_gbps > 0 ? j->gpu->scaleout_gbps : 100.0;
    return nic * 1e9 / 8.0 * j->net;
}

/* Rounds of a tree collective over `n` ranks: ceil(log2 n). */
static double tree_depth(int n)
{
    int depth = 0;
    for (long x = 1; x < n; x <<= 1)
        depth++;
    return depth;
}

/* Seconds of one optimizer step of layout `l` (n, degrees set) over `tokens` of batch. */
static double step_seconds(const struct job *j, const struct layout *l, double *mfu_out)
{
    const struct gp_training *t = &j->w->training;
    const struct gp_model_arch *m = &j->w->model;
    double seqs = batch_sequences(t, l->dp), tokens = seqs * t->seq_len;
    double micro = seqs / ((double)l->dp * t->micro_batch);
    /* Smaller GEMMs reach less of the peak: the FFN GEMM of one micro-batch on one GPU. */
    const struct gp_eff_curve *c = gp_efficiency_gemm(j->eff, j->w->training.precision);
    double s = 2.0 * (double)t->seq_len / l->cp * t->micro_batch * m->hidden * m->ffn / l->tp;
    double size = c->eff_max > 0 ? gp_eff_at(c, s) / c->eff_max : 1.0;
    double mfu = j->mfu * size;
    double compute = j->flops_token * tokens / (l->n * j->peak * mfu);
    /* Interleaved 1F1B: one layer per virtual stage once there are pp micro-batches. */
    double v = micro >= l->pp ? gp_fmax(1.0, floor((double)m->layers / l->pp)) : 1.0;
    double bubble = l->pp > 1 ? (l->pp - 1) / (v * micro + l->pp - 1) : 0.0;
    double pipe = compute / (1.0 - bubble);
    /* Data parallel: reduce-scatter of gradients and all-gather of parameters (each ring moves
     * (dp-1)/dp of the shard), over the NIC once the group leaves the node. */
    double shard = m->params / (l->tp * l->pp) * trainable(t) * GRAD_BYTES;
    double group = (double)l->tp * l->cp * l->pp;
    double span = group * l->dp;
    double dp_s = l->dp > 1 ? 2.0 * (l->dp - 1) / l->dp * shard / link_bw(j, span) +
                                  2.0 * tree_depth(l->dp) * j->eff->net_latency_s
                            : 0.0;
    /* ZeRO-3 gathers each micro-batch's weights for the forward and the backward pass. */
    if (t->zero_stage >= 3 && l->dp > 1)
        dp_s += micro * 2.0 * (l->dp - 1) / l->dp * m->params / (l->tp * l->pp) * 2.0 /
                link_bw(j, span);
    double exposed = gp_fmax(dp_s * (1.0 - j->eff->dp_overlap), dp_s - compute);
    /* Optimizer update: read and write the states, gradients and weights of the shard. */
    double opt_bytes = shard / GRAD_BYTES * (t->optimizer_bytes + 2.0 * GRAD_BYTES) * 2.0 /
                       (t->zero_stage >= 1 ? l->dp : 1);
    double update = opt_bytes / (j->gpu->hbm_tbs * 1e12 * j->eff->bandwidth.eff_max);
    double step = pipe + exposed + update;
    *mfu_out = mfu * compute / step;
    return step;
}

/* Evaluate layout *l at its n: time of the run. The batch can grow with dp, and beyond the
 * critical batch more tokens are needed to reach the same loss (McCandlish et al. 2018). */
static void run_seconds(const struct job *j, struct layout *l)
{
    const struct gp_training *t = &j->w->training;
    double mfu = 0, step = step_seconds(j, l, &mfu);
    double b = batch_sequences(t, l->dp) * t->seq_len;
    double tokens = t->tokens;

    if (t->critical_batch_tokens > 0)
        tokens *=
            (1.0 + b / t->critical_batch_tokens) /
            (1.0 + gp_fmax(t->global_batch_tokens, (double)t->seq_len) / t->critical_batch_tokens);
    l->seconds = tokens / b * step;
    l->mfu = mfu * t->tokens / tokens;
}

/* Size the fleet of layout *l for the deadline: n grows with the time it still misses. */
static void size_for_deadline(const struct job *j, struct layout *l)
{
    const struct gp_training *t = &j->w->training;
    double group = (double)l->tp * l->cp * l->pp, limit = t->deadline_hours * 3600.0;
    double n = ceil(j->flops_token * t->tokens / (limit * j->peak * j->mfu) / group) * group;

    l->n = gp_fmax(group, n);
    for (int pass = 0; pass < 6; pass++) {
        l->dp = (int)(l->n / group);
        run_seconds(j, l);
        if (l->seconds <= limit * (1.0 + 1e-9) || l->n > MAX_FLEET)
            return;
        l->n = gp_fmin(2.0 * MAX_FLEET, ceil(l->n * l->seconds / limit / group) * group);
    }
    l->dp = (int)gp_fmin(l->n / group, 2e9);
    run_seconds(j, l);
}

/* The smallest context-parallel degree that fits memory at tp x pp on `n` GPUs, or 0; with
 * `exact` the group must divide n. */
static int fit_cp(const struct job *j, int tp, int pp, double n, bool exact)
{
    const struct gp_training *t = &j->w->training;
    double capacity = j->gpu->hbm_gb * 1e9;
    int cp = 1;

    /* The states shrink with the data-parallel width, which is widest without cp. */
    if (state_bytes(j, tp, pp, gp_fmax(1.0, n / (tp * pp))) >= capacity)
        return 0;
    for (; cp <= 64 && (cp == 1 || (double)t->seq_len / cp >= MIN_CP_CHUNK); cp *= 2) {
        double group = (double)tp * cp * pp, dp = gp_fmax(1.0, floor(n / group));
        if (exact && fmod(n, group) != 0)
            continue;
        if (memory_bytes(j, tp, cp, pp, gp_fmin(dp, 2e9)) <= capacity)
            return cp;
    }
    return 0;
}

/* Whether layout a beats b: fewer GPUs for a deadline, else less time. */
static bool better(const struct gp_training *t, const struct layout *a, const struct layout *b)
{
    if (b->n == 0)
        return true;
    if (t->gpus == 0 && a->n != b->n)
        return a->n < b->n;
    return a->seconds < b->seconds;
}

/* Search the layouts: tensor parallel up to the node, pipeline stages, the smallest context
 * parallelism that fits. A fixed fleet tries groups up to four times the first that fits; a
 * deadline takes the first group that fits, tensor parallelism filling the node first. */
static bool search(const struct job *j, struct layout *best)
{
    const struct gp_training *t = &j->w->training;
    /* For a deadline, memory is checked at the fleet the compute alone needs; the sized fleet
     * is checked again. */
    double estimate =
        t->gpus > 0
            ? t->gpus
            : ceil(j->flops_token * t->tokens / (t->deadline_hours * 3600.0 * j->peak * j->mfu));
    int first_fit = 0;

    memset(best, 0, sizeof(*best));
    for (int group = 1; group <= 1 << 16; group *= 2) {
        if (first_fit && (t->gpus == 0 || group > 4 * first_fit))
            break;
        int widest = 1;
        while (widest * 2 <= group && widest * 2 <= j->gpu->gpus_per_node &&
               widest < GP_TRAINING_MAX_TP)
            widest *= 2;
        for (int tp = 1; tp <= widest; tp *= 2) {
            int pp = group / tp;
            /* For a deadline, tensor parallelism fills the node first (the widest two). */
            if (t->gpus == 0 && tp * 4 <= widest)
                continue;
            if (pp > j->w->model.layers || (t->tensor_parallel && tp != t->tensor_parallel) ||
                (t->pipeline_parallel && pp != t->pipeline_parallel))
                continue;
            int cp = fit_cp(j, tp, pp, estimate, t->gpus > 0);
            if (cp == 0 || (t->gpus > 0 && t->gpus % (tp * cp * pp)))
                continue;
            struct layout l = {.tp = tp, .cp = cp, .pp = pp};
            if (t->gpus > 0) {
                l.n = t->gpus;
                l.dp = t->gpus / (tp * cp * pp);
                run_seconds(j, &l);
            } else {
                size_for_deadline(j, &l);
                if (memory_bytes(j, tp, cp, pp, (double)l.dp) > j->gpu->hbm_gb * 1e9)
                    continue;
            }
            if (!first_fit)
                first_fit = group;
            if (better(t, &l, best))
                *best = l;
        }
    }
    return best->n > 0;
}

void gp_training_plan(struct gp_perf *out, const struct gp_workload *w, const struct gp_gpu *gpu,
                      const struct gp_efficiency *eff, double scale, int max_gpus)
{
    const struct gp_training *t = &w->training;
    struct job j = {.w = w, .gpu = gpu, .eff = eff};
    struct layout best;

    j.peak = gpu->peak_tflops[out->precision] * 1e12;
    j.mfu = gp_fmin(1.0, (t->mfu > 0 ? t->mfu : eff->mfu) * scale);
    j.net = gp_fmin(1.0, eff->net_efficiency * scale);
    j.flops_token = flops_per_token(w);
    if (!search(&j, &best)) {
        out->notes |= GP_NOTE_DOES_NOT_FIT;
        return;
    }
    if (best.n > MAX_FLEET) {
        /* Not a fleet anyone can build; say so rather than "does not fit". */
        out->notes |= GP_NOTE_OVER_MAX_GPUS;
        return;
    }
    out->feasible = true;
    out->tp = best.tp;
    out->cp = best.cp;
    out->pp = best.pp;
    out->batch = t->micro_batch;
    out->gpus = (int)best.n;
    out->train_hours = best.seconds / 3600.0;
    out->replica_rate = t->tokens / best.seconds;
    out->mfu = best.mfu;
    out->bound = GP_BOUND_COMPUTE;
    out->busy = 1.0;
    out->compute_share = 1.0;
    if (max_gpus > 0 && best.n > max_gpus) {
        out->feasible = false;
        out->notes |= GP_NOTE_OVER_MAX_GPUS;
    }
}
