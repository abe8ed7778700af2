/* Parsing data/sites.json: each site's zone, electricity price, taxes, tariff, PUE, racks,
 * colocation and heat reuse, every figure with a source and a date. */
#include "catalog/sites.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/data.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"
#include "util/timeutil.h"

/* What a figure may hold, and whether a site may leave it out (null or absent). */
struct figure_rule {
    const char *key;
    size_t offset; /* of the struct gp_site_figure in struct gp_site */
    double min, max;
    bool optional;
};

#define FIGURE(key, field, min, max, optional)                                                     \
    {                                                                                              \
        key, offsetof(struct gp_site, field), min, max, optional                                   \
    }

/* {"value": V, "date": "YYYY-MM-DD", "source": "...", "estimate": B} at `rule->key` of `obj`. */
static int read_figure(struct gp_json_reader *r, const cJSON *obj, const struct figure_rule *rule,
                       struct gp_site *site)
{
    static const char *const keys[] = {"value", "date", "source", "estimate", NULL};
    struct gp_site_figure *f = (struct gp_site_figure *)((char *)site + rule->offset);
    const cJSON *child = NULL;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, rule->key);
    char date[16] = "";
    size_t saved;
    int rc;

    if (rule->optional && (!item || cJSON_IsNull(item)))
        return 0;
    if ((rc = gp_json_child(r, obj, rule->key, false, &child, GP_JSON_REQUIRED)))
        return rc;
    saved = gp_json_enter(r, rule->key, -1);
    rc = gp_json_check_keys(r, child, keys);
    if (!rc)
        rc = gp_json_number(r, child, "value", &f->value, GP_JSON_REQUIRED);
    if (!rc && !(f->value >= rule->min && f->value <= rule->max))
        rc = gp_json_fail(r, "value", "%g is outside %g to %g", f->value, rule->min, rule->max);
    if (!rc)
        rc = gp_json_string(r, child, "date", date, sizeof(date), GP_JSON_REQUIRED);
    if (!rc && gp_time_parse(date, &f->date))
        rc = gp_json_fail(r, "date", "'%s' is not a date (YYYY-MM-DD)", date);
    if (!rc)
        rc = gp_json_string(r, child, "source", f->source, sizeof(f->source), GP_JSON_REQUIRED);
    if (!rc && !f->source[0])
        rc = gp_json_fail(r, "source", "must say where the figure comes from");
    if (!rc)
        rc = gp_json_bool(r, child, "estimate", &f->estimate, GP_JSON_OPTIONAL);
    f->known = rc == 0;
    gp_json_leave(r, saved);
    return rc;
}

/* The figures of object `key` of `obj` (or of `obj` itself when key is NULL). */
static int read_figures(struct gp_json_reader *r, const cJSON *obj, const char *key,
                        const struct figure_rule *rules, size_t n, struct gp_site *site)
{
    const cJSON *child = obj;
    size_t saved = 0;
    int rc = 0;

    if (key && (rc = gp_json_child(r, obj, key, false, &child, GP_JSON_REQUIRED)))
        return rc;
    if (key)
        saved = gp_json_enter(r, key, -1);
    for (size_t i = 0; !rc && i < n; i++)
        rc = read_figure(r, child, &rules[i], site);
    if (key)
        gp_json_leave(r, saved);
    return rc;
}

static bool is_site_id(const char *s)
{
    if (!s[0])
        return false;
    for (; *s; s++)
        if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
            return false;
    return true;
}

static bool is_upper(const char *s, size_t len)
{
    if (strlen(s) != len)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isupper((unsigned char)s[i]))
            return false;
    return true;
}

