/* The aligned-column table renderer for terminals and plain text. A table wider than the width
 * it is given leaves out its columns of highest fit rank and says how many. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/table.h"
#include "util/error.h"
#include "util/sanitize.h"

enum { NUMBER_TEXT_MAX = 352, SCRATCH_MAX = 512, GAP = 2 }; /* room for any double in %f */
enum { SHOWN_MAX = 4 * SCRATCH_MAX }; /* a cell with its control characters escaped */

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
    static const char spaces[] = "                                                                ";

    for (; n >= sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
        fwrite(spaces, 1, sizeof(spaces) - 1, out);
    fwrite(spaces, 1, n, out);
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

/* Cell (r, c) as display text; r == SIZE_MAX is the header. Numbers are grouped in thousands
 * for reading ("301,344"; CSV and JSON keep them plain). Control characters are escaped into
 * `shown` (CSV and JSON keep the exact text), so a provider's text cannot drive the terminal. */
static const char *cell_text(const struct gp_table *t, size_t r, size_t c,
                             const struct gp_locale *locale, char *number, char *scratch,
                             char *shown)
{
    struct gp_value value;
    size_t len;

    if (r == SIZE_MAX)
        return gp_sanitize_controls(shown, SHOWN_MAX, gp_table_header(t, c));
    gp_table_value(t, r, c, &value, scratch, SCRATCH_MAX);
    if ((value.kind == GP_CELL_NUMBER || value.kind == GP_CELL_INT) &&
        gp_table_look(t, c)->style != GP_STYLE_PERCENT && isfinite(value.number)) {
        gp_number_grouped(number, NUMBER_TEXT_MAX, value.number,
                          value.kind == GP_CELL_INT ? 0 : t->columns[c].decimals, locale->decimal);
        return number;
    }
    return gp_sanitize_controls(
        shown, SHOWN_MAX,
        gp_value_text(&value, &t->columns[c], locale, number, NUMBER_TEXT_MAX, &len));
}

/* Leave out columns (widths[c] = 0 marks one left out), highest fit rank first, until a line
 * fits `limit`; returns how many were left out. */
static size_t fit(const struct gp_table *t, size_t *widths, size_t limit)
{
    size_t total = 0, dropped = 0;

    for (size_t c = 0; c < t->ncols; c++)
        total += widths[c] + (c ? GAP : 0);
    while (limit && total > limit) {
        size_t worst = SIZE_MAX;
        for (size_t c = 0; c < t->ncols; c++)
            if (widths[c] && gp_table_look(t, c)->fit_rank > 0 &&
                (worst == SIZE_MAX ||
                 gp_table_look(t, c)->fit_rank > gp_table_look(t, worst)->fit_rank))
                worst = c;
        if (worst == SIZE_MAX)
            break;
        total -= widths[worst] + GAP;
        widths[worst] = 0;
        dropped++;
    }
    return dropped;
}

static void put_line(FILE *out, const struct gp_table *t, size_t r, const size_t *widths,
                     const struct gp_locale *locale)
{
    char number[NUMBER_TEXT_MAX], scratch[SCRATCH_MAX], shown[SHOWN_MAX];
    size_t last = 0;
    bool first = true;

    for (size_t c = 0; c < t->ncols; c++)
        if (widths[c])
            last = c;
    for (size_t c = 0; c < t->ncols; c++) {
        if (!widths[c])
            continue;
        if (!first)
            pad(out, GAP);
        first = false;
        put_cell(out, cell_text(t, r, c, locale, number, scratch, shown), widths[c],
                 right_aligned(&t->columns[c]), c == last);
    }
}

int gp_render_text(const struct gp_table *t, const struct gp_render_options *options, FILE *out)
{
    const struct gp_locale *locale = options->locale ? options->locale : gp_locale_default();
    size_t *widths = calloc(t->ncols ? t->ncols : 1, sizeof(*widths)), dropped;
    char number[NUMBER_TEXT_MAX], scratch[SCRATCH_MAX], shown[SHOWN_MAX];

    if (!widths)
        return gp_error_set(GP_ENOMEM, "out of memory rendering a table");
    for (size_t r = SIZE_MAX; r == SIZE_MAX || r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            size_t w = display_width(cell_text(t, r, c, locale, number, scratch, shown));
            if (w > widths[c] || widths[c] == 0)
                widths[c] = w ? w : 1;
        }
    }
    dropped = fit(t, widths, options->width);
    fputs(options->color ? "\033[1m" : "", out);
    put_line(out, t, SIZE_MAX, widths, locale);
    fputs(options->color ? "\033[0m\n" : "\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        bool emphasis = options->color && r == options->highlight_row;
        fputs(emphasis ? "\033[1;32m" : "", out);
        put_line(out, t, r, widths, locale);
        fputs(emphasis ? "\033[0m\n" : "\n", out);
    }
    if (dropped)
        fprintf(out, "(%zu column%s left out to fit %zu characters%s%s)\n", dropped,
                dropped == 1 ? "" : "s", options->width, t->fit_hint ? "; " : "",
                t->fit_hint ? t->fit_hint : "");
    free(widths);
    return ferror(out) ? gp_error_set(GP_ERROR, "cannot write output") : 0;
}
