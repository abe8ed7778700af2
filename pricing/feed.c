/* What every adapter shares: the registry, offer accumulation with mapping and rejection,
 * next-page links, and small JSON and CSV helpers. */
#include "pricing/feed.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "pricing/feeds/adapters.h"
#include "pricing/normalize.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"
#include "util/timeutil.h"
#include "util/utf8.h"

static const struct gp_feed_adapter *const adapters[] = {
    &gp_feed_azure,          &gp_feed_aws,           &gp_feed_aws_query, &gp_feed_lambda,
    &gp_feed_runpod,         &gp_feed_oci,           &gp_feed_vultr,     &gp_feed_digitalocean,
    &gp_feed_vast,           &gp_feed_scaleway,      &gp_feed_ovh,       &gp_feed_verda,
    &gp_feed_pricelist_json, &gp_feed_pricelist_csv, &gp_feed_ecb_fx,    &gp_feed_energidata,
    &gp_feed_entsoe,
};

#define ADAPTER_COUNT (sizeof(adapters) / sizeof(adapters[0]))

const struct gp_feed_adapter *gp_feed_adapter_find(const char *name)
{
    for (size_t i = 0; i < ADAPTER_COUNT; i++)
        if (strcmp(adapters[i]->name, name) == 0)
            return adapters[i];
    return NULL;
}

const char *const *gp_feed_adapter_names(void)
{
    static const char *names[ADAPTER_COUNT + 1];
    for (size_t i = 0; i < ADAPTER_COUNT; i++)
        names[i] = adapters[i]->name;
    names[ADAPTER_COUNT] = NULL;
    return names;
}

void gp_feed_yield_describe(char *out, size_t size, const struct gp_feed_adapter *a)
{
    if (size == 0)
        return;
    if (a && (a->yields_rates || a->yields_energy))
        gp_text_copy(out, size, a->yields_rates ? "exchange rates" : "electricity prices");
    else
        gp_feed_tiers_describe(out, size, a ? a->tiers : 0);
}

void gp_feed_tiers_describe(char *out, size_t size, unsigned mask)
{
    size_t used = 0;

    out[0] = '\0';
    for (int t = 0; t < GP_TIER_COUNT; t++) {
        if (!(mask & GP_FEED_TIER(t)))
            continue;
        int n = snprintf(out + used, size - used, "%s%s", used ? ", " : "",
                         gp_tier_name((enum gp_tier)t));
        if (n < 0 || (size_t)n >= size - used)
            return;
        used += (size_t)n;
    }
}

void gp_feed_ctx_init(struct gp_feed_ctx *ctx, const char *feed, const char *provider,
                      int64_t observed_at, const struct gp_fx_table *fx,
                      const struct gp_catalog *catalog)
{
    memset(ctx, 0, sizeof(*ctx));
    ctx->feed = feed;
    ctx->provider = provider;
    ctx->observed_at = observed_at;
    ctx->fx = fx;
    ctx->catalog = catalog;
    ctx->max_offers = GP_FEED_MAX_OFFERS;
}

void gp_feed_ctx_release(struct gp_feed_ctx *ctx)
{
    if (!ctx)
        return;
    free(ctx->offers);
    ctx->offers = NULL;
    ctx->count = ctx->cap = 0;
    free(ctx->rates);
    ctx->rates = NULL;
    ctx->nrates = ctx->rates_cap = 0;
    free(ctx->energy);
    ctx->energy = NULL;
    ctx->nenergy = ctx->energy_cap = 0;
}

void gp_feed_ctx_reset(struct gp_feed_ctx *ctx)
{
    ctx->count = 0;
    ctx->nrates = 0;
    ctx->nenergy = 0;
    ctx->rows = ctx->rejected = ctx->unmapped = ctx->out_of_scope = 0;
    ctx->unmapped_name_count = 0;
    ctx->first_rejection[0] = '\0';
    ctx->next_url[0] = '\0';
    ctx->next_token[0] = '\0';
}

