/* libxlsxwriter, loaded when a workbook is first written: the functions report/render_xlsx.c
 * calls, resolved once from the shared library (util/dynlib.h), so that no other command loads
 * it and the zip and crypto libraries it brings at start-up. Internal to report/. */
#ifndef GP_REPORT_XLSX_API_H
#define GP_REPORT_XLSX_API_H

#include <xlsxwriter.h>

/* The libxlsxwriter functions in use: return type, name, parameters. */
#define GP_XLSX_FUNCTIONS(X)                                                                       \
    X(lxw_workbook *, workbook_new, (const char *filename))                                        \
    X(lxw_error, workbook_close, (lxw_workbook * workbook))                                        \
    X(lxw_chart *, workbook_add_chart, (lxw_workbook * workbook, uint8_t chart_type))              \
    X(lxw_chart_series *, chart_add_series,                                                        \
      (lxw_chart * chart, const char *categories, const char *values))                             \
    X(void, chart_series_set_categories,                                                           \
      (lxw_chart_series * series, const char *sheetname, lxw_row_t first_row, lxw_col_t first_col, \
       lxw_row_t last_row, lxw_col_t last_col))                                                    \
    X(void, chart_series_set_values,                                                               \
      (lxw_chart_series * series, const char *sheetname, lxw_row_t first_row, lxw_col_t first_col, \
       lxw_row_t last_row, lxw_col_t last_col))                                                    \
    X(void, chart_series_set_name_range,                                                           \
      (lxw_chart_series * series, const char *sheetname, lxw_row_t row, lxw_col_t col))            \
    X(void, chart_title_set_name, (lxw_chart * chart, const char *name))                           \
    X(void, chart_axis_set_name, (lxw_chart_axis * axis, const char *name))                        \
    X(lxw_error, worksheet_insert_chart,                                                           \
      (lxw_worksheet * ws, lxw_row_t row, lxw_col_t col, lxw_chart * chart))                       \
    X(lxw_format *, workbook_add_format, (lxw_workbook * workbook))                                \
    X(lxw_worksheet *, workbook_add_worksheet, (lxw_workbook * workbook, const char *name))        \
    X(lxw_error, workbook_set_properties, (lxw_workbook * workbook, lxw_doc_properties * props))   \
    X(void, format_set_align, (lxw_format * format, uint8_t alignment))                            \
    X(void, format_set_bg_color, (lxw_format * format, lxw_color_t color))                         \
    X(void, format_set_bold, (lxw_format * format))                                                \
    X(void, format_set_bottom, (lxw_format * format, uint8_t style))                               \
    X(void, format_set_font_size, (lxw_format * format, double size))                              \
    X(void, format_set_num_format, (lxw_format * format, const char *num_format))                  \
    X(void, format_set_text_wrap, (lxw_format * format))                                           \
    X(char *, lxw_strerror, (lxw_error error))                                                     \
    X(lxw_error, worksheet_autofilter,                                                             \
      (lxw_worksheet * ws, lxw_row_t first_row, lxw_col_t first_col, lxw_row_t last_row,           \
       lxw_col_t last_col))                                                                        \
    X(void, worksheet_fit_to_pages, (lxw_worksheet * ws, uint16_t width, uint16_t height))         \
    X(void, worksheet_freeze_panes, (lxw_worksheet * ws, lxw_row_t row, lxw_col_t col))            \
    X(void, worksheet_gridlines, (lxw_worksheet * ws, uint8_t option))                             \
    X(lxw_error, worksheet_repeat_rows, (lxw_worksheet * ws, lxw_row_t first, lxw_row_t last))     \
    X(lxw_error, worksheet_set_column,                                                             \
      (lxw_worksheet * ws, lxw_col_t first, lxw_col_t last, double width, lxw_format *format))     \
    X(lxw_error, worksheet_set_footer, (lxw_worksheet * ws, const char *text))                     \
    X(void, worksheet_set_landscape, (lxw_worksheet * ws))                                         \
    X(void, worksheet_set_margins,                                                                 \
      (lxw_worksheet * ws, double left, double right, double top, double bottom))                  \
    X(void, worksheet_set_paper, (lxw_worksheet * ws, uint8_t paper))                              \
    X(lxw_error, worksheet_set_row,                                                                \
      (lxw_worksheet * ws, lxw_row_t row, double height, lxw_format *format))                      \
    X(lxw_error, worksheet_write_formula_num,                                                      \
      (lxw_worksheet * ws, lxw_row_t row, lxw_col_t col, const char *formula, lxw_format *format,  \
       double result))                                                                             \
    X(lxw_error, worksheet_write_number,                                                           \
      (lxw_worksheet * ws, lxw_row_t row, lxw_col_t col, double number, lxw_format *format))       \
    X(lxw_error, worksheet_write_string,                                                           \
      (lxw_worksheet * ws, lxw_row_t row, lxw_col_t col, const char *text, lxw_format *format))    \
    X(lxw_error, worksheet_write_unixtime,                                                         \
      (lxw_worksheet * ws, lxw_row_t row, lxw_col_t col, int64_t t, lxw_format * format))

#define GP_XLSX_MEMBER(ret, name, params) ret(*name) params;
struct gp_xlsx_api {
    GP_XLSX_FUNCTIONS(GP_XLSX_MEMBER)
};
#undef GP_XLSX_MEMBER

/* The loaded functions, loading libxlsxwriter (libxlsxwriter.so.4) on the first call; NULL
 * with GP_ERROR set when it cannot be loaded. Not thread-safe on the first call. */
const struct gp_xlsx_api *gp_xlsx_api(void);

#endif
