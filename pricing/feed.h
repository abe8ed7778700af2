/* The price-feed adapter interface: pure parsers from the bytes of one response page to offers,
 * the next page and counts of what was dropped. No adapter does I/O. */
#ifndef GP_PRICING_FEED_H
#define GP_PRICING_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "catalog/fx.h"
#include "gpuplan/energy.h"
#include "gpuplan/gpu.h"
#include "gpuplan/offer.h"
#include "pricing/http.h"
#include "util/buf.h"
#include "util/format.h"

#define GP_FEED_TIER(t)   (1u << (t))
#define GP_FEED_MAX_NAMES 32 /* distinct unmapped names kept for -v */
#define GP_FEED_URL_MAX   2048

/*
 * What an adapter parses with and into. The caller fills the inputs once per feed (and `url`
 * per page); the outputs accumulate over every page of the feed, except the next-page fields,
 * which each page sets afresh.
 */
/* The most offers one feed may hold across all its pages (about 120 MB of offers): a feed
 * that lists more fails instead of growing without bound. */
#define GP_FEED_MAX_OFFERS 200000

/* How gp_feed_add mapped one GPU name (private to pricing/feed.c). */
struct gp_feed_name_memo {
    const struct gp_catalog *catalog; /* the catalog it was mapped with (NULL: none) */
    bool set;                         /* the slot holds a name */
    char provider[32];                /* the provider it was mapped for */
    char name[64];                    /* the name as the row spelled it */
    char gpu_id[16];                  /* canonical id when outcome is 0 */
    int gpu_count;                    /* GPUs the name says; 0 when it does not say */
    int outcome;                      /* 0 mapped, 1 out of scope, 2 unmapped */
};

struct gp_feed_ctx {
    /* inputs */
    const char *feed;                 /* feed name, written into each offer */
    const char *provider;             /* provider name, written into each offer */
    const char *url;                  /* URL of the page being parsed */
    const char *base_url;             /* the feed's base URL; absolute next links re-root on it */
    int64_t observed_at;              /* Unix seconds UTC */
    const struct gp_fx_table *fx;     /* rates for non-USD amounts (borrowed) */
    const struct gp_catalog *catalog; /* canonical GPUs (borrowed) */
    size_t max_offers;                /* most offers one feed may hold across all its pages;
                                         GP_FEED_MAX_OFFERS after gp_feed_ctx_init */

    /* outputs, accumulated */
    struct gp_offer *offers; /* owned (free with gp_feed_ctx_release); `count` entries */
    size_t count;
    size_t cap;
    size_t rows;         /* rows seen that priced something */
    size_t rejected;     /* rows dropped because their price or unit made no sense */
    size_t unmapped;     /* rows whose GPU name matched nothing */
    size_t out_of_scope; /* rows for accelerators gpuplan does not plan for */
    char unmapped_names[GP_FEED_MAX_NAMES][64]; /* distinct unmapped names, first seen first */
    size_t unmapped_name_count;
    char first_rejection[256]; /* why the first rejected row was dropped, for -v */
    struct gp_fx_rate *rates;  /* exchange-rate feeds: the dated rates, owned; `nrates` */
    size_t nrates, rates_cap;
    struct gp_energy_price *energy; /* electricity feeds: the prices, owned; `nenergy` */
    size_t nenergy, energy_cap;

    /* outputs, per page */
    char next_url[GP_FEED_URL_MAX]; /* the next page, "" on the last */
    char next_token[1024];          /* continuation token for POST-paged APIs, "" on the last */

    /* private to pricing/feed.c: what gp_feed_add would otherwise work out again for every
     * offer of a page, the page's URL as offers record it and the outcome of the GPU names seen
     * last (pure functions of their inputs, which are kept beside them) */
    bool memo_url_set;                      /* memo_url/memo_source hold a pair */
    char memo_url[GP_FEED_URL_MAX];         /* a ctx->url, verbatim */
    char memo_source[256];                  /* its source_url for offers */
    struct gp_feed_name_memo name_memo[32]; /* by a hash of the name */
};

