/* JSON reading with located errors: parse, typed getters, key checks and a path locator. */
#include "util/json.h"

#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_arena.h"
#include "util/error.h"
#include "util/utf8.h"
#include "util/text.h"

/* ---- locating a path in the raw text --------------------------------------------------- */

struct scan {
    const char *s;
    size_t n;
    size_t i;
};

static void skip_space(struct scan *sc)
{
    while (sc->i < sc->n && strchr(" \t\r\n", sc->s[sc->i]))
        sc->i++;
}

static void skip_string(struct scan *sc)
{
    sc->i++; /* opening quote */
    while (sc->i < sc->n && sc->s[sc->i] != '"')
        sc->i += sc->s[sc->i] == '\\' ? 2 : 1;
    sc->i++;
}

/* Skip one value of any kind, nesting tracked by a counter (no recursion). */
static void skip_value(struct scan *sc)
{
    long depth = 0;

    skip_space(sc);
    do {
        if (sc->i >= sc->n)
            return;
        char c = sc->s[sc->i];
        if (c == '"') {
            skip_string(sc);
            continue;
        }
        if (c == '{' || c == '[')
            depth++;
        else if (c == '}' || c == ']')
            depth--;
        else if (depth == 0 && strchr(", \t\r\n", c))
            return;
        sc->i++;
    } while (depth > 0 || (sc->i < sc->n && !strchr(",}] \t\r\n", sc->s[sc->i])));
}

/* Move from an object's '{' to the value of member `key` (klen bytes). */
static int seek_member(struct scan *sc, const char *key, size_t klen)
{
    skip_space(sc);
    if (sc->i >= sc->n || sc->s[sc->i] != '{')
        return -1;
    sc->i++;
    for (;;) {
        skip_space(sc);
        if (sc->i >= sc->n || sc->s[sc->i] != '"')
            return -1;
        size_t start = sc->i + 1;
        skip_string(sc);
        size_t end = sc->i - 1;
        skip_space(sc);
        if (sc->i >= sc->n || sc->s[sc->i] != ':')
            return -1;
        sc->i++;
        skip_space(sc);
        if (end - start == klen && memcmp(sc->s + start, key, klen) == 0)
            return 0;
        skip_value(sc);
        skip_space(sc);
        if (sc->i >= sc->n || sc->s[sc->i] != ',')
            return -1;
        sc->i++;
    }
}

/* Move from the start of an array element over `count` more elements. */
static int skip_elements(struct scan *sc, long count)
{
    for (long k = 0; k < count; k++) {
        skip_value(sc);
        skip_space(sc);
        if (sc->i >= sc->n || sc->s[sc->i] != ',')
            return -1;
        sc->i++;
    }
    skip_space(sc);
    return sc->i < sc->n && sc->s[sc->i] != ']' ? 0 : -1;
}

/* Move from an array's '[' to its element `idx`. */
static int seek_element(struct scan *sc, long idx)
{
    skip_space(sc);
    if (sc->i >= sc->n || sc->s[sc->i] != '[')
        return -1;
    sc->i++;
    skip_space(sc);
    return skip_elements(sc, idx);
}

/* Count lines and columns from where `m` stopped (or from the start) up to `offset`. */
static void count_lines(struct gp_json_memo *m, const char *text, size_t offset)
{
    if (offset < m->counted || m->line == 0) {
        m->counted = 0;
        m->line = m->col = 1;
    }
    for (size_t i = m->counted; i < offset; i++) {
        if (text[i] == '\n') {
            m->line++;
            m->col = 1;
        } else {
            m->col++;
        }
    }
    m->scanned += offset - m->counted;
    m->counted = offset;
}

static void offset_to_line_col(const char *text, size_t offset, int *line, int *col)
{
    struct gp_json_memo m = {.line = 0};

    count_lines(&m, text, offset);
    *line = m.line;
    *col = m.col;
}

/* Resume from the element the memo holds when `path` is a later element of the same array:
 * moves the scan there and *p past its "[k]". Returns false when the memo does not apply. */
