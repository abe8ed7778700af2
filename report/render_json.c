/* The JSON renderer: {"schema_version": N, <meta members>, "rows": [{column: value}]}, written
 * a row at a time. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static cJSON *value_json(const struct gp_table *t, size_t r, size_t c)
{
    char scratch[SCRATCH_MAX];
    struct gp_value value;

    gp_table_value(t, r, c, &value, scratch, sizeof(scratch));
    switch (value.kind) {
    case GP_CELL_TEXT:
        return text_json(value.text);
    case GP_CELL_NUMBER:
    case GP_CELL_INT:
        return cJSON_CreateNumber(value.number);
    default:
        return cJSON_CreateNull();
    }
}

/* Row `r` as a JSON object: its columns, then what row_json adds; NULL when out of memory. */
static cJSON *row_object(const struct gp_table *t, size_t r)
{
    cJSON *row = cJSON_CreateObject();

    for (size_t c = 0; row && c < t->ncols; c++) {
        cJSON *value = value_json(t, r, c);
        if (!value || !cJSON_AddItemToObject(row, t->columns[c].name, value)) {
            cJSON_Delete(value);
            cJSON_Delete(row);
            return NULL;
        }
    }
    if (row && t->row_json && t->row_json(t->source, r, row)) {
        cJSON_Delete(row);
        return NULL;
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
static int put_string(struct gp_buf *b, const char *text)
{
    static const char hex[] = "0123456789abcdef";
    const char *run = text;
    int rc = gp_buf_putc(b, '"');

    for (const char *p = text;; p++) {
        unsigned char c = (unsigned char)*p;
        char esc[6] = {'\\', (char)c, '0', '0', hex[c >> 4], hex[c & 15]};
        size_t len = 2;
        if (c >= 32 && c != '"' && c != '\\')
            continue;
        rc |= gp_buf_append(b, run, (size_t)(p - run));
        if (c == 0)
            break;
        switch (c) {
        case '\b':
            esc[1] = 'b';
            break;
        case '\f':
            esc[1] = 'f';
            break;
        case '\n':
            esc[1] = 'n';
            break;
        case '\r':
            esc[1] = 'r';
            break;
        case '\t':
            esc[1] = 't';
            break;
        case '"':
        case '\\':
            break;
        default:
            esc[1] = 'u';
            len = 6;
        }
        rc |= gp_buf_append(b, esc, len);
        run = p + 1;
    }
    return rc | gp_buf_putc(b, '"');
}

/* A text cell as text_json makes it: a byte that is not UTF-8 becomes U+FFFD. */
static int put_text(struct gp_buf *b, const char *text, struct gp_buf *repair)
{
    size_t size;

    if (gp_utf8_valid(text))
        return put_string(b, text);
    size = 3 * strlen(text) + 1;
    gp_buf_reset(repair);
    if (gp_buf_grow(repair, size))
        return GP_ENOMEM;
    gp_utf8_repair(repair->data, size, text);
    return put_string(b, repair->data);
}

/* The digits of a whole number below 10^15 in magnitude, as "%1.15g" writes them. */
static int put_whole(struct gp_buf *b, double d)
{
    char digits[24], *p = digits + sizeof(digits);
    unsigned long long n = (unsigned long long)fabs(d);

    do
        *--p = (char)('0' + n % 10);
    while ((n /= 10) != 0);
    if (d < 0)
        *--p = '-';
    return gp_buf_append(b, p, (size_t)(digits + sizeof(digits) - p));
}

/* `d` as cJSON 1.7 prints a number: null when not finite; "%1.15g" when that reads back within
 * a relative DBL_EPSILON, else "%1.17g". The decimal point is '.' (the C locale). */
static int put_number(struct gp_buf *b, double d)
{
    char text[32];
    double back;
    int n;

    if (!isfinite(d))
        return gp_buf_puts(b, "null");
    if (d == floor(d) && fabs(d) < 1e15 && !(d == 0 && signbit(d)))
        return put_whole(b, d);
    n = snprintf(text, sizeof(text), "%1.15g", d);
    back = strtod(text, NULL);
    if (!(fabs(back - d) <= fmax(fabs(back), fabs(d)) * DBL_EPSILON))
        n = snprintf(text, sizeof(text), "%1.17g", d);
    return gp_buf_append(b, text, n > 0 ? (size_t)n : 0);
}

static int put_value(struct gp_buf *b, const struct gp_value *value, struct gp_buf *repair)
{
    switch (value->kind) {
    case GP_CELL_TEXT:
        return put_text(b, value->text, repair);
    case GP_CELL_NUMBER:
    case GP_CELL_INT:
        return put_number(b, value->number);
    default:
        return gp_buf_puts(b, "null");
    }
}

/* A line break and `depth` tabs, as cJSON indents a member. */
static int put_indent(struct gp_buf *b, int depth)
{
    int rc = gp_buf_putc(b, '\n');

    for (int i = 0; i < depth; i++)
        rc |= gp_buf_putc(b, '\t');
    return rc;
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

/* What row_json adds to row `r`, as members after its columns (`first`: no column before). */
static int put_extras(const struct gp_table *t, size_t r, struct gp_buf *b, bool first)
{
    cJSON *extras = cJSON_CreateObject();
    int rc = !extras || t->row_json(t->source, r, extras);

    for (const cJSON *m = extras ? extras->child : NULL; !rc && m; m = m->next, first = false)
        rc = put_member(b, m->string, first, ROW_DEPTH + 1) | put_item(b, m, ROW_DEPTH + 1);
    cJSON_Delete(extras);
    return rc;
}

/* Row `r` byte for byte as cJSON prints it inside the document (an object in the rows array),
 * built in `b` without a tree for its columns: one member to a line, three tabs in. */
static int put_row(const struct gp_table *t, size_t r, struct gp_buf *b, struct gp_buf *repair)
{
    char scratch[SCRATCH_MAX];
    struct gp_value value;
    int rc;

    gp_buf_reset(b);
    rc = gp_buf_putc(b, '{');
    for (size_t c = 0; c < t->ncols; c++) {
        gp_table_value(t, r, c, &value, scratch, sizeof(scratch));
        rc |=
            put_member(b, t->columns[c].name, c == 0, ROW_DEPTH + 1) | put_value(b, &value, repair);
    }
    if (t->row_json && !rc)
        rc = put_extras(t, r, b, t->ncols == 0);
    rc |= put_indent(b, ROW_DEPTH) | gp_buf_putc(b, '}');
    return rc ? gp_error_set(GP_ENOMEM, "out of memory rendering JSON") : 0;
}

int gp_render_json_rows(const struct gp_table *t, bool first, FILE *out)
{
    struct gp_buf row = GP_BUF_INIT, repair = GP_BUF_INIT;
    int rc = 0;

    for (size_t r = 0; rc == 0 && r < t->nrows; r++) {
        if (r || !first)
            fputs(", ", out);
        rc = put_row(t, r, &row, &repair);
        if (!rc)
            fwrite(row.data, 1, row.len, out);
    }
    gp_buf_release(&row);
    gp_buf_release(&repair);
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
    int rc = gp_buf_putc(&b, ']');

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
        rc = gp_render_json_rows(t, true, out);
    return rc ? rc : gp_render_json_tail(NULL, out);
}
