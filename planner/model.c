/* The performance model: roofline per operation with size-dependent efficiencies, memory fit,
 * tensor-parallel all-reduce, batch choice under latency targets, and training time. */
#include "planner/model.h"

#include "planner/layout.h"
#include "planner/training.h"

#include <math.h>
#include <string.h>

#include "util/fminmax.h"

/* Activations and all-reduce payloads travel in bf16. */
#define ACT_BYTES 2.0

double gp_model_whole_units(double x)
{
    return ceil(x * (1.0 - 1e-12));
}

const char *gp_bound_name(enum gp_bound b)
{
    switch (b) {
    case GP_BOUND_COMPUTE:
        return "compute";
    case GP_BOUND_MEMORY:
        return "memory";
    case GP_BOUND_INTERCONNECT:
        return "interconnect";
    }
    return "?";
}

enum gp_precision gp_model_precision(const struct gp_gpu *gpu, enum gp_precision want)
{
    static const enum gp_precision wider[GP_PRECISION_COUNT] = {
        [GP_FP4] = GP_FP6,   [GP_FP6] = GP_FP8,   [GP_FP8] = GP_BF16,
        [GP_INT8] = GP_BF16, [GP_BF16] = GP_FP16, [GP_FP16] = GP_FP32,
        [GP_TF32] = GP_FP32, [GP_FP32] = GP_FP32, [GP_FP64] = GP_FP64,
    };
    enum gp_precision p = want;

    for (int step = 0; step < GP_PRECISION_COUNT; step++) {
        if (gpu->peak_tflops[p] > 0)
            return p;
        if (wider[p] == p)
            break;
        p = wider[p];
    }
    return p;
}

double gp_model_kv_bytes_per_token(const struct gp_model_arch *m, enum gp_precision kv)
{
    return gp_model_kv_bytes_per_gpu(m, kv, 1);
}

double gp_model_kv_bytes_per_gpu(const struct gp_model_arch *m, enum gp_precision kv, int t)
{
    /* Multi-head latent attention caches one compressed latent and the RoPE key per layer, the
     * same on every tensor-parallel rank. */
    if (m->kv_lora_rank > 0)
        return (double)m->layers * (m->kv_lora_rank + m->rope_dim) * gp_precision_bytes(kv);
    double heads = ceil((double)m->kv_heads / t);
    return 2.0 * m->layers * heads * m->head_dim * gp_precision_bytes(kv);
}

double gp_model_kv_context(const struct gp_model_arch *m, double ctx)
{
    if (m->sliding_layers <= 0 || m->sliding_window <= 0 || m->layers <= 0)
        return ctx;
    double sliding = (double)m->sliding_layers / m->layers;
    return (1.0 - sliding) * ctx + sliding * gp_fmin(ctx, (double)m->sliding_window);
}

double gp_model_expert_bytes(const struct gp_model_arch *m, enum gp_precision prec)
{
    double bytes = gp_precision_bytes(prec);
    return m->expert_weight_bits > 0 ? gp_fmin(bytes, m->expert_weight_bits / 8.0) : bytes;
}

double gp_model_attention_width(const struct gp_model_arch *m)
{
    /* With MLA the decode step attends in the latent space (absorbed projections). */
    if (m->kv_lora_rank > 0)
        return (double)m->heads * (m->kv_lora_rank + m->rope_dim);
    return (double)m->heads * m->head_dim;
}

/* Achieved rates on one GPU after efficiencies: the terms of every roofline below. */
struct rates {
    double flops;      /* peak * eff_max for large GEMMs, FLOP/s */
    double attn;       /* the same for attention, which runs at the KV cache's precision */
    double gemm_half;  /* s_half of the GEMM curve, FLOPs */
    double eflops;     /* peak * eff_max in the routed experts' compute precision, FLOP/s */
    double erouted;    /* what the grouped expert GEMMs sustain on routed tokens: eflops times
                          the stack's expert_gemm share, FLOP/s */
    double egemm_half; /* s_half of the experts' GEMM curve, FLOPs */
    double ebytes;     /* bytes of one routed activation in the experts' compute precision */
    double bytes;      /* HBM bandwidth * eff_max for large transfers, B/s */
    double bw_half;    /* s_half of the bandwidth curve, bytes */
    double link;       /* achieved one-way scale-up bandwidth, B/s */
};

/* Time of `n` operations moving `total` in all: sum of (s_i + s_half) / rate, which is what
 * eff(s) = eff_max * s / (s + s_half) makes of each. */
static double op_time(double total, double n, double half, double rate)
{
    return (total + n * half) / rate;
}

