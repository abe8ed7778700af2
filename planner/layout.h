/* How an inference replica splits a model over its GPUs: the layouts serving engines use
 * (TensorRT-LLM's TP, DEP and TEP; SGLang's DP attention), their degrees, and their names. */
#ifndef GP_PLANNER_LAYOUT_H
#define GP_PLANNER_LAYOUT_H

#include <stddef.h>

enum gp_layout {
    GP_LAYOUT_CHOOSE, /* not pinned: the planner searches every layout */
    GP_LAYOUT_TP,     /* attention and experts tensor-parallel over the replica */
    GP_LAYOUT_DEP,    /* attention data-parallel, experts spread over the GPUs (expert-parallel) */
    GP_LAYOUT_TEP,    /* attention tensor-parallel, experts spread over the GPUs */
    GP_LAYOUT_DPA,    /* attention data-parallel, experts tensor-parallel */
};

#define GP_LAYOUT_COUNT    5
#define GP_LAYOUT_TEXT_MAX 8  /* "dpa64" and its terminator, with room */
#define GP_LAYOUT_MAX_GPUS 64 /* the widest layout: a power of two inside a 72-GPU domain */

/* The degrees of one layout of `gpus` GPUs (a power of two). attention_tp x attention_dp and
 * expert_tp x expert_ep are both `gpus`. */
struct gp_layout_shape {
    enum gp_layout scheme;
    int gpus;         /* GPUs in one replica */
    int attention_tp; /* GPUs one attention head group is split over */
    int attention_dp; /* attention replicas inside the replica, each with its own sequences */
    int expert_tp;    /* GPUs each routed expert is split over */
    int expert_ep;    /* GPUs the routed experts are spread over */
};

/* The layouts a search tries, in order of preference on a tie; tp first, the only one of a
 * dense model. */
#define GP_LAYOUT_SEARCHED 4
extern const enum gp_layout gp_layout_searched[GP_LAYOUT_SEARCHED];

/* The shape of `scheme` over `gpus` GPUs; TP for GP_LAYOUT_CHOOSE. */
void gp_layout_shape(struct gp_layout_shape *out, enum gp_layout scheme, int gpus);

/* "tp", "dep", "tep", "dpa"; "choose" for GP_LAYOUT_CHOOSE. Static storage. */
const char *gp_layout_name(enum gp_layout scheme);

/* "tep8" into out[size] (a bare "tep" when gpus is 0, "choose" for GP_LAYOUT_CHOOSE). */
void gp_layout_format(char *out, size_t size, enum gp_layout scheme, int gpus);

/*
 * Read "tp4", "dep8", "tep", "dpa2" or "choose": the scheme and the GPUs (0 when the text gives
 * none; else 1, 2, 4 or 8). Returns 0, or GP_EINVALID with a message that says what is accepted
 * (the caller prefixes the key or field).
 */
int gp_layout_parse(const char *text, enum gp_layout *scheme, int *gpus);

/* Whether a layout can run a model with `experts` routed experts: layouts other than TP spread
 * or replicate something only a mixture-of-experts model has, and need two GPUs or more. */
int gp_layout_valid_for(enum gp_layout scheme, int gpus, int experts);

#endif