static bool resume(struct gp_json_memo *m, struct scan *sc, const char **p)
{
    size_t alen = strlen(m->array);
    char *end;
    long idx;

    if (!m->array[0] || strncmp(*p, m->array, alen) != 0 || (*p)[alen] != '[')
        return false;
    idx = strtol(*p + alen + 1, &end, 10);
    if (*end != ']' || idx < m->index)
        return false;
    sc->i = m->element;
    if (skip_elements(sc, idx - m->index) != 0)
        return false;
    m->index = idx;
    m->element = sc->i;
    *p = end + 1;
    return true;
}

/* Walk `path` from the document's start, or from the memo's element when it applies; the
 * offset of the deepest part found goes to *found. Returns 0, or -1 when part of the path is
 * not in the text. */
static int walk(const char *text, size_t len, const char *path, struct gp_json_memo *m,
                size_t *found)
{
    struct scan sc = {text, len, 0};
    const char *p = path;
    size_t start;

    if (m && !resume(m, &sc, &p))
        sc.i = 0;
    if (sc.i == 0)
        skip_space(&sc);
    start = *found = sc.i;
    while (*p) {
        int rc;
        if (*p == '[') {
            char *end;
            long idx = strtol(p + 1, &end, 10);
            rc = seek_element(&sc, idx);
            if (!rc && m && (size_t)(p - path) < sizeof(m->array)) {
                memcpy(m->array, path, (size_t)(p - path));
                m->array[p - path] = '\0';
                m->index = idx;
                m->element = sc.i;
            }
            p = *end == ']' ? end + 1 : end;
        } else {
            if (*p == '.')
                p++;
            size_t klen = strcspn(p, ".[");
            rc = seek_member(&sc, p, klen);
            p += klen;
        }
        if (rc)
            break;
        *found = sc.i;
    }
    if (m)
        m->scanned += sc.i - start;
    if (*found > len)
        *found = len;
    return *p ? -1 : 0;
}

int gp_json_locate(const char *text, size_t len, const char *path, int *line, int *col)
{
    size_t found = 0;
    int rc = walk(text, len, path, NULL, &found);

    offset_to_line_col(text, found, line, col);
    return rc;
}

/* ---- parsing and reading ------------------------------------------------------------- */

/* cJSON says NULL both for bad text and for an allocation that failed; its allocations go
 * through here so that the two are told apart. */
static _Thread_local bool json_out_of_memory;

/* Every cJSON allocation that failed in this process. cJSON_Add* calls whose result is not
 * checked drop a member when they fail, so a document built after one may be incomplete. */
static atomic_ulong json_failed_allocations;

static void *json_malloc(size_t size)
{
    bool in_arena;
    void *p = gp_json_arena_alloc(size, &in_arena);

    if (!in_arena)
        p = malloc(size);
    if (!p) {
        json_out_of_memory = true;
        atomic_fetch_add(&json_failed_allocations, 1);
    }
    return p;
}

static void json_free(void *p)
{
    if (!gp_json_arena_owns(p))
        free(p);
}

bool gp_json_add_owned(cJSON *object, const char *key, cJSON *item)
{
    if (object && item && cJSON_AddItemToObject(object, key, item))
        return true;
    cJSON_Delete(item);
    return false;
}

void gp_json_init(void)
{
    cJSON_InitHooks(&(cJSON_Hooks){json_malloc, json_free});
}

bool gp_json_failed(void)
{
    return atomic_load(&json_failed_allocations) != 0;
}

char *gp_json_print(const cJSON *doc, bool formatted)
{
    if (!doc || gp_json_failed())
        return NULL;
    return formatted ? cJSON_Print(doc) : cJSON_PrintUnformatted(doc);
}

/* The offset of the first escaped NUL ("\u0000") in the JSON text at or after `from`, or len
 * when there is none. */
