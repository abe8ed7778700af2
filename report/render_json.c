/* The JSON renderer: {"schema_version": N, <meta members>, "rows": [{column: value}]}, written
 * a row at a time. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_number.h"
#include "report/table.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/json.h"
#include "util/utf8.h"

enum {
    SCRATCH_MAX = 512,
    ROW_DEPTH = 2, /* a row's nesting in the document: the document object, the rows array */
};

/* A JSON string of `text`, with any byte that is not UTF-8 (text stored before it was checked)
 * replaced by U+FFFD, so the document stays valid JSON. */
static cJSON *text_json(const char *text)
{
    cJSON *item;
    char *repaired;

    if (gp_utf8_valid(text))
        return cJSON_CreateString(text);
    size_t size = 3 * strlen(text) + 1;
    if (!(repaired = malloc(size)))
        return NULL;
    gp_utf8_repair(repaired, size, text);
    item = cJSON_CreateString(repaired);
    free(repaired);
    return item;
}

static cJSON *value_json(const struct gp_value *value)
{
    switch (value->kind) {
    case GP_CELL_TEXT:
        return text_json(value->text);
    case GP_CELL_NUMBER:
    case GP_CELL_INT:
        return cJSON_CreateNumber(value->number);
    default:
        return cJSON_CreateNull();
    }
}

/* Add `value` to `object` as `key`; false when out of memory. */
static bool add_value(cJSON *object, const char *key, const struct gp_value *value)
{
    cJSON *item = value_json(value);

    if (item && cJSON_AddItemToObject(object, key, item))
        return true;
    cJSON_Delete(item);
    return false;
}

/* Row `r`'s list as a JSON array of objects; NULL when out of memory. */
static cJSON *list_json(const struct gp_table *t, size_t r)
{
    const struct gp_table_list *l = t->list;
    cJSON *array = cJSON_CreateArray();

    for (size_t i = 0, n = array ? l->count(t->source, r) : 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(array, o)) {
            cJSON_Delete(o);
            cJSON_Delete(array);
            return NULL;
        }
        for (size_t c = 0; c < l->ncols; c++) {
            struct gp_value value;
            l->read(t->source, r, i, c, &value);
            if (!add_value(o, l->columns[c].name, &value)) {
                cJSON_Delete(array);
                return NULL;
            }
        }
    }
    return array;
}

/* Row `r` as a JSON object: its columns, then its list; NULL when out of memory. */
static cJSON *row_object(const struct gp_table *t, size_t r)
{
    cJSON *row = cJSON_CreateObject(), *list;
    char scratch[SCRATCH_MAX];

    for (size_t c = 0; row && c < t->ncols; c++) {
        struct gp_value value;
        gp_table_value(t, r, c, &value, scratch, sizeof(scratch));
        if (!add_value(row, t->columns[c].name, &value)) {
            cJSON_Delete(row);
            return NULL;
        }
    }
    if (row && t->list) {
        list = list_json(t, r);
        if (!list || !cJSON_AddItemToObject(row, t->list->key, list)) {
            cJSON_Delete(list);
            cJSON_Delete(row);
            return NULL;
        }
    }
    return row;
}

cJSON *gp_table_json_rows(const struct gp_table *t)
{
    cJSON *rows = cJSON_CreateArray();

    for (size_t r = 0; rows && r < t->nrows; r++) {
        cJSON *row = row_object(t, r);
        if (!row || !cJSON_AddItemToArray(rows, row)) {
            cJSON_Delete(row);
            cJSON_Delete(rows);
            return NULL;
        }
    }
    return rows;
}

/* The document around the rows, as text: schema_version, the meta members and an empty rows
 * array, printed by cJSON; malloc'd (cJSON_free), NULL when out of memory. */
