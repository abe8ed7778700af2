/* Reading data/efficiency.json and resolving the efficiencies of one GPU type. */
#include "planner/efficiency.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/data.h"
#include "util/error.h"
#include "util/fminmax.h"
#include "util/json.h"
#include "util/text.h"

/* An entry's keys; the defaults take them from "gemm" on (ENTRY_ONLY_KEYS skipped). */
static const char *const section_keys[] = {"id",          "like",       "gemm",     "bandwidth",
                                           "serving",     "network",    "training", "power",
                                           "uncertainty", "provenance", NULL};
#define ENTRY_ONLY_KEYS 2

/* The entry before `index` whose id is `id`; NULL when none. */
static const struct gp_efficiency_entry *earlier_entry(const struct gp_efficiency_entry *entries,
                                                       size_t index, const char *id)
{
    for (size_t k = 0; k < index; k++)
        if (strcmp(entries[k].gpu_id, id) == 0)
            return &entries[k];
    return NULL;
}
static const char *const curve_gemm_keys[] = {"eff_max", "s_half_gflop", NULL};
static const char *const curve_bw_keys[] = {"eff_max", "s_half_mb", NULL};
static const char *const serving_keys[] = {"compute",
                                           "memory",
                                           "step_overhead_us",
                                           "layer_overhead_us",
                                           "runtime_overhead_gb",
                                           "max_batch",
                                           "expert_tokens_half",
                                           "memory_fraction",
                                           NULL};
static const char *const network_keys[] = {"efficiency", "latency_us", "alltoall_latency_us", NULL};
static const char *const training_keys[] = {"mfu", NULL};
static const char *const power_keys[] = {"idle", "busy", "memory_bound", NULL};
static const char *const uncertainty_keys[] = {"low", "high", NULL};

double gp_eff_at(const struct gp_eff_curve *c, double s)
{
    if (!(c->eff_max > 0) || !(s > 0))
        return 0.0;
    return c->eff_max * s / (s + c->s_half);
}

const struct gp_eff_curve *gp_efficiency_gemm(const struct gp_efficiency *eff, enum gp_precision p)
{
    if ((unsigned)p < GP_PRECISION_COUNT && eff->gemm[p].eff_max > 0)
        return &eff->gemm[p];
    return &eff->gemm[GP_BF16];
}

/* A number in [lo, hi] (scaled by `unit` into *out); optional unless `required`. */
static int ranged(struct gp_json_reader *r, const cJSON *obj, const char *key, double lo, double hi,
                  double unit, bool required, double *out)
{
    double v = 0;
    int rc;

    if (!required && !cJSON_GetObjectItemCaseSensitive(obj, key))
        return 0;
    rc = gp_json_number(r, obj, key, &v, GP_JSON_REQUIRED);
    if (rc)
        return rc;
    if (v < lo || v > hi)
        return gp_json_fail(r, key, "must be between %g and %g", lo, hi);
    *out = v * unit;
    return 0;
}

/* Enter the object member `key` (absent: *present = false unless required). */
static int section(struct gp_json_reader *r, const cJSON *obj, const char *key,
                   const char *const *keys, bool required, const cJSON **out, size_t *saved)
{
    int rc;

    *out = NULL;
    rc = gp_json_child(r, obj, key, false, out, required ? GP_JSON_REQUIRED : GP_JSON_OPTIONAL);
    if (rc || !*out)
        return rc;
    *saved = gp_json_enter(r, key, 0);
    rc = gp_json_check_keys(r, *out, keys);
    if (rc)
        gp_json_leave(r, *saved);
    return rc;
}

static int read_curve(struct gp_json_reader *r, const cJSON *obj, const char *key, bool gemm,
                      bool required, struct gp_eff_curve *c)
{
    const cJSON *sec;
    size_t saved = 0;
    int rc = section(r, obj, key, gemm ? curve_gemm_keys : curve_bw_keys, required, &sec, &saved);

    if (rc || !sec)
        return rc;
    rc = ranged(r, sec, "eff_max", 0.01, 1.0, 1.0, true, &c->eff_max);
    if (!rc)
        rc = ranged(r, sec, gemm ? "s_half_gflop" : "s_half_mb", 0.0, 1e6, gemm ? 1e9 : 1e6, true,
                    &c->s_half);
    gp_json_leave(r, saved);
    return rc;
}

static int read_gemm(struct gp_json_reader *r, const cJSON *obj, bool required,
                     struct gp_efficiency *eff)
{
    const char *names[GP_PRECISION_COUNT + 1];
    const cJSON *sec;
    size_t saved = 0;
    int rc;

