/* Writing a feed's current offers and appending changed prices to the history. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/error.h"

static enum gp_price_unit column_unit(struct gp_store *store, sqlite3_stmt *stmt, int col)
{
    char text[32];

    gp_store__column_text(store, stmt, col, text, sizeof(text));
    return gp_price_unit_parse(text) == GP_UNIT_INSTANCE_HOUR ? GP_UNIT_INSTANCE_HOUR
                                                              : GP_UNIT_GPU_HOUR;
}

void gp_store__read_offer(struct gp_store *store, sqlite3_stmt *stmt, struct gp_offer *o)
{
    char text[32];

    memset(o, 0, sizeof(*o));
    gp_store__column_text(store, stmt, 0, o->feed, sizeof(o->feed));
    gp_store__column_text(store, stmt, 1, o->provider, sizeof(o->provider));
    gp_store__column_text(store, stmt, 2, o->region, sizeof(o->region));
    gp_store__column_text(store, stmt, 3, o->country, sizeof(o->country));
    gp_store__column_text(store, stmt, 4, o->jurisdiction, sizeof(o->jurisdiction));
    gp_store__column_text(store, stmt, 5, o->instance_type, sizeof(o->instance_type));
    gp_store__column_text(store, stmt, 6, o->gpu_id, sizeof(o->gpu_id));
    o->gpus_per_instance = sqlite3_column_int(stmt, 7);
    gp_store__column_text(store, stmt, 8, text, sizeof(text));
    o->tier = (enum gp_tier)gp_tier_parse(text);
    o->term_months = sqlite3_column_int(stmt, 9);
    o->term_days = sqlite3_column_int(stmt, 10);
    o->upfront_share = sqlite3_column_double(stmt, 11);
    o->min_term_hours = sqlite3_column_int64(stmt, 12);
    o->min_gpus = sqlite3_column_int(stmt, 13);
    o->amount = sqlite3_column_double(stmt, 14);
    gp_store__column_text(store, stmt, 15, o->currency, sizeof(o->currency));
    o->unit = column_unit(store, stmt, 16);
    o->usd_per_gpu_hour = sqlite3_column_double(stmt, 17);
    o->usd_per_instance_hour = sqlite3_column_double(stmt, 18);
    o->observed_at = sqlite3_column_int64(stmt, 19);
    o->valid_until = sqlite3_column_int64(stmt, 20);
    gp_store__column_text(store, stmt, 21, o->source_url, sizeof(o->source_url));
}

/* ---- the feed write ------------------------------------------------------------------ */

enum {
    BATCH_ROWS = 64,        /* rows per multi-row INSERT */
    OFFER_ROW_COLUMNS = 24, /* bound per feed_offers row */
    HISTORY_COLUMNS = 8,
    ARENA_BLOCK = 1 << 20,
};

/* Strings copied out of result rows, in blocks that never move. */
struct arena_block {
    struct arena_block *next;
    size_t used, size;
    char data[];
};

static const char *arena_copy(struct arena_block **head, const char *text, size_t len)
{
    struct arena_block *b = *head;
    char *out;

    if (!b || b->size - b->used < len + 1) {
        size_t size = len + 1 > ARENA_BLOCK ? len + 1 : ARENA_BLOCK;
        b = malloc(sizeof(*b) + size);
        if (!b)
            return NULL;
        b->next = *head;
        b->used = 0;
        b->size = size;
        *head = b;
    }
    out = b->data + b->used;
    memcpy(out, text, len);
    out[len] = '\0';
    b->used += len + 1;
    return out;
}

static void arena_free(struct arena_block *b)
{
    while (b) {
        struct arena_block *next = b->next;
        free(b);
        b = next;
    }
}

/* A 64-bit hash of a string chained through `h`, eight bytes at a time; the length is mixed in,
 * so ("ab", "c") and ("a", "bc") differ. */