/* Streaming parser state, for responses too large to hold (the AWS offer file). */
struct gp_feed_stream;

struct gp_feed_adapter {
    const char *name;       /* adapter name used in feeds.json */
    unsigned tiers;         /* GP_FEED_TIER bits the adapter can yield */
    enum gp_http_auth auth; /* how a key is sent when the feed has one */
    bool key_required;      /* a feed without a key is skipped */
    bool allow_file;        /* file:// URLs accepted (generic price lists) */
    size_t max_page_bytes;  /* response cap per page, bytes */
    size_t max_pages;       /* most pages one document may take (an endless feed ends there);
                               0: one page, the adapter follows no next-page links */
    /* Whole-page parser; NULL for streaming adapters. */
    int (*parse)(struct gp_feed_ctx *ctx, const char *body, size_t len);
    /* Streaming parser; NULL for whole-page adapters. push may be called with any split of
     * the body; end flushes what is left. */
    int (*stream_open)(struct gp_feed_stream **out, struct gp_feed_ctx *ctx);
    int (*stream_push)(struct gp_feed_stream *s, const char *data, size_t len);
    int (*stream_end)(struct gp_feed_stream *s);
    void (*stream_free)(struct gp_feed_stream *s);
    /* After the last page: combine per-row observations (the Vast median). May be NULL. */
    int (*finish)(struct gp_feed_ctx *ctx);
    /* POST body for a page of a token-paged API (token "" for the first); NULL for GET. */
    int (*request_body)(struct gp_buf *out, const char *token);
    const char *content_type;   /* of request_body */
    const char *const *headers; /* extra request headers */
    const char *sigv4;          /* SigV4 scope when auth is GP_HTTP_AUTH_SIGV4 */
    const char *query_key;      /* the query parameter that carries the key when auth is
                                   GP_HTTP_AUTH_QUERY */
    const char *token_path;     /* with a key (client id and secret), first POST them to this
                                   path of the base URL for a bearer token (OAuth 2.0 client
                                   credentials), which the documents are fetched with */
    bool yields_rates;          /* an exchange-rate feed: ctx->rates, not offers */
    bool yields_energy;         /* an electricity-price feed: ctx->energy, not offers */
    const char *const *zones;   /* electricity feeds: the bidding zones its default paths
                                   fetch, NULL-terminated; NULL for other feeds */
    bool explains_refusals;     /* a 4xx page's body says why (other than 429): it goes to
                                   parse, whose error is the feed's, or which reads it as a
                                   page with nothing in it (ENTSO-E's "No matching data") */
};

/* Every adapter, by name; NULL when none has that name. */
const struct gp_feed_adapter *gp_feed_adapter_find(const char *name);
/* The NULL-terminated list of adapter names (for messages). */
const char *const *gp_feed_adapter_names(void);
/* "on-demand, spot" for the tiers in `mask`, into out[size]. */
void gp_feed_tiers_describe(char *out, size_t size, unsigned mask);
/* What adapter `a` yields, into out[size]: its tiers, or "exchange rates" or "electricity
 * prices" for a feed of those; "" for NULL. */
void gp_feed_yield_describe(char *out, size_t size, const struct gp_feed_adapter *a);

void gp_feed_ctx_init(struct gp_feed_ctx *ctx, const char *feed, const char *provider,
                      int64_t observed_at, const struct gp_fx_table *fx,
                      const struct gp_catalog *catalog);
void gp_feed_ctx_release(struct gp_feed_ctx *ctx);
/* Forget the offers and counts (a streamed transfer restarting from the first byte). */
void gp_feed_ctx_reset(struct gp_feed_ctx *ctx);

/* ---- helpers for adapters --------------------------------------------------------------- */

