/* Benchmark: price-feed parsing and storing. Generates, under a fresh folder in /tmp (removed
 * afterwards, also when a case fails or the run is interrupted), a 1 GB AWS-style CSV offer file
 * streamed through the aws adapter (throughput and peak resident memory), a 200 MB Azure-style
 * JSON feed in 1000-item pages and a 50 MB Vast.ai-style one in 3000-offer pages, each parsed by
 * its adapter in interleaved pairs with cJSON alone on the same bytes (min / median / max of
 * both rates and of their ratio), and measures observations written per second into SQLite.
 * Figures go to stdout; docs/benchmarks.md ("Price feeds") records them with the machine and
 * date. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "pricing/feed.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/json.h"
#include "util/timeutil.h"

#include "pairs.h"

#define CSV_BYTES    ((size_t)1000 << 20)
#define STORE_OFFERS 200000
#define CHUNK        ((size_t)64 << 10) /* what a transfer hands the parser at a time */

static long peak_rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024; /* Linux reports KiB */
}

static void die(const char *what)
{
    fprintf(stderr, "feed_parse: %s: %s\n", what, gp_error_last());
    exit(1);
}

static const char *const regions[] = {
    "us-east-1",      "us-east-2",      "us-west-1",      "us-west-2",
    "ca-central-1",   "eu-west-1",      "eu-west-2",      "eu-west-3",
    "eu-central-1",   "eu-north-1",     "ap-south-1",     "ap-northeast-1",
    "ap-northeast-2", "ap-southeast-1", "ap-southeast-2", "sa-east-1",
};
#define NREGIONS (sizeof(regions) / sizeof(regions[0]))

static const char *const instances[] = {
    "m5.4xlarge",  "c6i.8xlarge",      "r6g.2xlarge",   "t3.medium",    "p5.48xlarge",
    "m7i.large",   "g5.xlarge",        "p5en.48xlarge", "c7g.16xlarge", "x2idn.32xlarge",
    "i4i.4xlarge", "p6-b200.48xlarge", "m6a.24xlarge",  "r7iz.8xlarge", "p4d.24xlarge",
};
#define NINSTANCES (sizeof(instances) / sizeof(instances[0]))

/* One record in the layout of the real offer file (fewer columns, similar length). */
static int csv_record(char *out, size_t size, unsigned long i)
{
    static const char *const terms[] = {"OnDemand", "Reserved", "Reserved", "Reserved"};
    static const char *const oses[] = {"Linux", "Windows", "RHEL", "SUSE", "Linux"};
    static const char *const caps[] = {"Used", "UnusedCapacityReservation",
                                       "AllocatedCapacityReservation"};
    const char *inst = instances[i % NINSTANCES];
    const char *term = terms[(i / 7) % 4];
    bool gpu = inst[0] == 'p' || inst[0] == 'g';
    return snprintf(
        out, size,
        "\"SKU%08lu\",\"JRTCKXETXF\",\"SKU%08lu.JRTCKXETXF.6YS6EN2CT7\",\"%s\","
        "\"$%lu.%04lu per On Demand %s %s Instance Hour\",\"2026-09-01\",\"0\",\"Inf\",\"%s\","
        "\"%lu.%04lu000000\",\"USD\",\"%s\",\"%s\",\"%s\",\"Compute Instance\",\"AmazonEC2\","
        "\"US East (N. Virginia)\",\"AWS Region\",\"%s\",\"Yes\",\"%s\",\"192\","
        "\"AMD EPYC 7R13 Processor\",\"2.95 GHz\",\"2048 GiB\",\"8 x 3840 NVMe SSD\","
        "\"3200 Gigabit\",\"64-bit\",\"%s\",\"%s\",\"No License required\",\"BoxUsage:%s\","
        "\"RunInstances\",\"%s\",\"%s\",\"%s\",\"NA\",\"%s\",\"OnDemand\"\n",
        i, i, term, 1 + i % 90, i % 10000, oses[i % 5], inst, term[0] == 'O' ? "Hrs" : "Quantity",
        1 + i % 90, i % 10000, term[0] == 'O' ? "" : "1yr", term[0] == 'O' ? "" : "No Upfront",
        term[0] == 'O' ? "" : "standard", inst, gpu ? "GPU instance" : "General purpose",
        (i / 3) % 5 ? "Shared" : "Dedicated", oses[(i / 11) % 5], inst, caps[(i / 13) % 3],
        gpu ? "8" : "", gpu ? "640 GB" : "NA", regions[(i / NINSTANCES) % NREGIONS]);
}

