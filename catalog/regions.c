/* Parsing data/regions.json and resolving an offer's region to its country and jurisdiction. */
#include "catalog/regions.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/data.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"

static bool is_country_code(const char *s)
{
    return strlen(s) == 2 && isupper((unsigned char)s[0]) && isupper((unsigned char)s[1]);
}

static bool is_jurisdiction(const char *s)
{
    size_t n = strlen(s);

    if (n < 2 || n > 7)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!islower((unsigned char)s[i]))
            return false;
    return true;
}

/* "countries": {"DE": "eu", "NO": "eea", ...}. */
static int read_countries(struct gp_json_reader *r, const cJSON *root, struct gp_region_table *t)
{
    const cJSON *map = NULL, *item;
    size_t saved;
    int rc = gp_json_child(r, root, "countries", false, &map, GP_JSON_REQUIRED);

    if (rc)
        return rc;
    t->countries = calloc((size_t)cJSON_GetArraySize(map) + 1, sizeof(*t->countries));
    if (!t->countries)
        return gp_error_set(GP_ENOMEM, "out of memory reading regions");
    saved = gp_json_enter(r, "countries", -1);
    cJSON_ArrayForEach(item, map)
    {
        struct gp_country_rule *c = &t->countries[t->country_count];
        if (!is_country_code(item->string))
            rc = gp_json_fail(r, item->string, "is not an ISO 3166-1 alpha-2 code (\"DE\")");
        else if (!cJSON_IsString(item) || !is_jurisdiction(item->valuestring))
            rc = gp_json_fail(r, item->string,
                              "must be a jurisdiction of 2 to 7 lower-case letters (\"eu\")");
        else if (gp_regions_jurisdiction(t, item->string))
            rc = gp_json_fail(r, item->string, "is listed twice");
        if (rc)
            break;
        memcpy(c->country, item->string, 3);
        gp_text_copy(c->jurisdiction, sizeof(c->jurisdiction), item->valuestring);
        t->country_count++;
    }
    gp_json_leave(r, saved);
    return rc;
}

/* One "code": "COUNTRY" member of a provider's "regions". */
static int read_rule(struct gp_json_reader *r, const cJSON *item, const char *provider,
                     struct gp_region_table *t)
{
    struct gp_region_rule *rule = &t->rules[t->count];
    const char *country = cJSON_IsString(item) ? item->valuestring : "";

    if (!item->string[0] || gp_text_copy(rule->pattern, sizeof(rule->pattern), item->string))
        return gp_json_fail(r, item->string, "a region code of 1 to %zu characters",
                            sizeof(rule->pattern) - 1);
    if (strcmp(country, "*") != 0 && !gp_regions_jurisdiction(t, country))
        return gp_json_fail(r, item->string,
                            "'%s' is not a country listed in \"countries\" (or \"*\")", country);
    gp_text_copy(rule->provider, sizeof(rule->provider), provider);
    gp_text_copy(rule->country, sizeof(rule->country), country);
    rule->glob = strpbrk(rule->pattern, "*?[") != NULL;
    t->count++;
    return 0;
}