static uint64_t hash_text(uint64_t h, const char *s)
{
    const uint64_t mul = UINT64_C(0x9e3779b97f4a7c15);
    size_t n = strlen(s);
    uint64_t word;

    for (; n >= 8; s += 8, n -= 8) {
        memcpy(&word, s, 8);
        h = (h ^ word) * mul;
        h ^= h >> 32;
    }
    word = 0;
    memcpy(&word, s, n);
    h = (h ^ word ^ (uint64_t)n << 56) * mul;
    return h ^ h >> 29;
}

/* A hash of what an offer says beside its key and price: place, upfront share, minimum term and
 * GPU count, how long it holds. */
static uint64_t terms_hash(const char *country, const char *jurisdiction, double upfront_share,
                           int64_t min_term_hours, int min_gpus, int64_t valid_until)
{
    uint64_t h = hash_text(hash_text(0, country), jurisdiction), word;

    memcpy(&word, &upfront_share, sizeof(word));
    h = hash_text(h ^ word, "");
    h = hash_text(h ^ (uint64_t)min_term_hours, "");
    h = hash_text(h ^ (uint64_t)(unsigned)min_gpus, "");
    return hash_text(h ^ (uint64_t)valid_until, "");
}

static uint64_t offer_terms(const struct gp_offer *o)
{
    return terms_hash(o->country, o->jurisdiction, o->upfront_share, o->min_term_hours, o->min_gpus,
                      o->valid_until);
}

/* An offer key of the feed being written: a feed_offers row, or one this write adds. */
struct key {
    uint64_t hash;
    const char *provider, *region, *instance_type, *gpu_id; /* in the arena or the offers */
    int tier;                                               /* enum gp_tier */
    int term_months, term_days;                             /* the commitment's length */
    int64_t id;    /* feed_offers.id; 0 until a new key gets one */
    int listed;    /* the stored row is a current offer */
    size_t chosen; /* index + 1 of the offer written under the key; 0: none */
    /* the stored latest offer under the key, whose price is the history's latest */
    int gpus_per_instance;
    double amount;
    char currency[4];
    int unit; /* enum gp_price_unit */
    double usd_per_gpu_hour;
    int64_t observed_at;
    int64_t source_id;
    uint64_t terms; /* terms_hash of the stored row */
};

/* The feed's keys, found by hash: slots hold a key's index + 1, 0 when empty. */
struct key_map {
    struct key *keys;
    size_t count, stored; /* keys, and how many of them were loaded from the database */
    uint32_t *slots;
    size_t mask;
    struct arena_block *strings;
};

static uint64_t key_hash(const char *provider, const char *region, const char *instance_type,
                         const char *gpu_id, int tier, int term_months, int term_days)
{
    uint64_t h = (uint64_t)(unsigned)tier | (uint64_t)(unsigned)term_months << 8 |
                 (uint64_t)(unsigned)term_days << 32;
    h = hash_text(h, provider);
    h = hash_text(h, region);
    h = hash_text(h, instance_type);
    return hash_text(h, gpu_id);
}

static int key_is(const struct key *k, uint64_t hash, const struct gp_offer *o)
{
    return k->hash == hash && k->tier == (int)o->tier && k->term_months == o->term_months &&
           k->term_days == o->term_days && strcmp(k->instance_type, o->instance_type) == 0 &&
           strcmp(k->region, o->region) == 0 && strcmp(k->provider, o->provider) == 0 &&
           strcmp(k->gpu_id, o->gpu_id) == 0;
}

static void key_map_release(struct key_map *m)
{
    free(m->keys);
    free(m->slots);
    arena_free(m->strings);
}

static int copy_column(struct gp_store *store, struct key_map *m, sqlite3_stmt *stmt, int col,
                       const char **out)
{
    const char *text = gp_store__column_str(store, stmt, col);
    *out = arena_copy(&m->strings, text ? text : "",
                      text ? (size_t)sqlite3_column_bytes(stmt, col) : 0);
    return *out ? 0 : gp_error_set(GP_ENOMEM, "out of memory reading a feed's offers");
}

