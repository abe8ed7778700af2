/* Reading data/bands.json, the class of a plan, and the conformal band of a class's errors. */
#include "planner/bands.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/json.h"

static const char *const class_names[GP_BAND_COUNT + 1] = {
    "inference-dense", "inference-moe", "training-node", "training-scale-out", NULL};

const char *gp_band_class_name(enum gp_band_class c)
{
    return (unsigned)c < GP_BAND_COUNT ? class_names[c] : "?";
}

int gp_band_class_parse(const char *name)
{
    for (int c = 0; c < GP_BAND_COUNT; c++)
        if (strcmp(class_names[c], name) == 0)
            return c;
    return -1;
}

int gp_band_class_of(const struct gp_workload *w, int gpus, int gpus_per_node)
{
    if (w->kind == GP_WORKLOAD_INFERENCE)
        return w->model.experts > 1 ? GP_BAND_INFERENCE_MOE : GP_BAND_INFERENCE_DENSE;
    if (w->kind == GP_WORKLOAD_TRAINING)
        return gpus > gpus_per_node ? GP_BAND_TRAINING_SCALE : GP_BAND_TRAINING_NODE;
    return -1;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void gp_band_widen(struct gp_band *b, double drift_per_year, double age_years)
{
    if (b->cases <= 0)
        return;
    double age = age_years > 0 ? age_years : 0.0, s = b->spread;
    double lo = -log(b->low), hi = log(b->high);
    b->low = exp(-sqrt(lo * lo + s * s));
    b->high = exp(sqrt(hi * hi + s * s) + drift_per_year * age);
}

int gp_bands_conformal(double *e, size_t n, double coverage, double *q)
{
    size_t k = (size_t)ceil(coverage * (double)(n + 1) - 1e-9);

    if (n == 0 || k > n)
        return -1;
    qsort(e, n, sizeof(*e), compare_double);
    *q = e[k > 0 ? k - 1 : 0];
    return 0;
}

/* One entry of "bands" as read, before it goes to its class's slot. */
struct entry {
    int cls; /* enum gp_band_class */
    struct gp_band b;
};

static int read_band(struct gp_json_reader *r, const cJSON *item, void *items, size_t index,
                     const void *ctx)
{
    static const char *const keys[] = {"class", "low", "high", "cases", "engine_spread", NULL};
    struct entry *all = items, *e = &all[index];
    struct gp_band b = {0};
    char name[32];
    int rc = gp_json_check_keys(r, item, keys);

    (void)ctx;
    if (!rc)
        rc = gp_json_string(r, item, "class", name, sizeof(name), GP_JSON_REQUIRED);
    if (!rc && (e->cls = gp_band_class_parse(name)) < 0)
        rc = gp_json_fail(r, "class", "unknown class '%s'", name);
    for (size_t k = 0; !rc && k < index; k++)
        if (all[k].cls == e->cls)
            rc = gp_json_fail(r, "class", "duplicate class '%s'", name);
    if (!rc)
        rc = gp_json_number(r, item, "low", &b.low, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_number(r, item, "high", &b.high, GP_JSON_REQUIRED);
    if (!rc && !(b.low > 0.01 && b.high >= b.low && b.high < 100))
        rc = gp_json_fail(r, "high", "need 0.01 < low <= high < 100");
    if (!rc)
        rc = gp_json_int(r, item, "cases", &b.cases, GP_JSON_REQUIRED);
    if (!rc && b.cases < 1)
        rc = gp_json_fail(r, "cases", "must be at least 1");
    if (!rc)
        rc = gp_json_number(r, item, "engine_spread", &b.spread, GP_JSON_OPTIONAL);
    if (!rc && !(b.spread >= 0 && b.spread < 5))
        rc = gp_json_fail(r, "engine_spread", "must be between 0 and 5 (log units)");
    e->b = b;
    return rc;
}

int gp_bands_parse(struct gp_bands *out, const char *text, size_t len, const char *origin)
{
    static const char *const top_keys[] = {"schema_version", "notes", "coverage",
                                           "drift_per_year", "bands", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    void *list = NULL;
    size_t count = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse_versioned(&root, &r, top_keys, 1);
    if (!rc)
        rc = gp_json_number(&r, root, "coverage", &out->coverage, GP_JSON_REQUIRED);
    if (!rc && !(out->coverage > 0 && out->coverage <= 1))
        rc = gp_json_fail(&r, "coverage", "must be in (0, 1]");
    if (!rc)
        rc = gp_json_number(&r, root, "drift_per_year", &out->drift_per_year, GP_JSON_OPTIONAL);
    if (!rc && !(out->drift_per_year >= 0 && out->drift_per_year < 5))
        rc = gp_json_fail(&r, "drift_per_year", "must be between 0 and 5 (log units a year)");
    if (!rc)
        rc = gp_json_read_list(&list, &count, &r, root, "bands", sizeof(struct entry), read_band,
                               NULL);
    for (size_t i = 0; !rc && i < count; i++) {
        const struct entry *e = (const struct entry *)list + i;
        out->band[e->cls] = e->b;
    }
    free(list);
    cJSON_Delete(root);
    if (rc)
        memset(out, 0, sizeof(*out));
    return rc;
}
