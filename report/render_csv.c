/* The CSV renderer: RFC 4180 (CRLF, quoted fields), UTF-8, and text cells that a spreadsheet
 * would evaluate as a formula neutralised with a leading apostrophe. The locale picks the
 * separator and decimal mark (da_DK: ';' and ',', after a byte order mark). Each line is built
 * in memory and written once; a cell costs one read and one copy. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/table.h"
#include "util/buf.h"
#include "util/error.h"

enum { NUMBER_ROOM = 352, SCRATCH_MAX = 512 }; /* room for any double in %f */

/* The bytes that make a field need quotes: the separator, a quote and line breaks. */
struct quote_set {
    bool special[256];
};

static void quote_set_init(struct quote_set *q, char sep)
{
    memset(q->special, 0, sizeof(q->special));
    q->special[(unsigned char)sep] = true;
    q->special['"'] = q->special['\r'] = q->special['\n'] = true;
}

/* Whether text must be quoted (it holds a byte of `q`) or neutralised (a spreadsheet would read
 * it as a formula). */
static bool needs_quotes(const char *text, size_t len, const struct quote_set *q, bool *formula)
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
        if (q->special[(unsigned char)text[i]])
            return true;
    return false;
}

/* Write a text field at `out`, which has room for 2 * len + 4 bytes; returns its end. */
static char *put_text(char *out, const char *text, size_t len, const struct quote_set *q)
{
    bool formula;

    if (!needs_quotes(text, len, q, &formula)) {
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

/* Room for `extra` more bytes and a terminator in `line`: most cells fit the room reserved
 * for the line, so the buffer is grown only when they do not. */
static int reserve(struct gp_buf *line, size_t extra)
{
    return line->cap - line->len > extra ? 0 : gp_buf_grow(line, extra);
}

/* What writing lines of a table needs: the table, how to write its values, and the line. */
struct csv_writer {
    const struct gp_table *t;
    const struct gp_locale *locale;
    bool people; /* headers for people (the looks'), not the column names */
    struct quote_set quotes;
    struct gp_buf line;
    char scratch[SCRATCH_MAX]; /* a cell's text while it is copied */
};

/* Append cell (r, c), or the header's when r is SIZE_MAX, after a separator unless first. */
static int put_cell(struct csv_writer *w, size_t r, size_t c)
{
    const struct gp_table *t = w->t;
    struct gp_buf *line = &w->line;
    struct gp_value value;
    size_t len = 0;
    int rc;

    if (r == SIZE_MAX) {
        value.kind = GP_CELL_TEXT;
        value.text = w->people ? gp_table_header(t, c) : t->columns[c].name;
    } else {
        gp_table_value(t, r, c, &value, w->scratch, SCRATCH_MAX);
    }
    if (value.kind == GP_CELL_TEXT)
        len = strlen(value.text);
    if ((rc = reserve(line, 2 * len + NUMBER_ROOM)))
        return rc;
    char *out = line->data + line->len; /* a local cursor: stores through it leave `line` be */
    if (c)
        *out++ = w->locale->separator;
    if (value.kind == GP_CELL_TEXT)
        out = put_text(out, value.text, len, &w->quotes);
    else if (value.kind != GP_CELL_EMPTY)
        out += gp_number_format(out, NUMBER_ROOM - 2, value.number,
                                value.kind == GP_CELL_INT ? 0 : t->columns[c].decimals,
                                w->locale->decimal);
    *out = '\0';
    line->len = (size_t)(out - line->data);
    return 0;
}

/* Lines first..end of t (SIZE_MAX: the header), each built in one buffer and written once. */
static int put_lines(const struct gp_table *t, const struct gp_render_options *options, FILE *out,
                     size_t first, size_t end)
{
    struct csv_writer w = {
        .t = t,
        .locale = options && options->locale ? options->locale : gp_locale_default(),
        .people = options && options->people_headers,
        .line = GP_BUF_INIT,
    };
    int rc = 0;

    quote_set_init(&w.quotes, w.locale->separator);
    for (size_t r = first; rc == 0 && r != end; r = r == SIZE_MAX ? end : r + 1) {
        gp_buf_reset(&w.line);
        for (size_t c = 0; rc == 0 && c < t->ncols; c++)
            rc = put_cell(&w, r, c);
        if (rc == 0)
            rc = gp_buf_append(&w.line, "\r\n", 2);
        if (rc == 0 && fwrite(w.line.data, 1, w.line.len, out) != w.line.len)
            rc = gp_error_set(GP_ERROR, "cannot write output");
    }
    gp_buf_release(&w.line);
    if (rc == 0 && ferror(out))
        rc = gp_error_set(GP_ERROR, "cannot write output");
    return rc;
}

int gp_render_csv_header(const struct gp_table *t, const struct gp_render_options *options,
                         FILE *out)
{
    const struct gp_locale *locale =
        options && options->locale ? options->locale : gp_locale_default();

    if (locale->byte_order)
        fputs("\xEF\xBB\xBF", out);
    return put_lines(t, options, out, SIZE_MAX, 0);
}

int gp_render_csv_rows(const struct gp_table *t, const struct gp_render_options *options, FILE *out)
{
    return t->nrows ? put_lines(t, options, out, 0, t->nrows) : 0;
}

int gp_render_csv(const struct gp_table *t, const struct gp_render_options *options, FILE *out)
{
    int rc = gp_render_csv_header(t, options, out);

    return rc ? rc : gp_render_csv_rows(t, options, out);
}
