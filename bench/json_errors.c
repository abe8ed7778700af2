/* Benchmark: rejecting a price list whose every row is bad. Each rejected row names its file,
 * line, column and JSON path; the locator resumes from the last error, so the whole list costs
 * time proportional to its size. Generates lists of 125,000 to 1,000,000 rows in memory, parses
 * each leniently (every row rejected) and, as the baseline of the same run, times the bare JSON
 * parse of the same text; then times the earlier rescan-per-error locator on 5,000 to 20,000
 * rows for comparison. Figures go to stdout; docs/benchmarks.md ("Rejected rows") records them
 * with the machine and date. */
#include <stdio.h>
#include <stdlib.h>

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "pricing/pricelist.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/json.h"

static void die(const char *what)
{
    fprintf(stderr, "json_errors: %s: %s\n", what, gp_error_last());
    exit(1);
}

/* A price list of `rows` offers, one a line, each with a negative price. */
static void make_list(struct gp_buf *doc, size_t rows)
{
    gp_buf_init(doc, (size_t)1 << 30);
    if (gp_buf_puts(doc, "{\"provider\": \"acme\", \"currency\": \"USD\", "
                         "\"observed\": \"2026-09-01\", \"offers\": ["))
        die("generate");
    for (size_t i = 0; i < rows; i++)
        if (gp_buf_printf(doc, "%s\n  {\"gpu\": \"h100-sxm\", \"price\": -%zu}", i ? "," : "",
                          i + 1))
            die("generate");
    if (gp_buf_puts(doc, "\n]}\n"))
        die("generate");
}

static double time_parse(const struct gp_buf *doc)
{
    cJSON *root = NULL;
    double t0 = gp_time_monotonic();

    if (gp_json_parse(&root, doc->data, doc->len, "bench.json"))
        die("parse");
    cJSON_Delete(root);
    return gp_time_monotonic() - t0;
}

static double time_reject(const struct gp_buf *doc, size_t rows, const struct gp_catalog *cat,
                          const struct gp_fx_table *fx)
{
    struct gp_pricelist list = {0};
    double t0 = gp_time_monotonic();

    if (gp_pricelist_parse(&list, doc->data, doc->len, "bench.json", "bench", cat, fx,
                           GP_PRICELIST_LENIENT))
        die("pricelist");
    double t = gp_time_monotonic() - t0;
    if (list.count != 0 || list.rejected != rows)
        die("not every row was rejected");
    gp_pricelist_release(&list);
    return t;
}

/* The locator before it remembered its place: a fresh scan from the start for every row. */
static double time_rescan(const struct gp_buf *doc, size_t rows)
{
    double t0 = gp_time_monotonic();
    int line = 0, col = 0;

    for (size_t i = 0; i < rows; i++) {
        char path[64];
        snprintf(path, sizeof(path), "offers[%zu].price", i);
        gp_json_locate(doc->data, doc->len, path, &line, &col);
    }
    if (line < 2)
        die("rescan");
    return gp_time_monotonic() - t0;
}

int main(void)
{
    static const size_t sizes[] = {125000, 250000, 500000, 1000000};
    static const size_t old_sizes[] = {5000, 10000, 20000};
    struct gp_catalog cat;
    struct gp_fx_table fx;
    double first_per_row = 0;

    if (gp_catalog_load(&cat) || gp_fx_load(&fx))
        die("data");
    printf("rows,bytes,parse_s,reject_s,reject_over_parse,ns_per_row,per_row_vs_125k\n");
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        struct gp_buf doc;
        make_list(&doc, sizes[k]);
        double parse = time_parse(&doc), reject = time_reject(&doc, sizes[k], &cat, &fx);
        double per_row = reject / (double)sizes[k];
        if (k == 0)
            first_per_row = per_row;
        printf("%zu,%zu,%.3f,%.3f,%.2f,%.0f,%.2f\n", sizes[k], doc.len, parse, reject,
               reject / parse, per_row * 1e9, per_row / first_per_row);
        gp_buf_release(&doc);
    }
    printf("rescan-per-error locator (before): rows,locate_s\n");
    for (size_t k = 0; k < sizeof(old_sizes) / sizeof(old_sizes[0]); k++) {
        struct gp_buf doc;
        make_list(&doc, old_sizes[k]);
        printf("%zu,%.3f\n", old_sizes[k], time_rescan(&doc, old_sizes[k]));
        gp_buf_release(&doc);
    }
    gp_fx_release(&fx);
    gp_catalog_release(&cat);
    return 0;
}
