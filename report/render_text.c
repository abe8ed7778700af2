/* The aligned-column table renderer for terminals and plain text. A table wider than the width
 * it is given leaves out its columns of highest fit rank and says how many. A long table keeps
 * its cells' texts from the pass that measures the columns for the pass that prints them, so a
 * source that streams its rows (prices at a million offers) is read and formatted once. */
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
enum { SPILL_ROWS = 4096 };           /* from this many rows the cells' texts are kept on disk */
enum { SPILL_BUF = 1 << 16 };         /* bytes of kept texts read back at a time; > SHOWN_MAX */
_Static_assert((int)SPILL_BUF > (int)SHOWN_MAX, "a kept text must fit the read-back block");

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

/*
 * The texts a row's cells were measured with: those kept in `spill` (NUL-terminated, row after
 * row, as the measuring pass wrote them) when there is one, else formatted again from the
 * table. A read that ends before the texts do is an error.
 */
struct cell_reader {
    const struct gp_table *t;
    const struct gp_locale *locale;
    FILE *spill; /* owned; NULL: read the table again */
    char *block; /* owned, SPILL_BUF bytes of the spill read back; `at` to `have` unread */
    size_t at, have;
    char number[NUMBER_TEXT_MAX], scratch[SCRATCH_MAX], shown[SHOWN_MAX];
    bool failed;
};

/* The next kept text, pointing into cr->block until the next call. */
static const char *next_text(struct cell_reader *cr, size_t r, size_t c)
{
    char *nul;

    if (!cr->spill || r == SIZE_MAX)
        return cell_text(cr->t, r, c, cr->locale, cr->number, cr->scratch, cr->shown);
    while (!(nul = memchr(cr->block + cr->at, '\0', cr->have - cr->at))) {
        size_t left = cr->have - cr->at, got;
        memmove(cr->block, cr->block + cr->at, left);
        got = fread(cr->block + left, 1, SPILL_BUF - left, cr->spill);
        cr->at = 0;
        cr->have = left + got;
        if (got == 0) {
            cr->failed = true;
            return "";
        }
    }
    const char *text = cr->block + cr->at;
    cr->at = (size_t)(nul - cr->block) + 1;
    return text;
}

static void put_line(FILE *out, struct cell_reader *cr, size_t r, const size_t *widths)
{
    const struct gp_table *t = cr->t;
    size_t last = 0;
    bool first = true;

    for (size_t c = 0; c < t->ncols; c++)
        if (widths[c])
            last = c;
    for (size_t c = 0; c < t->ncols; c++) {
        const char *text = next_text(cr, r, c); /* a spilled cell is read even when left out */
        if (!widths[c])
            continue;
        if (!first)
            pad(out, GAP);
        first = false;
        put_cell(out, text, widths[c], right_aligned(&t->columns[c]), c == last);
    }
}

/* Measure every column over the header and the rows into widths[], keeping the rows' texts in
 * cr->spill when it is open; a spill that cannot be written or rewound is dropped, and the
 * printing pass reads the table again. */
static void measure(struct cell_reader *cr, size_t *widths)
{
    const struct gp_table *t = cr->t;

    for (size_t r = SIZE_MAX; r == SIZE_MAX || r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const char *text = cell_text(t, r, c, cr->locale, cr->number, cr->scratch, cr->shown);
            size_t w = display_width(text);
            if (w > widths[c] || widths[c] == 0)
                widths[c] = w ? w : 1;
            if (cr->spill && r != SIZE_MAX)
                fwrite(text, 1, strlen(text) + 1, cr->spill);
        }
    }
    if (cr->spill &&
        (fflush(cr->spill) != 0 || ferror(cr->spill) || fseek(cr->spill, 0, SEEK_SET))) {
        fclose(cr->spill);
        cr->spill = NULL;
    }
}

int gp_render_text(const struct gp_table *t, const struct gp_render_options *options, FILE *out)
{
    struct cell_reader cr = {.t = t,
                             .locale = options->locale ? options->locale : gp_locale_default()};
    size_t *widths = calloc(t->ncols ? t->ncols : 1, sizeof(*widths)), dropped;

    if (!widths)
        return gp_error_set(GP_ENOMEM, "out of memory rendering a table");
    if (t->nrows >= SPILL_ROWS && (cr.block = malloc(SPILL_BUF)))
        cr.spill = tmpfile(); /* NULL (no room for it): the table is read twice */
    measure(&cr, widths);
    dropped = fit(t, widths, options->width);
    fputs(options->color ? "\033[1m" : "", out);
    put_line(out, &cr, SIZE_MAX, widths);
    fputs(options->color ? "\033[0m\n" : "\n", out);
    for (size_t r = 0; r < t->nrows && !cr.failed; r++) {
        bool emphasis = options->color && r == options->highlight_row;
        fputs(emphasis ? "\033[1;32m" : "", out);
        put_line(out, &cr, r, widths);
        fputs(emphasis ? "\033[0m\n" : "\n", out);
    }
    if (dropped)
        fprintf(out, "(%zu column%s left out to fit %zu characters%s%s)\n", dropped,
                dropped == 1 ? "" : "s", options->width, t->fit_hint ? "; " : "",
                t->fit_hint ? t->fit_hint : "");
    if (cr.spill)
        fclose(cr.spill);
    free(cr.block);
    free(widths);
    if (cr.failed)
        return gp_error_set(GP_ERROR, "cannot read back the table's cells from a temporary file");
    return ferror(out) ? gp_error_set(GP_ERROR, "cannot write output") : 0;
}
