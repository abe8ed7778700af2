/* Unit tests for report/: CSV quoting and formula neutralisation, JSON shape, text alignment,
 * number formatting, locales, and the plan column descriptors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/json_number.h"
#include "report/plan_table.h"
#include "report/table.h"
#include "util/error.h"

static const struct gp_column columns[] = {
    {"name", GP_CELL_TEXT, 0},
    {"price", GP_CELL_NUMBER, 2},
    {"count", GP_CELL_INT, 0},
};

/* Render into a string (malloc'd) in `locale` (NULL = plain), fitting `width` (0 = any). */
static char *render_in(const struct gp_table *t, enum gp_format format, const char *locale,
                       size_t width)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    struct gp_render_options options = {
        false, 1, SIZE_MAX, locale ? gp_locale_find(locale) : NULL, width, false};

    assert_int_equal(gp_table_render(t, format, &options, out), 0);
    fclose(out);
    return text;
}

static char *render(const struct gp_table *t, enum gp_format format)
{
    return render_in(t, format, NULL, 0);
}

static void build(struct gp_table *t)
{
    static const char *const names[] = {"plain",     "=SUM(A1:A9)", "-2+3", "@cmd",
                                        "a,b \"q\"", "\tx",         "Øre"};
    gp_table_init(t, columns, 3);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        assert_int_equal(gp_table_add_row(t), 0);
        assert_int_equal(gp_table_set_text(t, "name", "%s", names[i]), 0);
        assert_int_equal(gp_table_set_number(t, "price", -1.5 + (double)i), 0);
        if (i != 2)
            assert_int_equal(gp_table_set_int(t, "count", (long long)i * 100), 0);
    }
}

static void csv_quotes_and_neutralises(void **state)
{
    struct gp_table t;
    (void)state;

    build(&t);
    char *csv = render(&t, GP_FORMAT_CSV);
    assert_string_equal(csv, "name,price,count\r\n"
                             "plain,-1.50,0\r\n"
                             "\"'=SUM(A1:A9)\",-0.50,100\r\n"
                             "\"'-2+3\",0.50,\r\n"
                             "\"'@cmd\",1.50,300\r\n"
                             "\"a,b \"\"q\"\"\",2.50,400\r\n"
                             "\"'\tx\",3.50,500\r\n"
                             "Øre,4.50,600\r\n");
    free(csv);
    assert_int_equal(gp_table_set_text(&t, "nope", "x"), -1);
    gp_table_release(&t);
}

/* RFC 4180 as written out by hand: the field `text` becomes in a CSV with `separator`. */
static void expected_field(char *out, const char *text, char separator)
{
    bool formula = text[0] && strchr("=+-@\t\r", text[0]);
    bool quote = formula;

    for (const char *c = text; *c; c++)
        quote |= *c == separator || *c == '"' || *c == '\r' || *c == '\n';
    if (quote)
        *out++ = '"';
    if (formula)
        *out++ = '\'';
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            *out++ = '"';
        *out++ = *c;
    }
    if (quote)
        *out++ = '"';
    *out = '\0';
}

/* Text of every length up to 200 bytes, with a byte that needs quotes (or none) at the start,
 * the end and around the writer's 64-byte single-pass limit, in both locales. */
static void csv_fields_of_every_length(void **state)
{
    static const char specials[] = {'x', ',', ';', '"', '\r', '\n', '=', '-', '\t'};
    static const char *const locales[] = {"C", "da_DK"};
    char text[256], field[600], expected[640];
    (void)state;

    for (size_t l = 0; l < 2; l++) {
        char separator = gp_locale_find(locales[l])->separator;
        const char *bom = l == 1 ? "\xEF\xBB\xBF" : "";
        for (size_t len = 0; len <= 200; len++) {
            size_t at[] = {0, 1, len / 2, 62, 63, 64, 65, len - 1};
            for (size_t s = 0; s < sizeof(specials); s++) {
                for (size_t a = 0; a < sizeof(at) / sizeof(at[0]); a++) {
                    struct gp_table t;
                    memset(text, 'a', len);
                    text[len] = '\0';
                    if (at[a] < len)
                        text[at[a]] = specials[s];
                    expected_field(field, text, separator);
                    snprintf(expected, sizeof(expected), "%sname%cprice%ccount\r\n%s%c%c\r\n", bom,
                             separator, separator, field, separator, separator);
                    gp_table_init(&t, columns, 3);
                    assert_int_equal(gp_table_add_row(&t), 0);
                    assert_int_equal(gp_table_set_text(&t, "name", "%s", text), 0);
                    char *csv = render_in(&t, GP_FORMAT_CSV, locales[l], 0);
                    assert_string_equal(csv, expected);
                    free(csv);
                    gp_table_release(&t);
                }
            }
        }
    }
}