/* Columns 14.. of load_keys' query: the key's term and the hash of the row's other terms. */
static void read_terms(struct gp_store *store, sqlite3_stmt *stmt, struct key *k)
{
    char country[8], jurisdiction[16];

    k->term_months = sqlite3_column_int(stmt, 14);
    k->term_days = sqlite3_column_int(stmt, 15);
    gp_store__column_text(store, stmt, 16, country, sizeof(country));
    gp_store__column_text(store, stmt, 17, jurisdiction, sizeof(jurisdiction));
    k->terms = terms_hash(country, jurisdiction, sqlite3_column_double(stmt, 18),
                          sqlite3_column_int64(stmt, 19), sqlite3_column_int(stmt, 20),
                          sqlite3_column_int64(stmt, 21));
}

/* Load the feed's stored keys with their latest offers: one query for the whole write. */
static int load_keys(struct gp_store *store, const char *feed, struct key_map *m)
{
    static const char sql[] =
        "SELECT id, provider, region, instance_type, gpu_id, tier, listed, gpus_per_instance, "
        "amount, currency, unit, usd_per_gpu_hour, observed_at, source_id, term_months, "
        "term_days, country, jurisdiction, upfront_share, min_term_hours, min_gpus, valid_until "
        "FROM feed_offers WHERE feed = ?1";
    sqlite3_stmt *stmt = NULL;
    size_t cap = 0;
    int rc = gp_store__prepare(store, &stmt, sql), step = SQLITE_DONE;

    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, feed);
    while (rc == 0 && (step = gp_store__step(store, stmt)) == SQLITE_ROW) {
        struct key *k;
        const char *tier, *currency, *unit;
        if (m->count == cap) {
            size_t ncap = cap ? cap * 2 : 256;
            struct key *grown = realloc(m->keys, ncap * sizeof(*grown));
            if (!grown) {
                rc = gp_error_set(GP_ENOMEM, "out of memory reading a feed's offers");
                break;
            }
            m->keys = grown;
            cap = ncap;
        }
        k = &m->keys[m->count];
        memset(k, 0, sizeof(*k));
        k->id = sqlite3_column_int64(stmt, 0);
        rc = copy_column(store, m, stmt, 1, &k->provider);
        if (!rc)
            rc = copy_column(store, m, stmt, 2, &k->region);
        if (!rc)
            rc = copy_column(store, m, stmt, 3, &k->instance_type);
        if (!rc)
            rc = copy_column(store, m, stmt, 4, &k->gpu_id);
        tier = gp_store__column_str(store, stmt, 5);
        k->tier = tier ? gp_tier_parse(tier) : -1;
        k->listed = sqlite3_column_int(stmt, 6);
        k->gpus_per_instance = sqlite3_column_int(stmt, 7);
        k->amount = sqlite3_column_double(stmt, 8);
        currency = gp_store__column_str(store, stmt, 9);
        if (currency && strlen(currency) < sizeof(k->currency))
            memcpy(k->currency, currency, strlen(currency) + 1);
        unit = gp_store__column_str(store, stmt, 10);
        k->unit = unit ? gp_price_unit_parse(unit) : -1;
        k->usd_per_gpu_hour = sqlite3_column_double(stmt, 11);
        k->observed_at = sqlite3_column_int64(stmt, 12);
        k->source_id = sqlite3_column_int64(stmt, 13);
        read_terms(store, stmt, k);
        if (!rc) {
            k->hash = key_hash(k->provider, k->region, k->instance_type, k->gpu_id, k->tier,
                               k->term_months, k->term_days);
            m->count++;
        }
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot read a feed's offers");
    sqlite3_finalize(stmt);
    m->stored = m->count;
    return rc;
}

