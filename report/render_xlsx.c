/* The xlsx report through libxlsxwriter, the only file that sees it: a cover sheet, then one
 * sheet per section with real numbers in number formats (currency with its code, percentages,
 * dates as dates), a frozen header, an autofilter and fitted widths. A row's fleet cost per hour
 * and per month are formulas over its GPU count and price, and the summary's monthly costs add
 * up in a SUM, so an edited quantity carries through. Text is always written as text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/xlsx_api.h"
#include "util/error.h"
#include "util/timeutil.h"

/* libxlsxwriter's functions, loaded by gp_report_render_xlsx before anything below runs. */
static const struct gp_xlsx_api *xl;

enum { MAX_DECIMALS = 9, SCRATCH_MAX = 512, NUMBER_ROOM = 352, MAX_WIDTH = 48 };

/* The workbook and the formats made for it, one per style and number of decimals. */
struct book {
    lxw_workbook *wb;
    const char *currency;
    char footer[256]; /* every sheet's printed footer */
    lxw_format *header, *title, *text, *date, *date_left, *wrap;
    lxw_format *number[GP_STYLE_DATE + 1][MAX_DECIMALS + 1];
};

static lxw_format *number_format(struct book *b, enum gp_column_style style, int decimals)
{
    char code[64], places[16] = "";

    decimals = decimals < 0 ? 0 : decimals > MAX_DECIMALS ? MAX_DECIMALS : decimals;
    if (b->number[style][decimals])
        return b->number[style][decimals];
    if (decimals > 0)
        snprintf(places, sizeof(places), ".%.*s", decimals, "000000000");
    if (style == GP_STYLE_CURRENCY)
        snprintf(code, sizeof(code), "#,##0%s\\ \"%s\"", places, b->currency);
    else if (style == GP_STYLE_PERCENT)
        snprintf(code, sizeof(code), "0%s%%", decimals > 2 ? ".0" : "");
    else if (style == GP_STYLE_COUNT)
        snprintf(code, sizeof(code), "#,##0");
    else
        snprintf(code, sizeof(code), "#,##0%s", places);
    b->number[style][decimals] = xl->workbook_add_format(b->wb);
    xl->format_set_num_format(b->number[style][decimals], code);
    return b->number[style][decimals];
}

/* "A", ..., "Z", "AA", ... for column c (0-based). */
static void column_name(char *out, size_t size, size_t c)
{
    char tmp[8];
    size_t n = 0;

    do {
        tmp[n++] = (char)('A' + c % 26);
        c = c / 26;
    } while (c-- > 0 && n < sizeof(tmp));
    for (size_t i = 0; i < n && i + 1 < size; i++)
        out[i] = tmp[n - 1 - i];
    out[n < size ? n : size - 1] = '\0';
}

static size_t find_column(const struct gp_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->columns[c].name, name) == 0)
            return c;
    return SIZE_MAX;
}

/* Where a cell's value is a formula over other cells of its row: "=P5*F5" into out. */
struct formula_cols {
    size_t cost_per_hour, cost_per_month, price, gpus;
};

static bool cell_formula(const struct gp_table *t, const struct formula_cols *f, size_t r, size_t c,
                         double value, char *out, size_t size)
{
    char a[8], b[8], scratch[SCRATCH_MAX];
    struct gp_value price, gpus, hour;

    if (f->price == SIZE_MAX || f->gpus == SIZE_MAX || f->cost_per_hour == SIZE_MAX ||
        (c != f->cost_per_hour && c != f->cost_per_month))
        return false;
    gp_table_value(t, r, f->price, &price, scratch, sizeof(scratch));
    gp_table_value(t, r, f->gpus, &gpus, scratch, sizeof(scratch));
    gp_table_value(t, r, f->cost_per_hour, &hour, scratch, sizeof(scratch));
    if (price.kind != GP_CELL_NUMBER || gpus.kind != GP_CELL_INT || hour.kind != GP_CELL_NUMBER)
        return false;
    if (c == f->cost_per_hour) { /* a formula only where the row says exactly that */
        if (!(fabs(price.number * gpus.number - value) <= 1e-9 * fabs(value)))
            return false;
        column_name(a, sizeof(a), f->price);
        column_name(b, sizeof(b), f->gpus);
        snprintf(out, size, "=%s%zu*%s%zu", a, r + 2, b, r + 2);
        return true;
    }
    if (!(fabs(hour.number * GP_HOURS_PER_MONTH - value) <= 1e-9 * fabs(value)))
        return false;
    column_name(a, sizeof(a), f->cost_per_hour);
    snprintf(out, size, "=%s%zu*%d", a, r + 2, GP_HOURS_PER_MONTH_WHOLE);
    return true;
}