static size_t escaped_nul(const char *text, size_t len, size_t from)
{
    size_t i = from;

    /* from one backslash to the next: most documents have few, and memchr skips the rest fast */
    while (i < len) {
        const char *slash = memchr(text + i, '\\', len - i);
        size_t run = 0;
        if (!slash)
            break;
        i = (size_t)(slash - text);
        while (i + run < len && text[i + run] == '\\')
            run++;
        if (run % 2 == 1 && len - (i + run) >= 5 && text[i + run] == 'u' &&
            memcmp(text + i + run + 1, "0000", 4) == 0)
            return i + run - 1;
        i += run + 1; /* the character the run escapes is no backslash */
    }
    return len;
}

/* cJSON ends a string at an escaped NUL and drops the rest unseen ("v\u0000m" is read as "v").
 * A copy of the text with each one written as \uffff instead (the same length, so every line
 * and column stays), or NULL when the text holds none (*failed set when out of memory).
 * GP_JSON_NUL_STAND_IN is what readers then find, and refuse with the field's path. */
static char *without_nul(const char *text, size_t len, bool *failed)
{
    size_t at = escaped_nul(text, len, 0);
    char *copy;

    *failed = false;
    if (at == len)
        return NULL;
    if (!(copy = malloc(len))) {
        *failed = true;
        return NULL;
    }
    memcpy(copy, text, len);
    for (; at < len; at = escaped_nul(copy, len, at + 6))
        memcpy(copy + at, "\\uffff", 6);
    return copy;
}

size_t gp_json_escaped_nul(const char *text, size_t len)
{
    return escaped_nul(text, len, 0);
}

int gp_json_parse(cJSON **out, const char *text, size_t len, const char *file)
{
    const char *end = NULL;
    bool failed;
    char *copy = without_nul(text, len, &failed);
    cJSON *root;
    int line, col;

    *out = NULL;
    if (failed)
        return gp_error_set(GP_ENOMEM, "out of memory reading %s", file);
    gp_json_init();
    json_out_of_memory = false;
    root = cJSON_ParseWithLengthOpts(copy ? copy : text, len, &end, 0);
    if (copy && end)
        end = text + (end - copy);
    free(copy);
    if (!root && json_out_of_memory)
        return gp_error_set(GP_ENOMEM, "out of memory reading %s", file);
    if (!end || end < text || end > text + len)
        end = text + len;
    if (root) {
        struct scan rest = {text, len, (size_t)(end - text)};
        skip_space(&rest);
        if (rest.i == len) {
            *out = root;
            return 0;
        }
        cJSON_Delete(root);
        offset_to_line_col(text, rest.i, &line, &col);
        return gp_error_set(GP_EINVALID, "%s:%d:%d: text after the JSON value", file, line, col);
    }
    offset_to_line_col(text, (size_t)(end - text), &line, &col);
    return gp_error_set(GP_EINVALID, "%s:%d:%d: invalid JSON", file, line, col);
}

void gp_json_reader_init(struct gp_json_reader *r, const char *file, const char *text, size_t len)
{
    r->file = file;
    r->text = text;
    r->len = len;
    r->path[0] = '\0';
    memset(&r->own_memo, 0, sizeof(r->own_memo));
    r->memo = &r->own_memo;
}

int gp_json_parse_versioned(cJSON **out, const struct gp_json_reader *r, const char *const *known,
                            int version)
{
    int found = 0;
    int rc = gp_json_parse(out, r->text, r->len, r->file);

    if (rc)
        return rc;
    if (!cJSON_IsObject(*out))
        return gp_json_fail(r, NULL, "must be an object");
    rc = gp_json_check_keys(r, *out, known);
    if (!rc)
        rc = gp_json_int(r, *out, "schema_version", &found, GP_JSON_REQUIRED);
    if (!rc && found != version)
        rc = gp_json_fail(r, "schema_version", "unsupported version %d (expected %d)", found,
                          version);
    return rc;
}