    for (int p = 0; p < GP_PRECISION_COUNT; p++)
        names[p] = gp_precision_name((enum gp_precision)p);
    names[GP_PRECISION_COUNT] = NULL;
    rc = section(r, obj, "gemm", names, required, &sec, &saved);
    if (rc || !sec)
        return rc;
    for (int p = 0; !rc && p < GP_PRECISION_COUNT; p++)
        rc = read_curve(r, sec, names[p], true, false, &eff->gemm[p]);
    if (!rc && required && !(eff->gemm[GP_BF16].eff_max > 0))
        rc = gp_json_fail(r, "bf16", "the defaults need a bf16 curve (the fallback)");
    gp_json_leave(r, saved);
    return rc;
}

static int read_entry(struct gp_json_reader *r, const cJSON *obj, bool required,
                      struct gp_efficiency *e)
{
    const cJSON *sec;
    size_t saved = 0;
    double max_batch = e->max_batch;
    int rc = read_gemm(r, obj, required, e);

    if (!rc)
        rc = read_curve(r, obj, "bandwidth", false, required, &e->bandwidth);
    if (!rc)
        rc = section(r, obj, "serving", serving_keys, required, &sec, &saved);
    if (!rc && sec) {
        rc = ranged(r, sec, "compute", 0.01, 1.0, 1.0, required, &e->serve_compute);
        if (!rc)
            rc = ranged(r, sec, "memory", 0.01, 1.0, 1.0, required, &e->serve_memory);
        if (!rc)
            rc = ranged(r, sec, "step_overhead_us", 0, 1e6, 1e-6, required, &e->step_overhead_s);
        if (!rc)
            rc = ranged(r, sec, "layer_overhead_us", 0, 1e5, 1e-6, required, &e->layer_overhead_s);
        if (!rc)
            rc = ranged(r, sec, "runtime_overhead_gb", 0, 1000, 1.0, required,
                        &e->runtime_overhead_gb);
        if (!rc)
            rc = ranged(r, sec, "max_batch", 1, 1e6, 1.0, required, &max_batch);
        if (!rc)
            rc = ranged(r, sec, "expert_tokens_half", 0, 4096, 1.0, false, &e->expert_tokens_half);
        if (!rc)
            rc = ranged(r, sec, "memory_fraction", 0.01, 1.0, 1.0, false, &e->memory_fraction);
        e->max_batch = (int)max_batch;
        gp_json_leave(r, saved);
    }
    if (!rc)
        rc = section(r, obj, "network", network_keys, required, &sec, &saved);
    if (!rc && sec) {
        rc = ranged(r, sec, "efficiency", 0.01, 1.0, 1.0, required, &e->net_efficiency);
        if (!rc)
            rc = ranged(r, sec, "latency_us", 0, 1e5, 1e-6, required, &e->net_latency_s);
        if (!rc)
            rc = ranged(r, sec, "alltoall_latency_us", 0, 1e5, 1e-6, false, &e->alltoall_latency_s);
        gp_json_leave(r, saved);
    }
    if (!rc)
        rc = section(r, obj, "training", training_keys, required, &sec, &saved);
    if (!rc && sec) {
        rc = ranged(r, sec, "mfu", 0.01, 1.0, 1.0, required, &e->mfu);
        gp_json_leave(r, saved);
    }
    if (!rc)
        rc = section(r, obj, "power", power_keys, required, &sec, &saved);
    if (!rc && sec) {
        rc = ranged(r, sec, "idle", 0, 1.0, 1.0, required, &e->idle_power);
        if (!rc)
            rc = ranged(r, sec, "busy", 0.01, 1.5, 1.0, required, &e->busy_power);
        if (!rc && e->busy_power < e->idle_power)
            rc = gp_json_fail(r, "busy", "must not be below idle");
        if (!rc)
            rc = ranged(r, sec, "memory_bound", 0.01, 1.5, 1.0, required, &e->memory_power);
        if (!rc && (e->memory_power < e->idle_power || e->memory_power > e->busy_power))
            rc = gp_json_fail(r, "memory_bound", "must be between idle and busy");
        gp_json_leave(r, saved);
    }
    if (!rc)
        rc = section(r, obj, "uncertainty", uncertainty_keys, required, &sec, &saved);
    if (!rc && sec) {
        rc = ranged(r, sec, "low", 0.1, 1.0, 1.0, required, &e->uncertainty_low);
        if (!rc)
            rc = ranged(r, sec, "high", 1.0, 10.0, 1.0, required, &e->uncertainty_high);
        gp_json_leave(r, saved);
    }
    /* Every set of figures says where it comes from; the text itself lives in the file. */
    if (!rc && !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(obj, "provenance")))
        rc = gp_json_fail(r, "provenance", "required: say which published numbers these are");
    return rc;
}

/* One entry of "gpus": the defaults (`ctx`), or with "like": ID the efficiencies of that
 * earlier entry (the same silicon in another system), with the fields it gives applied. */