static lxw_error write_date(struct book *b, lxw_worksheet *ws, size_t r, size_t c, const char *text)
{
    int64_t t;

    if (gp_time_parse(text, &t) != 0)
        return xl->worksheet_write_string(ws, (lxw_row_t)r, (lxw_col_t)c, text, b->text);
    return xl->worksheet_write_unixtime(ws, (lxw_row_t)r, (lxw_col_t)c, t, b->date);
}

/* Write table cell (r, c) at sheet row r + 1; returns the width its text needs. */
static size_t write_cell(struct book *b, lxw_worksheet *ws, const struct gp_table *t,
                         const struct formula_cols *f, size_t r, size_t c, lxw_error *err)
{
    const struct gp_column_look *look = gp_table_look(t, c);
    char scratch[SCRATCH_MAX], number[NUMBER_ROOM], formula[64];
    struct gp_value v;
    size_t len;
    lxw_row_t row = (lxw_row_t)(r + 1);
    lxw_col_t col = (lxw_col_t)c;

    gp_table_value(t, r, c, &v, scratch, sizeof(scratch));
    gp_value_text(&v, &t->columns[c], gp_locale_default(), number, sizeof(number), &len);
    if (v.kind == GP_CELL_EMPTY)
        return 0;
    if (v.kind == GP_CELL_TEXT)
        *err = look->style == GP_STYLE_DATE
                   ? write_date(b, ws, row, col, v.text)
                   : xl->worksheet_write_string(ws, row, col, v.text, b->text);
    else {
        enum gp_column_style style = v.kind == GP_CELL_INT ? GP_STYLE_COUNT : look->style;
        lxw_format *fmt = number_format(
            b, style,
            style == GP_STYLE_PERCENT
                ? t->columns[c].decimals
                : gp_number_display_decimals(v.number, style, t->columns[c].decimals));
        *err = cell_formula(t, f, r, c, v.number, formula, sizeof(formula))
                   ? xl->worksheet_write_formula_num(ws, row, col, formula, fmt, v.number)
                   : xl->worksheet_write_number(ws, row, col, v.number, fmt);
        len += look->style == GP_STYLE_CURRENCY ? strlen(b->currency) + 4 : 2;
    }
    return len;
}

/* A SUM of each total column under the rows. */
static lxw_error write_totals(struct book *b, lxw_worksheet *ws, const struct gp_report_section *s)
{
    const struct gp_table *t = &s->table;
    char col[8], formula[64], scratch[SCRATCH_MAX];
    lxw_row_t row = (lxw_row_t)(t->nrows + 1);
    lxw_error err = xl->worksheet_write_string(ws, row, 0, "Total", b->header);

    for (size_t c = 1; !err && c < t->ncols; c++) {
        double sum = 0;
        if (!gp_report_is_total(s, c))
            continue;
        for (size_t r = 0; r < t->nrows; r++) {
            struct gp_value v;
            gp_table_value(t, r, c, &v, scratch, sizeof(scratch));
            sum += v.kind == GP_CELL_NUMBER ? v.number : 0;
        }
        column_name(col, sizeof(col), c);
        snprintf(formula, sizeof(formula), "=SUM(%s2:%s%zu)", col, col, t->nrows + 1);
        err = xl->worksheet_write_formula_num(
            ws, row, (lxw_col_t)c, formula,
            number_format(b, gp_table_look(t, c)->style, t->columns[c].decimals), sum);
    }
    return err;
}

