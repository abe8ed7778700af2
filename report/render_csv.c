/* The CSV renderer: RFC 4180 (CRLF, quoted fields), UTF-8, and text cells that a spreadsheet
 * would evaluate as a formula neutralised with a leading apostrophe. */
#include <stdio.h>
#include <string.h>

#include "report/table.h"
#include "util/error.h"

enum { CELL_TEXT_MAX = 4096 };

static void put_field(FILE *out, const char *text, bool is_text)
{
    bool formula = is_text && text[0] && strchr("=+-@\t\r", text[0]);
    bool quote = formula || strpbrk(text, ",\"\r\n") != NULL;

    if (!quote) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    if (formula)
        fputc('\'', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

int gp_render_csv(const struct gp_table *t, FILE *out)
{
    char text[CELL_TEXT_MAX];

    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', out);
        put_field(out, t->columns[c].name, true);
    }
    fputs("\r\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const struct gp_cell *cell = &t->cells[r * t->ncols + c];
            if (c)
                fputc(',', out);
            gp_cell_format(cell, &t->columns[c], text, sizeof(text));
            put_field(out, text, cell->kind == GP_CELL_TEXT);
        }
        fputs("\r\n", out);
    }
    return ferror(out) ? gp_error_set(GP_ERROR, "cannot write output") : 0;
}
