/* Unit tests for util/: buffers, text helpers, time, JSON reading with located errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/json.h"
#include "util/json_arena.h"
#include "util/mem.h"
#include "util/sanitize.h"
#include "util/text.h"
#include "util/timeutil.h"

static void buf_appends_and_caps(void **state)
{
    struct gp_buf buf;
    (void)state;

    gp_buf_init(&buf, 8);
    assert_string_equal(gp_buf_str(&buf), "");
    assert_int_equal(gp_buf_puts(&buf, "abc"), 0);
    assert_int_equal(gp_buf_printf(&buf, "%d%s", 42, "x"), 0);
    assert_string_equal(gp_buf_str(&buf), "abc42x");
    assert_int_equal(gp_buf_puts(&buf, "toolong"), GP_EINVALID);
    assert_string_equal(gp_buf_str(&buf), "abc42x"); /* unchanged on failure */
    assert_int_equal(gp_buf_puts(&buf, "yz"), 0);
    char *owned = gp_buf_detach(&buf, NULL);
    assert_string_equal(owned, "abc42xyz");
    assert_null(buf.data);
    free(owned);
    gp_buf_release(&buf);
    gp_buf_release(NULL);
}

static void text_nearest_and_numbers(void **state)
{
    static const char *const words[] = {"h100-pcie", "h100-sxm", "b200", "mi300x", NULL};
    double d;
    long l;
    (void)state;

    assert_int_equal(gp_text_distance("kitten", "sitting"), 3);
    assert_int_equal(gp_text_distance("", "abc"), 3);
    assert_string_equal(gp_text_nearest("h100", words), "h100-pcie");
    assert_string_equal(gp_text_nearest("mi300", words), "mi300x");
    assert_string_equal(gp_text_nearest("b20O", words), "b200");
    assert_null(gp_text_nearest("tpu-v5", words));
    assert_int_equal(gp_text_to_double("3.5", &d), 0);
    assert_true(d == 3.5);
    assert_int_equal(gp_text_to_double("3.5x", &d), GP_EINVALID);
    assert_int_equal(gp_text_to_double("nan", &d), GP_EINVALID);
    assert_int_equal(gp_text_to_double("", &d), GP_EINVALID);
    assert_int_equal(gp_text_to_double("0x400", &d), GP_EINVALID);
    assert_int_equal(gp_text_to_double(" 5", &d), GP_EINVALID);
    assert_int_equal(gp_text_to_double("-infinity", &d), GP_EINVALID);
    assert_int_equal(gp_text_to_double("-.5e2", &d), 0);
    assert_int_equal(gp_text_to_int(" 7", 1, 72, &l), GP_EINVALID);
    assert_int_equal(gp_text_to_int("72", 1, 72, &l), 0);
    assert_int_equal(gp_text_to_int("73", 1, 72, &l), GP_EINVALID);
    assert_int_equal(gp_text_to_int("7.0", 1, 72, &l), GP_EINVALID);
    /* Offered one at a time there is no limit: the match is the 150th of 200 names. */
    static char many[200][16];
    struct gp_nearest near;
    gp_nearest_init(&near, "feed-149x");
    for (int i = 0; i < 200; i++) {
        snprintf(many[i], sizeof(many[i]), "feed-%d", i);
        gp_nearest_offer(&near, many[i]);
    }
    assert_string_equal(gp_nearest_result(&near), "feed-149");
    gp_nearest_init(&near, "zzzzzzzz");
    gp_nearest_offer(&near, "feed-1");
    assert_null(gp_nearest_result(&near));
    /* The monotonic clock does not go back. */
    double t0 = gp_time_monotonic();
    assert_true(gp_time_monotonic() >= t0 && t0 > 0);
    char joined[16];
    gp_text_join(joined, sizeof(joined), words, ", ", " or ");
    assert_string_equal(joined, "h100-pcie"); /* cut before the word that does not fit */
    char all[64];
    gp_text_join(all, sizeof(all), words, ", ", " or ");
    assert_string_equal(all, "h100-pcie, h100-sxm, b200 or mi300x");
    const char *const none[] = {NULL};
    gp_text_join(joined, sizeof(joined), none, ", ", " or ");
    assert_string_equal(joined, "");
    char small[4];
    assert_int_equal(gp_text_copy(small, sizeof(small), "abc"), 0);
    assert_int_equal(gp_text_copy(small, sizeof(small), "abcd"), -1);
    assert_string_equal(small, "abc");
    assert_int_equal(gp_text_copy(small, sizeof(small), ""), 0);
    assert_string_equal(small, "");
    assert_int_equal(gp_text_copy(small, 1, "a"), -1);
    assert_string_equal(small, "");
    small[0] = 'x';
    assert_int_equal(gp_text_copy(small, 0, "a"), -1);
    assert_int_equal(small[0], 'x');
    assert_int_equal(gp_text_copy(small, 2, "ab"), -1);
    assert_string_equal(small, "a");
}

