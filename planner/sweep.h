/* What-if support: the parser for sweep specifications `--sweep key=...` over the documented
 * keys of planner/keys.h, which also serve --set. */
#ifndef GP_PLANNER_SWEEP_H
#define GP_PLANNER_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "planner/keys.h"

/* The most points a sweep may have: a guard against a mistyped step, not a memory limit (a
 * range's values are computed when asked for, and a sweep streamed as CSV or JSON holds one
 * point at a time); a billion points take days to plan. */
#define GP_SWEEP_MAX_POINTS 1000000000
#define GP_SWEEP_VALUE_MAX  32

/* One swept key and its values, in order: a range from `from` by `step`, or a list. */
struct gp_sweep {
    char key[32];
    size_t count;
    double from, step;                  /* a range (values NULL): value i is from + i * step */
    char (*values)[GP_SWEEP_VALUE_MAX]; /* a list: owned, `count` entries; NULL for a range */
};

/*
 * Parse "key=from:to:step" (numbers; to included within rounding; step > 0, or < 0 when
 * from > to) or "key=a,b,c" (any values the key accepts). The key must be known. At most
 * GP_SWEEP_MAX_POINTS values. Returns 0, GP_EINVALID or GP_ENOMEM. Release with
 * gp_sweep_release.
 */
int gp_sweep_parse(struct gp_sweep *out, const char *spec);
void gp_sweep_release(struct gp_sweep *sweep);

/* Value `i` (< count) as text: a list's own (borrowed from the sweep), or a range's written into
 * `buf` as "%.10g" writes it (whole numbers as integers). Returns the text. */
const char *gp_sweep_value(const struct gp_sweep *sweep, size_t i, char buf[GP_SWEEP_VALUE_MAX]);

#endif