static void write_csv(const char *path)
{
    static const char header[] =
        "\"FormatVersion\",\"v1.0\"\n\"Disclaimer\",\"This pricing list is for informational "
        "purposes only.\"\n\"Publication Date\",\"2026-09-16T19:12:35Z\"\n\"Version\","
        "\"20260916191235\"\n\"OfferCode\",\"AmazonEC2\"\n"
        "\"SKU\",\"OfferTermCode\",\"RateCode\",\"TermType\",\"PriceDescription\","
        "\"EffectiveDate\",\"StartingRange\",\"EndingRange\",\"Unit\",\"PricePerUnit\","
        "\"Currency\",\"LeaseContractLength\",\"PurchaseOption\",\"OfferingClass\","
        "\"Product Family\",\"serviceCode\",\"Location\",\"Location Type\",\"Instance Type\","
        "\"Current Generation\",\"Instance Family\",\"vCPU\",\"Physical Processor\","
        "\"Clock Speed\",\"Memory\",\"Storage\",\"Network Performance\","
        "\"Processor Architecture\",\"Tenancy\",\"Operating System\",\"License Model\","
        "\"Usagetype\",\"Operation\",\"CapacityStatus\",\"GPU\",\"GPU Memory\","
        "\"Pre Installed S/W\",\"Region Code\",\"MarketOption\"\n";
    FILE *f = fopen(path, "w");
    char line[1024];
    size_t written = 0;

    if (!f) {
        perror(path);
        exit(1);
    }
    setvbuf(f, NULL, _IOFBF, (size_t)1 << 20);
    written += fwrite(header, 1, sizeof(header) - 1, f);
    for (unsigned long i = 0; written < CSV_BYTES; i++) {
        int n = csv_record(line, sizeof(line), i);
        written += fwrite(line, 1, (size_t)n, f);
    }
    if (fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

static void bench_csv(const char *dir, const struct gp_catalog *cat, const struct gp_fx_table *fx)
{
    const struct gp_feed_adapter *a = gp_feed_adapter_find("aws");
    char path[512];
    struct gp_feed_ctx ctx;
    struct gp_feed_stream *s = NULL;
    char *chunk = malloc(CHUNK);
    size_t total = 0;
    double t0, elapsed;
    ssize_t n;
    int fd;

    snprintf(path, sizeof(path), "%s/index.csv", dir);
    write_csv(path);
    fd = open(path, O_RDONLY);
    if (fd < 0 || !chunk) {
        perror(path);
        exit(1);
    }
    gp_feed_ctx_init(&ctx, "aws", "aws", 1790000000, fx, cat);
    ctx.url = path;
    t0 = gp_time_monotonic();
    if (a->stream_open(&s, &ctx))
        die("stream_open");
    while ((n = read(fd, chunk, CHUNK)) > 0) {
        total += (size_t)n;
        if (a->stream_push(s, chunk, (size_t)n))
            die("stream_push");
    }
    if (a->stream_end(s))
        die("stream_end");
    elapsed = gp_time_monotonic() - t0;
    a->stream_free(s);
    close(fd);
    unlink(path);
    printf("AWS-style CSV offer file, streamed: %.0f MB in %.2f s = %.0f MB/s; %zu offers, "
           "%zu unmapped, %zu rejected; peak RSS %ld MiB\n",
           (double)total / 1e6, elapsed, (double)total / 1e6 / elapsed, ctx.count, ctx.unmapped,
           ctx.rejected, peak_rss_mib());
    gp_feed_ctx_release(&ctx);
    free(chunk);
}

static const char *const skus[] = {
    "Standard_ND96isr_H100_v5", "Standard_ND96isr_H200_v5", "Standard_ND96isr_MI300X_v5",
    "Standard_NC40ads_H100_v5", "Standard_D4s_v5",          "Standard_NC24ads_A100_v4",
};

/* Write `page` as <dir>/<name>-NNNNN.json, page number `n`; exits on failure. */
static void write_page(const char *dir, const char *name, int n, const struct gp_buf *page)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s-%05d.json", dir, name, n);
    f = fopen(path, "w");
    if (!f || fwrite(page->data, 1, page->len, f) != page->len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* Write the pages of a `json_bytes` feed (200 MB by default); returns how many. */
static int write_json_pages(const char *dir, size_t json_bytes)
{
    struct gp_buf page = GP_BUF_INIT;
    size_t total = 0;
    unsigned long item = 0;
    int pages = 0;

    gp_buf_init(&page, (size_t)8 << 20);
    while (total < json_bytes) {
        gp_buf_reset(&page);
        gp_buf_puts(&page, "{\"BillingCurrency\":\"USD\",\"CustomerEntityId\":\"Default\","
                           "\"CustomerEntityType\":\"Retail\",\"Items\":[");
        for (int i = 0; i < 1000; i++, item++) {
            const char *sku = skus[item % 6];
            bool spot = item % 3 == 1, windows = item % 5 == 4;
            gp_buf_printf(
                &page,
                "%s{\"currencyCode\":\"USD\",\"tierMinimumUnits\":0.0,\"retailPrice\":%lu.%04lu,"
                "\"unitPrice\":%lu.%04lu,\"armRegionName\":\"%s%lu\",\"location\":\"Region %lu\","
                "\"effectiveStartDate\":\"2026-09-01T00:00:00Z\",\"meterId\":\"%08lx-1c2d-4e5f\","
                "\"meterName\":\"%s%s\",\"productId\":\"DZH318Z0BQ4L\",\"skuId\":"
                "\"DZH318Z0BQ4L/00%lu\",\"productName\":\"Virtual Machines Series%s\","
                "\"skuName\":\"%s%s\",\"serviceName\":\"Virtual Machines\",\"serviceId\":"
                "\"DZH313Z7MMC8\",\"serviceFamily\":\"Compute\",\"unitOfMeasure\":\"1 Hour\","
                "\"type\":\"Consumption\",\"isPrimaryMeterRegion\":true,\"armSkuName\":\"%s\"}",
                i ? "," : "", 10 + item % 90, item % 10000, 10 + item % 90, item % 10000, "eastus",
                item % 60, item % 60, item, sku + 9, spot ? " Spot" : "", item % 100,
                windows ? " Windows" : "", sku + 9, spot ? " Spot" : "", sku);
        }
        gp_buf_printf(&page,
                      "],\"NextPageLink\":\"https://prices.azure.com:443/api/retail/prices?"
                      "$skip=%lu\",\"Count\":1000}",
                      item);
        write_page(dir, "azure", pages++, &page);
        total += page.len;
    }
    gp_buf_release(&page);
    return pages;
}

/* The pages of one JSON case, held in memory so that both sides parse the same bytes. */
struct json_pages {
    struct gp_buf *page; /* `count` pages */
    int count;
    size_t bytes; /* all pages, bytes */
};

/* Read back the `count` pages `name`-NNNNN.json of `dir`, removing each file once read. */
static void load_pages(struct json_pages *out, const char *dir, const char *name, int count)
{
    out->page = calloc((size_t)count, sizeof(*out->page));
    out->count = count;
    out->bytes = 0;
    if (!out->page)
        die("out of memory");
    for (int p = 0; p < count; p++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s-%05d.json", dir, name, p);
        gp_buf_init(&out->page[p], (size_t)32 << 20);
        if (gp_buf_read_file(&out->page[p], path))
            die(path);
        unlink(path);
        out->bytes += out->page[p].len;
    }
}

static void release_pages(struct json_pages *pages)
{
    for (int p = 0; p < pages->count; p++)
        gp_buf_release(&pages->page[p]);
    free(pages->page);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* "min / median / max" of n values (sorted in place). */
static void print_stats(const char *label, double *v, int n, const char *fmt, const char *unit)
{
    char a[32], b[32], c[32];

    qsort(v, (size_t)n, sizeof(*v), by_value);
    snprintf(a, sizeof(a), fmt, v[0]);
    snprintf(b, sizeof(b), fmt, n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
    snprintf(c, sizeof(c), fmt, v[n - 1]);
    printf("  %-22s %8s / %8s / %8s %s\n", label, a, b, c, unit);
}

/* Parse every page with the adapter `name` and with cJSON alone (cJSON_ParseWithLength, then
 * cJSON_Delete: what any JSON adapter would cost if reading the tree were free), `rounds` times.
 * Each round runs both sides over all the pages, one after the other, the side that goes first
 * alternating round by round (A B, B A, ...), so neither always runs first or meets a
 * neighbour's load alone; each round gives both rates and their ratio. A side runs over all the
 * pages at once rather than page by page in turn with the other, so that each meets malloc's
 * free lists and the caches as it leaves them itself, not as the other side does. */
static void compare_json(const char *title, const char *name, const char *url,
                         const struct json_pages *pages, int rounds, const struct gp_catalog *cat,
                         const struct gp_fx_table *fx)
{
    const struct gp_feed_adapter *a = gp_feed_adapter_find(name);
    double *rate[2], *ratio = calloc((size_t)rounds, sizeof(double));
    struct gp_feed_ctx ctx;
    size_t offers = 0;

    rate[0] = calloc((size_t)rounds, sizeof(double));
    rate[1] = calloc((size_t)rounds, sizeof(double));
    if (!a || !ratio || !rate[0] || !rate[1])
        die("out of memory");
    gp_json_init(); /* both sides allocate through the same cJSON hooks */
    gp_feed_ctx_init(&ctx, name, name, 1790000000, fx, cat);
    ctx.base_url = url;
    ctx.url = url;
    for (int r = 0; r < rounds; r++) {
        double spent[2] = {0, 0};
        offers = 0;
        ctx.rejected = 0;
        for (int k = 0; k < 2; k++) {
            int side = (r + k) % 2;
            double t0 = gp_time_monotonic();
            for (int p = 0; p < pages->count; p++) {
                const struct gp_buf *page = &pages->page[p];
                if (side == 0) {
                    if (a->parse(&ctx, page->data, page->len))
                        die(name);
                    offers += ctx.count;
                    ctx.count = 0; /* a real feed is a few thousand items: do not hold them all */
                } else {
                    cJSON *doc = cJSON_ParseWithLength(page->data, page->len);
                    if (!doc)
                        die("cJSON_ParseWithLength");
                    cJSON_Delete(doc);
                }
            }
            spent[side] = gp_time_monotonic() - t0;
        }
        rate[0][r] = (double)pages->bytes / 1e6 / spent[0];
        rate[1][r] = (double)pages->bytes / 1e6 / spent[1];
        ratio[r] = rate[0][r] / rate[1][r];
    }
    printf("%s: %d pages, %.0f MB, %d rounds of both sides in turn; %zu offers and %zu "
           "rejected a round\n",
           title, pages->count, (double)pages->bytes / 1e6, rounds, offers, ctx.rejected);
    printf("  %-22s %8s / %8s / %8s\n", "", "min", "median", "max");
    print_stats(name, rate[0], rounds, "%.0f", "MB/s");
    print_stats("cJSON parse + delete", rate[1], rounds, "%.0f", "MB/s");
    print_stats("adapter / cJSON", ratio, rounds, "%.3f", "x (per-round ratio)");
    gp_feed_ctx_release(&ctx);
    free(rate[0]);
    free(rate[1]);
    free(ratio);
}

/* Write the pages of a Vast.ai-style offer search of `bytes` (3000 offers a page, the search's
 * limit: GPU and non-GPU machines of 1 to 8 GPUs over many countries); returns how many. */
static int write_vast_pages(const char *dir, size_t bytes)
{
    static const char *const gpus[] = {"H100 SXM", "H200", "RTX 4090", "A100 SXM4",
                                       "H100 NVL", "B200", "RTX 5090"};
    static const char *const places[] = {"Texas, US", "Oregon, US", "Quebec, CA", "Bavaria, DE",
                                         "Sweden",    "Tokyo, JP",  "Czechia, CZ"};
    struct gp_buf page = GP_BUF_INIT;
    size_t total = 0;
    unsigned long offer = 0;
    int pages = 0;

    gp_buf_init(&page, (size_t)32 << 20);
    while (total < bytes) {
        gp_buf_reset(&page);
        gp_buf_puts(&page, "{\"offers\": [");
        for (int i = 0; i < 3000; i++, offer++) {
            unsigned n = 1u << (offer % 4);
            gp_buf_printf(
                &page,
                "%s\n  {\"id\": %lu, \"machine_id\": %lu, \"host_id\": %lu, \"gpu_name\": "
                "\"%s\", \"num_gpus\": %u, \"gpu_ram\": 81559, \"gpu_total_ram\": %u, "
                "\"cpu_cores\": %s, \"cpu_ram\": 257000, \"disk_space\": 500, \"dph_base\": "
                "%u.%02lu, \"dph_total\": %u.%02lu, \"min_bid\": %s, \"storage_cost\": 0.15, "
                "\"geolocation\": \"%s\", \"verified\": true, \"rentable\": true, \"rented\": "
                "false, \"reliability2\": 0.99%lu}",
                i ? "," : "", 40000000 + offer, 4000000 + offer / 8, 4000000 + offer % 977,
                gpus[offer % 7], n, 81559 * n, offer % 3 ? "32" : "null", 2 * n, offer % 100,
                2 * n + 1, offer % 100, offer % 4 ? "1.1" : "null", places[offer % 7], offer % 10);
        }
        gp_buf_puts(&page, "\n]}");
        write_page(dir, "vast", pages++, &page);
        total += page.len;
    }
    gp_buf_release(&page);
    return pages;
}

static void bench_json(const char *dir, size_t json_bytes, int rounds, const struct gp_catalog *cat,
                       const struct gp_fx_table *fx)
{
    struct json_pages pages;

    load_pages(&pages, dir, "azure", write_json_pages(dir, json_bytes));
    compare_json("Azure-style JSON, 1000 items a page", "azure",
                 "https://prices.azure.com/api/retail/prices?$skip=1000", &pages, rounds, cat, fx);
    release_pages(&pages);
    load_pages(&pages, dir, "vast", write_vast_pages(dir, json_bytes / 4));
    compare_json("Vast.ai-style JSON, 3000 offers a page", "vast",
                 "https://console.vast.ai/api/v0/bundles/", &pages, rounds, cat, fx);
    release_pages(&pages);
}

/* The order the refresh hands offers to the store in (pricing/refresh.c sorts and dedupes by
 * the offer key, which is also the order of the history index). */
static int by_key(const void *a, const void *b)
{
    const struct gp_offer *x = a, *y = b;
    int c;

    if ((c = strcmp(x->provider, y->provider)) || (c = strcmp(x->region, y->region)) ||
        (c = strcmp(x->instance_type, y->instance_type)) || (c = strcmp(x->gpu_id, y->gpu_id)))
        return c;
    return (x->tier > y->tier) - (x->tier < y->tier);
}

static void bench_store(const char *dir, const struct gp_catalog *cat, const struct gp_fx_table *fx)
{
    static const char *const gpus[] = {"h100-sxm", "h200-sxm", "b200", "mi300x", "mi355x"};
    struct gp_offer *offers = calloc(STORE_OFFERS, sizeof(*offers));
    struct gp_feed_write_stats stats;
    struct gp_store *store = NULL;
    char path[512];
    double t0, elapsed;

    if (!offers)
        die("out of memory");
    snprintf(path, sizeof(path), "%s/bench.db", dir);
    if (gp_store_open(&store, path, 0) || gp_store_seed(store, "bench", cat, NULL, 0, fx))
        die("store");
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < STORE_OFFERS; i++) {
            struct gp_offer *o = &offers[i];
            snprintf(o->feed, sizeof(o->feed), "bench");
            snprintf(o->provider, sizeof(o->provider), "provider%zu", i % 7);
            snprintf(o->region, sizeof(o->region), "region-%zu", i % 31);
            snprintf(o->instance_type, sizeof(o->instance_type), "type-%07zu", i);
            snprintf(o->gpu_id, sizeof(o->gpu_id), "%s", gpus[i % 5]);
            o->gpus_per_instance = 8;
            o->tier = (enum gp_tier)(i % 3);
            o->amount = 20.0 + (double)(i % 1000) / 10.0 + round;
            snprintf(o->currency, sizeof(o->currency), "USD");
            o->unit = GP_UNIT_INSTANCE_HOUR;
            o->usd_per_gpu_hour = o->amount / 8;
            o->observed_at = 1790000000 + round * 21600;
            snprintf(o->source_url, sizeof(o->source_url), "https://bench.invalid/page");
        }
        qsort(offers, STORE_OFFERS, sizeof(*offers), by_key);
        t0 = gp_time_monotonic();
        if (gp_store_feed_replace(store, "bench", offers, STORE_OFFERS, &stats))
            die("feed_replace");
        elapsed = gp_time_monotonic() - t0;
        printf("SQLite feed write, %s: %d offers, %zu new observations in %.2f s = %.0f "
               "observations/s\n",
               round ? "every price changed" : "first sighting", STORE_OFFERS, stats.new_prices,
               elapsed, (double)stats.new_prices / elapsed);
    }
    gp_store_close(store);
    static const char *const suffixes[] = {"", "-wal", "-shm"};
    for (size_t k = 0; k < 3; k++) {
        char p[600];
        snprintf(p, sizeof(p), "%s%s", path, suffixes[k]);
        unlink(p);
    }
    free(offers);
}

/* Whether the command line asks for `name` (no case named: every case). */
static bool wanted(int argc, char **argv, const char *name)
{
    bool any = false;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], name) == 0)
            return true;
        any |= argv[i][0] != '-';
    }
    return !any;
}

