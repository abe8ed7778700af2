/* Parsing data/gpus.json into the catalog, with every field checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"

#define CONFIDENCE_CHOICES "\"official\", \"secondary\" or \"estimate\""

static const char *const entry_keys[] = {
    "id",      "name",       "vendor",      "arch",          "peak_tflops",   "hbm_gb",
    "hbm_tbs", "tdp_w",      "scaleup_gbs", "scaleout_gbps", "gpus_per_node", "node_overhead_w",
    "llc_mb",  "capex_usd",  "source",      "system",        "status",        "ships",
    "rack",    "confidence", NULL,
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

/* Member `key`, a name that `parse` turns into an enum value (`choices` lists them for the
 * message), into *out; an absent optional member leaves *out as it is. */
static int parse_choice(struct gp_json_reader *r, const cJSON *obj, const char *key,
                        int (*parse)(const char *), const char *choices, int *out, int flags)
{
    char name[32] = "";
    int rc = gp_json_string(r, obj, key, name, sizeof(name), flags), v;

    if (rc || !name[0])
        return rc;
    if ((v = parse(name)) < 0)
        return gp_json_fail(r, key, "must be %s, not '%s'", choices, name);
    *out = v;
    return 0;
}

static int parse_rack(struct gp_json_reader *r, const cJSON *entry, struct gp_gpu *gpu)
{
    static const char *const keys[] = {"gpus", "kw", "cooling", NULL};
    const cJSON *rack = NULL;
    int rc = gp_json_child(r, entry, "rack", false, &rack, GP_JSON_OPTIONAL), cooling = 0;
    size_t saved;

    if (rc || !rack)
        return rc;
    saved = gp_json_enter(r, "rack", 0);
    rc = gp_json_check_keys(r, rack, keys);
    if (!rc)
        rc = gp_json_int(r, rack, "gpus", &gpu->rack.gpus, GP_JSON_REQUIRED);
    if (!rc && (gpu->rack.gpus < gpu->gpus_per_node || gpu->rack.gpus % gpu->gpus_per_node))
        rc = gp_json_fail(r, "gpus", "must be a whole number of scale-up domains of %d GPUs",
                          gpu->gpus_per_node);
    if (!rc)
        rc = positive(r, rack, "kw", &gpu->rack.kw);
    if (!rc)
        rc = parse_choice(r, rack, "cooling", gp_cooling_parse, "\"air\" or \"liquid\"", &cooling,
                          GP_JSON_REQUIRED);
    gpu->rack.cooling = (enum gp_cooling)cooling;
    gp_json_leave(r, saved);
    return rc;
}

/* "confidence": {"default": LEVEL, FIGURE: LEVEL, ...}: every figure the default (official
 * when none), then those named. An entry without the block vouches for nothing: its figures
 * are second-hand. */
static int parse_confidence(struct gp_json_reader *r, const cJSON *entry, struct gp_gpu *gpu)
{
    const cJSON *map = NULL, *item;
    int rc = gp_json_child(r, entry, "confidence", false, &map, GP_JSON_OPTIONAL), level = 0;
    size_t saved;

    if (!rc && !map)
        memset(gpu->confidence, GP_CONFIDENCE_SECONDARY, sizeof(gpu->confidence));
    if (rc || !map)
        return rc;
    saved = gp_json_enter(r, "confidence", 0);
    rc = parse_choice(r, map, "default", gp_confidence_parse, CONFIDENCE_CHOICES, &level,
                      GP_JSON_OPTIONAL);
    memset(gpu->confidence, level, sizeof(gpu->confidence));
    cJSON_ArrayForEach(item, map)
    {
        int figure = gp_figure_parse(item->string);
        if (rc || !strcmp(item->string, "default"))
            continue;
        if (figure < 0)
            rc = gp_json_fail(r, item->string, "is not a figure of the entry");
        else if (!(rc = parse_choice(r, map, item->string, gp_confidence_parse, CONFIDENCE_CHOICES,
                                     &level, GP_JSON_REQUIRED)))
            gpu->confidence[figure] = (unsigned char)level;
    }
    gp_json_leave(r, saved);
    return rc;
}

static int parse_status(struct gp_json_reader *r, const cJSON *entry, struct gp_gpu *gpu)
{
    int status = GP_STATUS_SHIPPING;
    int rc = gp_json_string(r, entry, "system", gpu->system, sizeof(gpu->system), GP_JSON_OPTIONAL);

    if (!rc)
        rc = parse_choice(r, entry, "status", gp_status_parse, "\"shipping\" or \"announced\"",
                          &status, GP_JSON_OPTIONAL);
    gpu->status = (enum gp_gpu_status)status;
    if (!rc)
        rc = gp_json_string(r, entry, "ships", gpu->ships, sizeof(gpu->ships), GP_JSON_OPTIONAL);
    if (!rc && gpu->status == GP_STATUS_ANNOUNCED && !gpu->ships[0])
        rc = gp_json_fail(r, "ships", "an announced entry says when its vendor ships it");
    if (!rc)
        rc = parse_rack(r, entry, gpu);
    return rc ? rc : parse_confidence(r, entry, gpu);
}

static int read_gpu(struct gp_json_reader *r, const cJSON *entry, void *gpus, size_t index,
                    const void *ctx)
{
    struct gp_gpu *gpu = (struct gp_gpu *)gpus + index;
    int rc = parse_entry(r, entry, gpu);

    if (!rc && gp_catalog_find(&(struct gp_catalog){gpus, index, NULL, 0}, gpu->id))
        rc = gp_json_fail(r, "id", "duplicate id '%s'", gpu->id);
    (void)ctx;
    return rc ? rc : parse_status(r, entry, gpu);
}

int gp_catalog_parse(struct gp_catalog *out, const char *text, size_t len, const char *origin)
{
    static const char *const top_keys[] = {"schema_version", "notes", "gpus", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    void *gpus = NULL;
    size_t n = 0;
    int rc;

    memset(out, 0, sizeof(*out));
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

const struct gp_data_table gp_catalog_file = {"gpus.json", parse_gpus,
                                              GP_DATA_LAYOUT(struct gp_catalog, gpus, count)};

int gp_catalog_load(struct gp_catalog *out)
{
    return gp_data_load_table(&gp_catalog_file, out);
}

void gp_catalog_release(struct gp_catalog *cat)
{
    if (!cat)
        return;
    free(cat->gpus);
    free(cat->citations);
    memset(cat, 0, sizeof(*cat));
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