/* The per-step terms of one layout, each linear in the batch b: the sequences of one attention
 * group (the whole replica under tp and tep, one GPU under dep and dpa). */
struct terms {
    struct gp_layout_shape sh; /* the layout's degrees */
    double cap;                /* most sequences per group that fit the KV cache and the engine */
    double kv_tok;             /* KV cache bytes per token on one GPU */
    double dense, expw;        /* bytes of dense weights and of the experts on one GPU */
    double c0, c;              /* GEMM fixed and per-sequence compute time, s */
    double epad;               /* compute lost to short expert tiles when every expert on the
                                  GPU is reached, s (scaled by the share reached) */
    double a0, a;              /* attention fixed and per-sequence time (with the routed tokens'
                                  activation traffic, e), s */
    double e;                  /* routed tokens' activation traffic per sequence, s */
    double k0, k;              /* collective fixed and per-sequence time, s */
    double o;                  /* fixed step overhead, s */
    double pre, pre_c, pre_m;  /* one request's prefill: time, its compute and memory parts, s */
};

/* One layout that meets the targets at batch `b`; what a plan reports of it is filled in only for
 * the layout chosen (describe_layout). */
struct candidate {
    struct terms x;    /* the layout's terms */
    double b;          /* sequences per attention group in a step */
    double gemm, comm; /* a step's GEMM and collective time, s */
    double step, tpot; /* a step's time, and the time per output token with prefills, s */
    double share;      /* share of a GPU's experts the step reaches */
    double wread;      /* time to read the weights the batch touches, s */
    double rate;       /* output tokens/s of one replica */
    double per_gpu;    /* output tokens/s per GPU */
};

/* Share of a GPU's experts that some token of a step reaches: every attention group's b
 * sequences are routed over all the experts. */
static double touched_share(const struct terms *x, const struct gp_model_arch *m, double b)
{
    if (m->experts <= 1)
        return 1.0;
    return 1.0 - pow(1.0 - (double)m->active_experts / m->experts, b * x->sh.attention_dp);
}

/* Grouped kernels of one MoE block's routed experts: gate and up fused, then down. Engines run
 * each as one kernel over every expert the step reaches (fused MoE), whatever the layout. */
#define GROUPED_KERNELS_PER_MOE_BLOCK 2.0

/* GEMMs outside the routed experts in one forward pass: attention's two per block (QKV and
 * output), two per dense FFN and per shared expert, and the head. */
static double dense_gemms(const struct gp_model_arch *m)
{
    double moe = gp_model_moe_layers(m);
    return 2.0 * m->layers + 2.0 * (m->layers - moe) + 2.0 * moe * m->shared_experts + 1.0;
}

static double expert_kernels(const struct gp_model_arch *m)
{
    return GROUPED_KERNELS_PER_MOE_BLOCK * gp_model_moe_layers(m);
}

/* Time to read the weights a step touches: the dense ones, and the `share` of the experts some
 * token of the step is routed to (touched_share), one transfer per kernel. */
static double weights_read(const struct terms *x, const struct gp_model_arch *m,
                           const struct rates *r, double share)
{
    return op_time(x->dense + x->expw * share, dense_gemms(m) + expert_kernels(m), r->bw_half,
                   r->bytes);
}

/* GEMM time of a step that does not grow with its tokens: the kernels' fixed cost, and the
 * short tiles of the `share` of the experts the step reaches, s. */
static double gemm_fixed(const struct terms *x, double share)
{
    return x->c0 + x->epad * share;
}

/* Expert-parallel token exchange: each token's hidden state goes to the GPUs of its experts and
 * back (at most once per GPU), twice per MoE block; link time per token. */
static double all_to_all(const struct gp_model_arch *m, int ep, const struct rates *r)
{
    double copies = gp_fmin((double)m->active_experts, (double)ep) * (ep - 1) / ep;
    return 2.0 * gp_model_moe_layers(m) * copies * m->hidden * ACT_BYTES / r->link;
}

/*
 * The collectives of one forward pass of a layout: fixed latency in *fixed, link time per token
 * of one attention group in *per_token.
 *   attention tensor-parallel (tp, tep): a ring all-reduce after attention and after every FFN
 *     or MoE block (under tep the experts' partial sums are reduced the same way);
 *   dep: an all-to-all dispatch and combine in every MoE block;
 *   dpa: every group's tokens are gathered to all GPUs for the tensor-parallel experts and the
 *     sums scattered back, in every MoE block.
 * A token exchange between attention groups (dep, dpa) waits for every group and pays the
 * exchange kernels' latency (alltoall_latency_us), not an all-reduce's.
 */