static void time_round_trips(void **state)
{
    static const struct {
        const char *text;
        int64_t unix_seconds;
    } cases[] = {
        {"1970-01-01", 0},
        {"2026-09-15", 1789430400},
        {"2024-02-29", 1709164800},
        {"2026-10-01T12:00:00Z", 1790856000},
        {"2026-10-01 12:00Z", 1790856000},
    };
    static const char *const bad[] = {"2026-13-01", "2025-02-29", "2026-09-15T25:00:00Z",
                                      "yesterday",  "2026-9-1",   "2026-09-15T12:00:00"};
    char out[32];
    int64_t t;
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(gp_time_parse(cases[i].text, &t), 0);
        assert_int_equal(t, cases[i].unix_seconds);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_equal(gp_time_parse(bad[i], &t), GP_EINVALID);
    gp_time_format_stamp(1790856000, out, sizeof(out));
    assert_string_equal(out, "2026-10-01T12:00:00Z");
    gp_time_format_date(1709164800 + 86399, out, sizeof(out));
    assert_string_equal(out, "2024-02-29");
    /* the digits written by hand are printf's, from year 0 to 9999, and short buffers are cut
     * as printf cuts them */
    for (int64_t day = -719528; day < 2932897; day += 97) {
        char want[32], got[32], y[16];
        gp_time_format_stamp(day * 86400, want, sizeof(want));
        want[10] = '\0';
        gp_time_format_date(day * 86400 + 4321, got, sizeof(got));
        assert_string_equal(got, want);
        memcpy(y, want, 5);
        y[4] = '\0';
        gp_time_format_date(day * 86400, got, 5);
        assert_string_equal(got, y);
    }
    assert_int_equal(gp_time_age_days(0, 86400 * 3 - 1), 2);
    setenv("GPUPLAN_NOW", "2026-10-01T12:00:00Z", 1);
    assert_int_equal(gp_time_now(), 1790856000);
    unsetenv("GPUPLAN_NOW");
}

static void json_errors_are_located(void **state)
{
    static const char doc[] = "{\n  \"model\": {\n    \"layers\": \"eighty\",\n"
                              "    \"heads\": [1, 2,\n      3]\n  }\n}\n";
    static const char *const known[] = {"layers", "heads", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    const cJSON *model = NULL;
    double d = 0;
    int line, col;
    (void)state;

    assert_int_equal(gp_json_parse(&root, doc, strlen(doc), "w.json"), 0);
    gp_json_reader_init(&r, "w.json", doc, strlen(doc));
    assert_int_equal(gp_json_child(&r, root, "model", false, &model, GP_JSON_REQUIRED), 0);
    gp_json_enter(&r, "model", 0);
    assert_int_equal(gp_json_number(&r, model, "layers", &d, GP_JSON_REQUIRED), GP_EINVALID);
    assert_string_equal(gp_error_last(), "w.json:3:15: model.layers: must be a number");
    assert_int_equal(gp_json_number(&r, model, "vocab", &d, GP_JSON_OPTIONAL), 0);
    assert_int_equal(gp_json_number(&r, model, "vocab", &d, GP_JSON_REQUIRED), GP_EINVALID);
    assert_int_equal(gp_json_check_keys(&r, model, known), 0);
    assert_int_equal(gp_json_locate(doc, strlen(doc), "model.heads[2]", &line, &col), 0);
    assert_int_equal(line, 5);
    assert_int_equal(col, 7);
    cJSON_Delete(root);

    static const char typo[] = "{\"layerz\": 3}";
    assert_int_equal(gp_json_parse(&root, typo, strlen(typo), "t.json"), 0);
    gp_json_reader_init(&r, "t.json", typo, strlen(typo));
    assert_int_equal(gp_json_check_keys(&r, root, known), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "did you mean 'layers'?"));
    cJSON_Delete(root);

    static const char broken[] = "{\n  \"a\": 1,\n  \"b\": }";
    assert_int_equal(gp_json_parse(&root, broken, strlen(broken), "b.json"), GP_EINVALID);
    assert_string_equal(gp_error_last(), "b.json:3:8: invalid JSON");
}