/* "id", "name", "zone", "country", "currency", and "vat". */
static int read_identity(struct gp_json_reader *r, const cJSON *item, struct gp_site *s,
                         const struct gp_site *earlier, size_t n_earlier)
{
    static const char *const vat_keys[] = {"rate", "reclaimed", NULL};
    const cJSON *vat = NULL;
    size_t saved;
    int rc = gp_json_string(r, item, "id", s->id, sizeof(s->id), GP_JSON_REQUIRED);

    if (!rc && !is_site_id(s->id))
        rc = gp_json_fail(r, "id", "'%s' must be lower-case letters, digits and '-'", s->id);
    for (size_t i = 0; !rc && i < n_earlier; i++)
        if (strcmp(earlier[i].id, s->id) == 0)
            rc = gp_json_fail(r, "id", "'%s' is listed twice", s->id);
    if (!rc)
        rc = gp_json_string(r, item, "name", s->name, sizeof(s->name), GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_string(r, item, "zone", s->zone, sizeof(s->zone), GP_JSON_REQUIRED);
    if (!rc && !s->zone[0])
        rc = gp_json_fail(r, "zone", "must name the bidding zone (\"DK1\")");
    if (!rc)
        rc = gp_json_string(r, item, "country", s->country, sizeof(s->country), GP_JSON_REQUIRED);
    if (!rc && !is_upper(s->country, 2))
        rc = gp_json_fail(r, "country", "'%s' is not an ISO 3166-1 alpha-2 code", s->country);
    if (!rc)
        rc =
            gp_json_string(r, item, "currency", s->currency, sizeof(s->currency), GP_JSON_REQUIRED);
    if (!rc && !is_upper(s->currency, 3))
        rc = gp_json_fail(r, "currency", "'%s' is not an ISO 4217 code", s->currency);
    if (!rc)
        rc = gp_json_child(r, item, "vat", false, &vat, GP_JSON_REQUIRED);
    if (rc)
        return rc;
    saved = gp_json_enter(r, "vat", -1);
    rc = gp_json_check_keys(r, vat, vat_keys);
    if (!rc)
        rc = gp_json_number(r, vat, "rate", &s->vat_rate, GP_JSON_REQUIRED);
    if (!rc && !(s->vat_rate >= 0 && s->vat_rate <= 0.5))
        rc = gp_json_fail(r, "rate", "%g is outside 0 to 0.5", s->vat_rate);
    if (!rc)
        rc = gp_json_bool(r, vat, "reclaimed", &s->vat_reclaimed, GP_JSON_REQUIRED);
    gp_json_leave(r, saved);
    return rc;
}

/* "spot": {"period", "mean_eur_mwh", "p90_eur_mwh"}. */
static int read_spot(struct gp_json_reader *r, const cJSON *item, struct gp_site *s)
{
    static const char *const keys[] = {"period", "mean_eur_mwh", "p90_eur_mwh", NULL};
    static const struct figure_rule rules[] = {
        FIGURE("mean_eur_mwh", spot_mean_eur_mwh, -100, 2000, false),
        FIGURE("p90_eur_mwh", spot_p90_eur_mwh, -100, 5000, true),
    };
    const cJSON *spot = NULL;
    size_t saved;
    int rc = gp_json_child(r, item, "spot", false, &spot, GP_JSON_REQUIRED);

    if (rc)
        return rc;
    saved = gp_json_enter(r, "spot", -1);
    rc = gp_json_check_keys(r, spot, keys);
    if (!rc)
        rc = gp_json_string(r, spot, "period", s->spot_period, sizeof(s->spot_period),
                            GP_JSON_REQUIRED);
    gp_json_leave(r, saved);
    if (!rc)
        rc = read_figures(r, item, "spot", rules, sizeof(rules) / sizeof(rules[0]), s);
    if (!rc && s->spot_p90_eur_mwh.known && s->spot_p90_eur_mwh.value < s->spot_mean_eur_mwh.value)
        rc = gp_json_fail(r, "spot", "p90_eur_mwh is below mean_eur_mwh");
    return rc;
}

/* The figures under "pue", "rack_kw" and "heat", and those at the site's top level. */
static int read_site_figures(struct gp_json_reader *r, const cJSON *item, struct gp_site *s)
{
    static const struct figure_rule top[] = {
        FIGURE("energy_tax_kwh", energy_tax_kwh, 0, 10, false),
        FIGURE("grid_tariff_kwh", grid_tariff_kwh, 0, 10, false),
        FIGURE("floor_m2_per_rack", floor_m2_per_rack, 0.5, 20, false),
        FIGURE("colocation_kw_month", colocation_kw_month, 0, 1e5, true),
    };
    static const struct figure_rule pue[] = {FIGURE("air", pue_air, 1, 3, false),
                                             FIGURE("liquid", pue_liquid, 1, 3, false)};
    static const struct figure_rule rack[] = {FIGURE("air", rack_kw_air, 1, 1000, false),
                                              FIGURE("liquid", rack_kw_liquid, 1, 1000, false)};
    static const struct figure_rule heat[] = {FIGURE("price_mwh", heat_price_mwh, 0, 1e4, false),
                                              FIGURE("recovery", heat_recovery, 0, 1, false)};
    static const char *const pair[] = {"air", "liquid", NULL};
    static const char *const heat_keys[] = {"price_mwh", "recovery", NULL};
    const cJSON *child;
    int rc = read_figures(r, item, NULL, top, sizeof(top) / sizeof(top[0]), s);

    if (!rc)
        rc = read_figures(r, item, "pue", pue, 2, s);
    if (!rc && (child = cJSON_GetObjectItemCaseSensitive(item, "pue")))
        rc = gp_json_check_keys(r, child, pair);
    if (!rc)
        rc = read_figures(r, item, "rack_kw", rack, 2, s);
    if (!rc && (child = cJSON_GetObjectItemCaseSensitive(item, "rack_kw")))
        rc = gp_json_check_keys(r, child, pair);
    if (!rc && s->rack_kw_liquid.value < s->rack_kw_air.value)
        rc = gp_json_fail(r, "rack_kw", "liquid is below air");
    child = cJSON_GetObjectItemCaseSensitive(item, "heat");
    if (!rc && child && !cJSON_IsNull(child))
        rc = read_figures(r, item, "heat", heat, 2, s);
    if (!rc && child && !cJSON_IsNull(child))
        rc = gp_json_check_keys(r, child, heat_keys);
    return rc;
}

static int read_site(struct gp_json_reader *r, const cJSON *item, void *items, size_t index,
                     const void *ctx)
{
    static const char *const keys[] = {"id",
                                       "name",
                                       "zone",
                                       "country",
                                       "currency",
                                       "vat",
                                       "spot",
                                       "energy_tax_kwh",
                                       "grid_tariff_kwh",
                                       "pue",
                                       "rack_kw",
                                       "floor_m2_per_rack",
                                       "colocation_kw_month",
                                       "heat",
                                       "notes",
                                       NULL};
    struct gp_site *sites = items;
    int rc = gp_json_check_keys(r, item, keys);

    (void)ctx;
    if (!rc)
        rc = read_identity(r, item, &sites[index], sites, index);
    if (!rc)
        rc = read_spot(r, item, &sites[index]);
    if (!rc)
        rc = read_site_figures(r, item, &sites[index]);
    return rc;
}

int gp_sites_parse(struct gp_site_table *out, const char *text, size_t len, const char *origin)
{
    static const char *const keys[] = {"schema_version", "notes", "sites", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    void *list = NULL;
    size_t n = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse_versioned(&root, &r, keys, 1);
    if (!rc)
        rc = gp_json_read_list(&list, &n, &r, root, "sites", sizeof(struct gp_site), read_site,
                               NULL);
    if (!rc) {
        out->sites = list;
        out->count = n;
        list = NULL;
    }
    free(list);
    cJSON_Delete(root);
    return rc;
}

static int parse_sites(void *out, const char *text, size_t len, const char *origin)
{
    return gp_sites_parse(out, text, len, origin);
}

int gp_sites_load(struct gp_site_table *out)
{
    memset(out, 0, sizeof(*out));
    return gp_data_parse_file("sites.json", parse_sites, out);
}

void gp_sites_release(struct gp_site_table *table)
{
    if (!table)
        return;
    free(table->sites);
    table->sites = NULL;
    table->count = 0;
}

const struct gp_site *gp_sites_find(const struct gp_site_table *table, const char *id)
{
    for (size_t i = 0; table && id && i < table->count; i++)
        if (gp_text_ieq(table->sites[i].id, id))
            return &table->sites[i];
    return NULL;
}

int gp_sites_require(const struct gp_site_table *table, const char *id, const struct gp_site **out)
{
    struct gp_nearest near;
    char known[512] = "";
    size_t used = 0;

    *out = gp_sites_find(table, id);
    if (*out)
        return 0;
    gp_nearest_init(&near, id);
    for (size_t i = 0; i < table->count; i++) {
        gp_nearest_offer(&near, table->sites[i].id);
        if (used < sizeof(known))
            used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s", i ? " " : "",
                                     table->sites[i].id);
    }
    if (!id[0])
        return gp_error_set(GP_EINVALID, "no site named (an empty id); known: %s", known);
    if (gp_nearest_result(&near))
        return gp_error_set(GP_EINVALID, "unknown site '%s' (did you mean '%s'?); known: %s", id,
                            gp_nearest_result(&near), known);
    return gp_error_set(GP_EINVALID, "unknown site '%s'; known: %s", id, known);
}
