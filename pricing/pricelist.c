/* Parsing the generic JSON price-list format into normalised offers. */
#include "pricing/pricelist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "pricing/normalize.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"
#include "util/timeutil.h"

/* Values a row inherits from the document when it does not set them. */
struct list_defaults {
    char provider[32];
    char currency[4];
    char source_url[256];
    int64_t observed_at;
};

static const char *const document_keys[] = {
    "schema_version", "provider", "currency", "source_url", "observed", "notes", "offers", NULL,
};
static const char *const offer_keys[] = {
    "gpu",
    "tier",
    "price",
    "unit",
    "gpus_per_instance",
    "instance_type",
    "region",
    "currency",
    "source_url",
    "observed",
    "provider",
    "note",
    "term_months",
    "term_days",
    "upfront_share",
    "min_term_hours",
    "min_gpus",
    "valid_until",
    NULL,
};

static int read_date(const struct gp_json_reader *r, const cJSON *obj, const char *key,
                     int64_t *out, int flags)
{
    char text[32] = "";
    int rc = gp_json_string(r, obj, key, text, sizeof(text), flags);

    if (rc == 0 && text[0] && gp_time_parse_price(text, out))
        rc = gp_json_fail(r, key,
                          "'%s' is not a date from " GP_TIME_EARLIEST_TEXT
                          " on (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)",
                          text);
    return rc;
}

/* An observed date: read_date, and no more than a day ahead of the clock, or the offer would
 * never go stale. */
static int read_observed(const struct gp_json_reader *r, const cJSON *obj, int64_t *out)
{
    int64_t before = *out;
    int rc = read_date(r, obj, "observed", out, GP_JSON_OPTIONAL);

    if (rc == 0 && *out != before && *out > gp_time_now() + GP_OBSERVED_AHEAD_MAX_S)
        rc = gp_json_fail(r, "observed", "%s is more than a day ahead of the clock",
                          cJSON_GetObjectItemCaseSensitive(obj, "observed")->valuestring);
    return rc;
}

static int read_enum(const struct gp_json_reader *r, const cJSON *obj, const char *key,
                     int (*parse)(const char *), const char *allowed, int *out)
{
    char text[32] = "";
    int rc = gp_json_string(r, obj, key, text, sizeof(text), GP_JSON_OPTIONAL);

    if (rc || !text[0])
        return rc;
    *out = parse(text);
    if (*out < 0)
        return gp_json_fail(r, key, "'%s' is not one of %s", text, allowed);
    return 0;
}

/* Which GPU a row is for; GP_NAME_* says how it matched. */
static enum gp_name_match read_gpu(const struct gp_json_reader *r, const cJSON *row,
                                   const struct list_defaults *d, const struct gp_catalog *catalog,
                                   struct gp_offer *o, int *rc)
{
    char name[128] = "";
    struct gp_gpu_name match;
    enum gp_name_match result;

    *rc = gp_json_string(r, row, "gpu", name, sizeof(name), GP_JSON_REQUIRED);
    if (*rc)
        return GP_NAME_UNKNOWN;
    if (gp_catalog_find(catalog, name)) {
        gp_text_copy(o->gpu_id, sizeof(o->gpu_id), name); /* a catalog id always fits */
        return GP_NAME_MAPPED;
    }
    result = gp_normalize_gpu_name(&match, d->provider, name);
    if (result == GP_NAME_MAPPED && gp_catalog_find(catalog, match.gpu_id)) {
        snprintf(o->gpu_id, sizeof(o->gpu_id), "%s", match.gpu_id);
        if (match.gpu_count && o->gpus_per_instance == 1)
            o->gpus_per_instance = match.gpu_count;
        return GP_NAME_MAPPED;
    }
    *rc = gp_json_fail(r, "gpu", "'%s' is not a GPU of the catalog", name);
    return result == GP_NAME_OUT_OF_SCOPE ? GP_NAME_OUT_OF_SCOPE : GP_NAME_UNKNOWN;
}

/* A row that does not state gpus_per_instance rents what its instance type spells: a price list
 * may quote BM.GPU.MI300X.8 per GPU-hour, but the machine has 8 GPUs and is rented whole. */
static void rentable_unit(const cJSON *row, struct gp_offer *o)
{
    struct gp_gpu_name match;

    if (cJSON_GetObjectItemCaseSensitive(row, "gpus_per_instance") || !o->instance_type[0])
        return;
    if (gp_normalize_gpu_name(&match, o->provider, o->instance_type) == GP_NAME_MAPPED &&
        strcmp(match.gpu_id, o->gpu_id) == 0 && match.gpu_count > 0)
        o->gpus_per_instance = match.gpu_count;
}