static void json_has_schema_meta_and_nulls(void **state)
{
    struct gp_table t;
    (void)state;

    build(&t);
    t.meta = cJSON_CreateObject();
    cJSON_AddStringToObject(t.meta, "workload", "chat");
    char *json = render(&t, GP_FORMAT_JSON);
    cJSON *doc = cJSON_Parse(json);
    assert_non_null(doc);
    assert_int_equal(cJSON_GetObjectItem(doc, "schema_version")->valueint, 1);
    assert_string_equal(cJSON_GetObjectItem(doc, "workload")->valuestring, "chat");
    cJSON *rows = cJSON_GetObjectItem(doc, "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 7);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 2), "count")));
    assert_true(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1), "price")->valuedouble == -0.5);
    cJSON_Delete(doc);
    free(json);
    gp_table_release(&t);
}

/* The list a JSON row may carry after its columns: two items a row, none for row 3, with text
 * that needs escaping and numbers that need 17 digits. */
static const struct gp_column list_columns[] = {{"cost", GP_CELL_NUMBER, 2},
                                                {"note", GP_CELL_TEXT, 0}};

static size_t list_count(const void *source, size_t row)
{
    (void)source;
    return row == 3 ? 0 : 2;
}

static void list_read(const void *source, size_t row, size_t item, size_t col, struct gp_value *out)
{
    (void)source;
    out->kind = col == 0 ? (item ? GP_CELL_EMPTY : GP_CELL_NUMBER) : GP_CELL_TEXT;
    out->number = 0.1 * (double)row + 0.2;
    out->text = item ? "" : "two\nlines\t\"q\"";
}

static const struct gp_table_list row_list = {"alternatives", list_columns, 2, list_count,
                                              list_read};

/* The document as cJSON prints it whole: what the renderer, which writes a row at a time, must
 * write byte for byte. */
static char *whole_document(const struct gp_table *t)
{
    cJSON *doc = cJSON_CreateObject(), *member;
    char *text, *out;

    cJSON_AddNumberToObject(doc, "schema_version", 1);
    cJSON_ArrayForEach(member, t->meta)
    {
        cJSON_AddItemToObject(doc, member->string, cJSON_Duplicate(member, 1));
    }
    cJSON_AddItemToObject(doc, "rows", gp_table_json_rows(t));
    text = cJSON_Print(doc);
    out = malloc(strlen(text) + 2);
    sprintf(out, "%s\n", text);
    cJSON_free(text);
    cJSON_Delete(doc);
    return out;
}

static void assert_streamed_as_whole(const struct gp_table *t)
{
    char *streamed = render(t, GP_FORMAT_JSON), *whole = whole_document(t);

    assert_string_equal(streamed, whole);
    free(streamed);
    free(whole);
}

static void json_streams_the_document_cjson_prints_whole(void **state)
{
    static const double prices[] = {0.30000000000000004, 1e-7, 123456789012.5, -0.0, 1e300};
    struct gp_table t;
    cJSON *nested;
    (void)state;

    build(&t);
    for (size_t i = 0; i < sizeof(prices) / sizeof(prices[0]); i++) {
        assert_int_equal(gp_table_add_row(&t), 0);
        assert_int_equal(gp_table_set_text(&t, "name", "row\n%zu", i), 0);
        assert_int_equal(gp_table_set_number(&t, "price", prices[i]), 0);
    }
    t.list = &row_list;
    t.meta = cJSON_CreateObject();
    nested = cJSON_AddObjectToObject(t.meta, "assumptions");
    cJSON_AddNumberToObject(nested, "fx", 6.4321);
    cJSON_AddItemToObject(nested, "empty", cJSON_CreateObject());
    cJSON_AddItemToObject(t.meta, "list", cJSON_CreateIntArray((const int[]){1, 2}, 2));
    assert_streamed_as_whole(&t);
    t.nrows = 0; /* no rows at all */
    assert_streamed_as_whole(&t);
    t.nrows = 12;
    gp_table_release(&t);
}