void gp_feed_reject(struct gp_feed_ctx *ctx, const char *fmt, ...)
{
    va_list ap;

    if (ctx->rejected++ > 0)
        return;
    va_start(ap, fmt);
    vsnprintf(ctx->first_rejection, sizeof(ctx->first_rejection), fmt, ap);
    va_end(ap);
    if (!gp_utf8_valid(ctx->first_rejection)) { /* it may quote the row; it is stored as text */
        char quoted[sizeof(ctx->first_rejection)];
        gp_utf8_repair(quoted, sizeof(quoted), ctx->first_rejection);
        memcpy(ctx->first_rejection, quoted, sizeof(quoted));
    }
}

/* Whether `s` is ASCII through and through: then it is valid UTF-8 and cannot hold
 * GP_JSON_NUL_STAND_IN, so the full checks need not run (most names are). */
static bool plain_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return false;
    return true;
}

/* The first text field of `row` that is not UTF-8 or held an escaped NUL, by name, or NULL. */
static const char *invalid_text(const struct gp_feed_row *row)
{
    const struct {
        const char *name, *value;
    } fields[] = {{"provider", row->provider},
                  {"GPU name", row->gpu_name},
                  {"instance type", row->instance_type},
                  {"region", row->region},
                  {"currency", row->currency}};

    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        if (fields[i].value && !plain_ascii(fields[i].value) &&
            (!gp_utf8_valid(fields[i].value) || strstr(fields[i].value, GP_JSON_NUL_STAND_IN)))
            return fields[i].name;
    return NULL;
}

void gp_feed_note_unmapped(struct gp_feed_ctx *ctx, const char *name)
{
    ctx->unmapped++;
    for (size_t i = 0; i < ctx->unmapped_name_count; i++)
        if (strcmp(ctx->unmapped_names[i], name) == 0)
            return;
    if (ctx->unmapped_name_count < GP_FEED_MAX_NAMES)
        gp_text_copy(ctx->unmapped_names[ctx->unmapped_name_count++], 64, name);
}

/* The page URL without credentials, cut back to its endpoint when the query does not fit. */
static void source_url(char *out, size_t size, const char *url)
{
    char clean[GP_FEED_URL_MAX];

    if (!url) {
        out[0] = '\0';
        return;
    }
    gp_http_redact_url(clean, sizeof(clean), url);
    if (gp_text_copy(out, size, clean) != 0) {
        clean[strcspn(clean, "?")] = '\0';
        gp_text_copy(out, size, clean);
    }
}

/* source_url() of ctx->url into out[size], worked out once per page rather than per offer. */
static void page_source(char *out, size_t size, struct gp_feed_ctx *ctx)
{
    if (!ctx->url) {
        out[0] = '\0';
        return;
    }
    if (!ctx->memo_url_set || strcmp(ctx->memo_url, ctx->url) != 0) {
        source_url(ctx->memo_source, sizeof(ctx->memo_source), ctx->url);
        ctx->memo_url_set = gp_text_copy(ctx->memo_url, sizeof(ctx->memo_url), ctx->url) == 0;
    }
    gp_text_copy(out, size, ctx->memo_source);
}

enum name_outcome { NAME_MAPPED, NAME_OUT_OF_SCOPE, NAME_UNMAPPED };

/* Map a row's GPU name: a catalog id as it is, else by the provider's spelling; a mapped id
 * must be in the catalog (when there is one). */
static enum name_outcome map_name(const struct gp_catalog *catalog, const char *provider,
                                  const char *name, struct gp_gpu_name *mapped)
{
    if (catalog && gp_catalog_find(catalog, name)) {
        gp_text_copy(mapped->gpu_id, sizeof(mapped->gpu_id), name);
        mapped->gpu_count = 0;
        return NAME_MAPPED;
    }
    switch (gp_normalize_gpu_name(mapped, provider, name)) {
    case GP_NAME_MAPPED:
        break;
    case GP_NAME_OUT_OF_SCOPE:
        return NAME_OUT_OF_SCOPE;
    case GP_NAME_UNKNOWN:
    default:
        return NAME_UNMAPPED;
    }
    return catalog && !gp_catalog_find(catalog, mapped->gpu_id) ? NAME_UNMAPPED : NAME_MAPPED;
}