static void collectives(double *fixed, double *per_token, const struct gp_layout_shape *sh,
                        const struct gp_model_arch *m, const struct rates *r,
                        const struct gp_efficiency *eff)
{
    double latency = eff->net_latency_s;
    double alltoall = eff->alltoall_latency_s > 0 ? eff->alltoall_latency_s : latency;
    double moe = gp_model_moe_layers(m), act = m->hidden * ACT_BYTES / r->link;
    int ta = sh->attention_tp, n = sh->gpus;

    *fixed = 0.0;
    *per_token = 0.0;
    if (ta > 1) {
        *fixed = 2.0 * m->layers * latency;
        *per_token = 2.0 * m->layers * 2.0 * (ta - 1) / ta * act;
    } else if (n > 1) {
        *fixed = 2.0 * moe * alltoall;
        *per_token = sh->expert_ep > 1 ? all_to_all(m, n, r) : moe * 2.0 * (n - 1) * act;
    }
}

/*
 * Share of its answer's KV cache a sequence holds on average over its life when the engine
 * reserves `reserve` of the answer at admission: r g tokens until the answer outgrows them, then
 * the answer itself, (r^2 + 1) / 2 of g. 1/2 when blocks come as tokens do (vLLM, SGLang), all
 * of it when the whole answer is reserved (TensorRT-LLM's GUARANTEED_NO_EVICT).
 */
static double held_answer_share(double reserve)
{
    return (1.0 + reserve * reserve) / 2.0;
}

double gp_model_routed_traffic(const struct gp_model_arch *m, double expert_bytes,
                               const struct gp_layout_shape *sh)
{
    double h = m->hidden, inner = gp_model_expert_width(m), k = m->active_experts;
    if (m->experts <= 1 || !(k > 0))
        return 0.0;
    /* per routed copy: hidden-wide and expert-wide tensors, and the token's own share */
    double hidden = h * (expert_bytes + 2.0 * ACT_BYTES) + 2.0 * ACT_BYTES * h / k;
    double wide = inner * (4.0 * ACT_BYTES + expert_bytes);
    /* copies a GPU handles per sequence of a group: of every group's, those routed to its
     * experts (1/ep) in hidden width, and its slice of them (1/gpus) in expert width */
    double copies_hidden = k * sh->attention_dp / sh->expert_ep;
    double copies_wide = k / sh->attention_tp;
    return gp_model_moe_layers(m) * (copies_hidden * hidden + copies_wide * wide);
}

/* What every layout of one inference evaluation shares: the request's sizes, the model's
 * weights, and the terms that do not depend on how the model is split. */
struct shared {
    double L, s, g;      /* layers; prompt and output tokens of a request */
    double ctx, full;    /* KV context of a decode step on average and at the end, tokens */
    double held;         /* KV context a sequence holds on average over its life, tokens */
    double dense_bytes;  /* weights outside the routed experts, bytes */
    double expert_bytes; /* the routed experts' weights, bytes */
    double compute;      /* GEMM time of one token on one GPU before any split, s */
    double attn_flops;   /* a decode token's attention FLOPs: 4 L x width x ctx */
    double prompt_flops; /* a prompt's attention FLOPs: s x 2 L x heads x head_dim x context */
    double dense_fixed;  /* fixed cost of the dense GEMMs of one forward pass, s */
    double gemm_fixed;   /* the same with the experts' grouped kernels, s */
    double expert_pad;   /* compute of expert_tokens_half rows through every routed expert, s */
    double attn_fixed;   /* fixed cost of reading each layer's KV cache, s */
    double overhead;     /* fixed step overhead, s */
    double engine_max;   /* most sequences the engine batches */
    double hbm;          /* HBM of one GPU, bytes */
};

static void shared_init(struct shared *k, const struct gp_workload *w, const struct gp_gpu *gpu,
                        const struct gp_efficiency *eff, const struct rates *r,
                        enum gp_precision prec)
{
    const struct gp_model_arch *m = &w->model;
    const struct gp_inference *in = &w->inference;
    double experts = gp_model_expert_params(m), active = gp_model_active_params(m);
    /* Routed experts a token reaches compute at the experts' rate, the rest at the model's. */
    double routed = experts * m->active_experts / m->experts;
    double head = (double)m->heads * m->head_dim;