/* The value of option `--name=N` in argv[i], in [min, max]; false when argv[i] is not it. */
static bool option(const char *arg, const char *name, long min, long max, long *out)
{
    size_t n = strlen(name);

    if (strncmp(arg, name, n) != 0 || arg[n] != '=')
        return false;
    if (gp_bench_arg_long(arg + n + 1, name, min, max, out))
        exit(2);
    return true;
}

int main(int argc, char **argv)
{
    static const char usage[] =
        "usage: feed_parse [csv] [json] [store] [--rounds=N] [--json-mb=N]\n"
        "  no case named: all three; --rounds: rounds of the JSON comparison (5);\n"
        "  --json-mb: size of the Azure-style feed, MB (200); the Vast.ai-style one is a\n"
        "  quarter of it\n";
    long rounds = 5, json_mb = 200;
    struct gp_catalog cat;
    struct gp_fx_table fx;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "csv") && strcmp(argv[i], "json") && strcmp(argv[i], "store") &&
            !option(argv[i], "--rounds", 1, 1000, &rounds) &&
            !option(argv[i], "--json-mb", 1, 4096, &json_mb)) {
            fputs(usage, stderr);
            return 2;
        }
    }
    if (gp_catalog_load(&cat) || gp_fx_load(&fx))
        die("data");
    /* the generated inputs and the database, removed at exit and on SIGINT, SIGTERM or SIGHUP */
    char workdir[256];
    if (gp_bench_workdir(workdir, sizeof(workdir), "gpuplan-feed-bench"))
        return 1;
    if (wanted(argc, argv, "csv"))
        bench_csv(workdir, &cat, &fx); /* first, so its peak RSS is its own */
    if (wanted(argc, argv, "json"))
        bench_json(workdir, (size_t)json_mb << 20, (int)rounds, &cat, &fx);
    if (wanted(argc, argv, "store"))
        bench_store(workdir, &cat, &fx);
    gp_bench_workdir_remove();
    gp_catalog_release(&cat);
    gp_fx_release(&fx);
    return 0;
}