static char *document_head(const struct gp_table *t, const struct gp_render_options *options)
{
    cJSON *doc = cJSON_CreateObject(), *member, *rows = cJSON_CreateArray();
    char *text = NULL;
    bool ok = doc && rows &&
              cJSON_AddNumberToObject(doc, "schema_version",
                                      options->schema_version ? options->schema_version : 1);

    if (ok && t->meta) {
        cJSON_ArrayForEach(member, t->meta)
        {
            cJSON *copy = cJSON_Duplicate(member, 1);
            if (!copy || !cJSON_AddItemToObject(doc, member->string, copy)) {
                cJSON_Delete(copy);
                ok = false;
                break;
            }
        }
    }
    if (ok && cJSON_AddItemToObject(doc, t->rows_key ? t->rows_key : "rows", rows))
        rows = NULL;
    else
        ok = false;
    if (ok)
        text = gp_json_print(doc, true);
    cJSON_Delete(rows);
    cJSON_Delete(doc);
    return text;
}

/* `text` as cJSON prints a string: quoted, with '"', '\\' and the control characters escaped
 * (\b \f \n \r \t by name, the others as \u00xx), every other byte as it is. The put_*
 * functions return 0, or nonzero once an append failed (out of memory). */
/* The escape of byte c, which JSON text cannot hold as it is, into esc[6]; its length. */
static size_t escape(char esc[6], unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    static const char named[] = {['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r',
                                 ['\t'] = 't', ['"'] = '"',  ['\\'] = '\\'};

    esc[0] = '\\';
    if (c < sizeof(named) && named[c]) {
        esc[1] = named[c];
        return 2;
    }
    memcpy(esc + 1, "u00", 3);
    esc[4] = hex[c >> 4];
    esc[5] = hex[c & 15];
    return 6;
}

static int put_string(struct gp_buf *b, const char *text)
{
    const char *run = text;
    int rc = gp_buf_putc(b, '"');

    for (const char *p = text;; p++) {
        unsigned char c = (unsigned char)*p;
        char esc[6];
        if (c >= 32 && c != '"' && c != '\\')
            continue;
        rc |= gp_buf_append(b, run, (size_t)(p - run));
        if (c == 0)
            break;
        rc |= gp_buf_append(b, esc, escape(esc, c));
        run = p + 1;
    }
    return rc | gp_buf_putc(b, '"');
}

/* The length of the start of `text` that JSON holds as it is and that is plain ASCII: most
 * text is all of it, and is then copied whole, scanned once. */
static size_t plain_length(const char *text)
{
    size_t plain = 0;

    while ((unsigned char)text[plain] >= 0x20 && (unsigned char)text[plain] < 0x7f &&
           text[plain] != '"' && text[plain] != '\\')
        plain++;
    return plain;
}

/* A text cell as text_json makes it: a byte that is not UTF-8 becomes U+FFFD. */
static int put_text(struct gp_buf *b, const char *text, struct gp_buf *repair)
{
    size_t size, plain = plain_length(text);

    if (text[plain] == '\0')
        return gp_buf_putc(b, '"') | gp_buf_append(b, text, plain) | gp_buf_putc(b, '"');
    if (gp_utf8_valid(text))
        return put_string(b, text);
    size = 3 * strlen(text) + 1;
    gp_buf_reset(repair);
    if (gp_buf_grow(repair, size))
        return GP_ENOMEM;
    gp_utf8_repair(repair->data, size, text);
    return put_string(b, repair->data);
}

/* Texts of numbers written lately, by their bits: a sweep's rows repeat most of their figures
 * from point to point (a fleet's size, prices, costs), and a copy costs a fraction of making
 * the text. Direct-mapped; one per thread, as the writer may run on any. */
enum { NUMBER_MEMO = 4096 };

struct number_memo {
    uint64_t bits;
    unsigned char len; /* 0: empty */
    char text[GP_JSON_NUMBER_MAX - 1];
};

static _Thread_local struct number_memo number_memo[NUMBER_MEMO];

/* `d` as cJSON prints a number (report/json_number.h) into out[GP_JSON_NUMBER_MAX]; its length. */
static size_t number_text(char *out, double d)
{
    uint64_t bits;
    struct number_memo *m;
    size_t len;

    memcpy(&bits, &d, sizeof(bits));
    m = &number_memo[(bits * 0x9e3779b97f4a7c15ull) >> 52]; /* the top 12 bits of a mix */
    if (m->len && m->bits == bits) {
        memcpy(out, m->text, sizeof(m->text));
        return m->len;
    }
    len = gp_json_number_text(out, d);
    if (len < sizeof(m->text)) {
        m->bits = bits;
        m->len = (unsigned char)len;
        memcpy(m->text, out, len);
    }
    return len;
}

static int put_number(struct gp_buf *b, double d)
{
    char text[GP_JSON_NUMBER_MAX];
    size_t len = number_text(text, d);

    return gp_buf_append(b, text, len);
}

/* A line break and `depth` tabs, as cJSON indents a member. */
static int put_indent(struct gp_buf *b, int depth)
{
    static const char tabs[] = "\n\t\t\t\t\t\t\t\t";
    int rc = 0;

    for (; depth > 8; depth--)
        rc |= gp_buf_putc(b, '\t');
    return rc | gp_buf_append(b, tabs, 1 + (size_t)depth);
}

/* The opening of member `key` (NULL: none) of an object at `depth`: the comma after the one
 * before (`first` false), the indent, the key and the tab. */
static int put_member(struct gp_buf *b, const char *key, bool first, int depth)
{
    int rc = first ? 0 : gp_buf_putc(b, ',');

    rc |= put_indent(b, depth) | put_string(b, key);
    return rc | gp_buf_append(b, ":\t", 2);
}

/* `item` as cJSON_Print writes it at nesting `depth` (the objects and arrays around it): an
 * object's members one to a line, indented a tab deeper; an array's items ", " apart. */
static int put_item(struct gp_buf *b, const cJSON *item, int depth)
{
    const cJSON *child;
    int rc = 0;

    if (cJSON_IsObject(item)) {
        rc = gp_buf_putc(b, '{');
        for (child = item->child; child; child = child->next)
            rc |= put_member(b, child->string, child == item->child, depth + 1) |
                  put_item(b, child, depth + 1);
        return rc | put_indent(b, depth) | gp_buf_putc(b, '}');
    }
    if (cJSON_IsArray(item)) {
        rc = gp_buf_putc(b, '[');
        for (child = item->child; child; child = child->next)
            rc |= (child == item->child ? 0 : gp_buf_append(b, ", ", 2)) |
                  put_item(b, child, depth + 1);
        return rc | gp_buf_putc(b, ']');
    }
    if (cJSON_IsString(item))
        return put_string(b, item->valuestring ? item->valuestring : "");
    if (cJSON_IsNumber(item))
        return put_number(b, item->valuedouble);
    if (cJSON_IsRaw(item))
        return gp_buf_puts(b, item->valuestring ? item->valuestring : "");
    return gp_buf_puts(b, cJSON_IsTrue(item) ? "true" : cJSON_IsFalse(item) ? "false" : "null");
}

/*
 * What writing rows reuses from row to row: the row's text, a repaired text's, and each
 * member's opening (",\n\t\t\t\"name\":\t", escaped once): the columns', then the list's key
 * and its items' members, one level deeper.
 */
struct gp_json_rows {
    struct gp_buf row, repair, keys;
    size_t *key_at; /* owned, offsets into keys: one per column, list key and item member, + 1 */
    size_t nkeys;
    size_t ncols;                     /* the table's columns the keys were made for */
    const struct gp_table_list *list; /* and its list (borrowed; NULL = none) */
};

static int add_key(struct gp_json_rows *w, const char *name, int depth)
{
    w->key_at[w->nkeys++] = w->keys.len;
    return put_member(&w->keys, name, false, depth);
}

static int row_writer_init(struct gp_json_rows *w, const struct gp_table *t)
{
    const struct gp_table_list *l = t->list;
    size_t n = t->ncols + (l ? 1 + l->ncols : 0);
    int rc = 0;

    memset(w, 0, sizeof(*w));
    w->ncols = t->ncols;
    w->list = l;
    if (!(w->key_at = malloc((n + 1) * sizeof(*w->key_at))))
        return gp_error_set(GP_ENOMEM, "out of memory rendering JSON");
    for (size_t c = 0; c < t->ncols; c++)
        rc |= add_key(w, t->columns[c].name, ROW_DEPTH + 1);
    if (l) {
        rc |= add_key(w, l->key, ROW_DEPTH + 1);
        for (size_t c = 0; c < l->ncols; c++)
            rc |= add_key(w, l->columns[c].name, ROW_DEPTH + 3);
    }
    w->key_at[n] = w->keys.len;
    return rc ? gp_error_set(GP_ENOMEM, "out of memory rendering JSON") : 0;
}

/* Member opening `i`, without its comma when it is the first of its object. */
static int put_key(struct gp_json_rows *w, size_t i, bool first)
{
    size_t skip = first;

    return gp_buf_append(&w->row, w->keys.data + w->key_at[i] + skip,
                         w->key_at[i + 1] - w->key_at[i] - skip);
}

static void row_writer_release(struct gp_json_rows *w)
{
    gp_buf_release(&w->row);
    gp_buf_release(&w->repair);
    gp_buf_release(&w->keys);
    free(w->key_at);
}

/* Member `key` (put_key) with `value`, written at one cursor where the value's length is known
 * before it is written: numbers, null and plain text; other text the long way. */
static int put_cell(struct gp_json_rows *w, size_t key, bool first, const struct gp_value *value)
{
    const char *opening = w->keys.data + w->key_at[key] + first;
    size_t len = w->key_at[key + 1] - w->key_at[key] - first, plain = 0;
    struct gp_buf *b = &w->row;
    char *p;

    if (value->kind == GP_CELL_TEXT && value->text[plain = plain_length(value->text)])
        return put_key(w, key, first) | put_text(b, value->text, &w->repair);
    if (gp_buf_room(b, len + (value->kind == GP_CELL_TEXT ? plain + 2 : GP_JSON_NUMBER_MAX), &p))
        return GP_ENOMEM;
    memcpy(p, opening, len);
    p += len;
    switch (value->kind) {
    case GP_CELL_TEXT:
        *p++ = '"';
        memcpy(p, value->text, plain);
        p += plain;
        *p++ = '"';
        break;
    case GP_CELL_NUMBER:
    case GP_CELL_INT:
        p += number_text(p, value->number);
        break;
    default:
        memcpy(p, "null", 4);
        p += 4;
    }
    gp_buf_commit(b, p);
    return 0;
}

/* Row `r`'s list as the member after its columns (`first`: no column before it): its items,
 * objects two levels deeper, ", " apart. */
static int put_list(const struct gp_table *t, size_t r, struct gp_json_rows *w, bool first)
{
    const struct gp_table_list *l = t->list;
    struct gp_buf *b = &w->row;
    int rc = put_key(w, t->ncols, first) | gp_buf_putc(b, '[');

    for (size_t i = 0, n = l->count(t->source, r); i < n; i++) {
        rc |= (i ? gp_buf_append(b, ", ", 2) : 0) | gp_buf_putc(b, '{');
        for (size_t c = 0; c < l->ncols; c++) {
            struct gp_value value;
            l->read(t->source, r, i, c, &value);
            rc |= put_cell(w, t->ncols + 1 + c, c == 0, &value);
        }
        rc |= put_indent(b, ROW_DEPTH + 2) | gp_buf_putc(b, '}');
    }
    return rc | gp_buf_putc(b, ']');
}

/* Row `r` byte for byte as cJSON prints it inside the document (an object in the rows array),
 * built in w->row without a tree: one member to a line, three tabs in. */
static int put_row(const struct gp_table *t, size_t r, struct gp_json_rows *w)
{
    char scratch[SCRATCH_MAX];
    struct gp_value value;
    struct gp_buf *b = &w->row;
    int rc;

    gp_buf_reset(b);
    rc = gp_buf_putc(b, '{');
    for (size_t c = 0; c < t->ncols; c++) {
        gp_table_value(t, r, c, &value, scratch, sizeof(scratch));
        rc |= put_cell(w, c, c == 0, &value);
    }
    if (t->list)
        rc |= put_list(t, r, w, t->ncols == 0);
    rc |= put_indent(b, ROW_DEPTH) | gp_buf_putc(b, '}');
    return rc ? gp_error_set(GP_ENOMEM, "out of memory rendering JSON") : 0;
}

struct gp_json_rows *gp_json_rows_open(const struct gp_table *t)
{
    struct gp_json_rows *w = malloc(sizeof(*w));

    if (!w) {
        gp_error_set(GP_ENOMEM, "out of memory rendering JSON");
        return NULL;
    }
    if (row_writer_init(w, t)) {
        gp_json_rows_close(w);
        return NULL;
    }
    return w;
}

int gp_json_rows_write(struct gp_json_rows *w, const struct gp_table *t, bool first, FILE *out)
{
    int rc = 0;

    if (t->ncols != w->ncols || t->list != w->list)
        return gp_error_set(GP_ERROR, "JSON rows written with another table's writer");

    for (size_t r = 0; rc == 0 && r < t->nrows; r++) {
        if (r || !first)
            fputs(", ", out);
        rc = put_row(t, r, w);
        if (!rc)
            fwrite(w->row.data, 1, w->row.len, out);
    }
    return rc;
}

void gp_json_rows_close(struct gp_json_rows *w)
{
    if (!w)
        return;
    row_writer_release(w);
    free(w);
}

static int render_rows(const struct gp_table *t, FILE *out)
{
    struct gp_json_rows *w = gp_json_rows_open(t);
    int rc = w ? gp_json_rows_write(w, t, true, out) : GP_ENOMEM;

    gp_json_rows_close(w);
    return rc;
}

int gp_render_json_head(const struct gp_table *t, const struct gp_render_options *options,
                        FILE *out)
{
    static const char empty_tail[] = "[]\n}"; /* how the head ends: the empty rows array */
    char *head = document_head(t, options);
    size_t len = head ? strlen(head) : 0, tail = sizeof(empty_tail) - 1;

    if (!head || len < tail || strcmp(head + len - tail, empty_tail) != 0) {
        cJSON_free(head);
        return gp_error_set(GP_ENOMEM, "out of memory rendering JSON");
    }
    fwrite(head, 1, len - tail + 1, out);
    cJSON_free(head);
    return 0;
}

int gp_render_json_tail(const cJSON *after, FILE *out)
{
    struct gp_buf b = GP_BUF_INIT;
    int rc = gp_json_failed() ? GP_ENOMEM : gp_buf_putc(&b, ']'); /* `after` may lack a member */

    for (const cJSON *m = after ? after->child : NULL; m; m = m->next)
        rc |= put_member(&b, m->string, false, 1) | put_item(&b, m, 1);
    rc |= gp_buf_append(&b, "\n}\n", 3);
    if (!rc)
        fwrite(b.data, 1, b.len, out);
    gp_buf_release(&b);
    if (rc)
        return gp_error_set(GP_ENOMEM, "out of memory rendering JSON");
    return ferror(out) ? gp_error_set(GP_ERROR, "cannot write output") : 0;
}

/*
 * The document as cJSON prints it whole, written a row at a time, so that memory does not grow
 * with the rows (a price list of a million offers): the head up to the rows array's opening
 * bracket, each row, then the array's and the document's close. A row that cannot be built
 * ends the output there with GP_ENOMEM.
 */
int gp_render_json(const struct gp_table *t, const struct gp_render_options *options, FILE *out)
{
    int rc = gp_render_json_head(t, options, out);

    if (!rc)
        rc = render_rows(t, out);
    return rc ? rc : gp_render_json_tail(NULL, out);
}