/* A sheet name from a title: no []:*?/\ and at most 31 bytes, cut at a character boundary. */
static void sheet_name(char *out, size_t size, const char *title)
{
    size_t n = 0;

    for (const char *p = title; *p && n + 1 < size && n < 31; p++)
        out[n++] = strchr("[]:*?/\\", *p) ? ' ' : *p;
    while (n > 0 && ((unsigned char)out[n - 1] & 0xC0) == 0x80)
        n--; /* continuation bytes of a character cut short */
    if (n > 0 && ((unsigned char)out[n - 1] & 0xC0) == 0xC0)
        n--;
    out[n] = '\0';
}

/* Every sheet prints on A4 landscape, one page wide, its header row on each page, without
 * gridlines, with the report's footer. */
static void page_setup(struct book *b, lxw_worksheet *ws)
{
    xl->worksheet_set_landscape(ws);
    xl->worksheet_set_paper(ws, 9); /* A4 */
    xl->worksheet_fit_to_pages(ws, 1, 0);
    xl->worksheet_gridlines(ws, LXW_SHOW_SCREEN_GRIDLINES);
    xl->worksheet_set_footer(ws, b->footer);
    xl->worksheet_set_margins(ws, 0.4, 0.4, 0.5, 0.6);
}

/* "&L<title>, <date>&CPage &P of &N&RPrices observed to <date>", the title's own '&' doubled. */
static void make_footer(struct book *b, const struct gp_report *r)
{
    char when[16], newest[16] = "", title[96];
    int64_t latest = 0;
    size_t n = 0;

    for (const char *p = r->title; *p && n + 2 < sizeof(title); p++) {
        if (*p == '&')
            title[n++] = '&';
        title[n++] = *p;
    }
    title[n] = '\0';
    for (size_t i = 0; i < r->nplans; i++)
        if (r->plans[i].result->newest_price > latest)
            latest = r->plans[i].result->newest_price;
    gp_time_format_date(r->generated_at, when, sizeof(when));
    if (latest)
        gp_time_format_date(latest, newest, sizeof(newest));
    snprintf(b->footer, sizeof(b->footer), "&L%s, %s&CPage &P of &N&R%s%s", title, when,
             latest ? "Prices observed to " : "No prices", newest);
}

/* The section's line chart, right of its table: the chart's x column as categories and one
 * series per line column, each named by its header cell. */
static lxw_error insert_chart(struct book *b, lxw_worksheet *ws, const char *sheet,
                              const struct gp_report_section *s)
{
    const struct gp_table *t = &s->table;
    const struct gp_report_line_chart *spec = s->chart;
    size_t x = find_column(t, spec->x);
    lxw_row_t last = (lxw_row_t)t->nrows;
    lxw_chart *chart;

    if (x == SIZE_MAX || t->nrows == 0)
        return LXW_NO_ERROR;
    if (!(chart = xl->workbook_add_chart(b->wb, LXW_CHART_LINE)))
        return LXW_ERROR_MEMORY_MALLOC_FAILED;
    for (const char *const *name = spec->lines; *name; name++) {
        size_t c = find_column(t, *name);
        lxw_chart_series *series = c == SIZE_MAX ? NULL : xl->chart_add_series(chart, NULL, NULL);
        if (!series)
            continue;
        xl->chart_series_set_categories(series, sheet, 1, (lxw_col_t)x, last, (lxw_col_t)x);
        xl->chart_series_set_values(series, sheet, 1, (lxw_col_t)c, last, (lxw_col_t)c);
        xl->chart_series_set_name_range(series, sheet, 0, (lxw_col_t)c);
    }
    xl->chart_title_set_name(chart, s->title);
    xl->chart_axis_set_name(chart->x_axis, gp_table_header(t, x));
    xl->chart_axis_set_name(chart->y_axis, spec->y_title);
    return xl->worksheet_insert_chart(ws, 1, (lxw_col_t)(t->ncols + 1), chart);
}