    k->L = m->layers;
    k->s = in->input_tokens;
    k->g = in->output_tokens;
    k->ctx = gp_model_kv_context(m, k->s + k->g / 2.0);
    k->full = gp_model_kv_context(m, k->s + k->g);
    k->held = gp_model_kv_context(m, k->s + k->g * held_answer_share(eff->kv_reserve));
    k->dense_bytes = (m->params - experts) * gp_precision_bytes(prec);
    k->expert_bytes = experts * gp_model_expert_bytes(m, prec);
    k->compute = 2.0 * ((active - routed) / r->flops + routed / r->erouted);
    k->attn_flops = 4.0 * k->L * gp_model_attention_width(m) * k->ctx;
    k->prompt_flops = k->s * 2.0 * k->L * head * gp_model_kv_context(m, k->s);
    k->dense_fixed = op_time(0, dense_gemms(m), r->gemm_half, r->flops);
    k->gemm_fixed = k->dense_fixed + op_time(0, expert_kernels(m), r->egemm_half, r->eflops);
    k->expert_pad = 2.0 * eff->expert_tokens_half * experts / r->eflops;
    k->attn_fixed = op_time(0, k->L, r->bw_half, r->bytes);
    k->overhead = eff->step_overhead_s + k->L * eff->layer_overhead_s;
    k->engine_max = in->max_batch > 0 ? in->max_batch : eff->max_batch;
    k->hbm = gpu->hbm_gb * 1e9;
}

/*
 * Bytes one GPU gives the KV cache when it holds `weights`: a workload's memory_fraction is a
 * share of HBM for everything (vLLM, SGLang); without one, the engine decides, as a share of
 * HBM or as a share of what weights and runtime leave free (TensorRT-LLM).
 */
static double kv_budget(const struct gp_workload *w, const struct gp_efficiency *eff,
                        const struct shared *k, double weights)
{
    double runtime = eff->runtime_overhead_gb * 1e9, fraction = w->inference.memory_fraction;

    if (!(fraction > 0) && eff->kv_free_fraction > 0)
        return (k->hbm - weights - runtime) * eff->kv_free_fraction;
    if (!(fraction > 0))
        fraction = eff->memory_fraction > 0 ? eff->memory_fraction : 0.9;
    return k->hbm * fraction - weights - runtime;
}

/*
 * Fill the terms of one layout; returns 1 when it does not fit memory. Each GPU holds 1/tp of
 * the dense weights and of each attention group's KV cache, and 1/gpus of the routed experts
 * (a slice of every expert under tp and dpa, whole experts under dep and tep). Per sequence of
 * a group, GEMM FLOPs divide by the attention degree in every layout: under dep and dpa a GPU
 * runs all of its own sequences' dense work and 1/gpus of every group's routed tokens.
 */
static int layout_terms(struct terms *x, const struct gp_workload *w,
                        const struct gp_efficiency *eff, const struct rates *r,
                        const struct shared *k, const struct gp_layout_shape *sh)
{
    const struct gp_model_arch *m = &w->model;
    /* degrees are powers of two: multiplying by their reciprocals divides exactly */
    double per_ta = 1.0 / sh->attention_tp, per_gpu = 1.0 / sh->gpus;

    x->sh = *sh; /* every field is set below before it is read */
    x->kv_tok = gp_model_kv_bytes_per_gpu(m, w->inference.kv_precision, sh->attention_tp);
    x->dense = k->dense_bytes * per_ta;
    x->expw = k->expert_bytes * per_gpu;
    double avail = kv_budget(w, eff, k, x->dense + x->expw);
    if (avail < x->kv_tok * k->full || (sh->gpus > 1 && !(r->link > 0)))
        return 1;
    x->cap = gp_fmin(floor(avail / (x->kv_tok * k->held)), k->engine_max);
    x->c0 = k->gemm_fixed;
    x->c = k->compute * per_ta;
    x->epad = k->expert_pad * per_gpu;
    x->a0 = k->attn_fixed;
    x->e = gp_model_routed_traffic(m, r->ebytes, sh) / r->bytes;
    x->a = gp_fmax(k->attn_flops * per_ta / r->attn, x->kv_tok * k->ctx / r->bytes) +
           eff->sequence_overhead_s + x->e;
    collectives(&x->k0, &x->k, sh, m, r, eff);
    x->o = k->overhead;
    /* Prefill of one request: GEMMs over s tokens (compute-bound for any real prompt), causal
     * attention, and the same collectives with s tokens of payload. In-flight batching runs a
     * prompt's chunks in the decode steps' grouped expert kernels, which pay their fixed cost
     * once per step: a prefill adds only its dense GEMMs'. */
    x->pre_c = k->s * x->c + k->dense_fixed + k->prompt_flops * per_ta / r->attn;
    x->pre_m = op_time(x->dense + x->expw, dense_gemms(m), r->bw_half, r->bytes);
    x->pre = gp_fmax(x->pre_c, x->pre_m) + x->e * k->s + x->k0 + x->k * k->s +
             k->L * eff->layer_overhead_s;
    return 0;
}

