/* The CSV renderer: RFC 4180 (CRLF, quoted fields), UTF-8, and text cells that a spreadsheet
 * would evaluate as a formula neutralised with a leading apostrophe. The locale picks the
 * separator and decimal mark (da_DK: ';' and ',', after a byte order mark). Each line is built
 * in memory and written once; a cell costs one read and one copy. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/csv.h"
#include "report/table.h"
#include "util/buf.h"
#include "util/error.h"

enum { SCRATCH_MAX = 512 };

void gp_csv_style_init(struct gp_csv_style *s, const struct gp_locale *locale)
{
    s->separator = locale->separator;
    s->decimal = locale->decimal;
    memset(s->quoted, 0, sizeof(s->quoted));
    s->quoted[(unsigned char)s->separator] = true;
    s->quoted['"'] = s->quoted['\r'] = s->quoted['\n'] = true;
}

/* Whether text[len] must be quoted (it holds a byte of s->quoted) or neutralised (*formula). */
static bool needs_quotes(const char *text, size_t len, const struct gp_csv_style *s, bool *formula)
{
    *formula = len > 0 && gp_csv_formula_start(text[0]);
    if (*formula)
        return true;
    for (size_t i = 0; i < len; i++)
        if (s->quoted[(unsigned char)text[i]])
            return true;
    return false;
}

int gp_csv_put_any_text(struct gp_buf *line, const char *text, const struct gp_csv_style *s)
{
    size_t len = strlen(text);
    bool formula;
    int rc = gp_buf_grow(line, 2 * len + 3); /* quotes, apostrophe, every byte a quote */

    if (rc)
        return rc;
    char *out = line->data + line->len;
    if (!needs_quotes(text, len, s, &formula)) {
        memcpy(out, text, len);
        out += len;
    } else {
        *out++ = '"';
        if (formula)
            *out++ = '\'';
        for (size_t i = 0; i < len; i++) {
            if (text[i] == '"')
                *out++ = '"';
            *out++ = text[i];
        }
        *out++ = '"';
    }
    *out = '\0';
    line->len = (size_t)(out - line->data);
    return 0;
}

/* What writing lines of a table needs: the table, how to write its values, and the line. */
struct csv_writer {
    const struct gp_table *t;
    bool people; /* headers for people (the looks'), not the column names */
    struct gp_csv_style style;
    struct gp_buf line;
    char scratch[SCRATCH_MAX]; /* a cell's text while it is copied */
};

int gp_csv_write_lines(struct gp_buf *line, FILE *out)
{
    bool written = fwrite(line->data, 1, line->len, out) == line->len;

    gp_buf_reset(line);
    return written ? 0 : gp_error_set(GP_ERROR, "cannot write output");
}

/* Append `value` to `line` as a field (after a separator unless `first`), as gp_csv_put_cell
 * writes it; keeps line NUL-terminated. Returns 0, or GP_ENOMEM or GP_EINVALID when the line
 * cannot grow. */
static int put_value(struct gp_buf *line, const struct gp_value *value, int decimals, bool first,
                     const struct gp_csv_style *s)
{
    char *out; /* a local cursor: stores through it leave `line` be */
    int rc = gp_buf_room(line, 1 + GP_CSV_CELL_ROOM, &out); /* grows only when it must */

    if (rc)
        return rc;
    if (!first)
        *out++ = s->separator;
    char *end = gp_csv_put_cell(out, value, decimals, s);
    gp_buf_commit(line, end ? end : out);
    return end ? 0 : gp_csv_put_any_text(line, value->text, s);
}

/* Append cell (r, c), or the header's when r is SIZE_MAX. */
static int put_cell(struct csv_writer *w, size_t r, size_t c)
{
    const struct gp_table *t = w->t;
    struct gp_value value;

    if (r == SIZE_MAX) {
        value.kind = GP_CELL_TEXT;
        value.text = w->people ? gp_table_header(t, c) : t->columns[c].name;
    } else {
        gp_table_value(t, r, c, &value, w->scratch, SCRATCH_MAX);
    }
    return put_value(&w->line, &value, t->columns[c].decimals, c == 0, &w->style);
}

/* Lines first..end of t (SIZE_MAX: the header), each built in one buffer and written once. */
static int put_lines(const struct gp_table *t, const struct gp_render_options *options, FILE *out,
                     size_t first, size_t end)
{
    struct csv_writer w = {
        .t = t,
        .people = options && options->people_headers,
        .line = GP_BUF_INIT,
    };
    int rc = 0;

    gp_csv_style_init(&w.style, options && options->locale ? options->locale : gp_locale_default());
    for (size_t r = first; rc == 0 && r != end; r = r == SIZE_MAX ? end : r + 1) {
        for (size_t c = 0; rc == 0 && c < t->ncols; c++)
            rc = put_cell(&w, r, c);
        if (rc == 0)
            rc = gp_buf_append(&w.line, "\r\n", 2);
        if (rc == 0)
            rc = gp_csv_write_lines(&w.line, out);
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