size_t gp_json_enter(struct gp_json_reader *r, const char *key, int idx)
{
    size_t saved = strlen(r->path), room = sizeof(r->path) - saved, len;

    if (!key) {
        /* "[idx]", cut to fit as snprintf would, without printf: lists enter one per item */
        char text[16], *at = text + sizeof(text);
        unsigned magnitude = idx < 0 ? 0u - (unsigned)idx : (unsigned)idx;
        *--at = '\0';
        *--at = ']';
        do
            *--at = (char)('0' + magnitude % 10);
        while ((magnitude /= 10) != 0);
        if (idx < 0)
            *--at = '-';
        *--at = '[';
        gp_text_copy(r->path + saved, room, at);
        return saved;
    }
    /* ".key" (no dot at the start), cut to fit as snprintf would: the common case, no printf */
    len = strlen(key);
    if (saved && room > 1) {
        r->path[saved] = '.';
        room--;
    }
    len = len < room - 1 ? len : room - 1;
    memcpy(r->path + sizeof(r->path) - room, key, len);
    r->path[sizeof(r->path) - room + len] = '\0';
    return saved;
}

void gp_json_leave(struct gp_json_reader *r, size_t saved)
{
    r->path[saved] = '\0';
}

int gp_json_fail(const struct gp_json_reader *r, const char *key, const char *fmt, ...)
{
    char full[300], message[512];
    int line, col;
    va_list ap;

    if (key && key[0])
        snprintf(full, sizeof(full), "%s%s%s", r->path, r->path[0] ? "." : "", key);
    else
        snprintf(full, sizeof(full), "%s", r->path[0] ? r->path : "(document)");
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    if (r->memo) {
        size_t found = 0;
        walk(r->text, r->len, full, r->memo, &found);
        count_lines(r->memo, r->text, found);
        line = r->memo->line;
        col = r->memo->col;
    } else {
        gp_json_locate(r->text, r->len, full, &line, &col);
    }
    return gp_error_set(GP_EINVALID, "%s:%d:%d: %s: %s", r->file, line, col, full, message);
}

/* Shared start of every getter: 1 = use *item, 0 = leave *out unchanged, <0 = error. */
static int member(const struct gp_json_reader *r, const cJSON *obj, const char *key, int flags,
                  const cJSON **item)
{
    *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!*item)
        return (flags & GP_JSON_OPTIONAL) ? 0 : gp_json_fail(r, key, "required field is missing");
    if (cJSON_IsNull(*item))
        return (flags & GP_JSON_NULLABLE) ? 0 : gp_json_fail(r, key, "must not be null");
    return 1;
}

/* As member(), for a member that must be a number: 1 = use *value. */
static int number_member(const struct gp_json_reader *r, const cJSON *obj, const char *key,
                         int flags, double *value)
{
    const cJSON *item;
    int rc = member(r, obj, key, flags, &item);

    if (rc <= 0)
        return rc;
    if (!cJSON_IsNumber(item))
        return gp_json_fail(r, key, "must be a number");
    *value = item->valuedouble;
    return 1;
}

int gp_json_number(const struct gp_json_reader *r, const cJSON *obj, const char *key, double *out,
                   int flags)
{
    double v = 0.0;
    int rc = number_member(r, obj, key, flags, &v);

    if (rc <= 0)
        return rc;
    if (!isfinite(v))
        return gp_json_fail(r, key, "must be a finite number");
    *out = v;
    return 0;
}

int gp_json_int(const struct gp_json_reader *r, const cJSON *obj, const char *key, int *out,
                int flags)
{
    double v = 0.0;
    int rc = number_member(r, obj, key, flags, &v);

    if (rc <= 0)
        return rc;
    if (!isfinite(v) || v != floor(v) || v < -2147483647.0 || v > 2147483647.0)
        return gp_json_fail(r, key, "must be a whole number");
    *out = (int)v;
    return 0;
}

int gp_json_bool(const struct gp_json_reader *r, const cJSON *obj, const char *key, bool *out,
                 int flags)
{
    const cJSON *item;
    int rc = member(r, obj, key, flags, &item);

    if (rc <= 0)
        return rc;
    if (!cJSON_IsBool(item))
        return gp_json_fail(r, key, "must be true or false");
    *out = cJSON_IsTrue(item);
    return 0;
}