/* Reads an int list element; fails on a value seen before, naming the list position. */
static int read_unique_int(struct gp_json_reader *r, const cJSON *item, void *items, size_t index,
                           const void *unused)
{
    int *values = items;
    (void)unused;
    if (!cJSON_IsNumber(item))
        return gp_json_fail(r, NULL, "must be a number");
    values[index] = item->valueint;
    for (size_t k = 0; k < index; k++)
        if (values[k] == values[index])
            return gp_json_fail(r, NULL, "repeats %d", values[index]);
    return 0;
}

static void json_versioned_lists_are_read(void **state)
{
    static const struct {
        const char *doc, *error; /* error NULL: reads three values */
    } cases[] = {
        {"{\"schema_version\": 1, \"v\": [4, 5, 6]}", NULL},
        {"[1]", "l.json:1:1: (document): must be an object"},
        {"{\"schema_version\": 2, \"v\": []}", "l.json:1:20: schema_version: unsupported version 2 "
                                               "(expected 1)"},
        {"{\"schema_version\": 1}", "l.json:1:1: v: required field is missing"},
        {"{\"schema_version\": 1, \"v\": [4, 4]}", "l.json:1:32: v[1]: repeats 4"},
    };
    static const char *const known[] = {"schema_version", "v", NULL};
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gp_json_reader r;
        cJSON *root = NULL;
        void *values = NULL;
        size_t n = 0;
        int rc;

        gp_json_reader_init(&r, "l.json", cases[i].doc, strlen(cases[i].doc));
        rc = gp_json_parse_versioned(&root, &r, known, 1);
        if (!rc)
            rc = gp_json_read_list(&values, &n, &r, root, "v", sizeof(int), read_unique_int, NULL);
        if (cases[i].error) {
            assert_int_equal(rc, GP_EINVALID);
            assert_string_equal(gp_error_last(), cases[i].error);
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(n, 3);
            assert_int_equal(((int *)values)[2], 6);
        }
        free(values);
        cJSON_Delete(root);
    }
}

static void error_wrap_prefixes(void **state)
{
    (void)state;
    gp_error_set(GP_EDB, "disk full");
    assert_int_equal(gp_error_wrap("writing %s", "offers"), GP_EDB);
    assert_string_equal(gp_error_last(), "writing offers: disk full");
    gp_error_clear();
    assert_int_equal(gp_error_code(), GP_OK);
}

/* An error per row of a long list is located in time linear in the document overall: each
 * location resumes from the last one (a rescan per error made 40k bad rows take 100 s), and
 * says the same line and column as a fresh scan, in order or not. */
static void json_errors_are_located_in_linear_time(void **state)
{
    enum { ROWS = 4000 };
    struct gp_buf doc;
    struct gp_json_reader r;
    char where[64];
    int line, col;
    (void)state;

    gp_buf_init(&doc, 0);
    assert_int_equal(gp_buf_puts(&doc, "{\"offers\": ["), 0);
    for (int i = 0; i < ROWS; i++)
        assert_int_equal(
            gp_buf_printf(&doc, "%s\n  {\"gpu\": \"g%d\", \"price\": -1}", i ? "," : "", i), 0);
    assert_int_equal(gp_buf_puts(&doc, "\n]}\n"), 0);
    gp_json_reader_init(&r, "big.json", gp_buf_str(&doc), doc.len);
    for (int i = 0; i < ROWS; i += (i < 10 ? 1 : 7)) {
        size_t list = gp_json_enter(&r, "offers", 0), row = gp_json_enter(&r, NULL, i);
        char path[64];
        gp_json_fail(&r, "price", "bad");
        snprintf(path, sizeof(path), "offers[%d].price", i);
        assert_int_equal(gp_json_locate(gp_buf_str(&doc), doc.len, path, &line, &col), 0);
        snprintf(where, sizeof(where), "big.json:%d:%d: offers[%d].price", line, col, i);
        assert_non_null(strstr(gp_error_last(), where));
        gp_json_leave(&r, row);
        gp_json_leave(&r, list);
    }
    assert_true(r.memo->scanned < 3 * doc.len);
    /* going back to an earlier row rescans once and is still right */
    gp_json_enter(&r, "offers", 0);
    gp_json_enter(&r, NULL, 2);
    gp_json_fail(&r, "gpu", "bad");
    assert_non_null(strstr(gp_error_last(), "big.json:4:11: offers[2].gpu"));
    gp_buf_release(&doc);
}

/* Each case: input, then what the sanitizer makes of it. */
struct sanitize_case {
    const char *in, *out;
};

