/* Benchmark: rejecting a price list whose every row is bad. Each rejected row names its file,
 * line, column and JSON path; the locator resumes from the last error, so the whole list costs
 * time proportional to its size. Generates lists of 125,000 to 1,000,000 rows in memory, parses
 * each leniently (every row rejected) and, as the baseline of the same run, times the bare JSON
 * parse of the same text; then times the earlier rescan-per-error locator on 5,000 to 20,000
 * rows for comparison. The parse and the rejection take turns in interleaved rounds
 * (bench/pairs.h), and each figure is min / median / max over the rounds, the ratio per round.
 * Usage: json_errors [ROUNDS] (default 3). Figures go to stdout; docs/benchmarks.md ("Rejected
 * rows") records them with the machine and date. */
#include <stdio.h>
#include <stdlib.h>

#include "pairs.h"
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

/* The two sides of a size: the bare parse and the lenient read of the same list. */
struct sides {
    const struct gp_buf *doc;
    size_t rows;
    const struct gp_catalog *cat;
    const struct gp_fx_table *fx;
};

static int parse_side(struct gp_bench_sample *out, void *payload)
{
    const struct sides *p = payload;
    out->m[GP_BENCH_WALL] = time_parse(p->doc);
    return 0;
}

static int reject_side(struct gp_bench_sample *out, void *payload)
{
    const struct sides *p = payload;
    out->m[GP_BENCH_WALL] = time_reject(p->doc, p->rows, p->cat, p->fx);
    return 0;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {125000, 250000, 500000, 1000000};
    static const size_t old_sizes[] = {5000, 10000, 20000};
    struct gp_catalog cat;
    struct gp_fx_table fx;
    double first_per_row = 0;
    long rounds = 3;

    if (argc > 1 && gp_bench_arg_long(argv[1], "ROUNDS", 1, 1000, &rounds))
        return 2;
    if (gp_catalog_load(&cat) || gp_fx_load(&fx))
        die("data");
    printf("parse and reject take turns, %ld rounds; min/median/max of each (seconds) and of the "
           "per-round ratio; per row from the median\n",
           rounds);
    printf("rows,bytes,parse_s,reject_s,reject_over_parse,ns_per_row,per_row_vs_125k\n");
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        struct gp_buf doc;
        struct gp_bench_rounds r;
        struct gp_bench_stats parse, reject, ratio;
        make_list(&doc, sizes[k]);
        struct sides p = {&doc, sizes[k], &cat, &fx};
        struct gp_bench_side sides[2] = {{"parse", parse_side, &p}, {"reject", reject_side, &p}};
        if (gp_bench_rounds_run(&r, sides, 2, (size_t)rounds))
            return 1;
        gp_bench_side_stats(&parse, &r, 0, GP_BENCH_WALL);
        gp_bench_side_stats(&reject, &r, 1, GP_BENCH_WALL);
        gp_bench_ratio_stats(&ratio, &r, 1, 0, GP_BENCH_WALL);
        gp_bench_rounds_release(&r);
        double per_row = reject.median / (double)sizes[k];
        if (k == 0)
            first_per_row = per_row;
        printf("%zu,%zu,%.3f/%.3f/%.3f,%.3f/%.3f/%.3f,%.2f/%.2f/%.2f,%.0f,%.2f\n", sizes[k],
               doc.len, parse.min, parse.median, parse.max, reject.min, reject.median, reject.max,
               ratio.min, ratio.median, ratio.max, per_row * 1e9, per_row / first_per_row);
        gp_buf_release(&doc);
    }
    printf("rescan-per-error locator (before), one run each: rows,locate_s\n");
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