/* The tightest time-per-output-token limit of the targets, s; 0 for none. */
static double tpot_limit(const struct gp_inference *in)
{
    double lim = in->tpot_ms > 0 ? in->tpot_ms * 1e-3 : 0.0;
    if (in->min_tokens_per_s_per_user > 0) {
        double floor_lim = 1.0 / in->min_tokens_per_s_per_user;
        lim = lim > 0 ? gp_fmin(lim, floor_lim) : floor_lim;
    }
    return lim;
}

/* The most sequences per group the latency targets allow when a step reaches `share` of the
 * experts (each term is linear in the batch once the share is fixed), capped at x->cap. */
static double batch_within_targets(const struct terms *x, const struct gp_workload *w,
                                   const struct rates *r, double share)
{
    const struct gp_inference *in = &w->inference;
    double wread = weights_read(x, &w->model, r, share), p = x->pre / in->output_tokens;
    double b = x->cap, fixed = x->a0 + x->k0 + x->o, tpot = tpot_limit(in);
    double c0 = gemm_fixed(x, share);

    if (tpot > 0) {
        double lim = tpot - fixed;
        b = gp_fmin(
            b, gp_fmin((lim - c0) / (x->c + x->a + x->k + p), (lim - wread) / (x->a + x->k + p)));
    }
    if (in->ttft_ms > 0) {
        double lim = in->ttft_ms * 1e-3 - x->pre - fixed;
        b = gp_fmin(b, gp_fmin((lim - c0) / (x->c + x->a + x->k), (lim - wread) / (x->a + x->k)));
    }
    return b;
}

/* The limit for a batch of `b` sequences per group, at the share of experts they reach. */
static double limit_at(const struct terms *x, const struct gp_workload *w, const struct rates *r,
                       double b)
{
    return batch_within_targets(x, w, r, touched_share(x, &w->model, b));
}

/*
 * The largest batch per group within the latency targets, or 0. The limit is solved at the
 * share of experts the largest batch reaches, which for a mixture of experts is a floor: a
 * smaller batch reaches fewer experts and reads fewer of their weights. When that floor is
 * below one sequence, the layout is not refused on its word: if a single sequence meets the
 * targets, the limit at one sequence is a ceiling (the answer reaches at least as many
 * experts), and a bisection between them finds the largest batch whose own share meets the
 * targets (a larger batch only reaches more experts). Above one sequence the floor stands: the
 * same search there costs a quarter of the model's speed (docs/benchmarks.md), and the floor
 * never over-states a batch.
 */
static double choose_batch(const struct terms *x, const struct gp_workload *w,
                           const struct rates *r)
{
    double b = limit_at(x, w, r, x->cap);

    /* reaching no expert at all is the most any batch could gain: most refusals (a prompt that
     * cannot meet its first-token target) end here, without a search */
    if (b < 1.0 && w->model.experts > 1 && batch_within_targets(x, w, r, 0.0) >= 1.0) {
        /* ok meets the targets (0 trivially); over is past what they allow */
        double ok = 0.0, over = gp_fmin(floor(limit_at(x, w, r, 1.0)), x->cap) + 1.0;
        while (over - ok > 1.0) {
            double mid = floor((ok + over) / 2.0);
            if (limit_at(x, w, r, mid) >= mid)
                ok = mid;
            else
                over = mid;
        }
        b = ok;
    }
    b = floor(b);
    return b >= 1 ? b : 0;
}

/* The step of layout `c->x` at batch `b`: its parts, and the rates that follow. */
static void step_at(struct candidate *c, const struct gp_model_arch *m, const struct rates *r,
                    const struct shared *k, double b)
{
    const struct terms *x = &c->x;

    c->b = b;
    c->share = touched_share(x, m, b);
    c->wread = weights_read(x, m, r, c->share);
    c->gemm = gp_fmax(gemm_fixed(x, c->share) + x->c * b, c->wread);
    c->comm = x->k0 + x->k * b;
    c->step = c->gemm + x->a0 + x->a * b + c->comm + x->o;
    c->tpot = c->step + x->pre / k->g * b;
    c->rate = b * x->sh.attention_dp / c->tpot;
    c->per_gpu = c->rate * (1.0 / x->sh.gpus); /* exact: a power of two */
}

