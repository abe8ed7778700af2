/* What-if support: the documented keys `--set key=value` and `--sweep key=...` may change in a
 * workload or the assumptions, and the parser for sweep specifications. */
#ifndef GP_PLANNER_SWEEP_H
#define GP_PLANNER_SWEEP_H

#include <stddef.h>

#include "planner/fleet.h"
#include "planner/workload.h"

/* The inputs a key can change. */
struct gp_plan_input {
    struct gp_workload workload;
    struct gp_assumptions assumptions;
};

/* One documented key. */
struct gp_plan_key {
    const char *name;        /* "input_tokens" */
    const char *applies_to;  /* "inference", "training", "generic", "model" or "any" */
    const char *unit;        /* "tokens", "ms", "USD/kWh", ... */
    const char *description; /* one line */
};

/* The documented keys, `*count` of them, in documentation order. Static storage. */
const struct gp_plan_key *gp_plan_keys(size_t *count);

/*
 * Set `key` to `value` in `in`. Unknown keys fail with GP_EINVALID and the nearest known key;
 * a key that does not apply to the workload's kind, or a value out of range, fails naming the
 * key and the accepted range. Cross-field rules are checked by gp_workload_validate afterwards.
 */
int gp_plan_set(struct gp_plan_input *in, const char *key, const char *value);

#define GP_SWEEP_MAX_POINTS 1000
#define GP_SWEEP_VALUE_MAX  32

/* One swept key and its values, in order. */
struct gp_sweep {
    char key[32];
    char (*values)[GP_SWEEP_VALUE_MAX]; /* owned, `count` entries */
    size_t count;
};

/*
 * Parse "key=from:to:step" (numbers; to included within rounding; step > 0, or < 0 when
 * from > to) or "key=a,b,c" (any values the key accepts). The key must be known. At most
 * GP_SWEEP_MAX_POINTS values. Returns 0, GP_EINVALID or GP_ENOMEM. Release with
 * gp_sweep_release.
 */
int gp_sweep_parse(struct gp_sweep *out, const char *spec);
void gp_sweep_release(struct gp_sweep *sweep);

#endif
