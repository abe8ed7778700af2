/* A result table (named, typed columns and rows of values) and its renderers: aligned text, CSV
 * (RFC 4180, spreadsheet-safe) and JSON. Every command's data output goes through here. */
#ifndef GP_REPORT_TABLE_H
#define GP_REPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "util/format.h"

enum gp_cell_kind { GP_CELL_EMPTY, GP_CELL_TEXT, GP_CELL_NUMBER, GP_CELL_INT };

/* What a column's values are, for renderers that show more than text (xlsx number formats,
 * HTML alignment): GP_STYLE_PLAIN is a plain number or the column's kind. */
enum gp_column_style {
    GP_STYLE_PLAIN,
    GP_STYLE_TEXT,
    GP_STYLE_COUNT,    /* a whole number of things */
    GP_STYLE_CURRENCY, /* an amount in the table's currency */
    GP_STYLE_PERCENT,  /* a fraction: 0.25 shows as 25 % */
    GP_STYLE_DATE,     /* text YYYY-MM-DD */
};

struct gp_column {
    const char *name; /* CSV header and JSON key (borrowed; static strings) */
    enum gp_cell_kind kind;
    int decimals; /* digits after the point for GP_CELL_NUMBER in table and CSV output */
};

/* How a column is shown to people, beside its struct gp_column. */
struct gp_column_look {
    const char *header;         /* short header with its unit; NULL = the column's name */
    const char *unit;           /* unit of the values ("ms", "kW", "per hour"); NULL = none */
    enum gp_column_style style; /* what the values are */
    int fit_rank; /* a text table too wide for its width drops its columns of highest rank
                     first; 0 or less = never dropped */
};

struct gp_cell {
    enum gp_cell_kind kind; /* GP_CELL_EMPTY renders as "" / null */
    double number;          /* for NUMBER and INT */
    char *text;             /* owned, `text_size` bytes; the value only when kind is TEXT (a
                               cleared cell keeps its buffer for the next text) */
    size_t text_size;
};

/* One value as a renderer reads it. */
struct gp_value {
    enum gp_cell_kind kind; /* GP_CELL_EMPTY: no value */
    double number;          /* for NUMBER and INT */
    const char *text;       /* for TEXT; borrowed, valid until the next read */
};

/* Reads the value of (row, col) from `source`. `scratch[size]` may hold text the value points
 * to. Never fails. */
typedef void gp_table_read_fn(const void *source, size_t row, size_t col, struct gp_value *out,
                              char *scratch, size_t size);

/*
 * A table holds its rows either as cells (gp_table_add_row and gp_table_set_*), or, when `read`
 * is set, as `nrows` rows read on demand from `source` with no copy.
 */
/* A list of objects each JSON row carries after its columns (a plan row's alternatives): the
 * items of row `row` of `source` have the members `columns`, read as a table's values are. */
struct gp_table_list {
    const char *key;                 /* the row's member that holds the list */
    const struct gp_column *columns; /* borrowed, `ncols`: each item's members */
    size_t ncols;
    size_t (*count)(const void *source, size_t row); /* items in row `row` */
    void (*read)(const void *source, size_t row, size_t item, size_t col, struct gp_value *out);
};

struct gp_table {
    const struct gp_column *columns; /* borrowed, `ncols` entries */
    size_t ncols;
    struct gp_cell *cells; /* owned, row-major, cap_rows * ncols */
    size_t nrows;
    size_t cap_rows;
    size_t used_rows; /* rows whose cells have been initialised (may hold text buffers), >= nrows */
    size_t last_col;  /* the column the last gp_table_set_* call named: the next is looked for
                         after it first */
    cJSON *meta;      /* owned object; its members are added to the JSON output's
                         top level before "rows" (NULL = none) */
    const char *rows_key;               /* JSON key of the rows array; default "rows" */
    gp_table_read_fn *read;             /* NULL: the cells */
    const void *source;                 /* borrowed, passed to `read` */
    const struct gp_column_look *looks; /* borrowed, `ncols` entries beside `columns`;
                                           NULL = every column plain, headed by its name */
    const struct gp_table_list *list;   /* borrowed; NULL, or the list each JSON row carries */
    const char *fit_hint; /* borrowed: text tables add it to the line saying how many columns
                             were left out to fit ("--wide shows them all"); NULL = none */
};

enum gp_format { GP_FORMAT_TABLE, GP_FORMAT_CSV, GP_FORMAT_JSON };

/* "table" | "csv" | "json" -> format; -1 for anything else. */
int gp_format_parse(const char *name);

void gp_table_init(struct gp_table *t, const struct gp_column *columns, size_t ncols);
/* A table of `nrows` rows read from `source` with `read`; nothing to release but meta. */
void gp_table_init_source(struct gp_table *t, const struct gp_column *columns, size_t ncols,
                          size_t nrows, gp_table_read_fn *read, const void *source);
void gp_table_release(struct gp_table *t);

/* Append an empty row; returns 0 or GP_ENOMEM. The new row is t->nrows - 1. */
int gp_table_add_row(struct gp_table *t);

/* Remove every row of a table of cells, keeping their memory for the rows added next: a table
 * refilled row by row (a stream's current row) allocates its cells' text once. */
void gp_table_clear(struct gp_table *t);

/* Set a cell of the last row. Column is looked up by name once per call, from the column after
 * the last one set (cells are mostly set in order); setting a column the table does not have is
 * a programming error reported as GP_ERROR. */
