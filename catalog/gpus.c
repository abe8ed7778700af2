/* Parsing data/gpus.json into the catalog, with every field checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"

static const char *const entry_keys[] = {
    "id",          "name",          "vendor",        "arch",
    "peak_tflops", "hbm_gb",        "hbm_tbs",       "tdp_w",
    "scaleup_gbs", "scaleout_gbps", "gpus_per_node", "node_overhead_w",
    "llc_mb",      "capex_usd",     "source",        NULL,
};

static int parse_peaks(struct gp_json_reader *r, const cJSON *entry, struct gp_gpu *gpu)
{
    const cJSON *peaks = NULL;
    int rc = gp_json_child(r, entry, "peak_tflops", false, &peaks, GP_JSON_REQUIRED);
    size_t saved;
    const char *names[GP_PRECISION_COUNT + 1];

    if (rc)
        return rc;
    for (int p = 0; p < GP_PRECISION_COUNT; p++)
        names[p] = gp_precision_name((enum gp_precision)p);
    names[GP_PRECISION_COUNT] = NULL;
    saved = gp_json_enter(r, "peak_tflops", 0);
    rc = gp_json_check_keys(r, peaks, names);
    for (int p = 0; rc == 0 && p < GP_PRECISION_COUNT; p++) {
        gpu->peak_tflops[p] = 0;
        rc = gp_json_number(r, peaks, names[p], &gpu->peak_tflops[p], GP_JSON_NULLABLE);
        if (rc == 0 && gpu->peak_tflops[p] < 0)
            rc = gp_json_fail(r, names[p], "must not be negative");
    }
    gp_json_leave(r, saved);
    return rc;
}

/* A required strictly positive number. */
static int positive(struct gp_json_reader *r, const cJSON *entry, const char *key, double *out)
{
    int rc = gp_json_number(r, entry, key, out, GP_JSON_REQUIRED);
    if (rc == 0 && !(*out > 0))
        rc = gp_json_fail(r, key, "must be greater than zero");
    return rc;
}