static int write_sheet(struct book *b, const struct gp_report_section *s)
{
    const struct gp_table *t = &s->table;
    struct formula_cols f = {find_column(t, "cost_per_hour"), find_column(t, "cost_per_month"),
                             find_column(t, "price_per_gpu_hour"), find_column(t, "gpus")};
    char name[32];
    lxw_worksheet *ws;
    lxw_error err = LXW_NO_ERROR;

    sheet_name(name, sizeof(name), s->title);
    if (!(ws = xl->workbook_add_worksheet(b->wb, name)))
        return gp_error_set(GP_ERROR, "cannot add the sheet '%s'", name);
    page_setup(b, ws);
    err = xl->worksheet_repeat_rows(ws, 0, 0);
    for (size_t c = 0; !err && c < t->ncols; c++) {
        const char *header = gp_table_header(t, c);
        size_t width = strlen(header) + 3; /* room for the filter button */
        err = xl->worksheet_write_string(ws, 0, (lxw_col_t)c, header, b->header);
        for (size_t r = 0; !err && r < t->nrows; r++) {
            size_t w = write_cell(b, ws, t, &f, r, c, &err);
            width = w > width ? w : width;
        }
        /* a right-aligned number stays clear of the text that starts the next column */
        if (t->columns[c].kind != GP_CELL_TEXT)
            width += 2;
        if (!err)
            err = xl->worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c,
                                           (double)(width < MAX_WIDTH ? width : MAX_WIDTH), NULL);
    }
    if (!err && s->totals && t->nrows > 1)
        err = write_totals(b, ws, s);
    if (!err && s->chart)
        err = insert_chart(b, ws, name, s);
    if (!err && t->ncols > 0) {
        xl->worksheet_freeze_panes(ws, 1, 1);
        err = xl->worksheet_autofilter(ws, 0, 0, (lxw_row_t)t->nrows, (lxw_col_t)(t->ncols - 1));
    }
    return err ? gp_error_set(GP_ERROR, "sheet '%s': %s", name, xl->lxw_strerror(err)) : 0;
}

/* Characters a line of each cover column holds, as its width is set in write_cover. */
static const size_t cover_widths[] = {24, 60, 16, 7, 16, 16, 60};

/* One cell of the cover's recommendation from summary row `row`, column `name`, at (at, col):
 * text as text, wrapped, money in the currency format. Returns the lines it takes. */
static size_t cover_cell(struct book *b, lxw_worksheet *ws, const struct gp_table *t, size_t row,
                         const char *name, lxw_row_t at, lxw_col_t col, lxw_error *err)
{
    char scratch[SCRATCH_MAX];
    struct gp_value v;
    size_t c = find_column(t, name);

    if (c == SIZE_MAX)
        return 1;
    gp_table_value(t, row, c, &v, scratch, sizeof(scratch));
    if (v.kind == GP_CELL_TEXT) {
        *err = xl->worksheet_write_string(ws, at, col, v.text, b->wrap);
        return strlen(v.text) / (cover_widths[col] - 4) + 1;
    }
    if (v.kind == GP_CELL_NUMBER)
        *err = xl->worksheet_write_number(ws, at, col, v.number,
                                          number_format(b, GP_STYLE_CURRENCY, 0));
    return 1;
}

/* Under the cover's facts: per workload what to buy and what it costs, with its band, then the
 * totals by kind, as the summary sheet gives them. */
static lxw_error write_cover_recommendation(struct book *b, lxw_worksheet *ws,
                                            const struct gp_report *r, lxw_row_t at)
{
    static const char *const heads[] = {
        "Workload", "Buy", "Cost", "per", "Low", "High", "Would change the answer"};
    static const char *const names[] = {"workload", "buy",       "cost",        "cost_per",
                                        "cost_low", "cost_high", "would_change"};
    const struct gp_report_section *s = gp_report_find_section(r, "summary");
    lxw_error err = xl->worksheet_write_string(ws, at, 0, "Recommendation", b->title);

    for (lxw_col_t c = 0; !err && s && c < 7; c++)
        err = xl->worksheet_write_string(ws, at + 1, c, heads[c], b->header);
    for (size_t i = 0; !err && s && i < s->table.nrows; i++) {
        size_t lines = 1;
        for (lxw_col_t c = 0; !err && c < 7; c++) {
            size_t need = cover_cell(b, ws, &s->table, i, names[c], at + 2 + (lxw_row_t)i, c, &err);
            lines = need > lines ? need : lines;
        }
        /* a wrapped cell does not grow its row by itself: as many lines as the longest needs */
        if (!err)
            err = xl->worksheet_set_row(ws, at + 2 + (lxw_row_t)i, 15.0 * (double)lines, NULL);
    }
    return err;
}