/* map_name(), remembered per name: a page names a few GPUs over and over. */
static enum name_outcome map_name_memo(struct gp_feed_ctx *ctx, const char *provider,
                                       const char *name, struct gp_gpu_name *mapped)
{
    struct gp_feed_name_memo *slot;
    uint32_t hash = 2166136261u; /* FNV-1a */
    size_t len = 0;
    enum name_outcome outcome;

    for (; name[len]; len++)
        hash = (hash ^ (unsigned char)name[len]) * 16777619u;
    if (!provider || len >= sizeof(slot->name) || strlen(provider) >= sizeof(slot->provider))
        return map_name(ctx->catalog, provider, name, mapped);
    slot = &ctx->name_memo[hash % (sizeof(ctx->name_memo) / sizeof(ctx->name_memo[0]))];
    if (slot->set && slot->catalog == ctx->catalog && strcmp(slot->name, name) == 0 &&
        strcmp(slot->provider, provider) == 0) {
        memcpy(mapped->gpu_id, slot->gpu_id, sizeof(mapped->gpu_id));
        mapped->gpu_count = slot->gpu_count;
        return (enum name_outcome)slot->outcome;
    }
    memset(mapped, 0, sizeof(*mapped));
    outcome = map_name(ctx->catalog, provider, name, mapped);
    slot->set = true;
    slot->catalog = ctx->catalog;
    memcpy(slot->name, name, len + 1);
    gp_text_copy(slot->provider, sizeof(slot->provider), provider);
    memcpy(slot->gpu_id, mapped->gpu_id, sizeof(slot->gpu_id));
    slot->gpu_count = mapped->gpu_count;
    slot->outcome = (int)outcome;
    return outcome;
}

static int grow(struct gp_feed_ctx *ctx)
{
    if (ctx->count >= ctx->max_offers)
        return gp_error_set(GP_EINVALID,
                            "%s lists more than %zu offers across its pages; refusing the rest",
                            ctx->feed, ctx->max_offers);
    if (ctx->count < ctx->cap)
        return 0;
    size_t cap = ctx->cap ? ctx->cap * 2 : 64;
    struct gp_offer *grown = realloc(ctx->offers, cap * sizeof(*grown));
    if (!grown)
        return gp_error_set(GP_ENOMEM, "out of memory holding %zu offers", cap);
    ctx->offers = grown;
    ctx->cap = cap;
    return 0;
}

int gp_feed_add_offer(struct gp_feed_ctx *ctx, const struct gp_offer *offer)
{
    if (grow(ctx) != 0)
        return gp_error_code();
    ctx->offers[ctx->count++] = *offer;
    return 0;
}