/* One entry of "providers": {"provider", "source", "regions": {...}}. */
static int read_provider(struct gp_json_reader *r, const cJSON *entry, void *unused, size_t index,
                         const void *table)
{
    static const char *const keys[] = {"provider", "source", "notes", "regions", NULL};
    struct gp_region_table *t = (struct gp_region_table *)table;
    char provider[32] = "", source[512] = "";
    const cJSON *map = NULL, *item;
    size_t saved;
    int rc = gp_json_check_keys(r, entry, keys);

    (void)unused;
    (void)index;
    if (!rc)
        rc = gp_json_string(r, entry, "provider", provider, sizeof(provider), GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_string(r, entry, "source", source, sizeof(source), GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_child(r, entry, "regions", false, &map, GP_JSON_REQUIRED);
    if (rc)
        return rc;
    struct gp_region_rule *grown =
        realloc(t->rules, (t->count + (size_t)cJSON_GetArraySize(map) + 1) * sizeof(*grown));
    if (!grown)
        return gp_error_set(GP_ENOMEM, "out of memory reading regions");
    t->rules = grown;
    saved = gp_json_enter(r, "regions", -1);
    cJSON_ArrayForEach(item, map)
    {
        rc = read_rule(r, item, provider, t);
        if (rc)
            break;
    }
    gp_json_leave(r, saved);
    return rc;
}

int gp_regions_parse(struct gp_region_table *out, const char *text, size_t len, const char *origin)
{
    static const char *const keys[] = {"schema_version", "notes", "countries", "providers", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    void *providers = NULL;
    size_t n = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse_versioned(&root, &r, keys, 1);
    if (!rc)
        rc = read_countries(&r, root, out);
    /* the list reader wants an element size; the rules go into the table itself */
    if (!rc)
        rc = gp_json_read_list(&providers, &n, &r, root, "providers", 1, read_provider, out);
    free(providers);
    cJSON_Delete(root);
    if (rc)
        gp_regions_release(out);
    return rc;
}

static int parse_regions(void *out, const char *text, size_t len, const char *origin)
{
    return gp_regions_parse(out, text, len, origin);
}

int gp_regions_load(struct gp_region_table *out)
{
    memset(out, 0, sizeof(*out));
    return gp_data_parse_file("regions.json", parse_regions, out);
}

void gp_regions_release(struct gp_region_table *table)
{
    if (!table)
        return;
    free(table->rules);
    free(table->countries);
    memset(table, 0, sizeof(*table));
}

const char *gp_regions_jurisdiction(const struct gp_region_table *table, const char *country)
{
    for (size_t i = 0; table && country && i < table->country_count; i++)
        if (strcmp(table->countries[i].country, country) == 0)
            return table->countries[i].jurisdiction;
    return NULL;
}

bool gp_regions_knows_jurisdiction(const struct gp_region_table *table, const char *j)
{
    for (size_t i = 0; table && j && i < table->country_count; i++)
        if (strcmp(table->countries[i].jurisdiction, j) == 0 ||
            (strcmp(j, "eea") == 0 && strcmp(table->countries[i].jurisdiction, "eu") == 0))
            return true;
    return false;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *gp_regions_jurisdictions_text(const struct gp_region_table *table, char *out, size_t size)
{
    const char *names[128];
    size_t n = 0, used = 0;

    for (size_t i = 0; table && i <= table->country_count && n < 127; i++) {
        const char *j = i < table->country_count ? table->countries[i].jurisdiction : "eea";
        bool seen = i == table->country_count && !gp_regions_knows_jurisdiction(table, "eea");
        for (size_t k = 0; k < n && !seen; k++)
            seen = strcmp(names[k], j) == 0;
        if (!seen)
            names[n++] = j;
    }
    qsort(names, n, sizeof(names[0]), by_name);
    if (size)
        out[0] = '\0';
    for (size_t k = 0; k < n; k++) {
        int w = snprintf(out + used, size - used, "%s%s", k ? ", " : "", names[k]);
        if (w < 0 || (size_t)w >= size - used) {
            out[used] = '\0';
            break;
        }
        used += (size_t)w;
    }
    return out;
}

/* The rule for (provider, region): an exact code, else the first glob that matches. */
static const struct gp_region_rule *find_rule(const struct gp_region_table *t, const char *provider,
                                              const char *region)
{
    const struct gp_region_rule *glob = NULL;

    for (size_t i = 0; i < t->count; i++) {
        const struct gp_region_rule *rule = &t->rules[i];
        if (strcmp(rule->provider, provider) != 0)
            continue;
        if (!rule->glob && strcmp(rule->pattern, region) == 0)
            return rule;
        if (rule->glob && !glob && fnmatch(rule->pattern, region, 0) == 0)
            glob = rule;
    }
    return glob;
}

void gp_regions_resolve(const struct gp_region_table *table, struct gp_offer *offer)
{
    const struct gp_region_rule *rule;
    const char *country, *jurisdiction;

    offer->country[0] = offer->jurisdiction[0] = '\0';
    if (!table || !offer->region[0] || !(rule = find_rule(table, offer->provider, offer->region)))
        return;
    country = strcmp(rule->country, "*") == 0 ? offer->region : rule->country;
    jurisdiction = gp_regions_jurisdiction(table, country);
    if (!jurisdiction)
        return; /* a region code that is no listed country */
    gp_text_copy(offer->country, sizeof(offer->country), country);
    gp_text_copy(offer->jurisdiction, sizeof(offer->jurisdiction), jurisdiction);
}

void gp_regions_apply(const struct gp_region_table *table, struct gp_offer *offers, size_t count)
{
    for (size_t i = 0; i < count; i++)
        gp_regions_resolve(table, &offers[i]);
}
