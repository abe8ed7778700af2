/* CSV fields as gpuplan writes them, for the writers that build their own lines: RFC 4180
 * quoting, text a spreadsheet would read as a formula neutralised with a leading apostrophe,
 * numbers with the locale's decimal mark. */
#ifndef GP_REPORT_CSV_H
#define GP_REPORT_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "report/table.h"
#include "util/buf.h"
#include "util/error.h"

/* Bytes a number field may take, any double with any decimals included. */
#define GP_CSV_NUMBER_ROOM 352

/* How the fields of one locale are written. */
struct gp_csv_style {
    char separator, decimal;
    bool quoted[256]; /* the bytes that make a field need quotes: separator, quote, CR, LF */
};

/* The style of `locale`'s fields (defined in render_csv.c, beside the generic writer). */
void gp_csv_style_init(struct gp_csv_style *s, const struct gp_locale *locale);

/* The writers call these for every cell: they are inline so that a cell's value need not pass
 * through memory on its way into the line. */

/* Whether text must be quoted (it holds a byte of s->quoted) or neutralised (a spreadsheet would
 * read it as a formula). */
static inline bool gp_csv_needs_quotes(const char *text, size_t len, const struct gp_csv_style *s,
                                       bool *formula)
{
    switch (len > 0 ? text[0] : '\0') {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r':
        *formula = true;
        return true;
    default:
        *formula = false;
    }
    for (size_t i = 0; i < len; i++)
        if (s->quoted[(unsigned char)text[i]])
            return true;
    return false;
}

/* Write text[len] as a field at `out`, which has room for 2 * len + 4 bytes; returns its end. */
static inline char *gp_csv_put_text(char *out, const char *text, size_t len,
                                    const struct gp_csv_style *s)
{
    bool formula;

    if (!gp_csv_needs_quotes(text, len, s, &formula)) {
        memcpy(out, text, len);
        return out + len;
    }
    *out++ = '"';
    if (formula)
        *out++ = '\'';
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '"')
            *out++ = '"';
        *out++ = text[i];
    }
    *out++ = '"';
    return out;
}

/* Append `value` to `line` as a field (after a separator unless `first`), numbers with
 * `decimals` (whole numbers with none); keeps line NUL-terminated. Returns 0, or GP_ENOMEM or
 * GP_EINVALID when the line cannot grow. */
static inline int gp_csv_put_value(struct gp_buf *line, const struct gp_value *value, int decimals,
                                   bool first, const struct gp_csv_style *s)
{
    size_t len = value->kind == GP_CELL_TEXT ? strlen(value->text) : 0;
    size_t room = 2 * len + GP_CSV_NUMBER_ROOM;
    int rc;

    /* most fields fit the room the line has: it grows only when they do not */
    if (line->cap - line->len <= room && (rc = gp_buf_grow(line, room)))
        return rc;
    char *out = line->data + line->len; /* a local cursor: stores through it leave `line` be */
    if (!first)
        *out++ = s->separator;
    if (value->kind == GP_CELL_TEXT)
        out = gp_csv_put_text(out, value->text, len, s);
    else if (value->kind != GP_CELL_EMPTY)
        out += gp_number_format(out, GP_CSV_NUMBER_ROOM - 2, value->number,
                                value->kind == GP_CELL_INT ? 0 : decimals, s->decimal);
    *out = '\0';
    line->len = (size_t)(out - line->data);
    return 0;
}

/* End the line with CRLF and write it out; returns 0, or the error (message set). */
static inline int gp_csv_end_line(struct gp_buf *line, FILE *out)
{
    int rc = gp_buf_append(line, "\r\n", 2);

    if (rc == 0 && fwrite(line->data, 1, line->len, out) != line->len)
        rc = gp_error_set(GP_ERROR, "cannot write output");
    return rc;
}

#endif