/* Rows with nothing but their columns are written without a cJSON tree: still byte for byte
 * what cJSON prints, for numbers near its 15-digit rule, whole numbers, -0, infinities and
 * text with quotes, backslashes, control bytes and bytes that are not UTF-8. */
static void json_rows_written_directly_match_cjson(void **state)
{
    static const double numbers[] = {0.30000000000000004,
                                     0.1 + 0.7,
                                     1e-7,
                                     123456789012.5,
                                     -0.0,
                                     0.0,
                                     1e300,
                                     999999999999999.0,
                                     1e15,
                                     -123456.0,
                                     4503599627370497.0,
                                     2.675,
                                     1.0 / 3.0,
                                     -7.25e-310,
                                     INFINITY,
                                     NAN,
                                     1.99,
                                     8.8704};
    static const char *const texts[] = {
        "plain", "q\"uote", "back\\slash", "tab\there", "\b\f\n\r\x01\x1f", "bad \xff\xfe utf-8",
        "Øre /", ""};
    struct gp_table t;
    (void)state;

    gp_table_init(&t, columns, 3);
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
        assert_int_equal(gp_table_add_row(&t), 0);
        assert_int_equal(gp_table_set_text(&t, "name", "%s", texts[i % 8]), 0);
        assert_int_equal(gp_table_set_number(&t, "price", numbers[i]), 0);
        if (i % 3)
            assert_int_equal(gp_table_set_int(&t, "count", (long long)i * 1000003), 0);
    }
    assert_streamed_as_whole(&t);
    gp_table_release(&t);
}

/* The fast number text is cJSON's (snprintf "%1.15g", read back, else "%1.17g") for figures of
 * every magnitude a plan has, random and near the edges: halves, powers of ten and of two, the
 * 15-digit read-back boundary, whole numbers, tiny and huge values. */
static void json_numbers_match_cjson_rule(void **state)
{
    static const double edges[] = {0.5,
                                   0.25,
                                   1.5,
                                   2.5,
                                   1e-5,
                                   1e-4,
                                   0.0001234,
                                   1e14,
                                   1e15,
                                   1e16,
                                   1e17,
                                   1e21,
                                   1e22,
                                   1e-300,
                                   5e-324,
                                   2.675,
                                   0.1,
                                   0.2,
                                   0.3,
                                   1.0 / 3,
                                   2.0 / 3,
                                   1e100,
                                   -1e-7,
                                   8.8704,
                                   1.99,
                                   964.4,
                                   0.07,
                                   123.456,
                                   9.5,
                                   99.995,
                                   999.9995,
                                   0.15,
                                   1e-10,
                                   4.35,
                                   2e-5,
                                   7.0,
                                   -42.0,
                                   99999999.0,
                                   1e8,
                                   123456789.0,
                                   123456789012345.0};
    char fast[GP_JSON_NUMBER_MAX], slow[GP_JSON_NUMBER_MAX];
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    (void)state;

    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
        for (int ulps = -3; ulps <= 3; ulps++) {
            double d = edges[i];
            for (int u = 0; u < abs(ulps); u++)
                d = nextafter(d, ulps < 0 ? 0.0 : INFINITY);
            gp_json_number_text(fast, d);
            gp_json_number_text_printf(slow, d);
            assert_string_equal(fast, slow);
        }
    }
    for (int i = 0; i < 300000; i++) {
        double mantissa, d;
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        mantissa = (double)(seed >> 11) / 9007199254740992.0; /* [0, 1) */
        /* figures of plans (1e-6 to 1e12), decimal values, and any magnitude at all */
        switch (i % 3) {
        case 0:
            d = (mantissa + 0.1) * pow(10.0, (double)(int)(seed % 19) - 6);
            break;
        case 1:
            d = (double)(seed % 100000000) / pow(10.0, (double)(seed % 9));
            break;
        default:
            d = ldexp(mantissa + 0.5, (int)(seed % 600) - 300);
        }
        if (seed & 1)
            d = -d;
        gp_json_number_text(fast, d);
        gp_json_number_text_printf(slow, d);
        if (strcmp(fast, slow) != 0)
            fail_msg("%a: fast %s, cJSON %s", d, fast, slow);
    }
}