/* Room for `extra` more keys, and the slots to find every key by hash. */
static int key_map_index(struct key_map *m, size_t extra)
{
    size_t total = m->count + extra, nslots = 16;
    struct key *grown;

    if (total > UINT32_MAX / 4)
        return gp_error_set(GP_EINVALID, "too many offers in one feed write (%zu)", total);
    while (nslots < 2 * total)
        nslots *= 2;
    grown = realloc(m->keys, (total ? total : 1) * sizeof(*grown));
    m->slots = calloc(nslots, sizeof(*m->slots));
    if (grown)
        m->keys = grown;
    if (!grown || !m->slots)
        return gp_error_set(GP_ENOMEM, "out of memory indexing a feed's offers");
    m->mask = nslots - 1;
    for (size_t i = 0; i < m->count; i++) {
        size_t s = (size_t)m->keys[i].hash & m->mask;
        while (m->slots[s])
            s = (s + 1) & m->mask;
        m->slots[s] = (uint32_t)(i + 1);
    }
    return 0;
}

/* The key of `o`, added (with no id yet) when the feed never had it; its index in m->keys. */
static size_t key_find_or_add(struct key_map *m, const struct gp_offer *o)
{
    uint64_t hash = key_hash(o->provider, o->region, o->instance_type, o->gpu_id, (int)o->tier,
                             o->term_months, o->term_days);
    size_t s = (size_t)hash & m->mask;
    struct key *k;

    for (; m->slots[s]; s = (s + 1) & m->mask)
        if (key_is(&m->keys[m->slots[s] - 1], hash, o))
            return m->slots[s] - 1;
    k = &m->keys[m->count];
    memset(k, 0, sizeof(*k));
    k->hash = hash;
    k->provider = o->provider;
    k->region = o->region;
    k->instance_type = o->instance_type;
    k->gpu_id = o->gpu_id;
    k->tier = (int)o->tier;
    k->term_months = o->term_months;
    k->term_days = o->term_days;
    m->slots[s] = (uint32_t)(m->count + 1);
    return m->count++;
}

/* Source URLs by id, found by hash, remembered for the write; the last one is checked first. */
struct source {
    uint64_t hash;
    char *url;
    int64_t id;
};

struct source_map {
    struct source *items;
    size_t count;
    uint32_t *slots; /* index + 1; 0 = empty */
    size_t mask;
    size_t last; /* index + 1 of the URL looked up last; 0: none */
    sqlite3_stmt *find, *add;
};

static void source_map_release(struct source_map *m)
{
    for (size_t i = 0; i < m->count; i++)
        free(m->items[i].url);
    free(m->items);
    free(m->slots);
    sqlite3_finalize(m->find);
    sqlite3_finalize(m->add);
}

static int source_map_grow(struct source_map *m)
{
    size_t nslots = m->slots ? (m->mask + 1) * 2 : 64;
    uint32_t *slots = calloc(nslots, sizeof(*slots));
    struct source *items = realloc(m->items, nslots / 2 * sizeof(*items));

    if (items)
        m->items = items;
    if (!slots || !items) {
        free(slots);
        return gp_error_set(GP_ENOMEM, "out of memory recording source URLs");
    }
    free(m->slots);
    m->slots = slots;
    m->mask = nslots - 1;
    for (size_t i = 0; i < m->count; i++) {
        size_t s = (size_t)m->items[i].hash & m->mask;
        while (m->slots[s])
            s = (s + 1) & m->mask;
        m->slots[s] = (uint32_t)(i + 1);
    }
    return 0;
}

