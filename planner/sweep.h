/* What-if support: the parser for sweep specifications `--sweep key=...` over the documented
 * keys of planner/keys.h, which also serve --set. */
#ifndef GP_PLANNER_SWEEP_H
#define GP_PLANNER_SWEEP_H

#include <stddef.h>

#include "planner/keys.h"

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