int gp_feed_add(struct gp_feed_ctx *ctx, const struct gp_feed_row *row)
{
    struct gp_gpu_name mapped;
    struct gp_offer *o;
    const char *bad;

    ctx->rows++;
    if ((bad = invalid_text(row)) != NULL) {
        gp_feed_reject(ctx, "a row whose %s is not valid UTF-8 or holds a NUL", bad);
        return 0;
    }
    if (ctx->observed_at && row->observed_at > ctx->observed_at + GP_OBSERVED_AHEAD_MAX_S) {
        gp_feed_reject(ctx, "%s: observed date more than a day ahead of the fetch", row->gpu_name);
        return 0;
    }
    switch (
        map_name_memo(ctx, row->provider ? row->provider : ctx->provider, row->gpu_name, &mapped)) {
    case NAME_MAPPED:
        break;
    case NAME_OUT_OF_SCOPE:
        ctx->out_of_scope++;
        return 0;
    case NAME_UNMAPPED:
    default:
        gp_feed_note_unmapped(ctx, row->gpu_name);
        return 0;
    }

    if (grow(ctx) != 0)
        return gp_error_code();
    o = &ctx->offers[ctx->count];
    memset(o, 0, sizeof(*o));
    gp_text_copy(o->feed, sizeof(o->feed), ctx->feed);
    gp_text_copy(o->provider, sizeof(o->provider),
                 row->provider && *row->provider ? row->provider : ctx->provider);
    gp_text_copy(o->region, sizeof(o->region), row->region ? row->region : "");
    gp_text_copy(o->instance_type, sizeof(o->instance_type),
                 row->instance_type ? row->instance_type : "");
    gp_text_copy(o->gpu_id, sizeof(o->gpu_id), mapped.gpu_id);
    o->gpus_per_instance = row->gpus > 0 ? row->gpus : mapped.gpu_count > 0 ? mapped.gpu_count : 1;
    o->tier = row->tier;
    o->term_months = row->term_months;
    o->term_days = row->term_days;
    o->min_term_hours = row->min_term_hours;
    o->amount = row->amount;
    gp_text_copy(o->currency, sizeof(o->currency), row->currency ? row->currency : "");
    o->unit = row->unit;
    o->observed_at = row->observed_at != GP_TIME_UNSET ? row->observed_at : ctx->observed_at;
    page_source(o->source_url, sizeof(o->source_url), ctx);

    if (row->unit == GP_UNIT_INSTANCE_HOUR && row->gpus <= 0 && mapped.gpu_count <= 0) {
        gp_feed_reject(ctx, "%s: per-instance price but the GPU count is unknown", row->gpu_name);
        return 0;
    }
    if (!row->currency || strlen(row->currency) != 3) {
        gp_feed_reject(ctx, "%s: missing or malformed currency", row->gpu_name);
        return 0;
    }
    if (gp_normalize_price(o, ctx->fx) != 0) {
        gp_feed_reject(ctx, "%s: %s", row->gpu_name, gp_error_last());
        gp_error_clear();
        return 0;
    }
    ctx->count++;
    return 0;
}

/* Room for `need` elements of `size` bytes in the array whose pointer is at `array` (a T **,
 * *cap elements allocated); GP_ENOMEM naming `what`. */
static int make_room(void *array, size_t *cap, size_t need, size_t size, const char *what)
{
    size_t n = *cap ? *cap : 32;
    void *items, *grown;

    if (need <= *cap)
        return 0;
    while (n < need)
        n *= 2;
    memcpy(&items, array, sizeof(items));
    grown = realloc(items, n * size);
    if (!grown)
        return gp_error_set(GP_ENOMEM, "out of memory reading %s", what);
    memcpy(array, &grown, sizeof(grown));
    *cap = n;
    return 0;
}

int gp_feed_add_rates(struct gp_feed_ctx *ctx, const struct gp_fx_rate *rates, size_t count)
{
    if (make_room(&ctx->rates, &ctx->rates_cap, ctx->nrates + count, sizeof(*rates),
                  "exchange rates"))
        return GP_ENOMEM;
    if (count)
        memcpy(ctx->rates + ctx->nrates, rates, count * sizeof(*rates));
    ctx->nrates += count;
    return 0;
}

int gp_feed_add_energy(struct gp_feed_ctx *ctx, const struct gp_energy_price *price)
{
    if (ctx->nenergy >= ctx->max_offers)
        return gp_error_set(GP_EINVALID, "%s: more than %zu prices; refusing a feed this large",
                            ctx->feed ? ctx->feed : "feed", ctx->max_offers);
    if (make_room(&ctx->energy, &ctx->energy_cap, ctx->nenergy + 1, sizeof(*price),
                  "electricity prices"))
        return GP_ENOMEM;
    ctx->energy[ctx->nenergy++] = *price;
    return 0;
}

int gp_feed_add_regions(struct gp_feed_ctx *ctx, struct gp_feed_row *row, const cJSON *regions,
                        const char *name_key)
{
    const cJSON *list = cJSON_IsArray(regions) ? regions : NULL, *item;
    size_t added = 0;
    int rc = 0;

    cJSON_ArrayForEach(item, list)
    {
        const cJSON *name = name_key ? cJSON_GetObjectItemCaseSensitive(item, name_key) : item;
        if (!cJSON_IsString(name) || !*name->valuestring)
            continue;
        row->region = name->valuestring;
        rc = gp_feed_add(ctx, row);
        if (rc)
            return rc;
        added++;
    }
    row->region = NULL;
    return added ? 0 : gp_feed_add(ctx, row);
}

