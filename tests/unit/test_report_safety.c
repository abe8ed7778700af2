/* Property test: text from outside (provider names, notes) with formula starters, quotes,
 * separators, line breaks and control characters comes out safe in every report format: CSV
 * fields neutralised and quoted so they read back as the same text, HTML escaped, xlsx cells
 * as strings and never formulas. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/plan_table.h"
#include "report/report.h"

enum { CASES = 300, TEXT_MAX = 40 };

static const struct gp_column columns[] = {{"provider", GP_CELL_TEXT, 0},
                                           {"price", GP_CELL_NUMBER, 2}};

/* A random string over the characters that make trouble, and some letters. */
static void nasty(char *out, unsigned *seed)
{
    static const char alphabet[] = "=+-@\"';,\t\r\n\x01\x1b\x7f<>&/ ab\xc3\xb8";
    size_t n = 1 + (*seed = *seed * 1103515245u + 12345u) / 65536 % (TEXT_MAX - 2);

    for (size_t i = 0; i < n; i++) {
        *seed = *seed * 1103515245u + 12345u;
        out[i] = alphabet[(*seed / 65536) % (sizeof(alphabet) - 1)];
    }
    out[n] = '\0';
}

/* Read one RFC 4180 field from *p (separator ','), into out; returns whether it was quoted. */
static bool read_field(const char **p, char *out, size_t size)
{
    const char *s = *p;
    size_t n = 0;
    bool quoted = *s == '"';

    if (quoted) {
        for (s++; *s && !(s[0] == '"' && s[1] != '"'); s++) {
            if (s[0] == '"')
                s++;
            if (n + 1 < size)
                out[n++] = *s;
        }
        s += *s == '"';
    } else {
        while (*s && *s != ',' && *s != '\r' && n + 1 < size)
            out[n++] = *s++;
    }
    out[n] = '\0';
    *p = s;
    return quoted;
}

static void build(struct gp_report *r, char (*texts)[TEXT_MAX], unsigned seed)
{
    struct gp_report_section *s;

    gp_report_init(r);
    r->title = "=HYPERLINK(\"x\")<b>";
    r->author = "@me\r\n";
    s = gp_report_add_section(r, "offers", "Offers");
    assert_non_null(s);
    gp_table_init(&s->table, columns, 2);
    for (int i = 0; i < CASES; i++) {
        nasty(texts[i], &seed);
        assert_int_equal(gp_table_add_row(&s->table), 0);
        assert_int_equal(gp_table_set_text(&s->table, "provider", "%s", texts[i]), 0);
        assert_int_equal(gp_table_set_number(&s->table, "price", i), 0);
    }
}

static void csv_reads_back_as_text(void **state)
{
    static char texts[CASES][TEXT_MAX];
    struct gp_report r;
    char dir[] = "/tmp/report_safety.XXXXXX", path[64], *data = NULL;
    size_t len = 0;
    (void)state;

    build(&r, texts, 7);
    assert_non_null(mkdtemp(dir));
    assert_int_equal(gp_report_render_csv(&r, dir), 0);
    snprintf(path, sizeof(path), "%s/offers.csv", dir);
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    data = calloc(1, 1 << 20);
    len = fread(data, 1, (1 << 20) - 1, in);
    fclose(in);
    assert_true(len > 0);
    const char *p = strstr(data, "\r\n") + 2; /* after the header */
    for (int i = 0; i < CASES; i++) {
        char field[TEXT_MAX * 2 + 4], want[TEXT_MAX * 2 + 4];
        read_field(&p, field, sizeof(field));
        bool formula = strchr("=+-@\t\r", texts[i][0]) != NULL;
        snprintf(want, sizeof(want), "%s%.*s", formula ? "'" : "", TEXT_MAX, texts[i]);
        assert_string_equal(field, want);
        assert_true(strchr("=+-@\t\r", field[0]) == NULL);
        p = strstr(p, "\r\n") + 2; /* the price field, then the next row */
    }
    free(data);
    unlink(path);
    rmdir(dir);
    gp_report_release(&r);
}

static void html_escapes_everything(void **state)
{
    static char texts[CASES][TEXT_MAX];
    struct gp_report r;
    char *page = NULL;
    size_t len = 0;
    (void)state;

    build(&r, texts, 11);
    FILE *out = open_memstream(&page, &len);
    assert_int_equal(gp_report_render_html(&r, out), 0);
    fclose(out);
    assert_null(strstr(page, "<b>"));
    for (const char *td = strstr(page, "<td>"); td; td = strstr(td + 1, "<td>")) {
        const char *end = strstr(td + 4, "</td>");
        assert_non_null(end);
        for (const char *c = td + 4; c < end; c++) {
            assert_true(*c != '<' && *c != '>' && *c != '"' && *c != '\'');
            assert_true((unsigned char)*c >= 0x20 || *c == '\t' || *c == '\n');
            assert_true((unsigned char)*c != 0x7f);
        }
    }
    free(page);
    gp_report_release(&r);
}