/*
 * One layout. A decode step is a roofline per operation class, each linear in the batch b:
 *   GEMMs      max(c0 + c b, w(b))   (compute; or reading the weights the batch touches)
 *   attention  a0 + a b              (reading each sequence's KV cache, or its FLOPs, and its
 *                                     routed tokens' activation traffic)
 *   collectives k0 + k b,  fixed overheads o,
 * and each sequence brings its prefill, amortised over its output tokens as p b. The time per
 * output token a user sees is the sum, so the largest b meeting a limit has a closed form.
 * Returns 0 when it fits, 1 when it does not fit memory, 2 when no batch meets the targets.
 */
static int try_layout(struct candidate *out, const struct gp_workload *w,
                      const struct gp_efficiency *eff, const struct rates *r,
                      const struct shared *k, const struct gp_layout_shape *sh)
{
    struct candidate c;

    if (layout_terms(&c.x, w, eff, r, k, sh))
        return 1;
    double b = choose_batch(&c.x, w, r);
    if (!(b >= 1))
        return 2;
    step_at(&c, &w->model, r, k, b);
    if (!(c.rate > 0) || !isfinite(c.tpot))
        return 2;
    *out = c;
    return 0;
}

/* What a plan reports of the chosen layout: latencies, how busy the GPU is, and its bound. */
static void describe_layout(struct gp_perf *out, const struct candidate *c,
                            const struct gp_efficiency *eff, const struct rates *r,
                            const struct shared *k)
{
    const struct terms *x = &c->x;
    double g = k->g, b = c->b;
    double comp_all = gemm_fixed(x, c->share) + x->c * b +
                      k->attn_flops / x->sh.attention_tp / r->attn * b + x->pre_c * b / g;
    double mem_all =
        c->wread + (x->kv_tok * k->ctx / r->bytes + x->e) * b + (x->pre_m + x->e * k->s) * b / g;

    out->layout = x->sh.scheme;
    out->replica_gpus = x->sh.gpus;
    out->tp = x->sh.attention_tp;
    out->ep = x->sh.expert_ep;
    out->pp = 1;
    out->batch = (int)b;
    out->replica_rate = c->rate;
    out->ttft_ms = (x->pre + c->step) * 1e3;
    out->tpot_ms = c->tpot * 1e3;
    out->busy = gp_fmin(
        1.0, (c->gemm + x->a0 + (x->a - eff->sequence_overhead_s) * b + c->comm + x->pre * b / g) /
                 c->tpot);
    out->compute_share = comp_all / (comp_all + mem_all);
    if (c->comm > comp_all && c->comm > mem_all)
        out->bound = GP_BOUND_INTERCONNECT;
    else
        out->bound = comp_all >= mem_all ? GP_BOUND_COMPUTE : GP_BOUND_MEMORY;
}

/*
 * The precision attention math runs in: the KV cache's, but no narrower than fp8 (attention
 * kernels dequantise fp4/fp6 caches) and never narrower than the weights' matmuls. Absorbed
 * multi-head latent attention decodes in bf16 whatever the cache holds: its kernels (FlashMLA,
 * 660 TFLOP/s on an H800) dequantise an fp8 latent before the matmuls.
 */
static enum gp_precision attention_precision(const struct gp_gpu *gpu,
                                             const struct gp_model_arch *m,
                                             enum gp_precision weights, enum gp_precision kv)
{
    enum gp_precision p = kv == GP_FP4 || kv == GP_FP6 ? GP_FP8 : kv;
    if (m->kv_lora_rank > 0 && gp_precision_bytes(p) < gp_precision_bytes(GP_BF16))
        p = GP_BF16;
    if (gp_precision_bytes(p) < gp_precision_bytes(weights))
        p = weights;
    return gp_model_precision(gpu, p);
}

/*
 * The precision routed experts compute in: the model's, unless their weights are stored in a
 * 4- or 6-bit format the GPU has no tensor-core path for; such weights are upcast to bf16 in
 * the GEMM (weight-only quantization: MXFP4 experts on Hopper run with bf16 activations).
 */
static enum gp_precision expert_precision(const struct gp_gpu *gpu, const struct gp_model_arch *m,
                                          enum gp_precision prec)
{
    double bits = m->expert_weight_bits;
    if (!(bits > 0) || bits >= 8.0 * gp_precision_bytes(prec))
        return prec;
    enum gp_precision stored = bits < 6.0 ? GP_FP4 : GP_FP6;
    return gpu->peak_tflops[stored] > 0 ? prec : gp_model_precision(gpu, GP_BF16);
}

