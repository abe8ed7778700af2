/* CSV fields as gpuplan writes them, for the writers that build their own lines: RFC 4180
 * quoting, text a spreadsheet would read as a formula neutralised with a leading apostrophe,
 * numbers with the locale's decimal mark. */
#ifndef GP_REPORT_CSV_H
#define GP_REPORT_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/table.h"
#include "util/buf.h"

/* Bytes a field may take where a writer puts it: a number (any double, any decimals included),
 * or plain text. */
#define GP_CSV_CELL_ROOM 352

/* How the fields of one locale are written. */
struct gp_csv_style {
    char separator, decimal;
    bool quoted[256]; /* the bytes that make a field need quotes: separator, quote, CR, LF */
};

/* The style of `locale`'s fields (defined in render_csv.c, beside the generic writer). */
void gp_csv_style_init(struct gp_csv_style *s, const struct gp_locale *locale);

/* Whether text that starts with `c` would be read as a formula by a spreadsheet. */
static inline bool gp_csv_formula_start(char c)
{
    switch (c) {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r':
        return true;
    default:
        return false;
    }
}

/* Text the cell writer copies in one pass: at most this many bytes, with nothing to quote. */
#define GP_CSV_PLAIN_MAX 64

/* Append text of any length to `line` as a field: quoted when it holds a byte of s->quoted,
 * neutralised when it starts a formula. Returns 0, or GP_ENOMEM or GP_EINVALID when the line
 * cannot grow. (Defined in render_csv.c.) */
int gp_csv_put_any_text(struct gp_buf *line, const char *text, const struct gp_csv_style *s);

/* The writers call these for every cell: they are inline so that a cell's value need not pass
 * through memory on its way into the line. */

/* Copy `text` to `out` if it is plain: at most GP_CSV_PLAIN_MAX bytes, nothing to quote, no
 * formula. Returns its end at `out`, or NULL (bytes at `out` written) when it is not. One pass
 * over the text, with no call. */
static inline char *gp_csv_put_plain(char *out, const char *text, const struct gp_csv_style *s)
{
    bool quote = gp_csv_formula_start(text[0]);
    size_t i = 0;

    for (char c; (c = text[i]) != '\0'; i++) {
        if (i == GP_CSV_PLAIN_MAX)
            return NULL;
        out[i] = c;
        quote |= s->quoted[(unsigned char)c];
    }
    return quote ? NULL : out + i;
}

/* Write `value` at `out`, which has GP_CSV_CELL_ROOM bytes, as a field: numbers with `decimals`
 * (whole numbers with none), plain text as it is. Returns the field's end (nothing after it is
 * written that counts), or NULL when the value is text that is not plain, which
 * gp_csv_put_any_text writes. */
static inline char *gp_csv_put_cell(char *out, const struct gp_value *value, int decimals,
                                    const struct gp_csv_style *s)
{
    _Static_assert(GP_CSV_CELL_ROOM > GP_CSV_PLAIN_MAX, "room for a plain text field");

    if (value->kind == GP_CELL_TEXT)
        return gp_csv_put_plain(out, value->text, s);
    if (value->kind != GP_CELL_EMPTY)
        out += gp_number_format(out, GP_CSV_CELL_ROOM - 1, value->number,
                                value->kind == GP_CELL_INT ? 0 : decimals, s->decimal);
    return out;
}

/* Write the lines in `line` to `out` and empty it. Returns 0, or GP_ERROR (message set).
 * (Defined in render_csv.c.) */
int gp_csv_write_lines(struct gp_buf *line, FILE *out);

#endif
