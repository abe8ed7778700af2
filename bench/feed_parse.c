/* Benchmark: price-feed parsing and storing. Generates, under a fresh folder in /tmp (removed
 * afterwards), a 1 GB AWS-style CSV offer file streamed through the aws adapter (throughput and
 * peak resident memory), a 200 MB Azure-style JSON feed in 1000-item pages parsed by the azure
 * adapter, and measures observations written per second into SQLite. Figures go to stdout;
 * docs/benchmarks.md ("Price feeds") records them with the machine and date. */
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
#include "util/timeutil.h"

#define CSV_BYTES    ((size_t)1000 << 20)
#define JSON_BYTES   ((size_t)200 << 20)
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

/* Write the pages of a 200 MB feed; returns how many. */
static int write_json_pages(const char *dir)
{
    struct gp_buf page = GP_BUF_INIT;
    size_t total = 0;
    unsigned long item = 0;
    int pages = 0;

    gp_buf_init(&page, (size_t)8 << 20);
    while (total < JSON_BYTES) {
        char path[512];
        FILE *f;
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
        snprintf(path, sizeof(path), "%s/azure-%05d.json", dir, pages++);
        f = fopen(path, "w");
        if (!f || fwrite(page.data, 1, page.len, f) != page.len || fclose(f) != 0) {
            perror(path);
            exit(1);
        }
        total += page.len;
    }
    gp_buf_release(&page);
    return pages;
}

static void bench_json(const char *dir, const struct gp_catalog *cat, const struct gp_fx_table *fx)
{
    const struct gp_feed_adapter *a = gp_feed_adapter_find("azure");
    int pages = write_json_pages(dir);
    struct gp_buf body = GP_BUF_INIT;
    struct gp_feed_ctx ctx;
    size_t total = 0, offers = 0;
    double parsing = 0;

    gp_feed_ctx_init(&ctx, "azure", "azure", 1790000000, fx, cat);
    ctx.base_url = "https://prices.azure.com";
    for (int p = 0; p < pages; p++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/azure-%05d.json", dir, p);
        gp_buf_init(&body, (size_t)32 << 20);
        if (gp_buf_read_file(&body, path))
            die(path);
        unlink(path);
        ctx.url = path;
        double t0 = gp_time_monotonic();
        if (a->parse(&ctx, body.data, body.len))
            die("azure parse");
        parsing += gp_time_monotonic() - t0;
        total += body.len;
        offers += ctx.count;
        ctx.count = 0; /* a real feed is a few thousand items: do not hold 200 MB of offers */
        gp_buf_release(&body);
    }
    printf("Azure-style JSON, %d pages of 1000 items: %.0f MB parsed in %.2f s = %.0f MB/s; "
           "%zu offers, %zu rejected\n",
           pages, (double)total / 1e6, parsing, (double)total / 1e6 / parsing, offers,
           ctx.rejected);
    gp_feed_ctx_release(&ctx);
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

/* Whether the command line asks for `name` (no arguments: every case). */
static bool wanted(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return true;
    return argc < 2;
}

int main(int argc, char **argv)
{
    char dir[] = "/tmp/gpuplan-feed-bench-XXXXXX";
    struct gp_catalog cat;
    struct gp_fx_table fx;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "csv") && strcmp(argv[i], "json") && strcmp(argv[i], "store")) {
            fprintf(stderr, "usage: feed_parse [csv] [json] [store]  (no argument: all three)\n");
            return 2;
        }
    }
    if (gp_catalog_load(&cat) || gp_fx_load(&fx))
        die("data");
    if (!mkdtemp(dir)) {
        perror(dir);
        return 1;
    }
    if (wanted(argc, argv, "csv"))
        bench_csv(dir, &cat, &fx); /* first, so its peak RSS is its own */
    if (wanted(argc, argv, "json"))
        bench_json(dir, &cat, &fx);
    if (wanted(argc, argv, "store"))
        bench_store(dir, &cat, &fx);
    rmdir(dir);
    gp_catalog_release(&cat);
    gp_fx_release(&fx);
    return 0;
}
