/* The documented keys of a plan's inputs: for each workload or assumption field its name, the
 * workload kinds it applies to, its unit, its range and whether it is a whole number. One table
 * serves --set, --sweep, the range checks of workload and model files, and `help plan`. */
#ifndef GP_PLANNER_KEYS_H
#define GP_PLANNER_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "planner/fleet.h"
#include "planner/workload.h"

/* The inputs a key can change. */
struct gp_plan_input {
    struct gp_workload workload;
    struct gp_assumptions assumptions;
};

/* One documented key. Numeric keys hold a value in [min, max] (above min when above_min), or
 * 0 when `zero` names what 0 means. */
struct gp_plan_key {
    const char *name;        /* "input_tokens" */
    const char *applies_to;  /* "inference", "training", "generic", "model" or "any" */
    const char *unit;        /* "tokens", "ms", "currency/kWh", ... */
    const char *description; /* one line */
    double min, max;         /* range of a numeric key, in `unit` */
    bool above_min;          /* min itself is excluded */
    bool whole;              /* the value must be a whole number */
    bool power_of_two;       /* the value (other than 0) must be a power of two */
    const char *zero;        /* what 0 means when it lies outside [min, max] or at min; NULL */
};

/* The documented keys, `*count` of them, in documentation order. Static storage. */
const struct gp_plan_key *gp_plan_keys(size_t *count);

/* The key named `name`, or NULL with GP_EINVALID set naming the nearest known key. */
const struct gp_plan_key *gp_plan_key_find(const char *name);

/* The accepted values as words: "between 1 and 1e+07 tokens", "0 (no limit) or between 0.001
 * and 1e+06 h", "true or false", ... into out[size]. */
void gp_plan_key_range(const struct gp_plan_key *k, char *out, size_t size);

/* Whether `v` is an accepted value of the numeric key `k` (range, whole number, power of 2). */
bool gp_plan_key_accepts(const struct gp_plan_key *k, double v);

/*
 * Set `key` to `value` in `in`. Unknown keys fail with GP_EINVALID and the nearest known key;
 * a key that does not apply to the workload's kind, or a value out of range, fails naming the
 * key and the accepted range. Cross-field rules are checked by gp_workload_validate afterwards.
 */
int gp_plan_set(struct gp_plan_input *in, const char *key, const char *value);

/* The first field of a workload or model outside its key's range: its JSON path under the
 * document root ("input_tokens", "model.layers") and what it must be. */
struct gp_key_break {
    char field[48];
    char msg[160];
};

/* Check every numeric key of `m` (the model keys). Returns 1 and fills *out at the first value
 * out of range, else 0. */
int gp_plan_keys_check_model(const struct gp_model_arch *m, struct gp_key_break *out);

/* The same for the keys of `w`'s kind, the model's excepted. */
int gp_plan_keys_check_workload(const struct gp_workload *w, struct gp_key_break *out);

#endif
