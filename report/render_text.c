/* The aligned-column table renderer for terminals and plain text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/table.h"
#include "util/error.h"

enum { CELL_TEXT_MAX = 512 };

/* Display width of UTF-8 text: one column per code point. */
static size_t display_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void pad(FILE *out, size_t n)
{
    while (n--)
        fputc(' ', out);
}

static void put_cell(FILE *out, const char *text, size_t width, bool right, bool last)
{
    size_t w = display_width(text);
    size_t gap = width > w ? width - w : 0;

    if (right)
        pad(out, gap);
    fputs(text, out);
    if (!right && !last)
        pad(out, gap);
}

static bool right_aligned(const struct gp_column *c)
{
    return c->kind == GP_CELL_NUMBER || c->kind == GP_CELL_INT;
}

int gp_render_text(const struct gp_table *t, const struct gp_render_options *options, FILE *out)
{
    size_t *widths = calloc(t->ncols ? t->ncols : 1, sizeof(*widths));
    char text[CELL_TEXT_MAX];

    if (!widths)
        return gp_error_set(GP_ENOMEM, "out of memory rendering a table");
    for (size_t c = 0; c < t->ncols; c++)
        widths[c] = display_width(t->columns[c].name);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            gp_cell_format(&t->cells[r * t->ncols + c], &t->columns[c], text, sizeof(text));
            size_t w = display_width(text);
            if (w > widths[c])
                widths[c] = w;
        }
    }
    if (options->color)
        fputs("\033[1m", out);
    for (size_t c = 0; c < t->ncols; c++) {
        put_cell(out, t->columns[c].name, widths[c], right_aligned(&t->columns[c]),
                 c + 1 == t->ncols);
        if (c + 1 < t->ncols)
            fputs("  ", out);
    }
    fputs(options->color ? "\033[0m\n" : "\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        bool emphasis = options->color && r == options->highlight_row;
        if (emphasis)
            fputs("\033[1;32m", out);
        for (size_t c = 0; c < t->ncols; c++) {
            gp_cell_format(&t->cells[r * t->ncols + c], &t->columns[c], text, sizeof(text));
            put_cell(out, text, widths[c], right_aligned(&t->columns[c]), c + 1 == t->ncols);
            if (c + 1 < t->ncols)
                fputs("  ", out);
        }
        fputs(emphasis ? "\033[0m\n" : "\n", out);
    }
    free(widths);
    return ferror(out) ? gp_error_set(GP_ERROR, "cannot write output") : 0;
}