static void rates_init(struct rates *r, const struct gp_gpu *gpu, const struct gp_efficiency *eff,
                       enum gp_precision prec, enum gp_precision attn, double scale, bool serving)
{
    const struct gp_eff_curve *gemm = gp_efficiency_gemm(eff, prec);
    const struct gp_eff_curve *attn_gemm = gp_efficiency_gemm(eff, attn);
    double sc = serving ? eff->serve_compute : 1.0, sm = serving ? eff->serve_memory : 1.0;

    r->flops = gpu->peak_tflops[prec] * 1e12 * gp_fmin(1.0, gemm->eff_max * sc * scale);
    double sa = serving ? eff->serve_attention : 1.0;
    r->attn = gpu->peak_tflops[attn] * 1e12 * gp_fmin(1.0, attn_gemm->eff_max * sa * scale);
    r->gemm_half = gemm->s_half;
    r->eflops = r->flops;
    r->erouted = r->flops;
    r->egemm_half = r->gemm_half;
    r->ebytes = gp_precision_bytes(prec);
    r->bytes = gpu->hbm_tbs * 1e12 * gp_fmin(1.0, eff->bandwidth.eff_max * sm * scale);
    r->bw_half = eff->bandwidth.s_half;
    r->link = gpu->scaleup_gbs * 1e9 / 2.0 * gp_fmin(1.0, eff->net_efficiency * scale);
}

/* The rates of one inference evaluation: the model's precision, attention at the cache's, and
 * the routed experts' grouped kernels at theirs and at the stack's share of a dense GEMM. */
static void inference_rates(struct rates *r, const struct gp_workload *w, const struct gp_gpu *gpu,
                            const struct gp_efficiency *eff, enum gp_precision prec, double scale)
{
    rates_init(r, gpu, eff, prec,
               attention_precision(gpu, &w->model, prec, w->inference.kv_precision), scale, true);
    enum gp_precision routed = expert_precision(gpu, &w->model, prec);
    r->ebytes = gp_precision_bytes(routed);
    if (routed != prec) {
        struct rates e;
        rates_init(&e, gpu, eff, routed, routed, scale, true);
        r->eflops = e.flops;
        r->erouted = e.flops;
        r->egemm_half = e.gemm_half;
    }
    if (eff->expert_gemm > 0)
        r->erouted = r->eflops * eff->expert_gemm;
}

/*
 * Whether layout `sh` (inside a node) is one the workload allows: one its model can run, and
 * matching whatever it pins. The degree keys (tensor_parallel, expert_parallel) pin
 * among tp, tep and dep; dpa is searched with them only when `layout` names it.
 */
static bool layout_allowed(const struct gp_inference *in, const struct gp_model_arch *m,
                           const struct gp_layout_shape *sh)
{
    enum gp_layout scheme = sh->scheme;

    if (!gp_layout_valid_for(scheme, sh->gpus, m->experts))
        return false;
    if ((in->layout != GP_LAYOUT_CHOOSE && scheme != in->layout) ||
        (in->layout_gpus > 0 && sh->gpus != in->layout_gpus))
        return false;
    if (in->tensor_parallel > 0 && sh->attention_tp != in->tensor_parallel)
        return false;
    if (in->expert_parallel > 0 && sh->expert_ep != in->expert_parallel)
        return false;
    /* Searched freely, tp over several GPUs is never tried for a MoE model: tep at the same
     * degree holds, computes and exchanges the same with fewer routed copies a GPU, so it wins. */
    if (scheme == GP_LAYOUT_TP && sh->gpus > 1 && m->experts > 1 &&
        in->layout == GP_LAYOUT_CHOOSE && in->tensor_parallel == 0 && in->expert_parallel == 0)
        return false;
    /* a tensor-parallel degree alone pins tp: tep needs its expert degree or its name */
    if (scheme == GP_LAYOUT_TEP && in->layout != GP_LAYOUT_TEP && in->tensor_parallel > 0 &&
        in->expert_parallel == 0)
        return false;
    return scheme != GP_LAYOUT_DPA || in->layout == GP_LAYOUT_DPA ||
           (in->tensor_parallel == 0 && in->expert_parallel == 0);
}