/* A table refilled after gp_table_clear reuses its cells: no text of an earlier row shows
 * through a cell the new row leaves empty or sets to a number. */
static void cleared_table_keeps_no_old_values(void **state)
{
    struct gp_table t;
    struct gp_value v;
    char scratch[8];
    (void)state;

    gp_table_init(&t, columns, 3);
    assert_int_equal(gp_table_add_row(&t), 0);
    assert_int_equal(gp_table_set_text(&t, "name", "a rather long first name"), 0);
    assert_int_equal(gp_table_set_text(&t, "count", "%d apples", 3), 0);
    gp_table_clear(&t);
    assert_int_equal(t.nrows, 0);
    assert_int_equal(gp_table_add_row(&t), 0);
    assert_int_equal(gp_table_set_text(&t, "name", "%s", "b"), 0);
    assert_int_equal(gp_table_set_int(&t, "count", 4), 0);
    gp_table_value(&t, 0, 0, &v, scratch, sizeof(scratch));
    assert_int_equal(v.kind, GP_CELL_TEXT);
    assert_string_equal(v.text, "b");
    gp_table_value(&t, 0, 1, &v, scratch, sizeof(scratch));
    assert_int_equal(v.kind, GP_CELL_EMPTY);
    assert_null(v.text);
    gp_table_value(&t, 0, 2, &v, scratch, sizeof(scratch));
    assert_int_equal(v.kind, GP_CELL_INT);
    assert_true(v.number == 4);
    assert_int_equal(gp_table_set_text(&t, "nope", "x"), GP_ERROR);
    gp_table_release(&t);
}

static void text_aligns_columns(void **state)
{
    struct gp_table t;
    (void)state;

    gp_table_init(&t, columns, 3);
    gp_table_add_row(&t);
    gp_table_set_text(&t, "name", "Øre");
    gp_table_set_number(&t, "price", 10);
    gp_table_set_int(&t, "count", 5);
    gp_table_add_row(&t);
    gp_table_set_text(&t, "name", "longer");
    gp_table_set_number(&t, "price", 2.5);
    char *text = render(&t, GP_FORMAT_TABLE);
    assert_string_equal(text, "name    price  count\n"
                              "Øre     10.00      5\n"
                              "longer   2.50       \n");
    free(text);
    gp_table_release(&t);
}

/* "4,999": n grouped in thousands, as the text renderer writes whole numbers. */
static void grouped(char *out, size_t size, int n)
{
    if (n >= 1000)
        snprintf(out, size, "%d,%03d", n / 1000, n % 1000);
    else
        snprintf(out, size, "%d", n);
}

/* A table long enough that its cells are kept from the measuring pass for the printing one:
 * the widths its last row sets apply to its first, and every row prints as it would unkept. */
static void text_of_a_long_table(void **state)
{
    enum { ROWS = 5000 };
    struct gp_table t;
    char name[32], count[16], whole[16], price[32], line[128];
    (void)state;

    gp_table_init(&t, columns, 3);
    for (int i = 0; i < ROWS; i++) {
        snprintf(name, sizeof(name), i == ROWS - 1 ? "the-longest-name-of-all" : "r%d", i);
        gp_table_add_row(&t);
        gp_table_set_text(&t, "name", "%s", name);
        gp_table_set_number(&t, "price", i + 0.25);
        gp_table_set_int(&t, "count", i);
    }
    char *text = render(&t, GP_FORMAT_TABLE), *cursor = text;
    size_t n = strcspn(cursor, "\n");
    assert_true(n == strlen("name                        price  count"));
    assert_memory_equal(cursor, "name                        price  count", n);
    cursor += n + 1;
    for (int i = 0; i < ROWS; i++) {
        snprintf(name, sizeof(name), i == ROWS - 1 ? "the-longest-name-of-all" : "r%d", i);
        grouped(whole, sizeof(whole), i);
        grouped(count, sizeof(count), i);
        snprintf(price, sizeof(price), "%s.25", whole);
        snprintf(line, sizeof(line), "%-23s  %8s  %5s", name, price, count);
        n = strcspn(cursor, "\n");
        if (n != strlen(line) || memcmp(cursor, line, n) != 0)
            fail_msg("row %d: '%.*s', not '%s'", i, (int)n, cursor, line);
        cursor += n + 1;
    }
    assert_int_equal(*cursor, '\0');
    free(text);
    gp_table_release(&t);
}

