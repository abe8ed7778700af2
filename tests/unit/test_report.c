/* Unit tests for report/: CSV quoting and formula neutralisation, JSON shape, text alignment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/table.h"

static const struct gp_column columns[] = {
    {"name", GP_CELL_TEXT, 0},
    {"price", GP_CELL_NUMBER, 2},
    {"count", GP_CELL_INT, 0},
};

/* Render into a string (malloc'd). */
static char *render(const struct gp_table *t, enum gp_format format)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    struct gp_render_options options = {false, 1, SIZE_MAX};

    assert_int_equal(gp_table_render(t, format, &options, out), 0);
    fclose(out);
    return text;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_quotes_and_neutralises),
        cmocka_unit_test(json_has_schema_meta_and_nulls),
        cmocka_unit_test(text_aligns_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