/* The cover: title, author, date, the recommendation, and what the workbook holds. */
static int write_cover(struct book *b, const struct gp_report *r)
{
    lxw_worksheet *ws = xl->workbook_add_worksheet(b->wb, "Cover");
    const char *labels[] = {"Author", "Generated", "gpuplan", "Currency", "Database"};
    const char *slash = strrchr(r->database, '/');
    const char *values[] = {r->author[0] ? r->author : "(not given)", NULL, r->version, r->currency,
                            slash ? slash + 1 : r->database};
    const struct gp_report_section *s = gp_report_find_section(r, "summary");
    lxw_row_t sheets = (lxw_row_t)(10 + (s ? s->table.nrows : 0));
    lxw_error err;

    if (!ws)
        return gp_error_set(GP_ERROR, "cannot add the cover sheet");
    page_setup(b, ws);
    for (lxw_col_t c = 0; c < 7; c++)
        xl->worksheet_set_column(ws, c, c, (double)cover_widths[c], NULL);
    err = xl->worksheet_write_string(ws, 0, 0, r->title, b->title);
    for (lxw_row_t i = 0; !err && i < 5; i++) {
        err = xl->worksheet_write_string(ws, i + 2, 0, labels[i], b->header);
        if (!err)
            err = values[i]
                      ? xl->worksheet_write_string(ws, i + 2, 1, values[i], b->text)
                      : xl->worksheet_write_unixtime(ws, i + 2, 1, r->generated_at, b->date_left);
    }
    if (!err)
        err = write_cover_recommendation(b, ws, r, 8);
    for (size_t i = 0; !err && i < r->nsections; i++)
        err = xl->worksheet_write_string(ws, sheets + 1 + (lxw_row_t)i, 1, r->sections[i].title,
                                         b->text);
    if (!err)
        err = xl->worksheet_write_string(ws, sheets + 1, 0, "Sheets", b->header);
    return err ? gp_error_set(GP_ERROR, "cover sheet: %s", xl->lxw_strerror(err)) : 0;
}

static void add_formats(struct book *b)
{
    b->header = xl->workbook_add_format(b->wb);
    xl->format_set_bold(b->header);
    xl->format_set_bg_color(b->header, 0xF6F8FA);
    xl->format_set_bottom(b->header, LXW_BORDER_THIN);
    b->title = xl->workbook_add_format(b->wb);
    xl->format_set_bold(b->title);
    xl->format_set_font_size(b->title, 16);
    b->text = xl->workbook_add_format(b->wb);
    b->date = xl->workbook_add_format(b->wb);
    xl->format_set_num_format(b->date, "yyyy-mm-dd");
    b->date_left = xl->workbook_add_format(b->wb);
    xl->format_set_num_format(b->date_left, "yyyy-mm-dd");
    xl->format_set_align(b->date_left, LXW_ALIGN_LEFT);
    b->wrap = xl->workbook_add_format(b->wb);
    xl->format_set_text_wrap(b->wrap);
    xl->format_set_align(b->wrap, LXW_ALIGN_VERTICAL_TOP);
}

int gp_report_render_xlsx(const struct gp_report *r, const char *path)
{
    struct book b;
    lxw_doc_properties props;
    lxw_error err;
    int rc = 0;

    if (!xl && !(xl = gp_xlsx_api()))
        return GP_ERROR;
    memset(&b, 0, sizeof(b));
    memset(&props, 0, sizeof(props));
    b.currency = r->currency;
    if (!(b.wb = xl->workbook_new(path)))
        return gp_error_set(GP_ERROR, "%s: cannot start the workbook", path);
    add_formats(&b);
    props.title = (char *)r->title;
    props.author = (char *)r->author;
    props.comments = "Written by gpuplan";
    xl->workbook_set_properties(b.wb, &props);
    make_footer(&b, r);
    rc = write_cover(&b, r);
    for (size_t i = 0; rc == 0 && i < r->nsections; i++)
        rc = write_sheet(&b, &r->sections[i]);
    err = xl->workbook_close(b.wb);
    if (rc == 0 && err)
        rc = gp_error_set(GP_ERROR, "%s: %s", path, xl->lxw_strerror(err));
    return rc;
}
