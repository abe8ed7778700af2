/* Building result tables and reading their values. */
#include "report/table.h"

#include <stdio.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"

int gp_format_parse(const char *name)
{
    if (strcmp(name, "table") == 0)
        return GP_FORMAT_TABLE;
    if (strcmp(name, "csv") == 0)
        return GP_FORMAT_CSV;
    if (strcmp(name, "json") == 0)
        return GP_FORMAT_JSON;
    return -1;
}

void gp_table_init(struct gp_table *t, const struct gp_column *columns, size_t ncols)
{
    memset(t, 0, sizeof(*t));
    t->columns = columns;
    t->ncols = ncols;
    t->rows_key = "rows";
}

void gp_table_init_source(struct gp_table *t, const struct gp_column *columns, size_t ncols,
                          size_t nrows, gp_table_read_fn *read, const void *source)
{
    gp_table_init(t, columns, ncols);
    t->nrows = nrows;
    t->read = read;
    t->source = source;
}

void gp_table_release(struct gp_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; t->cells && i < t->used_rows * t->ncols; i++)
        free(t->cells[i].text);
    free(t->cells);
    cJSON_Delete(t->meta);
    t->cells = NULL;
    t->meta = NULL;
    t->nrows = t->cap_rows = t->used_rows = 0;
}

int gp_table_add_row(struct gp_table *t)
{
    struct gp_cell *row;

    if (t->nrows == t->cap_rows) {
        size_t cap = t->cap_rows ? t->cap_rows * 2 : 16;
        struct gp_cell *grown = realloc(t->cells, cap * t->ncols * sizeof(*grown));
        if (!grown)
            return gp_error_set(GP_ENOMEM, "out of memory building a table");
        t->cells = grown;
        t->cap_rows = cap;
    }
    row = &t->cells[t->nrows * t->ncols];
    if (t->nrows < t->used_rows) { /* cleared: keep the text buffers */
        for (size_t c = 0; c < t->ncols; c++)
            row[c].kind = GP_CELL_EMPTY;
    } else {
        memset(row, 0, t->ncols * sizeof(*row));
        t->used_rows++;
    }
    t->nrows++;
    return 0;
}

void gp_table_clear(struct gp_table *t)
{
    t->nrows = 0;
}

static struct gp_cell *last_row_cell(struct gp_table *t, const char *column)
{
    if (t->nrows == 0 || t->ncols == 0)
        return NULL;
    for (size_t i = 1; i <= t->ncols; i++) {
        size_t c = (t->last_col + i) % t->ncols;
        const char *name = t->columns[c].name;
        if (name == column || strcmp(name, column) == 0) {
            t->last_col = c;
            return &t->cells[(t->nrows - 1) * t->ncols + c];
        }
    }
    return NULL;
}

/* Copy text[len] into the cell, in its buffer when that is large enough. */
static int set_cell_text(struct gp_cell *cell, const char *text, size_t len)
{
    if (len >= cell->text_size) {
        size_t size = len < 32 ? 32 : len + 1;
        char *grown = malloc(size);
        if (!grown)
            return gp_error_set(GP_ENOMEM, "out of memory building a table");
        free(cell->text);
        cell->text = grown;
        cell->text_size = size;
    }
    if (len)
        memcpy(cell->text, text, len);
    cell->text[len] = '\0';
    cell->kind = GP_CELL_TEXT;
    return 0;
}

int gp_table_set_text(struct gp_table *t, const char *column, const char *fmt, ...)
{
    struct gp_cell *cell = last_row_cell(t, column);
    struct gp_buf text = GP_BUF_INIT;
    va_list ap;
    int rc;

    if (!cell)
        return gp_error_set(GP_ERROR, "table has no column '%s'", column);
    va_start(ap, fmt);
    if (strcmp(fmt, "%s") == 0) { /* most cells: a copy, without printf */
        const char *s = va_arg(ap, const char *);
        va_end(ap);
        return set_cell_text(cell, s, strlen(s));
    }
    rc = gp_buf_vprintf(&text, fmt, ap);
    va_end(ap);
    if (!rc)
        rc = set_cell_text(cell, text.data, text.len);
    gp_buf_release(&text);
    return rc;
}

int gp_table_set_number(struct gp_table *t, const char *column, double value)
{
    struct gp_cell *cell = last_row_cell(t, column);

    if (!cell)
        return gp_error_set(GP_ERROR, "table has no column '%s'", column);
    cell->kind = GP_CELL_NUMBER;
    cell->number = value;
    return 0;
}

int gp_table_set_int(struct gp_table *t, const char *column, long long value)
{
    int rc = gp_table_set_number(t, column, (double)value);

    if (rc == 0)
        t->cells[(t->nrows - 1) * t->ncols + t->last_col].kind = GP_CELL_INT;
    return rc;
}

void gp_table_value(const struct gp_table *t, size_t row, size_t col, struct gp_value *out,
                    char *scratch, size_t size)
{
    const struct gp_cell *cell;

    if (t->read) {
        t->read(t->source, row, col, out, scratch, size);
        return;
    }
    cell = &t->cells[row * t->ncols + col];
    out->kind = cell->kind;
    out->number = cell->number;
    out->text = cell->kind == GP_CELL_TEXT ? cell->text : NULL;
}

const struct gp_column_look *gp_table_look(const struct gp_table *t, size_t col)
{
    static const struct gp_column_look plain = {NULL, NULL, GP_STYLE_PLAIN, 0};

    return t->looks ? &t->looks[col] : &plain;
}

const char *gp_table_header(const struct gp_table *t, size_t col)
{
    const char *header = gp_table_look(t, col)->header;

    return header ? header : t->columns[col].name;
}

const char *gp_value_text(const struct gp_value *value, const struct gp_column *column,
                          const struct gp_locale *locale, char *buf, size_t size, size_t *len)
{
    switch (value->kind) {
    case GP_CELL_TEXT:
        *len = strlen(value->text);
        return value->text;
    case GP_CELL_NUMBER:
        *len = gp_number_format(buf, size, value->number, column->decimals, locale->decimal);
        return buf;
    case GP_CELL_INT:
        *len = gp_number_format(buf, size, value->number, 0, locale->decimal);
        return buf;
    default:
        *len = 0;
        return "";
    }
}

int gp_table_render(const struct gp_table *t, enum gp_format format,
                    const struct gp_render_options *options, FILE *out)
{
    struct gp_render_options defaults = {false, 1, SIZE_MAX, NULL, 0, false};

    if (!options)
        options = &defaults;
    switch (format) {
    case GP_FORMAT_CSV:
        return gp_render_csv(t, options, out);
    case GP_FORMAT_JSON:
        return gp_render_json(t, options, out);
    default:
        return gp_render_text(t, options, out);
    }
}