static int read_gpu_entry(struct gp_json_reader *r, const cJSON *item, void *entries, size_t index,
                          const void *defaults)
{
    struct gp_efficiency_entry *all = entries, *e = all + index;
    char like[GP_GPU_ID_MAX] = "";
    int rc = 0;

    e->eff = *(const struct gp_efficiency *)defaults;
    if (!cJSON_IsObject(item))
        rc = gp_json_fail(r, NULL, "must be an object");
    if (!rc)
        rc = gp_json_check_keys(r, item, section_keys);
    if (!rc)
        rc = gp_json_string(r, item, "id", e->gpu_id, sizeof(e->gpu_id), GP_JSON_REQUIRED);
    if (!rc && earlier_entry(all, index, e->gpu_id))
        rc = gp_json_fail(r, "id", "duplicate entry for '%s'", e->gpu_id);
    if (!rc)
        rc = gp_json_string(r, item, "like", like, sizeof(like), GP_JSON_OPTIONAL);
    if (!rc && like[0]) {
        const struct gp_efficiency_entry *base = earlier_entry(all, index, like);
        if (!base)
            rc = gp_json_fail(r, "like", "'%s' is not an entry above this one", like);
        else
            e->eff = base->eff;
    }
    if (!rc)
        rc = read_entry(r, item, false, &e->eff);
    return rc;
}

int gp_efficiency_table_parse(struct gp_efficiency_table *out, const char *text, size_t len,
                              const char *origin)
{
    static const char *const top_keys[] = {"schema_version", "notes", "defaults", "gpus", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    const cJSON *defaults = NULL;
    void *entries = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse_versioned(&root, &r, top_keys, 1);
    if (!rc)
        rc = gp_json_child(&r, root, "defaults", false, &defaults, GP_JSON_REQUIRED);
    if (!rc) {
        size_t saved = gp_json_enter(&r, "defaults", 0);
        rc = gp_json_check_keys(&r, defaults, section_keys + ENTRY_ONLY_KEYS);
        if (!rc)
            rc = read_entry(&r, defaults, true, &out->defaults);
        gp_json_leave(&r, saved);
    }
    snprintf(out->defaults.source, sizeof(out->defaults.source), "default");
    out->defaults.serve_attention = out->defaults.serve_compute;
    out->defaults.expert_gemm = 1.0;
    if (!(out->defaults.memory_fraction > 0))
        out->defaults.memory_fraction = 0.9;
    out->defaults.claim_inference = 1.0;
    out->defaults.claim_training = 1.0;
    if (!rc) {
        rc = gp_json_read_list(&entries, &out->count, &r, root, "gpus", sizeof(*out->entries),
                               read_gpu_entry, &out->defaults);
        out->entries = entries;
    }
    cJSON_Delete(root);
    if (rc)
        gp_efficiency_table_release(out);
    return rc;
}

void gp_efficiency_table_release(struct gp_efficiency_table *table)
{
    if (!table)
        return;
    free(table->entries);
    table->entries = NULL;
    table->count = 0;
}

void gp_efficiency_resolve(struct gp_efficiency *out, const struct gp_efficiency_table *table,
                           const char *gpu_id)
{
    for (size_t i = 0; i < table->count; i++) {
        if (strcmp(table->entries[i].gpu_id, gpu_id) == 0) {
            *out = table->entries[i].eff;
            return;
        }
    }
    *out = table->defaults;
}

void gp_efficiency_widen(struct gp_efficiency *eff, double low, double high)
{
    eff->uncertainty_low *= low;
    eff->uncertainty_high *= high;
    for (int c = 0; c < GP_BAND_COUNT; c++) {
        eff->band[c].low *= low;
        eff->band[c].high *= high;
    }
}

void gp_efficiency_apply(struct gp_efficiency *eff, const struct gp_eff_override *ov)
{
    /* Training MFU follows the measured GEMM efficiency: bf16 when it was calibrated (the usual
     * training precision), else fp8. */
    enum gp_precision ref = ov->gemm_set[GP_BF16] ? GP_BF16 : GP_FP8;
    if (ov->gemm_set[ref] && eff->gemm[ref].eff_max > 0)
        eff->mfu = gp_fmin(1.0, eff->mfu * ov->gemm[ref].eff_max / eff->gemm[ref].eff_max);
    for (int p = 0; p < GP_PRECISION_COUNT; p++)
        if (ov->gemm_set[p])
            eff->gemm[p] = ov->gemm[p];
    if (ov->bandwidth_set)
        eff->bandwidth = ov->bandwidth;
    if (ov->source[0])
        gp_text_copy(eff->source, sizeof(eff->source), ov->source);
}

static int parse_efficiency_file(void *out, const char *text, size_t len, const char *origin)
{
    return gp_efficiency_table_parse(out, text, len, origin);
}

const struct gp_data_table gp_efficiency_file = {
    "efficiency.json", parse_efficiency_file,
    GP_DATA_LAYOUT(struct gp_efficiency_table, entries, count)};