/* What a row says about its commitment: term, upfront share, minimum term and GPUs, validity. */
static int read_terms(const struct gp_json_reader *r, const cJSON *row, struct gp_offer *o)
{
    int64_t min_term = 0;
    int rc = gp_json_int(r, row, "term_months", &o->term_months, GP_JSON_OPTIONAL);

    if (!rc)
        rc = gp_json_int(r, row, "term_days", &o->term_days, GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_number(r, row, "upfront_share", &o->upfront_share, GP_JSON_OPTIONAL);
    if (!rc) {
        int hours = 0;
        rc = gp_json_int(r, row, "min_term_hours", &hours, GP_JSON_OPTIONAL);
        min_term = hours;
    }
    if (!rc)
        rc = gp_json_int(r, row, "min_gpus", &o->min_gpus, GP_JSON_OPTIONAL);
    if (!rc)
        rc = read_date(r, row, "valid_until", &o->valid_until, GP_JSON_OPTIONAL);
    if (rc)
        return rc;
    o->min_term_hours = min_term;
    if (o->term_months < 0 || o->term_months > 120)
        return gp_json_fail(r, "term_months", "%d is not a term of 0 to 120 months",
                            o->term_months);
    if (o->term_days < 0 || o->term_days > 366)
        return gp_json_fail(r, "term_days", "%d is not a term of 0 to 366 days", o->term_days);
    if (!(o->upfront_share >= 0 && o->upfront_share <= 1))
        return gp_json_fail(r, "upfront_share", "%g is not a share of 0 to 1", o->upfront_share);
    if (o->min_term_hours < 0 || o->min_gpus < 0)
        return gp_json_fail(r, o->min_gpus < 0 ? "min_gpus" : "min_term_hours",
                            "must not be negative");
    return 0;
}

static int read_row(const struct gp_json_reader *r, const cJSON *row, const struct list_defaults *d,
                    const struct gp_catalog *catalog, const struct gp_fx_table *fx,
                    struct gp_offer *o, enum gp_name_match *match)
{
    int tier = GP_TIER_ON_DEMAND, unit = GP_UNIT_GPU_HOUR, rc;

    *match = GP_NAME_MAPPED;
    memset(o, 0, sizeof(*o));
    snprintf(o->provider, sizeof(o->provider), "%s", d->provider);
    snprintf(o->currency, sizeof(o->currency), "%s", d->currency);
    snprintf(o->source_url, sizeof(o->source_url), "%s", d->source_url);
    o->observed_at = d->observed_at;
    o->gpus_per_instance = 1;
    if (!cJSON_IsObject(row))
        return gp_json_fail(r, NULL, "must be an object");
    rc = gp_json_check_keys(r, row, offer_keys);
    if (!rc)
        rc = gp_json_string(r, row, "provider", o->provider, sizeof(o->provider), GP_JSON_OPTIONAL);
    if (!rc && !o->provider[0])
        rc = gp_json_fail(r, "provider", "is required (here or at the top of the file)");
    if (!rc)
        rc = gp_json_int(r, row, "gpus_per_instance", &o->gpus_per_instance, GP_JSON_OPTIONAL);
    if (!rc)
        *match = read_gpu(r, row, d, catalog, o, &rc);
    if (!rc)
        rc = read_enum(r, row, "tier", gp_tier_parse,
                       "on-demand, spot, reserved, quote, capacity-block", &tier);
    if (!rc)
        rc = read_enum(r, row, "unit", gp_price_unit_parse, "gpu-hour, instance-hour", &unit);
    if (!rc)
        rc = gp_json_number(r, row, "price", &o->amount, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_string(r, row, "currency", o->currency, sizeof(o->currency), GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_string(r, row, "instance_type", o->instance_type, sizeof(o->instance_type),
                            GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_string(r, row, "region", o->region, sizeof(o->region), GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_string(r, row, "source_url", o->source_url, sizeof(o->source_url),
                            GP_JSON_OPTIONAL);
    if (!rc)
        rc = read_observed(r, row, &o->observed_at);
    if (!rc)
        rc = read_terms(r, row, o);
    if (rc)
        return rc;
    rentable_unit(row, o);
    o->tier = (enum gp_tier)tier;
    o->unit = (enum gp_price_unit)unit;
    if (o->term_months && tier != GP_TIER_RESERVED)
        return gp_json_fail(r, "term_months", "applies to the reserved tier only");
    if ((o->term_days > 0) != (tier == GP_TIER_CAPACITY_BLOCK))
        return gp_json_fail(r, "term_days", "is required for, and only for, capacity-block");
    if (!o->currency[0])
        return gp_json_fail(r, "currency", "is required (here or at the top of the file)");
    if (o->observed_at == GP_TIME_UNSET)
        return gp_json_fail(r, "observed", "is required (here or at the top of the file)");
    if (gp_normalize_price(o, fx))
        return gp_json_fail(r, "price", "%s", gp_error_last());
    return 0;
}

static int read_defaults(const struct gp_json_reader *r, const cJSON *root, struct list_defaults *d)
{
    int rc;

    memset(d, 0, sizeof(*d));
    rc = gp_json_check_keys(r, root, document_keys);
    if (!rc)
        rc =
            gp_json_string(r, root, "provider", d->provider, sizeof(d->provider), GP_JSON_OPTIONAL);
    if (!rc)
        rc =
            gp_json_string(r, root, "currency", d->currency, sizeof(d->currency), GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_string(r, root, "source_url", d->source_url, sizeof(d->source_url),
                            GP_JSON_OPTIONAL);
    if (!rc)
        rc = read_observed(r, root, &d->observed_at);
    return rc;
}

static int append_offer(struct gp_pricelist *out, size_t *cap, const struct gp_offer *o)
{
    if (out->count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 32;
        struct gp_offer *grown = realloc(out->offers, ncap * sizeof(*grown));
        if (!grown)
            return gp_error_set(GP_ENOMEM, "out of memory reading a price list");
        out->offers = grown;
        *cap = ncap;
    }
    out->offers[out->count++] = *o;
    return 0;
}

int gp_pricelist_parse(struct gp_pricelist *out, const char *text, size_t len, const char *origin,
                       const char *feed, const struct gp_catalog *catalog,
                       const struct gp_fx_table *fx, enum gp_pricelist_mode mode)
{
    struct gp_json_reader r;
    struct list_defaults defaults;
    const cJSON *rows = NULL, *row;
    cJSON *root = NULL;
    size_t cap = out->count;
    int n = 0, rc;

    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse(&root, text, len, origin);
    if (!rc && !cJSON_IsObject(root))
        rc = gp_json_fail(&r, NULL, "must be an object with an \"offers\" array");
    if (!rc)
        rc = read_defaults(&r, root, &defaults);
    if (!rc)
        rc = gp_json_child(&r, root, "offers", true, &rows, GP_JSON_REQUIRED);
    cJSON_ArrayForEach(row, rows)
    {
        struct gp_offer offer;
        enum gp_name_match match;

        if (rc)
            break;
        gp_json_enter(&r, "offers", 0);
        gp_json_enter(&r, NULL, n++);
        rc = read_row(&r, row, &defaults, catalog, fx, &offer, &match);
        gp_json_leave(&r, 0);
        if (rc == 0) {
            snprintf(offer.feed, sizeof(offer.feed), "%s", feed);
            rc = append_offer(out, &cap, &offer);
        } else if (mode == GP_PRICELIST_LENIENT && rc == GP_EINVALID) {
            out->out_of_scope += match == GP_NAME_OUT_OF_SCOPE;
            out->unmapped += match == GP_NAME_UNKNOWN;
            out->rejected += match == GP_NAME_MAPPED;
            rc = 0;
        }
    }
    cJSON_Delete(root);
    return rc;
}

int gp_pricelist_load_snapshot(struct gp_pricelist *out, const struct gp_catalog *catalog,
                               const struct gp_fx_table *fx)
{
    struct gp_buf text = GP_BUF_INIT;
    char **files = NULL;
    size_t count = 0;
    int rc = gp_data_list(&files, &count, "prices", ".json");

    for (size_t i = 0; rc == 0 && i < count; i++) {
        char origin[4200];
        gp_buf_reset(&text);
        rc = gp_data_read(&text, files[i], origin, sizeof(origin));
        if (rc == 0)
            rc = gp_pricelist_parse(out, gp_buf_str(&text), text.len, origin, "snapshot", catalog,
                                    fx, GP_PRICELIST_STRICT);
    }
    gp_buf_release(&text);
    gp_data_list_free(files, count);
    return rc;
}

void gp_pricelist_release(struct gp_pricelist *list)
{
    if (!list)
        return;
    free(list->offers);
    memset(list, 0, sizeof(*list));
}