/* The sources.id of `url`, adding the URL to the table when it is new. */
static int source_id(struct gp_store *store, struct source_map *m, const char *url, int64_t *out)
{
    size_t len = strlen(url), s;
    uint64_t hash;
    struct source *src;
    int rc = 0, step;

    if (m->last && strcmp(m->items[m->last - 1].url, url) == 0) {
        *out = m->items[m->last - 1].id;
        return 0;
    }
    hash = hash_text(0, url);
    if (!m->slots || 2 * (m->count + 1) > m->mask + 1) {
        rc = source_map_grow(m);
        if (rc)
            return rc;
    }
    for (s = (size_t)hash & m->mask; m->slots[s]; s = (s + 1) & m->mask) {
        src = &m->items[m->slots[s] - 1];
        if (src->hash == hash && strcmp(src->url, url) == 0) {
            m->last = m->slots[s];
            *out = src->id;
            return 0;
        }
    }
    src = &m->items[m->count];
    src->hash = hash;
    src->url = malloc(len + 1);
    if (!src->url)
        return gp_error_set(GP_ENOMEM, "out of memory recording source URLs");
    memcpy(src->url, url, len + 1);
    sqlite3_reset(m->find);
    gp_store__bind_text(store, m->find, 1, url);
    step = gp_store__step(store, m->find);
    if (step == SQLITE_ROW) {
        src->id = sqlite3_column_int64(m->find, 0);
    } else if (step != SQLITE_DONE) {
        rc = gp_store__fail(store, "cannot read source URLs");
    } else {
        sqlite3_reset(m->add);
        gp_store__bind_text(store, m->add, 1, url);
        if (gp_store__step(store, m->add) != SQLITE_DONE)
            rc = gp_store__fail(store, "cannot record a source URL");
        src->id = sqlite3_last_insert_rowid(store->db);
    }
    sqlite3_reset(m->find);
    sqlite3_reset(m->add);
    if (rc) {
        free(src->url);
        return rc;
    }
    m->slots[s] = (uint32_t)(m->count + 1);
    m->last = ++m->count;
    *out = src->id;
    return 0;
}

/* A row waiting for its INSERT: the offer, the feed_offers id it is or refers to, its source. */
struct pending {
    const struct gp_offer *offer;
    int64_t id;
    int64_t source_id;
};

static void bind_static(sqlite3_stmt *stmt, int index, const char *text)
{
    sqlite3_bind_text(stmt, index, text, -1, SQLITE_STATIC);
}

/* feed_offers: id, feed, provider, region, instance_type, gpu_id, tier, term_months, term_days,
 * listed, then the offer's other columns. */
static void bind_offer_row(sqlite3_stmt *stmt, int p, const struct pending *r, const char *feed)
{
    const struct gp_offer *o = r->offer;

    sqlite3_bind_int64(stmt, p, r->id);
    bind_static(stmt, p + 1, feed);
    bind_static(stmt, p + 2, o->provider);
    bind_static(stmt, p + 3, o->region);
    bind_static(stmt, p + 4, o->instance_type);
    bind_static(stmt, p + 5, o->gpu_id);
    bind_static(stmt, p + 6, gp_tier_name(o->tier));
    sqlite3_bind_int(stmt, p + 7, o->term_months);
    sqlite3_bind_int(stmt, p + 8, o->term_days);
    sqlite3_bind_int(stmt, p + 9, 1);
    bind_static(stmt, p + 10, o->country);
    bind_static(stmt, p + 11, o->jurisdiction);
    sqlite3_bind_int(stmt, p + 12, o->gpus_per_instance);
    sqlite3_bind_double(stmt, p + 13, o->upfront_share);
    sqlite3_bind_int64(stmt, p + 14, o->min_term_hours);
    sqlite3_bind_int(stmt, p + 15, o->min_gpus);
    sqlite3_bind_double(stmt, p + 16, o->amount);
    bind_static(stmt, p + 17, o->currency);
    bind_static(stmt, p + 18, gp_price_unit_name(o->unit));
    sqlite3_bind_double(stmt, p + 19, o->usd_per_gpu_hour);
    sqlite3_bind_double(stmt, p + 20, o->usd_per_gpu_hour * o->gpus_per_instance);
    sqlite3_bind_int64(stmt, p + 21, o->observed_at);
    sqlite3_bind_int64(stmt, p + 22, o->valid_until);
    sqlite3_bind_int64(stmt, p + 23, r->source_id);
}