/* Run a command and return its output (malloc'd), or NULL when it cannot run. */
static char *run(const char *command)
{
    FILE *p = popen(command, "r");
    char *text = calloc(1, 1 << 20);
    size_t n = p && text ? fread(text, 1, (1 << 20) - 1, p) : 0;

    if (p && pclose(p) != 0)
        n = 0;
    if (n == 0) {
        free(text);
        return NULL;
    }
    return text;
}

static void xlsx_holds_text_as_strings(void **state)
{
    static char texts[CASES][TEXT_MAX];
    struct gp_report r;
    char dir[] = "/tmp/report_safety.XXXXXX", path[64], command[160];
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/r.xlsx", dir);
    build(&r, texts, 13);
    assert_int_equal(gp_report_render_xlsx(&r, path), 0);
    snprintf(command, sizeof(command), "unzip -p %s xl/worksheets/sheet2.xml 2>/dev/null", path);
    char *sheet = run(command);
    if (!sheet) {
        unlink(path);
        rmdir(dir);
        gp_report_release(&r);
        skip(); /* no unzip to look inside */
    }
    /* every provider cell (column A below the header) is a shared string, no cell a formula
     * but none was asked for */
    assert_null(strstr(sheet, "<f>"));
    int strings = 0;
    for (const char *c = strstr(sheet, "<c r=\"A2\""); c; c = strstr(c + 1, "<c r=\"A")) {
        assert_non_null(strstr(c, "t=\"s\""));
        assert_true(strstr(c, "t=\"s\"") < strstr(c, "</c>"));
        strings++;
    }
    assert_int_equal(strings, CASES);
    free(sheet);
    unlink(path);
    rmdir(dir);
    gp_report_release(&r);
}

/* Plan rows with nasty text in every text field, some sized and priced, some not. */
static void nasty_rows(struct gp_plan_row *rows, size_t n, unsigned seed)
{
    memset(rows, 0, n * sizeof(*rows));
    for (size_t i = 0; i < n; i++) {
        struct gp_plan_row *r = &rows[i];
        char *texts[] = {r->gpu,       r->provider,          r->instance_type, r->price_source,
                         r->region,    r->efficiency_source, r->stack,         r->price_tier,
                         r->price_mix, r->price_date};
        for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
            nasty(texts[t], &seed); /* TEXT_MAX - 1 bytes at most: every field holds that */
        if (i % 5 < 2) { /* past the writer's one-pass limit of 64 bytes, plain or quoted */
            memset(r->instance_type, 'x', 64 + i % 30);
            r->instance_type[64 + i % 30] = '\0';
            snprintf(r->price_mix, sizeof(r->price_mix), "%s%s", r->instance_type,
                     i % 5 ? "\"" : "");
        }
        r->kind = GP_WORKLOAD_INFERENCE;
        r->gpus = (int)(i % 3) * 4;
        r->price_known = i % 2 == 0;
        r->instances = (int)(i % 4);
        r->notes = (unsigned)i * 2654435761u;
        r->tp = 1 << (i % 4);
        r->cost_per_hour = (double)i * 1.37;
        r->tokens_per_s = (double)i * 1000.25;
        r->ttft_ms = -0.0005 * (double)i;
        r->headroom = (i % 5) ? 0.01 * (double)i : 0.0;
    }
}

/* The plan view's CSV, written straight from the rows, is byte for byte the CSV of its table:
 * the same quoting and neutralising, in both locales, with a sweep column. */
static void plan_csv_rows_match_the_table(void **state)
{
    static struct gp_plan_row rows[60];
    static struct gp_plan_view view;
    static const char values[3][8] = {"=1+1", "a;b,c", "\"q\""};
    const struct gp_locale *locales[] = {gp_locale_default(), gp_locale_find("da_DK")};
    (void)state;

    nasty_rows(rows, 60, 11);
    for (size_t l = 0; l < 2; l++) {
        struct gp_render_options options = {false, 1, SIZE_MAX, locales[l], 0, false};
        struct gp_csv_style style;
        struct gp_table table;
        char *a = NULL, *b = NULL;
        size_t alen = 0, blen = 0;
        FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);

        assert_non_null(locales[l]);
        gp_plan_view_init(&view, rows, 60, GP_WORKLOAD_INFERENCE, "DKK", 6.5);
        gp_plan_view_sweep(&view, "input_tokens", values[0], sizeof(values[0]), 20);
        gp_plan_view_table(&view, &table);
        gp_csv_style_init(&style, locales[l]);
        assert_int_equal(gp_render_csv_rows(&table, &options, fa), 0);
        assert_int_equal(gp_plan_view_csv_rows(&view, &style, fb), 0);
        fclose(fa);
        fclose(fb);
        assert_true(alen > 60 * view.ncols);
        assert_int_equal(alen, blen);
        assert_memory_equal(a, b, alen);
        free(a);
        free(b);
        gp_table_release(&table);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_reads_back_as_text),
        cmocka_unit_test(plan_csv_rows_match_the_table),
        cmocka_unit_test(html_escapes_everything),
        cmocka_unit_test(xlsx_holds_text_as_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