/* Key order, and within a key the offer kept first. */
static int by_offer_key(const void *a, const void *b)
{
    const struct gp_offer *x = a, *y = b;
    int c = gp_offer_key_compare(x, y);

    if (c)
        return c;
    return gp_offer_kept_over(x, y) ? -1 : gp_offer_kept_over(y, x) ? 1 : 0;
}

void gp_feed_dedupe(struct gp_feed_ctx *ctx)
{
    size_t out = 0;

    if (ctx->count == 0)
        return;
    qsort(ctx->offers, ctx->count, sizeof(*ctx->offers), by_offer_key);
    for (size_t i = 0; i < ctx->count; i++) {
        if (out > 0 && gp_offer_key_compare(&ctx->offers[i], &ctx->offers[out - 1]) == 0) {
            gp_feed_reject(ctx,
                           "%s %s in %s: a second offer with the same provider, region, "
                           "instance type, GPU, tier and term (the first was kept)",
                           ctx->offers[i].provider, ctx->offers[i].instance_type,
                           ctx->offers[i].region[0] ? ctx->offers[i].region : "no region");
            continue;
        }
        ctx->offers[out++] = ctx->offers[i];
    }
    ctx->count = out;
}

/* Length of "scheme://authority" at the start of `url`, or 0 when it has none. */
static size_t origin_length(const char *url)
{
    const char *sep = strstr(url, "://");
    if (!sep || strcspn(url, ":/?#") != (size_t)(sep - url))
        return 0;
    return (size_t)(sep + 3 - url) + strcspn(sep + 3, "/?#");
}

int gp_feed_set_next(struct gp_feed_ctx *ctx, const char *link)
{
    const char *base = ctx->base_url ? ctx->base_url : "";
    size_t base_len = strlen(base);
    const char *rest = link;
    int n;

    ctx->next_url[0] = '\0';
    if (!link || !*link)
        return 0;
    if (origin_length(link))
        rest = link + origin_length(link);
    while (base_len && base[base_len - 1] == '/')
        base_len--;
    n = snprintf(ctx->next_url, sizeof(ctx->next_url), "%.*s%s%s", (int)base_len, base,
                 *rest == '/' || *rest == '?' ? "" : "/", rest);
    if (n < 0 || (size_t)n >= sizeof(ctx->next_url)) {
        ctx->next_url[0] = '\0';
        return gp_error_set(GP_EINVALID, "next-page link longer than %zu bytes",
                            sizeof(ctx->next_url) - 1);
    }
    return 0;
}

int gp_feed_set_next_param(struct gp_feed_ctx *ctx, const char *param, const char *value)
{
    struct gp_buf out = GP_BUF_INIT;
    const char *url = ctx->url;
    const char *q = strchr(url, '?');
    size_t plen = strlen(param);
    int rc;

    gp_buf_init(&out, sizeof(ctx->next_url) - 1);
    rc = gp_buf_append(&out, url, q ? (size_t)(q - url) : strlen(url));
    if (!rc)
        rc = gp_buf_putc(&out, '?');
    /* keep every other parameter, in order */
    for (const char *p = q ? q + 1 : NULL; p && *p && !rc;) {
        size_t len = strcspn(p, "&");
        if (!(len > plen && strncmp(p, param, plen) == 0 && p[plen] == '=') &&
            !(len == plen && strncmp(p, param, plen) == 0)) {
            rc = gp_buf_append(&out, p, len);
            if (!rc)
                rc = gp_buf_putc(&out, '&');
        }
        p += len + (p[len] == '&');
    }
    if (!rc)
        rc = gp_buf_printf(&out, "%s=", param);
    if (!rc)
        rc = gp_http_escape(&out, value);
    if (!rc)
        gp_text_copy(ctx->next_url, sizeof(ctx->next_url), out.data);
    else
        ctx->next_url[0] = '\0';
    gp_buf_release(&out);
    return rc ? gp_error_set(GP_EINVALID, "next-page URL too long") : 0;
}