/* price_history: offer_id and the observed price. */
static void bind_history_row(sqlite3_stmt *stmt, int p, const struct pending *r, const char *feed)
{
    const struct gp_offer *o = r->offer;

    (void)feed;
    sqlite3_bind_int64(stmt, p, r->id);
    sqlite3_bind_int(stmt, p + 1, o->gpus_per_instance);
    sqlite3_bind_double(stmt, p + 2, o->amount);
    bind_static(stmt, p + 3, o->currency);
    bind_static(stmt, p + 4, gp_price_unit_name(o->unit));
    sqlite3_bind_double(stmt, p + 5, o->usd_per_gpu_hour);
    sqlite3_bind_int64(stmt, p + 6, o->observed_at);
    sqlite3_bind_int64(stmt, p + 7, r->source_id);
}

/* Rows of one table inserted BATCH_ROWS per statement; a remainder goes one row at a time. */
struct inserter {
    sqlite3_stmt *many, *one;
    int columns;
    void (*bind)(sqlite3_stmt *stmt, int first, const struct pending *row, const char *feed);
    const char *what; /* for the error message */
    struct pending rows[BATCH_ROWS];
    size_t count;
};

/* "head VALUES (?,...),... tail" with `rows` rows of `columns` parameters. */
static int insert_sql(char *out, size_t size, const char *head, int columns, int rows,
                      const char *tail)
{
    size_t len = (size_t)snprintf(out, size, "%s VALUES ", head);

    for (int r = 0; r < rows && len < size; r++)
        for (int c = 0; c < columns && len < size; c++)
            len += (size_t)snprintf(out + len, size - len, "%s?%s",
                                    c   ? ","
                                    : r ? ",("
                                        : "(",
                                    c == columns - 1 ? ")" : "");
    if (len < size)
        len += (size_t)snprintf(out + len, size - len, " %s", tail);
    return len < size ? 0 : gp_error_set(GP_ERROR, "a batch INSERT does not fit its buffer");
}

/* Prepare the statements of `ins`: BATCH_ROWS rows, and one row. */
static int inserter_open(struct gp_store *store, struct inserter *ins, const char *head,
                         int columns, const char *tail)
{
    char sql[8192];
    int rc = insert_sql(sql, sizeof(sql), head, columns, BATCH_ROWS, tail);

    ins->columns = columns;
    if (!rc)
        rc = gp_store__prepare(store, &ins->many, sql);
    if (!rc)
        rc = insert_sql(sql, sizeof(sql), head, columns, 1, tail);
    if (!rc)
        rc = gp_store__prepare(store, &ins->one, sql);
    return rc;
}

static int inserter_flush(struct gp_store *store, struct inserter *ins, const char *feed)
{
    size_t done = 0;
    int rc = 0;

    while (rc == 0 && done < ins->count) {
        size_t n = ins->count - done >= BATCH_ROWS ? BATCH_ROWS : 1;
        sqlite3_stmt *stmt = n == BATCH_ROWS ? ins->many : ins->one;
        for (size_t r = 0; r < n; r++)
            ins->bind(stmt, (int)r * ins->columns + 1, &ins->rows[done + r], feed);
        if (gp_store__step(store, stmt) != SQLITE_DONE)
            rc = gp_store__fail(store, ins->what);
        sqlite3_reset(stmt);
        done += n;
    }
    ins->count = 0;
    return rc;
}

/* What one feed write holds: the keys, the sources, and its statements. */
struct feed_writer {
    struct gp_store *store;
    const char *feed;
    struct key_map keys;
    struct source_map sources;
    struct inserter put, append; /* feed_offers rows (new or updated), history rows */
    sqlite3_stmt *unlist;
    int64_t next_id; /* feed_offers.id of the next new key */
};

static void writer_close(struct feed_writer *w)
{
    key_map_release(&w->keys);
    source_map_release(&w->sources);
    sqlite3_finalize(w->put.many);
    sqlite3_finalize(w->put.one);
    sqlite3_finalize(w->append.many);
    sqlite3_finalize(w->append.one);
    sqlite3_finalize(w->unlist);
}