int gp_json_string(const struct gp_json_reader *r, const cJSON *obj, const char *key, char *out,
                   size_t size, int flags)
{
    const cJSON *item;
    int rc = member(r, obj, key, flags, &item);

    if (rc <= 0)
        return rc;
    if (!cJSON_IsString(item))
        return gp_json_fail(r, key, "must be a string");
    size_t len = strlen(item->valuestring);
    if (len >= size)
        return gp_json_fail(r, key, "is longer than %zu characters", size - 1);
    if (!gp_utf8_valid(item->valuestring))
        return gp_json_fail(r, key, "is not valid UTF-8");
    /* the stand-in starts with a byte no ASCII text holds: most strings skip the search */
    if (memchr(item->valuestring, GP_JSON_NUL_STAND_IN[0], len) &&
        strstr(item->valuestring, GP_JSON_NUL_STAND_IN))
        return gp_json_fail(r, key, "holds \\u0000 (NUL) or \\uffff, which no text may hold");
    memcpy(out, item->valuestring, len + 1);
    return 0;
}

int gp_json_child(const struct gp_json_reader *r, const cJSON *obj, const char *key,
                  bool want_array, const cJSON **out, int flags)
{
    const cJSON *item;
    int rc = member(r, obj, key, flags, &item);

    if (rc <= 0)
        return rc;
    if (want_array ? !cJSON_IsArray(item) : !cJSON_IsObject(item))
        return gp_json_fail(r, key, "must be an %s", want_array ? "array" : "object");
    *out = item;
    return 0;
}

/* The index of `key` in the NULL-ended list `known` of `count` keys, or -1. The search starts
 * at `from`, the index after the previous key's: a file's keys are mostly in the list's order. */
static int known_index(const char *const *known, int count, int from, const char *key)
{
    for (int n = 0; n < count; n++) {
        int k = (from + n) % count;
        if (strcmp(known[k], key) == 0)
            return k;
    }
    return -1;
}

/* True when an earlier member of `obj` than `item` has its key. */
static bool key_seen_before(const cJSON *obj, const cJSON *item)
{
    for (const cJSON *prev = obj->child; prev != item; prev = prev->next)
        if (strcmp(prev->string, item->string) == 0)
            return true;
    return false;
}

int gp_json_check_keys(const struct gp_json_reader *r, const cJSON *obj, const char *const *known)
{
    enum { SEEN_BITS = 64 };
    unsigned long long seen = 0; /* bit k: known[k] met, for the first SEEN_BITS keys */
    const cJSON *item;
    int count = 0, from = 0;

    if (!cJSON_IsObject(obj))
        return gp_json_fail(r, NULL, "must be an object");
    while (known[count])
        count++;
    cJSON_ArrayForEach(item, obj)
    {
        int k = known_index(known, count, from, item->string);
        const char *hint;

        if (k >= 0) {
            bool twice = k < SEEN_BITS ? (seen >> k) & 1 : key_seen_before(obj, item);
            if (twice)
                return gp_json_fail(r, item->string, "key given twice");
            if (k < SEEN_BITS)
                seen |= 1ULL << k;
            from = k + 1;
            continue;
        }
        hint = gp_text_nearest(item->string, known);
        if (hint)
            return gp_json_fail(r, item->string, "unknown key (did you mean '%s'?)", hint);
        return gp_json_fail(r, item->string, "unknown key");
    }
    return 0;
}

int gp_json_read_list(void **out, size_t *count, struct gp_json_reader *r, const cJSON *obj,
                      const char *key, size_t size, gp_json_item_fn read, const void *ctx)
{
    const cJSON *list, *item;
    int rc = gp_json_child(r, obj, key, true, &list, GP_JSON_REQUIRED);

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    *out = calloc((size_t)cJSON_GetArraySize(list) + 1, size);
    if (!*out)
        return gp_error_set(GP_ENOMEM, "out of memory reading %s", r->file);
    size_t list_path = gp_json_enter(r, key, 0);
    cJSON_ArrayForEach(item, list)
    {
        size_t item_path = gp_json_enter(r, NULL, (int)*count);
        rc = read(r, item, *out, *count, ctx);
        gp_json_leave(r, item_path);
        if (rc)
            break;
        (*count)++;
    }
    gp_json_leave(r, list_path);
    return rc;
}