static void check_sanitizer(char *(*fn)(char *, size_t, const char *),
                            const struct sanitize_case *cases, size_t n)
{
    char out[256];

    for (size_t i = 0; i < n; i++)
        assert_string_equal(fn(out, sizeof(out), cases[i].in), cases[i].out);
}

static void sanitize_escapes_controls(void **state)
{
    static const struct sanitize_case cases[] = {
        {"\033]0;x\a\033[2J", "\\x1b]0;x\\x07\\x1b[2J"},
        {"a\tb\nc\x7f", "a\\x09b\\x0ac\\x7f"},
        {"csi \xc2\x9b"
         "6n",
         "csi \\u009b6n"},
        {"K\xc3\xb8"
         "benhavn",
         "K\xc3\xb8"
         "benhavn"},
    };
    char small[6];
    (void)state;

    check_sanitizer(gp_sanitize_controls, cases, sizeof(cases) / sizeof(cases[0]));
    assert_string_equal(gp_sanitize_controls(small, sizeof(small), "\033\033"),
                        "\\x1b\\"); /* cut */
}

static void sanitize_redacts_urls(void **state)
{
    static const struct sanitize_case cases[] = {
        {"see https://bob:hunter2@h.example/p", "see https://bob:***@h.example/p"},
        {"http://tok@h:8080?x=1", "http://***@h:8080?x=1"},
        {"GET https://h/v1?currency=USD&api_key=s3cr3t&X-Amz-Signature=ab#f: 500",
         "GET https://h/v1?currency=USD&api_key=***&X-Amz-Signature=***#f: 500"},
        {"'http://h/a@b' and no URL@here", "'http://h/a@b' and no URL@here"},
        {"a://x?token=1 b://y?Key=2", "a://x?token=*** b://y?Key=***"},
    };
    (void)state;

    check_sanitizer(gp_sanitize_urls, cases, sizeof(cases) / sizeof(cases[0]));
}

/* An item added to an object is the object's; one that cannot be added is deleted (the leak
 * checks of the sanitizer and allocation-fault runs would see it otherwise). */
static void json_add_owned(void **state)
{
    cJSON *o = cJSON_CreateObject();
    (void)state;

    assert_non_null(o);
    assert_true(gp_json_add_owned(o, "n", cJSON_CreateNumber(2)));
    assert_int_equal(cJSON_GetObjectItem(o, "n")->valueint, 2);
    assert_false(gp_json_add_owned(NULL, "n", cJSON_CreateNumber(3)));
    assert_false(gp_json_add_owned(o, "none", NULL));
    assert_null(cJSON_GetObjectItem(o, "none"));
    cJSON_Delete(o);
}

/* Small arrays are plain memory, large ones are aligned to whole huge pages; both hold what
 * is written; sizes that overflow are refused. */
static void large_arrays(void **state)
{
    static const size_t counts[] = {0, 1, 1000, (2u << 20) / 8 - 1, (2u << 20) / 8, 1500000};
    (void)state;

    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        double *a = gp_mem_alloc_large(counts[i], sizeof(double));
        assert_non_null(a);
        for (size_t j = 0; j < counts[i]; j++)
            a[j] = (double)j;
        for (size_t j = 0; j < counts[i]; j += 4099)
            assert_true(a[j] == (double)j);
        if (counts[i] * sizeof(double) >= (2u << 20))
            assert_int_equal((uintptr_t)a % (2u << 20), 0);
        free(a);
    }
    assert_null(gp_mem_alloc_large(SIZE_MAX / 2, 4));
    assert_null(gp_mem_alloc_large(SIZE_MAX - 4096, 1));
}

/* A tree parsed inside an arena scope is the tree parsed outside it; deleting it there frees
 * nothing twice; scopes nest; a tree from before the scope is freed normally inside it. */