static void csv_da_dk_has_bom_semicolons_and_decimal_commas(void **state)
{
    struct gp_table t;
    (void)state;

    gp_table_init(&t, columns, 3);
    gp_table_add_row(&t);
    gp_table_set_text(&t, "name", "a;b");
    gp_table_set_number(&t, "price", 16706.25);
    gp_table_set_int(&t, "count", 1200);
    char *csv = render_in(&t, GP_FORMAT_CSV, "da_DK", 0);
    assert_string_equal(csv, "\xEF\xBB\xBFname;price;count\r\n\"a;b\";16706,25;1200\r\n");
    free(csv);
    assert_null(gp_locale_find("de_DE"));
    gp_table_release(&t);
}

/* The fast path agrees with printf on every value it formats, ties and huge values included. */
static void number_format_matches_printf(void **state)
{
    static const double fixed[] = {0.0, -0.0, 0.125, 0.5, 1.5, 2.5, -0.001, 0.0005, 1.005, 2.675,
                                   999.9999, 1e15, 1e300, -7.25, 1e-7, 123456.5, 0.045, 16.706349,
                                   4.78e-6, 9e15, 0.995, 99999999.5, 123456789.25, -4294967296.75,
                                   98765432109.5, 1234567890123.0625,
                                   /* eight whole digits with and without a sign, and one
                                      more, either side of the word the digits are built in */
                                   12345678.25, -12345678.25, -1234567.75, -99999999.5, 87654321.0,
                                   -87654321.0, 123456789.0, -0.75};
    char fast[64], slow[64], small[32];
    unsigned seed = 12345;
    (void)state;

    for (int i = 0; i < 200000; i++) {
        double v;
        if (i < (int)(sizeof(fixed) / sizeof(fixed[0])))
            v = fixed[i];
        else {
            seed = seed * 1103515245u + 12345u;
            int scale = (int)(seed >> 16) % 12 - 4;
            seed = seed * 1103515245u + 12345u;
            v = ((double)(seed >> 8) / (double)(1u << 24) - 0.3) * pow(10, scale);
            if (i % 7 == 0) /* values on a decimal grid meet rounding ties */
                v = round(v * 1000) / 1000 + 0.0005;
        }
        for (int d = 0; d <= 9; d++) {
            snprintf(slow, sizeof(slow), "%.*f", d, v);
            size_t n = gp_number_format(fast, sizeof(fast), v, d, '.');
            assert_string_equal(fast, slow);
            assert_int_equal(n, strlen(slow));
            if (strlen(slow) < sizeof(small)) { /* the smallest buffer the fast path takes */
                gp_number_format(small, sizeof(small), v, d, '.');
                assert_string_equal(small, slow);
            }
        }
    }
    gp_number_format(fast, sizeof(fast), 2.5, 1, ',');
    assert_string_equal(fast, "2,5");
}

static const struct gp_column wide_columns[] = {
    {"keep", GP_CELL_TEXT, 0}, {"second", GP_CELL_TEXT, 0}, {"first", GP_CELL_TEXT, 0}};
static const struct gp_column_look wide_looks[] = {
    {"K", NULL, GP_STYLE_TEXT, 0}, {"S", NULL, GP_STYLE_TEXT, 2}, {"F", NULL, GP_STYLE_TEXT, 3}};