int gp_table_set_text(struct gp_table *t, const char *column, const char *fmt, ...) GP_PRINTF(3, 4);
int gp_table_set_number(struct gp_table *t, const char *column, double value);
int gp_table_set_int(struct gp_table *t, const char *column, long long value);

/* The value of (row, col), from the cells or the source. */
void gp_table_value(const struct gp_table *t, size_t row, size_t col, struct gp_value *out,
                    char *scratch, size_t size);

/* How column `col` is shown: its look, or a plain one (header NULL, fit rank 0). Borrowed. */
const struct gp_column_look *gp_table_look(const struct gp_table *t, size_t col);
/* Column `col`'s header for people: its look's header, else its name. */
const char *gp_table_header(const struct gp_table *t, size_t col);

/* How numbers are written: the decimal point, and CSV's field separator. */
struct gp_locale {
    const char *name; /* "C" or "da_DK" */
    char decimal;     /* '.' or ',' */
    char separator;   /* CSV field separator: ',' or ';' */
    bool byte_order;  /* CSV starts with a UTF-8 byte order mark */
};

/* The plain locale (RFC 4180 CSV, decimal point); never NULL. */
const struct gp_locale *gp_locale_default(void);
/* "C" or "da_DK" -> locale; NULL for any other name. */
const struct gp_locale *gp_locale_find(const char *name);

struct gp_render_options {
    bool color;           /* ANSI emphasis in table output (only when stdout is a terminal) */
    int schema_version;   /* for JSON; 0 means 1 */
    size_t highlight_row; /* table output emphasises this row when color is on; SIZE_MAX = none */
    const struct gp_locale *locale; /* numbers and CSV separators; NULL = gp_locale_default() */
    size_t width; /* text tables: most characters per line (a terminal's width); 0 = no limit */
    bool people_headers; /* CSV: the looks' headers with units instead of the column names */
};

/* Write the table to `out` in `format`. Returns 0, or GP_ERROR when writing fails. */
int gp_table_render(const struct gp_table *t, enum gp_format format,
                    const struct gp_render_options *options, FILE *out);

/* The individual renderers (report/render_*.c). */
int gp_render_text(const struct gp_table *t, const struct gp_render_options *options, FILE *out);
int gp_render_csv(const struct gp_table *t, const struct gp_render_options *options, FILE *out);
/* gp_render_csv in parts, for rows that arrive a few at a time: the byte order mark (where the
 * locale has one) and the header line; then t's rows, once for each set of rows the table's
 * source holds. Return as gp_render_csv. */
int gp_render_csv_header(const struct gp_table *t, const struct gp_render_options *options,
                         FILE *out);
int gp_render_csv_rows(const struct gp_table *t, const struct gp_render_options *options,
                       FILE *out);
int gp_render_json(const struct gp_table *t, const struct gp_render_options *options, FILE *out);

/* gp_render_json in parts, for rows that arrive in batches (a streamed sweep): the head, up to
 * the rows array's opening bracket; the rows of each batch through a gp_json_rows writer; then
 * the close of the array, the members of `after` (an object, NULL = none: members known only
 * after the rows), and the document's close. Head and tail return 0, GP_ENOMEM or GP_ERROR (a
 * write). */
int gp_render_json_head(const struct gp_table *t, const struct gp_render_options *options,
                        FILE *out);
int gp_render_json_tail(const cJSON *after, FILE *out);

/* The writer of a table's rows, batch after batch: what every row reuses, its members'
 * openings escaped once, made by gp_json_rows_open for `t`'s columns and list; the tables
 * handed to gp_json_rows_write must have the same (GP_ERROR otherwise). Write puts t's rows
 * (`first`: no row before them) and returns 0, GP_ENOMEM or GP_ERROR. Open returns NULL when
 * out of memory (the error set); close accepts NULL. */
struct gp_json_rows;
struct gp_json_rows *gp_json_rows_open(const struct gp_table *t);
int gp_json_rows_write(struct gp_json_rows *w, const struct gp_table *t, bool first, FILE *out);
void gp_json_rows_close(struct gp_json_rows *w);

/* The rows as a JSON array of objects keyed by column name (absent values null); owned, NULL
 * when out of memory. */
cJSON *gp_table_json_rows(const struct gp_table *t);

/* A value's display text: a text value itself, a number with the column's decimals and the
 * locale's decimal mark formatted into buf[size] (352 bytes hold any). Returns the text (borrowed
 * from the value or buf) and its length in *len. */
const char *gp_value_text(const struct gp_value *value, const struct gp_column *column,
                          const struct gp_locale *locale, char *buf, size_t size, size_t *len);

/* The decimals a person reads a value with, where CSV and JSON keep the column's: money in
 * whole units from 100 up, in cents from 1, with four significant digits below (0.0000035 per
 * token); a whole number, counts and days, without decimals; else the column's. */
int gp_number_display_decimals(double value, enum gp_column_style style, int column_decimals);

/* gp_number_format with the whole part grouped in thousands for people to read: "9,913" and
 * "1,268,327.50" with the decimal point, "9.913" and "1.268.327,50" with the decimal comma.
 * Returns the length written (cut to fit out[size]). */
size_t gp_number_grouped(char *out, size_t size, double value, int decimals, char decimal);

/* printf's "%.*f" of `value` with `decimal` as the decimal mark, into out[size] (cut to fit:
 * 32 bytes hold every value below 1e15, 352 any double); returns the length written. Fast for
 * the common case. */
size_t gp_number_format(char *out, size_t size, double value, int decimals, char decimal);

#endif