static void json_arena_scopes(void **state)
{
    static const char text[] = "{\"a\": [1, 2.5, \"x\"], \"b\": {\"c\": null, \"d\": true}}";
    struct gp_json_arena outer, inner;
    cJSON *before = NULL, *in_outer = NULL, *in_inner = NULL;
    char *want, *got;
    bool in_arena;
    (void)state;

    assert_int_equal(gp_json_parse(&before, text, strlen(text), "t.json"), 0);
    want = gp_json_print(before, false);
    assert_non_null(want);
    assert_null(gp_json_arena_alloc(8, &in_arena));
    assert_false(in_arena);

    gp_json_arena_begin(&outer);
    assert_int_equal(gp_json_parse(&in_outer, text, strlen(text), "t.json"), 0);
    assert_true(gp_json_arena_owns(in_outer));
    assert_false(gp_json_arena_owns(before));
    gp_json_arena_begin(&inner);
    assert_int_equal(gp_json_parse(&in_inner, text, strlen(text), "t.json"), 0);
    got = gp_json_print(in_inner, false);
    assert_string_equal(got, want);
    cJSON_free(got);
    cJSON_Delete(in_outer); /* an outer scope's tree, inside the inner one: a no-op */
    cJSON_Delete(before);   /* malloc'd before any scope: freed */
    cJSON_Delete(in_inner);
    gp_json_arena_end(&inner);
    assert_true(gp_json_arena_owns(in_outer)); /* the outer scope is still open */

    /* one allocation larger than any block gets a block of its own */
    void *big = gp_json_arena_alloc((size_t)8 << 20, &in_arena);
    assert_true(in_arena);
    assert_non_null(big);
    assert_true(gp_json_arena_owns(big));
    assert_int_equal((uintptr_t)big % _Alignof(max_align_t), 0);
    memset(big, 1, (size_t)8 << 20);
    void *small = gp_json_arena_alloc(1, &in_arena);
    assert_int_equal((uintptr_t)small % _Alignof(max_align_t), 0);
    gp_json_arena_end(&outer);
    assert_false(gp_json_arena_owns(small));
    assert_null(gp_json_arena_alloc(8, &in_arena));
    assert_false(in_arena);
    cJSON_free(want);
}

/* Keys in any order are accepted; a known key given twice and an unknown key are refused,
 * in the first object of the list and past the 64th known key alike. */
static void json_check_keys_orders_and_twice(void **state)
{
    static const char *const known[] = {"a", "b", "c", "d", NULL};
    static const char *const cases[][2] = {
        {"{\"d\":1,\"a\":2,\"c\":3,\"b\":4}", NULL},
        {"{\"c\":1,\"d\":2,\"a\":3}", NULL},
        {"{\"a\":1,\"b\":2,\"a\":3}", "key given twice"},
        {"{\"d\":1,\"d\":2}", "key given twice"},
        {"{\"a\":1,\"bb\":2}", "unknown key (did you mean 'b'?)"},
    };
    const char *many[80];
    char names[70][8], text[2048];
    size_t used = 0;
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gp_json_reader r;
        cJSON *doc = NULL;
        gp_json_reader_init(&r, "k.json", cases[i][0], strlen(cases[i][0]));
        assert_int_equal(gp_json_parse(&doc, r.text, r.len, r.file), 0);
        int rc = gp_json_check_keys(&r, doc, known);
        if (cases[i][1]) {
            assert_int_equal(rc, GP_EINVALID);
            assert_non_null(strstr(gp_error_last(), cases[i][1]));
        } else {
            assert_int_equal(rc, 0);
        }
        cJSON_Delete(doc);
    }
    /* 70 known keys: the 66th given twice is still found */
    for (int k = 0; k < 70; k++) {
        snprintf(names[k], sizeof(names[k]), "k%d", k);
        many[k] = names[k];
    }
    many[70] = NULL;
    used += (size_t)snprintf(text + used, sizeof(text) - used, "{\"k65\":0");
    for (int k = 0; k < 70; k++)
        used += (size_t)snprintf(text + used, sizeof(text) - used, ",\"k%d\":%d", k, k);
    snprintf(text + used, sizeof(text) - used, "}");
    struct gp_json_reader r;
    cJSON *doc = NULL;
    gp_json_reader_init(&r, "many.json", text, strlen(text));
    assert_int_equal(gp_json_parse(&doc, r.text, r.len, r.file), 0);
    assert_int_equal(gp_json_check_keys(&r, doc, many), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "k65"));
    assert_non_null(strstr(gp_error_last(), "key given twice"));
    cJSON_Delete(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(buf_appends_and_caps),
        cmocka_unit_test(text_nearest_and_numbers),
        cmocka_unit_test(time_round_trips),
        cmocka_unit_test(json_errors_are_located),
        cmocka_unit_test(json_versioned_lists_are_read),
        cmocka_unit_test(error_wrap_prefixes),
        cmocka_unit_test(json_errors_are_located_in_linear_time),
        cmocka_unit_test(sanitize_escapes_controls),
        cmocka_unit_test(sanitize_redacts_urls),
        cmocka_unit_test(large_arrays),
        cmocka_unit_test(json_add_owned),
        cmocka_unit_test(json_arena_scopes),
        cmocka_unit_test(json_check_keys_orders_and_twice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
