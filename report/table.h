/* A result table (named, typed columns and rows of cells) and its renderers: aligned text, CSV
 * (RFC 4180, spreadsheet-safe) and JSON. Every command's data output goes through here. */
#ifndef GP_REPORT_TABLE_H
#define GP_REPORT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "util/format.h"

enum gp_cell_kind { GP_CELL_EMPTY, GP_CELL_TEXT, GP_CELL_NUMBER, GP_CELL_INT };

struct gp_column {
    const char *name; /* header and JSON key (borrowed; static strings) */
    enum gp_cell_kind kind;
    int decimals; /* digits after the point for GP_CELL_NUMBER in table and CSV output */
};

struct gp_cell {
    enum gp_cell_kind kind; /* GP_CELL_EMPTY renders as "" / null */
    double number;          /* for NUMBER and INT */
    char *text;             /* owned, for TEXT */
};

struct gp_table {
    const struct gp_column *columns; /* borrowed, `ncols` entries */
    size_t ncols;
    struct gp_cell *cells; /* owned, row-major, nrows * ncols */
    size_t nrows;
    size_t cap_rows;
    cJSON *meta;          /* owned object; its members are added to the JSON output's
                             top level before "rows" (NULL = none) */
    const char *rows_key; /* JSON key of the rows array; default "rows" */
};

enum gp_format { GP_FORMAT_TABLE, GP_FORMAT_CSV, GP_FORMAT_JSON };

/* "table" | "csv" | "json" -> format; -1 for anything else. */
int gp_format_parse(const char *name);

void gp_table_init(struct gp_table *t, const struct gp_column *columns, size_t ncols);
void gp_table_release(struct gp_table *t);

/* Append an empty row; returns 0 or GP_ENOMEM. The new row is t->nrows - 1. */
int gp_table_add_row(struct gp_table *t);

/* Set a cell of the last row. Column is looked up by name once per call; setting a column the
 * table does not have is a programming error reported as GP_ERROR. */
int gp_table_set_text(struct gp_table *t, const char *column, const char *fmt, ...) GP_PRINTF(3, 4);
int gp_table_set_number(struct gp_table *t, const char *column, double value);
int gp_table_set_int(struct gp_table *t, const char *column, long long value);

struct gp_render_options {
    bool color;           /* ANSI emphasis in table output (only when stdout is a terminal) */
    int schema_version;   /* for JSON; 0 means 1 */
    size_t highlight_row; /* table output emphasises this row when color is on; SIZE_MAX = none */
};

/* Write the table to `out` in `format`. Returns 0, or GP_ERROR when writing fails. */
int gp_table_render(const struct gp_table *t, enum gp_format format,
                    const struct gp_render_options *options, FILE *out);

/* The individual renderers (report/render_*.c). */
int gp_render_text(const struct gp_table *t, const struct gp_render_options *options, FILE *out);
int gp_render_csv(const struct gp_table *t, FILE *out);
int gp_render_json(const struct gp_table *t, const struct gp_render_options *options, FILE *out);

/* A cell as display text (numbers with the column's decimals) into out[size]. */
void gp_cell_format(const struct gp_cell *cell, const struct gp_column *column, char *out,
                    size_t size);

#endif