static void text_fits_width_by_rank(void **state)
{
    struct gp_table t;
    (void)state;

    gp_table_init(&t, wide_columns, 3);
    t.looks = wide_looks;
    gp_table_add_row(&t);
    gp_table_set_text(&t, "keep", "kkkkkkkkkk");
    gp_table_set_text(&t, "second", "ssssssssss");
    gp_table_set_text(&t, "first", "ffffffffff");
    char *all = render_in(&t, GP_FORMAT_TABLE, NULL, 34);
    assert_string_equal(all, "K           S           F\n"
                             "kkkkkkkkkk  ssssssssss  ffffffffff\n");
    char *two = render_in(&t, GP_FORMAT_TABLE, NULL, 33);
    assert_string_equal(two, "K           S\n"
                             "kkkkkkkkkk  ssssssssss\n"
                             "(1 column left out to fit 33 characters)\n");
    char *one = render_in(&t, GP_FORMAT_TABLE, NULL, 5);
    assert_string_equal(one, "K\n"
                             "kkkkkkkkkk\n"
                             "(2 columns left out to fit 5 characters)\n");
    t.fit_hint = "--wide shows them";
    char *hinted = render_in(&t, GP_FORMAT_TABLE, NULL, 33);
    assert_string_equal(hinted, "K           S\n"
                                "kkkkkkkkkk  ssssssssss\n"
                                "(1 column left out to fit 33 characters; --wide shows them)\n");
    char *unhinted = render_in(&t, GP_FORMAT_TABLE, NULL, 34);
    assert_null(strstr(unhinted, "--wide"));
    free(all);
    free(two);
    free(one);
    free(hinted);
    free(unhinted);
    gp_table_release(&t);
}

/* One sized, priced row of `kind`, and one that could not be sized. */
static void plan_rows(struct gp_plan_row rows[2], enum gp_workload_kind kind)
{
    memset(rows, 0, 2 * sizeof(rows[0]));
    for (int i = 0; i < 2; i++) {
        snprintf(rows[i].gpu, sizeof(rows[i].gpu), "gpu%d", i);
        rows[i].kind = kind;
        snprintf(rows[i].price_tier, sizeof(rows[i].price_tier), "on-demand");
        snprintf(rows[i].efficiency_source, sizeof(rows[i].efficiency_source), "default");
    }
    rows[0].gpus = 8;
    rows[0].ttft_ms = 100.04;
    rows[0].price_known = true;
    rows[0].cost_per_hour = 2.0;
    rows[0].total_cost = 0.5;
    rows[0].notes = GP_NOTE_BEST;
    snprintf(rows[0].price_date, sizeof(rows[0].price_date), "2026-09-15");
    rows[1].notes = GP_NOTE_DOES_NOT_FIT;
}

/* Which columns each kind lists, and which cells stay empty, from the one descriptor table. */
static void plan_columns_follow_the_kind(void **state)
{
    static const struct {
        enum gp_workload_kind kind;
        const char *column;
        bool listed;
        const char *sized;   /* the sized row's cell as CSV text */
        const char *unsized; /* the other row's */
    } cases[] = {
        {GP_WORKLOAD_INFERENCE, "ttft_ms", true, "100.0", ""},
        {GP_WORKLOAD_TRAINING, "ttft_ms", true, "", ""},
        {GP_WORKLOAD_INFERENCE, "cost_per_hour", true, "20.00", ""},
        {GP_WORKLOAD_INFERENCE, "train_hours", false, NULL, NULL},
        {GP_WORKLOAD_TRAINING, "total_cost", true, "5", ""},
        {GP_WORKLOAD_GENERIC, "cost_per_job", true, "5.000000", ""},
        {GP_WORKLOAD_GENERIC, "cost_per_mtok", true, "", ""},
        {GP_WORKLOAD_GENERIC, "gpus", true, "8", ""},
        {GP_WORKLOAD_INFERENCE, "price_date", true, "2026-09-15", ""},
        {GP_WORKLOAD_INFERENCE, "price_tier", true, "on-demand", "on-demand"},
        {GP_WORKLOAD_INFERENCE, "notes", true, "best", "does-not-fit"},
        {GP_WORKLOAD_INFERENCE, "currency", true, "DKK", "DKK"},
    };
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gp_plan_row rows[2];
        struct gp_plan_view view;
        struct gp_table t;
        char number[64], scratch[256];
        size_t col = SIZE_MAX;

        plan_rows(rows, cases[i].kind);
        gp_plan_view_init(&view, rows, 2, cases[i].kind, "DKK", 10.0);
        gp_plan_view_table(&view, &t);
        for (size_t c = 0; c < t.ncols; c++)
            if (strcmp(t.columns[c].name, cases[i].column) == 0)
                col = c;
        assert_int_equal(col != SIZE_MAX, cases[i].listed);
        for (size_t r = 0; col != SIZE_MAX && r < 2; r++) {
            struct gp_value value;
            size_t len;
            gp_table_value(&t, r, col, &value, scratch, sizeof(scratch));
            const char *text = gp_value_text(&value, &t.columns[col], gp_locale_default(), number,
                                             sizeof(number), &len);
            assert_string_equal(text, r == 0 ? cases[i].sized : cases[i].unsized);
        }
        gp_table_release(&t);
    }
}