/* One priced row as a feed states it, before mapping and normalisation. */
struct gp_feed_row {
    const char *provider;      /* NULL: the feed's provider (generic lists name their own) */
    const char *gpu_name;      /* the spelling to map: instance type, GPU model, ... */
    const char *instance_type; /* provider SKU kept in the offer; NULL or "" when per GPU */
    const char *region;        /* provider region code; NULL or "" when global */
    int gpus;                  /* GPUs per instance as the feed states it; 0 = from the name */
    enum gp_tier tier;
    int term_months;        /* reserved: the commitment, months; else 0 */
    int term_days;          /* capacity-block: the block, days; else 0 */
    int64_t min_term_hours; /* shortest rental, hours; 0 = by the hour */
    double amount;          /* in `currency` per `unit` */
    const char *currency;   /* ISO 4217 */
    enum gp_price_unit unit;
    int64_t observed_at; /* when the list says it was observed; 0 = the fetch time */
};

/*
 * Map the row's GPU name and add the normalised offer. An unknown name is counted (and
 * listed), an out-of-scope accelerator counted, a nonsensical price rejected and counted; none
 * of those is an error. Returns 0 or GP_ENOMEM.
 */
int gp_feed_add(struct gp_feed_ctx *ctx, const struct gp_feed_row *row);

/* Add `row` once per region the provider lists in `regions`: an array of strings, or of objects
 * whose string member `name_key` names the region (NULL for strings); once with no region when
 * the list is empty, absent or names none (the price stands, where it is sold is not known).
 * Returns 0 or GP_ENOMEM. */
int gp_feed_add_regions(struct gp_feed_ctx *ctx, struct gp_feed_row *row, const cJSON *regions,
                        const char *name_key);

/* Append dated exchange rates to an exchange-rate feed's. GP_ENOMEM. */
int gp_feed_add_rates(struct gp_feed_ctx *ctx, const struct gp_fx_rate *rates, size_t count);

/* Append one period's price to an electricity feed's; a feed past GP_FEED_MAX_OFFERS prices
 * fails. Returns 0, GP_ENOMEM or GP_EINVALID. */
int gp_feed_add_energy(struct gp_feed_ctx *ctx, const struct gp_energy_price *price);

/*
 * Parse the European Central Bank's reference rates in its data API's CSV (format=csvdata) into
 * dated rates per US dollar: EUR and every currency quoted on a day that has a USD rate, each
 * with `source`. Records that are no daily rate against the euro with a positive value are
 * skipped and counted in *rejected (may be NULL). A body without the CSV header is GP_EINVALID.
 * Pure: no I/O. *out is the caller's (gp_fx_release).
 */
int gp_fx_ecb_parse(struct gp_fx_table *out, const char *text, size_t len, const char *source,
                    size_t *rejected);

/* Add an offer already mapped and normalised (a parsed generic price list). GP_ENOMEM. */
int gp_feed_add_offer(struct gp_feed_ctx *ctx, const struct gp_offer *offer);

/* Keep one offer per store key (provider, region, instance type, GPU, tier, term), the one
 * gp_offer_kept_over chooses, and leave them sorted by that key: the order the store's history
 * index wants. Each offer dropped is counted as a rejected row, with its reason. */
void gp_feed_dedupe(struct gp_feed_ctx *ctx);

/* Count a row whose GPU name matched nothing, and list the name (adapters that map names
 * themselves, exactly). */
void gp_feed_note_unmapped(struct gp_feed_ctx *ctx, const char *name);

/* Count a row dropped for a reason the adapter found itself (unknown unit, wrong type); the
 * printf-style reason is kept when it is the first. */
void gp_feed_reject(struct gp_feed_ctx *ctx, const char *fmt, ...) GP_PRINTF(2, 3);

/* The positive whole number `name`=N in the query of `url` (the whole parameter name, not a
 * suffix of another), else `fallback`. */
long gp_feed_query_number(const char *url, const char *name, long fallback);