int gp_feed_json_price(const cJSON *item, double *out)
{
    if (cJSON_IsNumber(item)) {
        *out = item->valuedouble;
        return isfinite(*out) ? 0 : -1;
    }
    if (cJSON_IsString(item) && item->valuestring) {
        char *end = NULL;
        const char *s = item->valuestring;
        while (*s == ' ')
            s++;
        if (!*s)
            return -1;
        *out = strtod(s, &end);
        while (end && *end == ' ')
            end++;
        return end && !*end && isfinite(*out) ? 0 : -1;
    }
    return -1;
}

int gp_feed_json_count(const cJSON *item, int max)
{
    double v;

    if (!cJSON_IsNumber(item))
        return -1;
    v = item->valuedouble;
    /* range first: converting an out-of-range double to int is undefined */
    if (!(v >= 0 && v <= max) || v != (double)(int)v)
        return -1;
    return (int)v;
}

void gp_feed_json_keys_init(struct gp_feed_json_keys *keys, const char *const *names, size_t count)
{
    memset(keys->by_first, 0, sizeof(keys->by_first));
    keys->names = names;
    keys->count = count < 32 ? count : 32;
    for (size_t i = 0; i < keys->count; i++)
        keys->by_first[(unsigned char)names[i][0]] |= (uint32_t)1 << i;
}

void gp_feed_json_members(const struct gp_feed_json_keys *keys, const cJSON *obj, const cJSON **out)
{
    uint32_t missing = keys->count == 32 ? ~(uint32_t)0 : ((uint32_t)1 << keys->count) - 1;

    for (size_t i = 0; i < keys->count; i++)
        out[i] = NULL;
    if (!cJSON_IsObject(obj))
        return;
    for (const cJSON *m = obj->child; m && missing; m = m->next) {
        const char *name = m->string;
        uint32_t candidates;
        if (!name) /* cJSON's own lookup stops at a member without a name */
            return;
        for (candidates = keys->by_first[(unsigned char)name[0]] & missing; candidates;
             candidates &= candidates - 1) {
            size_t i = 0;
            while (!(candidates & ((uint32_t)1 << i)))
                i++;
            if (strcmp(name, keys->names[i]) == 0) {
                out[i] = m; /* the first of that name, as cJSON finds it */
                missing &= ~((uint32_t)1 << i);
                break;
            }
        }
    }
}