static void inference(struct gp_perf *out, const struct gp_workload *w, const struct gp_gpu *gpu,
                      const struct gp_efficiency *eff, double scale)
{
    const struct gp_inference *in = &w->inference;
    struct candidate best = {0}, c;
    struct gp_layout_shape sh;
    struct rates r;
    struct shared k;
    bool fits = false, have_best = false;
    /* For a rate target the layout that needs the fewest whole GPUs wins (replicas round up);
     * for "max", and on ties, the most throughput per GPU. */
    double demand = gp_inference_demand(in);
    double best_gpus = 0;

    if (in->layout_gpus > gpu->gpus_per_node || in->tensor_parallel > gpu->gpus_per_node ||
        in->expert_parallel > gpu->gpus_per_node) {
        out->notes |= GP_NOTE_BEYOND_SCALE_UP; /* a pinned layout wider than one fast domain */
        return;
    }
    inference_rates(&r, w, gpu, eff, out->precision, scale);
    shared_init(&k, w, gpu, eff, &r, out->precision);
    /* tp comes first: a dense model has no other layout */
    size_t schemes = w->model.experts > 1 ? GP_LAYOUT_SEARCHED : 1;
    for (size_t i = 0; i < schemes; i++) {
        /* a replica stays inside one scale-up domain (a node, or an NVL72 rack's 72 GPUs) */
        for (int n = 1; n <= gpu->gpus_per_node; n *= 2) {
            gp_layout_shape(&sh, gp_layout_searched[i], n);
            if (!layout_allowed(in, &w->model, &sh))
                continue;
            int rc = try_layout(&c, w, eff, &r, &k, &sh);
            if (rc != 1)
                fits = true;
            if (rc != 0)
                continue;
            double gpus = in->load == GP_LOAD_MAX ? 0 : gp_model_whole_units(demand / c.rate) * n;
            if (!have_best || gpus < best_gpus || (gpus == best_gpus && c.per_gpu > best.per_gpu)) {
                best = c;
                best_gpus = gpus;
                have_best = true;
            }
        }
    }
    if (!have_best) {
        out->notes |= fits ? GP_NOTE_LATENCY_UNMET : GP_NOTE_DOES_NOT_FIT;
        return;
    }
    out->feasible = true;
    describe_layout(out, &best, eff, &r, &k);
}

static void generic(struct gp_perf *out, const struct gp_workload *w, const struct gp_gpu *gpu,
                    const struct gp_efficiency *eff, double scale)
{
    const struct gp_generic *g = &w->generic;
    struct rates r;

    rates_init(&r, gpu, eff, out->precision, out->precision, scale, false);
    double tc = g->flops > 0 ? op_time(g->flops, 1, r.gemm_half, r.flops) : 0.0;
    double tm = g->bytes > 0 ? op_time(g->bytes, 1, r.bw_half, r.bytes) : 0.0;
    double seconds = gp_fmax(tc, tm) + eff->step_overhead_s;

    out->feasible = true;
    out->tp = 1;
    out->pp = 1;
    out->replica_rate = 1.0 / seconds;
    out->bound = tc >= tm ? GP_BOUND_COMPUTE : GP_BOUND_MEMORY;
    out->busy = gp_fmax(tc, tm) / seconds;
    out->compute_share = tc >= tm ? 1.0 : 0.0;
}

/* A vendor claim, or a serving calibration, multiplies the modelled throughput; latencies and
 * training time shrink by the same factor. 0 and 1 change nothing. */
static void apply_claim(struct gp_perf *out, double factor, bool inference)
{
    if (!(factor > 0) || factor == 1)
        return;
    out->replica_rate *= factor;
    if (inference) {
        out->ttft_ms /= factor;
        out->tpot_ms /= factor;
    } else {
        out->train_hours /= factor;
        out->mfu *= factor;
    }
}

void gp_model_evaluate(struct gp_perf *out, const struct gp_workload *w, const struct gp_gpu *gpu,
                       const struct gp_efficiency *eff, double scale, int max_gpus)
{
    enum gp_precision want = w->kind == GP_WORKLOAD_INFERENCE  ? w->inference.precision
                             : w->kind == GP_WORKLOAD_TRAINING ? w->training.precision
                                                               : w->generic.precision;

    memset(out, 0, sizeof(*out));
    out->precision = gp_model_precision(gpu, want);
    if (out->precision != want)
        out->notes |= GP_NOTE_UNSUPPORTED_PRECISION;
    if (!(gpu->peak_tflops[out->precision] > 0) || !(gpu->hbm_tbs > 0) || !(gpu->hbm_gb > 0)) {
        out->notes |= GP_NOTE_UNSUPPORTED_PRECISION;
        return;
    }
    switch (w->kind) {
    case GP_WORKLOAD_INFERENCE:
        inference(out, w, gpu, eff, scale);
        apply_claim(out, eff->claim_inference, true);
        apply_claim(out, eff->serving_factor, true);
        break;
    case GP_WORKLOAD_TRAINING:
        gp_training_plan(out, w, gpu, eff, scale, max_gpus);
        apply_claim(out, eff->claim_training, false);
        break;
    case GP_WORKLOAD_GENERIC:
        generic(out, w, gpu, eff, scale);
        break;
    }
}
