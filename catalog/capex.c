/* Parsing data/capex.json and the --capex flag's one price or per-GPU map. */
#include "catalog/capex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/data.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"
#include "util/timeutil.h"

/* Read {"low": L, "typical": T, "high": H} at `key` (and "gpus" for a server). */
static int parse_range(struct gp_json_reader *r, const cJSON *obj, const char *key,
                       struct gp_capex_range *out, int *gpus)
{
    static const char *const keys[] = {"low", "typical", "high", "gpus", NULL};
    const cJSON *child = NULL;
    int rc = gp_json_child(r, obj, key, false, &child, GP_JSON_REQUIRED);
    size_t saved;

    if (rc)
        return rc;
    saved = gp_json_enter(r, key, -1);
    rc = gp_json_check_keys(r, child, keys);
    if (!rc)
        rc = gp_json_number(r, child, "low", &out->low, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_number(r, child, "typical", &out->typical, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_number(r, child, "high", &out->high, GP_JSON_REQUIRED);
    if (!rc && !(out->low > 0 && out->low <= out->typical && out->typical <= out->high))
        rc = gp_json_fail(r, NULL, "must hold 0 < low <= typical <= high");
    if (!rc && gpus)
        rc = gp_json_int(r, child, "gpus", gpus, GP_JSON_REQUIRED);
    if (!rc && gpus && *gpus < 1)
        rc = gp_json_fail(r, "gpus", "must be at least 1");
    if (!rc && !gpus && cJSON_GetObjectItemCaseSensitive(child, "gpus"))
        rc = gp_json_fail(r, "gpus", "belongs to per_server only");
    gp_json_leave(r, saved);
    return rc;
}

static int read_estimate(struct gp_json_reader *r, const cJSON *item, void *items, size_t index,
                         const void *ctx)
{
    static const char *const keys[] = {"gpu",        "date", "per_gpu", "per_server",
                                       "source_url", "note", NULL};
    struct gp_capex_estimate *e = (struct gp_capex_estimate *)items + index;
    char date[32] = "";
    int rc = gp_json_check_keys(r, item, keys);

    (void)ctx;
    if (!rc)
        rc = gp_json_string(r, item, "gpu", e->gpu_id, sizeof(e->gpu_id), GP_JSON_REQUIRED);
    for (size_t i = 0; !rc && i < index; i++)
        if (strcmp(((struct gp_capex_estimate *)items)[i].gpu_id, e->gpu_id) == 0)
            rc = gp_json_fail(r, "gpu", "'%s' has an estimate already", e->gpu_id);
    if (!rc)
        rc = gp_json_string(r, item, "date", date, sizeof(date), GP_JSON_REQUIRED);
    if (!rc && gp_time_parse(date, &e->date))
        rc = gp_json_fail(r, "date", "'%s' is not a date (YYYY-MM-DD)", date);
    if (!rc)
        rc = parse_range(r, item, "per_gpu", &e->per_gpu, NULL);
    if (!rc)
        rc = parse_range(r, item, "per_server", &e->per_server, &e->server_gpus);
    if (!rc)
        rc = gp_json_string(r, item, "source_url", e->source_url, sizeof(e->source_url),
                            GP_JSON_REQUIRED);
    if (!rc && !gp_text_starts_with(e->source_url, "https://"))
        rc = gp_json_fail(r, "source_url", "must be an https:// address");
    return rc;
}

int gp_capex_parse(struct gp_capex_table *out, const char *text, size_t len, const char *origin)
{
    static const char *const keys[] = {"schema_version", "currency", "notes", "estimates", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    char currency[8] = "";
    void *list = NULL;
    size_t n = 0;
    int rc;

    out->estimates = NULL;
    out->count = 0;
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse_versioned(&root, &r, keys, 1);
    if (!rc)
        rc = gp_json_string(&r, root, "currency", currency, sizeof(currency), GP_JSON_REQUIRED);
    if (!rc && strcmp(currency, "USD") != 0)
        rc = gp_json_fail(&r, "currency", "must be \"USD\"");
    if (!rc)
        rc = gp_json_read_list(&list, &n, &r, root, "estimates", sizeof(struct gp_capex_estimate),
                               read_estimate, NULL);
    if (rc)
        goto done;
    out->estimates = list;
    out->count = n;
    list = NULL;
done:
    free(list);
    cJSON_Delete(root);
    return rc;
}

static int parse_capex(void *out, const char *text, size_t len, const char *origin)
{
    return gp_capex_parse(out, text, len, origin);
}

int gp_capex_load(struct gp_capex_table *out)
{
    return gp_data_parse_file("capex.json", parse_capex, out);
}

void gp_capex_release(struct gp_capex_table *table)
{
    if (!table)
        return;
    free(table->estimates);
    table->estimates = NULL;
    table->count = 0;
}

const struct gp_capex_estimate *gp_capex_find(const struct gp_capex_table *table,
                                              const char *gpu_id)
{
    for (size_t i = 0; i < table->count; i++)
        if (strcmp(table->estimates[i].gpu_id, gpu_id) == 0)
            return &table->estimates[i];
    return NULL;
}

/* A price above zero from `text` (the whole string). */
static int parse_price(const char *text, const char *what, double *out)
{
    if (gp_text_to_double(text, out) || !(*out > 0))
        return gp_error_set(GP_EINVALID, "%s '%s' is not a price above zero", what, text);
    return 0;
}

int gp_capex_choice_parse(struct gp_capex_choice *out, const char *text)
{
    memset(out, 0, sizeof(*out));
    if (!strchr(text, '='))
        return parse_price(text, "price", &out->all);
    for (const char *p = text; *p;) {
        char part[96], *eq;
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof(part))
            return gp_error_set(GP_EINVALID, "'%s': expected GPU=PRICE,GPU=PRICE", text);
        memcpy(part, p, len);
        part[len] = '\0';
        eq = strchr(part, '=');
        if (!eq || eq == part || (size_t)(eq - part) >= GP_GPU_ID_MAX)
            return gp_error_set(GP_EINVALID, "'%s': expected GPU=PRICE", part);
        *eq = '\0';
        if (gp_capex_choice_price(out, part) > 0)
            return gp_error_set(GP_EINVALID, "'%s' is given twice", part);
        if (out->count == GP_CAPEX_MAX_PRICES)
            return gp_error_set(GP_EINVALID, "more than %d GPU prices", GP_CAPEX_MAX_PRICES);
        gp_text_copy(out->prices[out->count].gpu_id, GP_GPU_ID_MAX, part);
        if (parse_price(eq + 1, part, &out->prices[out->count].price))
            return GP_EINVALID;
        out->count++;
        p += len + (p[len] == ',');
    }
    return 0;
}

double gp_capex_choice_price(const struct gp_capex_choice *choice, const char *gpu_id)
{
    for (size_t i = 0; i < choice->count; i++)
        if (strcmp(choice->prices[i].gpu_id, gpu_id) == 0)
            return choice->prices[i].price;
    return choice->all;
}