const char *gp_feed_json_string_of(const cJSON *item)
{
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

const char *gp_feed_json_str(const cJSON *obj, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

int gp_feed_json_list(cJSON **root, const cJSON **list, const char *url, const char *body,
                      size_t len, const char *key, const char *const *message_keys)
{
    const char *msg = NULL;
    int rc = gp_json_parse(root, body, len, url);

    if (rc)
        return rc;
    *list = cJSON_GetObjectItemCaseSensitive(*root, key);
    if (cJSON_IsArray(*list))
        return 0;
    for (size_t i = 0; message_keys && message_keys[i] && !msg; i++)
        msg = gp_feed_json_str(*root, message_keys[i]);
    if (msg)
        return gp_error_set(GP_EINVALID, "%s: the API answered: %.200s", url, msg);
    return gp_error_set(GP_EINVALID, "%s: no %s array: the response format changed", url, key);
}

/* ---- reading a list element by element ------------------------------------------------- */

/* The counts gp_feed_json_items restores before reading a page again. */
struct ctx_mark {
    size_t count, rows, rejected, unmapped, out_of_scope, unmapped_name_count;
    char first_rejection[sizeof(((struct gp_feed_ctx *)0)->first_rejection)];
};

static void mark_take(struct ctx_mark *m, const struct gp_feed_ctx *ctx)
{
    m->count = ctx->count;
    m->rows = ctx->rows;
    m->rejected = ctx->rejected;
    m->unmapped = ctx->unmapped;
    m->out_of_scope = ctx->out_of_scope;
    m->unmapped_name_count = ctx->unmapped_name_count;
    if (!ctx->rejected) /* once set, the first rejection never changes */
        memcpy(m->first_rejection, ctx->first_rejection, sizeof(m->first_rejection));
}

static void mark_restore(const struct ctx_mark *m, struct gp_feed_ctx *ctx)
{
    ctx->count = m->count;
    ctx->rows = m->rows;
    if (!m->rejected)
        memcpy(ctx->first_rejection, m->first_rejection, sizeof(m->first_rejection));
    ctx->rejected = m->rejected;
    ctx->unmapped = m->unmapped;
    ctx->out_of_scope = m->out_of_scope;
    ctx->unmapped_name_count = m->unmapped_name_count;
}

/* What cJSON skips between tokens: every byte up to the space. */
static size_t skip_blank(const char *text, size_t len, size_t i)
{
    while (i < len && (unsigned char)text[i] <= 32)
        i++;
    return i;
}

/* cJSON's nesting limit (CJSON_NESTING_LIMIT); an element of the list sits two levels down. */
#define NESTING_LIMIT 1000

/* Whether a list element of `n` bytes parsed on its own could nest deeper than it may in the
 * document: it would need as many brackets. */
static bool may_nest_too_deep(const char *text, size_t n)
{
    size_t open = 0;

    if (n < NESTING_LIMIT - 2)
        return false;
    for (size_t i = 0; i < n; i++)
        open += text[i] == '{' || text[i] == '[';
    return open >= NESTING_LIMIT - 2;
}

/*
 * The element-by-element read: 1 when it read the page (*root holds the document with the list
 * emptied), 0 when the page must be read the plain way (nothing it did stays), <0 never. It
 * finds the root object's first member `key` with cJSON's own grammar (blanks are bytes up to
 * 32; values before it are skipped by parsing them), takes the array's elements one at a time
 * with cJSON_ParseWithLengthOpts, and then parses the document with the array's inside cut
 * out: the whole is valid JSON exactly when both parts and the commas between elements are.
 */
static int items_by_element(cJSON **root, size_t *count, struct gp_feed_ctx *ctx, const char *body,
                            size_t len, const char *key, gp_feed_item_fn each, void *payload)
{
    size_t klen = strlen(key), i, open, close, n = 0;
    const cJSON *list;
    char *skeleton;
    int rc;

    i = skip_blank(body, len, 0);
    if (i >= len || body[i] != '{')
        return 0;
    i++;
    for (;;) { /* the root's members, up to `key` */
        size_t name, name_end;
        const char *end = NULL;
        cJSON *skipped;
        bool is_key;
        i = skip_blank(body, len, i);
        if (i >= len || body[i] != '"')
            return 0;
        name = ++i;
        while (i < len && body[i] != '"' && body[i] != '\\' && body[i] != '\0')
            i++;
        if (i >= len || body[i] != '"')
            return 0; /* an escape or a NUL in a member name: cJSON decodes it */
        name_end = i;
        is_key = name_end - name == klen && memcmp(body + name, key, klen) == 0;
        i = skip_blank(body, len, i + 1);
        if (i >= len || body[i] != ':')
            return 0;
        i = skip_blank(body, len, i + 1);
        if (i >= len)
            return 0;
        if (is_key && body[i] == '[')
            break;
        if (is_key || (unsigned char)body[i] == 0xEF) /* not an array; a byte-order mark */
            return 0;
        skipped = cJSON_ParseWithLengthOpts(body + i, len - i, &end, 0);
        if (!skipped)
            return 0;
        cJSON_Delete(skipped);
        i = skip_blank(body, len, (size_t)(end - body));
        if (i >= len || body[i] != ',')
            return 0;
        i++;
    }
    open = i++;
    i = skip_blank(body, len, i);
    if (i < len && body[i] != ']') {
        for (;;) {
            const char *end = NULL;
            cJSON *item;
            if ((unsigned char)body[i] == 0xEF)
                return 0;
            item = cJSON_ParseWithLengthOpts(body + i, len - i, &end, 0);
            if (!item)
                return 0;
            if (may_nest_too_deep(body + i, (size_t)(end - (body + i)))) {
                cJSON_Delete(item);
                return 0;
            }
            rc = each(ctx, item, payload);
            cJSON_Delete(item);
            if (rc)
                return 0; /* the plain path fails the same way, or on invalid JSON first */
            n++;
            i = skip_blank(body, len, (size_t)(end - body));
            if (i >= len || (body[i] != ',' && body[i] != ']'))
                return 0;
            if (body[i] == ']')
                break;
            i = skip_blank(body, len, i + 1);
            if (i >= len)
                return 0;
        }
    }
    if (i >= len)
        return 0;
    close = i;
    /* the document without the inside of the list */
    skeleton = malloc(open + 1 + len - close);
    if (!skeleton)
        return 0;
    memcpy(skeleton, body, open + 1);
    memcpy(skeleton + open + 1, body + close, len - close);
    rc = gp_json_parse(root, skeleton, open + 1 + len - close, ctx->url ? ctx->url : "");
    free(skeleton);
    if (rc) {
        gp_error_clear();
        cJSON_Delete(*root);
        *root = NULL;
        return 0;
    }
    list = cJSON_GetObjectItemCaseSensitive(*root, key);
    if (!cJSON_IsArray(list) || list->child) { /* not the list that was read: never expected */
        cJSON_Delete(*root);
        *root = NULL;
        return 0;
    }
    *count = n;
    return 1;
}

int gp_feed_json_items(cJSON **root, size_t *count, struct gp_feed_ctx *ctx, const char *body,
                       size_t len, const char *key, const char *const *message_keys,
                       gp_feed_item_fn each, void *payload)
{
    const cJSON *list, *item;
    struct ctx_mark mark;
    int rc;

    *root = NULL;
    *count = 0;
    gp_json_init();
    mark_take(&mark, ctx);
    /* an escaped NUL takes the plain path, which rewrites it */
    if (len > 0 && gp_json_escaped_nul(body, len) == len &&
        items_by_element(root, count, ctx, body, len, key, each, payload) == 1)
        return 0;
    mark_restore(&mark, ctx);
    *count = 0;
    rc = gp_feed_json_list(root, &list, ctx->url, body, len, key, message_keys);
    if (rc)
        return rc;
    cJSON_ArrayForEach(item, list)
    {
        rc = each(ctx, item, payload);
        if (rc)
            return rc;
        (*count)++;
    }
    return 0;
}

int gp_feed_csv_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;

    for (;;) {
        char *out = p;
        if (n == max)
            return n;
        fields[n++] = p;
        if (*p == '"') {
            char *r = p + 1;
            for (;;) {
                if (!*r)
                    return -1;
                if (*r == '"') {
                    if (r[1] == '"') {
                        *out++ = '"';
                        r += 2;
                        continue;
                    }
                    r++;
                    break;
                }
                *out++ = *r++;
            }
            /* anything between the closing quote and the comma is kept verbatim */
            while (*r && *r != ',')
                *out++ = *r++;
            if (!*r) {
                *out = '\0';
                return n;
            }
            *out = '\0';
            p = r + 1;
        } else {
            char *comma = strchr(p, ',');
            if (!comma)
                return n;
            *comma = '\0';
            p = comma + 1;
        }
    }
}

long gp_feed_query_number(const char *url, const char *name, long fallback)
{
    size_t n = strlen(name);

    for (const char *p = url ? strchr(url, '?') : NULL; p; p = strchr(p + 1, '&')) {
        if (strncmp(p + 1, name, n) == 0 && p[1 + n] == '=') {
            char *end = NULL;
            long v = strtol(p + 2 + n, &end, 10);
            return end != p + 2 + n && v > 0 ? v : fallback;
        }
    }
    return fallback;
}