static int parse_entry(struct gp_json_reader *r, const cJSON *entry, struct gp_gpu *gpu)
{
    char vendor[16] = "";
    int rc;

    if (!cJSON_IsObject(entry))
        return gp_json_fail(r, NULL, "must be an object");
    memset(gpu, 0, sizeof(*gpu));
    rc = gp_json_check_keys(r, entry, entry_keys);
    if (!rc)
        rc = gp_json_string(r, entry, "id", gpu->id, sizeof(gpu->id), GP_JSON_REQUIRED);
    if (!rc && (!gpu->id[0] ||
                strspn(gpu->id, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(gpu->id)))
        rc = gp_json_fail(r, "id", "must be lower-case letters, digits and '-'");
    if (!rc)
        rc = gp_json_string(r, entry, "name", gpu->name, sizeof(gpu->name), GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_string(r, entry, "vendor", vendor, sizeof(vendor), GP_JSON_REQUIRED);
    if (!rc && strcmp(vendor, "nvidia") && strcmp(vendor, "amd"))
        rc = gp_json_fail(r, "vendor", "must be \"nvidia\" or \"amd\"");
    gpu->vendor = strcmp(vendor, "amd") == 0 ? GP_VENDOR_AMD : GP_VENDOR_NVIDIA;
    if (!rc)
        rc = gp_json_string(r, entry, "arch", gpu->arch, sizeof(gpu->arch), GP_JSON_REQUIRED);
    if (!rc)
        rc = parse_peaks(r, entry, gpu);
    if (!rc)
        rc = positive(r, entry, "hbm_gb", &gpu->hbm_gb);
    if (!rc)
        rc = positive(r, entry, "hbm_tbs", &gpu->hbm_tbs);
    if (!rc)
        rc = positive(r, entry, "tdp_w", &gpu->tdp_w);
    if (!rc)
        rc = positive(r, entry, "scaleup_gbs", &gpu->scaleup_gbs);
    if (!rc)
        rc = positive(r, entry, "scaleout_gbps", &gpu->scaleout_gbps);
    if (!rc)
        rc = gp_json_int(r, entry, "gpus_per_node", &gpu->gpus_per_node, GP_JSON_REQUIRED);
    if (!rc && (gpu->gpus_per_node < 1 || gpu->gpus_per_node > 72))
        rc = gp_json_fail(r, "gpus_per_node", "must be between 1 and 72");
    if (!rc)
        rc = gp_json_number(r, entry, "node_overhead_w", &gpu->node_overhead_w, GP_JSON_REQUIRED);
    if (!rc && gpu->node_overhead_w < 0)
        rc = gp_json_fail(r, "node_overhead_w", "must not be negative");
    if (!rc)
        rc = positive(r, entry, "llc_mb", &gpu->llc_mb);
    if (!rc)
        rc = gp_json_number(r, entry, "capex_usd", &gpu->capex_usd,
                            GP_JSON_OPTIONAL | GP_JSON_NULLABLE);
    if (!rc && gpu->capex_usd < 0)
        rc = gp_json_fail(r, "capex_usd", "must not be negative");
    if (!rc)
        rc = gp_json_string(r, entry, "source", gpu->source, sizeof(gpu->source), GP_JSON_REQUIRED);
    return rc;
}

static int read_gpu(struct gp_json_reader *r, const cJSON *entry, void *gpus, size_t index,
                    const void *unused)
{
    struct gp_gpu *gpu = (struct gp_gpu *)gpus + index;
    int rc = parse_entry(r, entry, gpu);

    (void)unused;
    if (!rc && gp_catalog_find(&(struct gp_catalog){gpus, index}, gpu->id))
        rc = gp_json_fail(r, "id", "duplicate id '%s'", gpu->id);
    return rc;
}

int gp_catalog_parse(struct gp_catalog *out, const char *text, size_t len, const char *origin)
{
    static const char *const top_keys[] = {"schema_version", "notes", "gpus", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    void *gpus = NULL;
    size_t n = 0;
    int rc;

    out->gpus = NULL;
    out->count = 0;
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse(&root, text, len, origin);
    if (!rc && !cJSON_IsObject(root))
        rc = gp_json_fail(&r, NULL, "must be an object with a \"gpus\" array");
    if (!rc)
        rc = gp_json_check_keys(&r, root, top_keys);
    if (!rc)
        rc = gp_json_read_list(&gpus, &n, &r, root, "gpus", sizeof(struct gp_gpu), read_gpu, NULL);
    if (rc)
        goto done;
    out->gpus = gpus;
    out->count = n;
    gpus = NULL;
done:
    free(gpus);
    cJSON_Delete(root);
    return rc;
}

static int parse_gpus(void *out, const char *text, size_t len, const char *origin)
{
    return gp_catalog_parse(out, text, len, origin);
}

int gp_catalog_load(struct gp_catalog *out)
{
    return gp_data_parse_file("gpus.json", parse_gpus, out);
}

void gp_catalog_release(struct gp_catalog *cat)
{
    if (!cat)
        return;
    free(cat->gpus);
    cat->gpus = NULL;
    cat->count = 0;
}

const struct gp_gpu *gp_catalog_find(const struct gp_catalog *cat, const char *id)
{
    for (size_t i = 0; i < cat->count; i++)
        if (strcmp(cat->gpus[i].id, id) == 0)
            return &cat->gpus[i];
    return NULL;
}

int gp_catalog_require(const struct gp_catalog *cat, const char *id, const struct gp_gpu **out)
{
    const char *ids[64];
    char known[512] = "";
    size_t n = 0, used = 0;

    *out = gp_catalog_find(cat, id);
    if (*out)
        return 0;
    for (size_t i = 0; i < cat->count && n < 63 && used < sizeof(known); i++) {
        ids[n++] = cat->gpus[i].id;
        used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s", i ? " " : "",
                                 cat->gpus[i].id);
    }
    ids[n] = NULL;
    const char *hint = gp_text_nearest(id, ids);
    if (hint)
        return gp_error_set(GP_EINVALID, "unknown GPU '%s' (did you mean '%s'?); known: %s", id,
                            hint, known);
    return gp_error_set(GP_EINVALID, "unknown GPU '%s'; known: %s", id, known);
}