static int writer_open(struct feed_writer *w, struct gp_store *store, const char *feed)
{
    sqlite3_stmt *max_id = NULL;
    int rc;

    memset(w, 0, sizeof(*w));
    w->store = store;
    w->feed = feed;
    w->put.bind = bind_offer_row;
    w->put.what = "cannot store an offer";
    w->append.bind = bind_history_row;
    w->append.what = "cannot record a price";
    /* A new key's row is inserted; a known key's row (the id conflicts) takes the offer. */
    rc = inserter_open(store, &w->put,
                       "INSERT INTO feed_offers (id, feed, provider, region, instance_type, "
                       "gpu_id, tier, term_months, term_days, listed, country, jurisdiction, "
                       "gpus_per_instance, upfront_share, min_term_hours, min_gpus, amount, "
                       "currency, unit, usd_per_gpu_hour, usd_per_instance_hour, observed_at, "
                       "valid_until, source_id)",
                       OFFER_ROW_COLUMNS,
                       "ON CONFLICT (id) DO UPDATE SET listed = 1, country = excluded.country, "
                       "jurisdiction = excluded.jurisdiction, "
                       "gpus_per_instance = excluded.gpus_per_instance, "
                       "upfront_share = excluded.upfront_share, "
                       "min_term_hours = excluded.min_term_hours, min_gpus = excluded.min_gpus, "
                       "amount = excluded.amount, currency = excluded.currency, "
                       "unit = excluded.unit, usd_per_gpu_hour = excluded.usd_per_gpu_hour, "
                       "usd_per_instance_hour = excluded.usd_per_instance_hour, "
                       "observed_at = excluded.observed_at, valid_until = excluded.valid_until, "
                       "source_id = excluded.source_id");
    if (!rc)
        rc = inserter_open(store, &w->append,
                           "INSERT INTO price_history (offer_id, gpus_per_instance, amount, "
                           "currency, unit, usd_per_gpu_hour, observed_at, source_id)",
                           HISTORY_COLUMNS, "");
    if (!rc)
        rc =
            gp_store__prepare(store, &w->unlist, "UPDATE feed_offers SET listed = 0 WHERE id = ?1");
    if (!rc)
        rc = gp_store__prepare(store, &w->sources.find, "SELECT id FROM sources WHERE url = ?1");
    if (!rc)
        rc = gp_store__prepare(store, &w->sources.add, "INSERT INTO sources (url) VALUES (?1)");
    if (!rc)
        rc = gp_store__prepare(store, &max_id, "SELECT coalesce(max(id), 0) FROM feed_offers");
    if (!rc) {
        if (gp_store__step(store, max_id) == SQLITE_ROW)
            w->next_id = sqlite3_column_int64(max_id, 0) + 1;
        else
            rc = gp_store__fail(store, "cannot read the offer keys");
    }
    sqlite3_finalize(max_id);
    if (!rc)
        rc = load_keys(store, feed, &w->keys);
    if (rc)
        writer_close(w);
    return rc;
}

/* Queue a row; a full batch is written, feed_offers rows before the history that refers to
 * them. */
static int queue(struct feed_writer *w, struct inserter *ins, const struct gp_offer *o, int64_t id,
                 int64_t source)
{
    int rc = 0;

    ins->rows[ins->count++] = (struct pending){o, id, source};
    if (ins->count < BATCH_ROWS)
        return 0;
    if (ins == &w->append && w->put.count)
        rc = inserter_flush(w->store, &w->put, w->feed);
    if (!rc)
        rc = inserter_flush(w->store, ins, w->feed);
    return rc;
}

static int price_changed(const struct key *k, const struct gp_offer *o)
{
    return k->amount != o->amount || k->gpus_per_instance != o->gpus_per_instance ||
           k->unit != (int)o->unit || strcmp(k->currency, o->currency) != 0;
}

