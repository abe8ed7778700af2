/* The parser for sweep specifications: one documented key and its values, as a range or a
 * list. */
#include "planner/sweep.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"

/* A range's value as text: "%.10g", which writes whole numbers below 10^10 as integers, as the
 * cheaper "%lld" does (zero aside: "%.10g" keeps the sign of -0). Returns the length. */
static size_t format_point(char *out, size_t size, double value)
{
    int n = value != 0 && value == floor(value) && fabs(value) < 1e10
                ? snprintf(out, size, "%lld", (long long)value)
                : snprintf(out, size, "%.10g", value);

    return n > 0 ? (size_t)n : 0;
}

const char *gp_sweep_value(const struct gp_sweep *sweep, size_t i, char buf[GP_SWEEP_VALUE_MAX])
{
    if (sweep->values)
        return sweep->values[i];
    format_point(buf, GP_SWEEP_VALUE_MAX, sweep->from + (double)i * sweep->step);
    return buf;
}

static int parse_range(struct gp_sweep *out, const char *spec)
{
    char parts[3][GP_SWEEP_VALUE_MAX];
    double from, to, step;
    const char *p = spec;

    for (int i = 0; i < 3; i++) {
        size_t n = strcspn(p, ":");
        if (n >= GP_SWEEP_VALUE_MAX || (i < 2 && p[n] != ':') || (i == 2 && p[n] != '\0'))
            return gp_error_set(GP_EINVALID, "--sweep %s: expected from:to:step, got '%s'",
                                out->key, spec);
        memcpy(parts[i], p, n);
        parts[i][n] = '\0';
        p += n + 1;
    }
    if (gp_text_to_double(parts[0], &from) || gp_text_to_double(parts[1], &to) ||
        gp_text_to_double(parts[2], &step))
        return gp_error_set(GP_EINVALID, "--sweep %s: from, to and step must be numbers in '%s'",
                            out->key, spec);
    if (step == 0 || (to - from) / step < 0)
        return gp_error_set(GP_EINVALID, "--sweep %s: step %g does not lead from %g to %g",
                            out->key, step, from, to);
    double points = floor((to - from) / step + 1e-9) + 1;
    if (!(points <= GP_SWEEP_MAX_POINTS))
        return gp_error_set(GP_EINVALID, "--sweep %s: %.0f points, more than %d", out->key, points,
                            GP_SWEEP_MAX_POINTS);
    out->from = from;
    out->step = step;
    out->count = (size_t)points;
    return 0;
}

/* "a,b,c": each value copied, the list grown as it is read (it is as long as the argument). */
static int parse_list(struct gp_sweep *out, const char *list)
{
    size_t cap = 1 + strlen(list) / 2; /* every value takes at least one byte and a comma */

    if (!(out->values = calloc(cap, sizeof(*out->values))))
        return gp_error_set(GP_ENOMEM, "out of memory");
    for (;;) {
        size_t n = strcspn(list, ",");
        if (n == 0 || n >= GP_SWEEP_VALUE_MAX)
            return gp_error_set(GP_EINVALID, "--sweep %s: value '%.*s' is empty or too long",
                                out->key, (int)n, list);
        memcpy(out->values[out->count], list, n);
        out->values[out->count++][n] = '\0';
        if (list[n] != ',')
            return 0;
        list += n + 1;
    }
}

int gp_sweep_parse(struct gp_sweep *out, const char *spec)
{
    const char *eq = strchr(spec, '=');
    int rc;

    memset(out, 0, sizeof(*out));
    if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(out->key))
        return gp_error_set(GP_EINVALID, "--sweep '%s': expected key=from:to:step or key=a,b,c",
                            spec);
    memcpy(out->key, spec, (size_t)(eq - spec));
    out->key[eq - spec] = '\0';
    if (!gp_plan_key_find(out->key))
        return GP_EINVALID;
    rc = strchr(eq + 1, ':') ? parse_range(out, eq + 1) : parse_list(out, eq + 1);
    if (rc)
        gp_sweep_release(out);
    return rc;
}

void gp_sweep_release(struct gp_sweep *sweep)
{
    if (!sweep)
        return;
    free(sweep->values);
    sweep->values = NULL;
    sweep->count = 0;
}