/* Set ctx->next_url to `link` re-rooted on ctx->base_url: an absolute link keeps only its
 * path and query, a relative one is appended to the base. "" clears it. */
int gp_feed_set_next(struct gp_feed_ctx *ctx, const char *link);

/* The URL of the current page with `param`=`value` set in its query (replacing any value it
 * had), written to ctx->next_url: cursor and page-number paging. */
int gp_feed_set_next_param(struct gp_feed_ctx *ctx, const char *param, const char *value);

/* A JSON price that may be a number or a numeric string ("55.0400000000"). Returns 0 and the
 * value, or -1 when it is neither (null included). */
int gp_feed_json_price(const cJSON *item, double *out);
/* A whole number in 0..max (a GPU count): its value, or -1 for anything else (fractions,
 * strings, out of range). */
int gp_feed_json_count(const cJSON *item, int max);

/* Names of object members looked up together, for reading many objects of one shape (the items
 * of a page) in one walk of each instead of one walk per member. At most 32 names. */
struct gp_feed_json_keys {
    const char *const *names; /* borrowed */
    size_t count;
    uint32_t by_first[256]; /* bit i set: names[i] starts with that byte */
};

void gp_feed_json_keys_init(struct gp_feed_json_keys *keys, const char *const *names, size_t count);

/* out[i] = the first member of `obj` named keys->names[i], or NULL when it has none (or `obj`
 * is not an object): what cJSON_GetObjectItemCaseSensitive answers for each name, from one walk
 * of the members. Borrowed from `obj`. */
void gp_feed_json_members(const struct gp_feed_json_keys *keys, const cJSON *obj,
                          const cJSON **out);

/* The string of `item`, or NULL when it is not a string (NULL included). Borrowed. */
const char *gp_feed_json_string_of(const cJSON *item);

/* The string member `key` of `obj`, or NULL when absent or not a string. Borrowed. */
const char *gp_feed_json_str(const cJSON *obj, const char *key);

/*
 * Parse the JSON page `body` of `url` and find its array member `key`. A page without one fails
 * with the API's own message, the first of the string members `message_keys` (NULL-terminated;
 * NULL for none) it has, else saying that the response format changed. *root is the caller's
 * (cJSON_Delete) even on error; *list is borrowed from it. Returns 0 or GP_EINVALID.
 */
int gp_feed_json_list(cJSON **root, const cJSON **list, const char *url, const char *body,
                      size_t len, const char *key, const char *const *message_keys);

/* Called by gp_feed_json_items for each element of the list, in order; a nonzero return stops
 * the walk and is returned. It may change nothing but `ctx` (offers, counts, the first
 * rejection): a page that is read again is read from the counts it started with. */
typedef int (*gp_feed_item_fn)(struct gp_feed_ctx *ctx, const cJSON *item, void *payload);

/*
 * gp_feed_json_list, then `each` on every element of the list: the same offers, counts and
 * errors, in the same order. Most pages are read element by element instead, each one parsed,
 * read while it is in cache and freed before the next (the document around the list is parsed
 * on its own); a page that is not plainly shaped, or fails in any way, is read again the plain
 * way from the counts it started with, so errors name the same positions. *root is the
 * caller's (cJSON_Delete) even on error; its member `key` may then be an empty array: *count
 * says how many elements the list had. Returns 0, GP_EINVALID, GP_ENOMEM or what `each`
 * returned.
 */
int gp_feed_json_items(cJSON **root, size_t *count, struct gp_feed_ctx *ctx, const char *body,
                       size_t len, const char *key, const char *const *message_keys,
                       gp_feed_item_fn each, void *payload);

/* Split one CSV record (RFC 4180 quoting; no embedded newlines) in place into at most `max`
 * fields. Returns the number of fields, or -1 on an unterminated quote. */
int gp_feed_csv_split(char *line, char **fields, int max);

#endif