/* Write the offer chosen for key `k`; *appended tells whether its price went to the history. */
static int write_offer(struct feed_writer *w, struct key *k, const struct gp_offer *o,
                       int *appended)
{
    int64_t source = 0;
    int rc = source_id(w->store, &w->sources, o->source_url, &source);

    *appended = 0;
    if (rc)
        return rc;
    if (k->id && !price_changed(k, o)) {
        if (k->listed && k->usd_per_gpu_hour == o->usd_per_gpu_hour &&
            k->observed_at == o->observed_at && k->source_id == source &&
            k->terms == offer_terms(o))
            return 0; /* the stored row already says all of it */
        return queue(w, &w->put, o, k->id, source);
    }
    if (k->id == 0)
        k->id = w->next_id++;
    rc = queue(w, &w->put, o, k->id, source);
    if (!rc)
        rc = queue(w, &w->append, o, k->id, source);
    *appended = rc == 0;
    return rc;
}

/* Keys the feed listed before and no longer lists drop out of its current offers. */
static int unlist_missing(struct feed_writer *w)
{
    int rc = 0;

    for (size_t i = 0; rc == 0 && i < w->keys.stored; i++) {
        const struct key *k = &w->keys.keys[i];
        if (!k->listed || k->chosen)
            continue;
        sqlite3_bind_int64(w->unlist, 1, k->id);
        if (gp_store__step(w->store, w->unlist) != SQLITE_DONE)
            rc = gp_store__fail(w->store, "cannot drop an offer");
        sqlite3_reset(w->unlist);
    }
    return rc;
}

int gp_store__feed_write(struct gp_store *store, const char *feed, const struct gp_offer *offers,
                         size_t count, struct gp_feed_write_stats *stats)
{
    struct feed_writer w;
    uint32_t *key_of = NULL; /* index in w.keys.keys of each offer's key */
    int rc = writer_open(&w, store, feed);

    memset(stats, 0, sizeof(*stats));
    if (rc)
        return rc;
    rc = key_map_index(&w.keys, count);
    if (!rc && count && !(key_of = malloc(count * sizeof(*key_of))))
        rc = gp_error_set(GP_ENOMEM, "out of memory writing a feed's offers");
    /* Two offers of one feed with the same key: gp_offer_kept_over chooses, as the feed's
     * de-duplication does. */
    for (size_t i = 0; rc == 0 && i < count; i++) {
        struct key *k;
        key_of[i] = (uint32_t)key_find_or_add(&w.keys, &offers[i]);
        k = &w.keys.keys[key_of[i]];
        if (!k->chosen || gp_offer_kept_over(&offers[i], &offers[k->chosen - 1]))
            k->chosen = i + 1;
    }
    /* Written in the caller's order, which for a refresh is the key order of the indexes. */
    for (size_t i = 0; rc == 0 && i < count; i++) {
        struct key *k = &w.keys.keys[key_of[i]];
        int appended = 0;
        if (k->chosen != i + 1)
            continue;
        rc = write_offer(&w, k, &offers[i], &appended);
        stats->new_prices += (size_t)appended;
        stats->offers++;
    }
    if (!rc)
        rc = inserter_flush(store, &w.put, feed);
    if (!rc)
        rc = inserter_flush(store, &w.append, feed);
    if (!rc)
        rc = unlist_missing(&w);
    free(key_of);
    writer_close(&w);
    return rc;
}

int gp_store_feed_replace(struct gp_store *store, const char *feed, const struct gp_offer *offers,
                          size_t count, struct gp_feed_write_stats *stats)
{
    struct gp_feed_write_stats totals;
    int rc = gp_store_begin(store);

    if (rc)
        return rc;
    rc = gp_store__feed_write(store, feed, offers, count, &totals);
    if (rc == 0)
        rc = gp_store_commit(store);
    if (rc) {
        gp_store_rollback(store);
        return rc;
    }
    if (stats)
        *stats = totals;
    return 0;
}