static void plan_view_compact_sweep_and_pick(void **state)
{
    static const char values[2][8] = {"512", "1024"};
    struct gp_plan_row rows[4];
    struct gp_plan_view view;
    struct gp_table t;
    (void)state;

    plan_rows(rows, GP_WORKLOAD_TRAINING);
    plan_rows(rows + 2, GP_WORKLOAD_TRAINING);
    gp_plan_view_init(&view, rows, 4, GP_WORKLOAD_TRAINING, "EUR", 1.0);
    gp_plan_view_sweep(&view, "gpus", values[0], sizeof(values[0]), 2);
    gp_plan_view_compact(&view, false);
    gp_plan_view_table(&view, &t);
    char *text = render(&t, GP_FORMAT_TABLE);
    /* The purchase columns (instance, provider) are empty: these rows were not bought. */
    assert_string_equal(
        text, "gpus  GPU   GPUs  instance  provider  tok/s/GPU  EUR/h  EUR/month  EUR/Mtok  tra"
              "in h  EUR/run    MFU  notes\n"
              "512   gpu0     8                            0.0   2.00          0    0.0000     "
              " 0.0        0  0.000  best\n"
              "512   gpu1                                                                      "
              "                      does-not-fit\n"
              "1024  gpu0     8                            0.0   2.00          0    0.0000     "
              " 0.0        0  0.000  best\n"
              "1024  gpu1                                                                      "
              "                      does-not-fit\n");
    free(text);
    assert_string_equal(t.columns[0].name, "sweep_gpus");
    assert_int_equal(gp_plan_view_pick(&view, "gpu,total_cost"), 0);
    gp_plan_view_table(&view, &t);
    assert_int_equal(t.ncols, 3);
    assert_string_equal(t.columns[2].name, "total_cost");
    assert_int_equal(gp_plan_view_pick(&view, "gpu,ttft_ms"), GP_EINVALID);
    assert_int_equal(gp_plan_view_pick(&view, "gpu,totl_cost"), GP_EINVALID);
    assert_int_equal(gp_plan_view_pick(&view, "gpu,,gpus"), GP_EINVALID);
    assert_int_equal(gp_plan_view_pick(&view, ""), GP_EINVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_quotes_and_neutralises),
        cmocka_unit_test(csv_fields_of_every_length),
        cmocka_unit_test(json_has_schema_meta_and_nulls),
        cmocka_unit_test(json_streams_the_document_cjson_prints_whole),
        cmocka_unit_test(json_rows_written_directly_match_cjson),
        cmocka_unit_test(json_numbers_match_cjson_rule),
        cmocka_unit_test(cleared_table_keeps_no_old_values),
        cmocka_unit_test(text_aligns_columns),
        cmocka_unit_test(text_of_a_long_table),
        cmocka_unit_test(csv_da_dk_has_bom_semicolons_and_decimal_commas),
        cmocka_unit_test(number_format_matches_printf),
        cmocka_unit_test(text_fits_width_by_rank),
        cmocka_unit_test(plan_columns_follow_the_kind),
        cmocka_unit_test(plan_view_compact_sweep_and_pick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
