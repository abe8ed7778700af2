/* Unit tests for the price-feed adapters and their helpers: every adapter parses its fixtures
 * (shaped after the providers' real responses) into the expected offers and counts, streaming
 * gives the same result however the bytes are split, and the helpers handle the edge cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "feed_fixture.h"

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "pricing/feed.h"
#include "pricing/feeds.h"
#include "pricing/oauth.h"
#include "pricing/http.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/timeutil.h"

#include "../fuzz/feed_items_check.h"

static struct gp_catalog catalog;
static struct gp_fx_table fx;

static int load_data(void **state)
{
    (void)state;
    return gp_catalog_load(&catalog) || gp_fx_load(&fx);
}

static int free_data(void **state)
{
    (void)state;
    gp_catalog_release(&catalog);
    gp_fx_release(&fx);
    return 0;
}

/* Fixtures whose URL says what their body does not: a Scaleway page's zone. */
static const struct {
    const char *page, *url;
} page_urls[] = {
    {"scaleway/servers_fr-par-2.json",
     "https://api.scaleway.com/instance/v1/zones/fr-par-2/products/servers?per_page=100"},
    {"scaleway/servers_pl-waw-2.json",
     "https://api.scaleway.com/instance/v1/zones/pl-waw-2/products/servers?per_page=100"},
};

/* The URL a fixture page is parsed as coming from: `url`, else its own, else a loopback one. */
static const char *page_url(const char *page, const char *url)
{
    for (size_t i = 0; !url && i < sizeof(page_urls) / sizeof(page_urls[0]); i++)
        if (strcmp(page_urls[i].page, page) == 0)
            url = page_urls[i].url;
    return url ? url : "http://127.0.0.1:9/base/page";
}

/* Parse `pages` in order with `adapter`, as the refresh would, each as if fetched from `url`
 * (NULL: the page's own, see page_url), and run its finish step. */
static int parse_pages_at(struct gp_feed_ctx *ctx, const char *adapter, const char *provider,
                          const char *const *pages, const char *url)
{
    const struct gp_feed_adapter *a = gp_feed_adapter_find(adapter);
    int rc = 0;

    assert_non_null(a);
    gp_feed_ctx_init(ctx, adapter, provider,
                     1791500000 /* 2026-10-08, after every fixture's observed date */, &fx,
                     &catalog);
    ctx->base_url = "http://127.0.0.1:9/base";
    for (size_t i = 0; pages[i] && rc == 0; i++) {
        struct gp_buf body;
        read_fixture(&body, pages[i]);
        ctx->url = page_url(pages[i], url);
        if (a->parse) {
            rc = a->parse(ctx, body.data, body.len);
        } else {
            struct gp_feed_stream *s = NULL;
            rc = a->stream_open(&s, ctx);
            if (!rc)
                rc = a->stream_push(s, body.data, body.len);
            if (!rc)
                rc = a->stream_end(s);
            a->stream_free(s);
        }
        gp_buf_release(&body);
    }
    if (rc == 0 && a->finish)
        rc = a->finish(ctx);
    return rc;
}

static int parse_pages(struct gp_feed_ctx *ctx, const char *adapter, const char *provider,
                       const char *const *pages)
{
    return parse_pages_at(ctx, adapter, provider, pages, NULL);
}

static const struct gp_offer *find_offer(const struct gp_feed_ctx *ctx, const char *instance,
                                         const char *region, const char *gpu, enum gp_tier tier)
{
    for (size_t i = 0; i < ctx->count; i++) {
        const struct gp_offer *o = &ctx->offers[i];
        if (strcmp(o->instance_type, instance) == 0 && strcmp(o->region, region) == 0 &&
            strcmp(o->gpu_id, gpu) == 0 && o->tier == tier)
            return o;
    }
    return NULL;
}

struct expect_offer {
    const char *instance, *region, *gpu;
    enum gp_tier tier;
    int gpus;
    double amount;
    const char *currency;
    enum gp_price_unit unit;
    double usd_per_gpu_hour;
};

struct adapter_case {
    const char *adapter, *provider;
    const char *pages[5];
    size_t offers, rejected, unmapped, out_of_scope;
    const char *unmapped_name; /* one name that must be listed */
    struct expect_offer expect[6];
};

static const struct adapter_case cases[] = {
    {"azure",
     "azure",
     {"azure/page1.json", "azure/page2.json"},
     6,
     4,
     1,
     1,
     "Standard_ND80_Z900_v9",
     {{"Standard_ND96isr_H100_v5", "eastus", "h100-sxm", GP_TIER_ON_DEMAND, 8, 98.32, "USD",
       GP_UNIT_INSTANCE_HOUR, 12.29},
      {"Standard_ND96isr_H100_v5", "eastus", "h100-sxm", GP_TIER_SPOT, 8, 18.169536, "USD",
       GP_UNIT_INSTANCE_HOUR, 2.271192},
      /* "10 Hours" meters are divided down to one hour */
      {"Standard_ND96isr_H100_v5", "westeurope", "h100-sxm", GP_TIER_ON_DEMAND, 8, 103.14, "USD",
       GP_UNIT_INSTANCE_HOUR, 12.8925},
      {"Standard_ND96isr_MI300X_v5", "eastus2", "mi300x", GP_TIER_SPOT, 8, 8.8704, "USD",
       GP_UNIT_INSTANCE_HOUR, 1.1088}}},
    /* a capacity block is its own tier; one at $0 (the list's placeholder) is rejected */
    {"aws",
     "aws",
     {"aws/index.csv"},
     6,
     4,
     1,
     1,
     "g5.xlarge",
     {{"p5.48xlarge", "us-east-1", "h100-sxm", GP_TIER_ON_DEMAND, 8, 55.04, "USD",
       GP_UNIT_INSTANCE_HOUR, 6.88},
      {"p5.4xlarge", "us-east-1", "h100-sxm", GP_TIER_ON_DEMAND, 1, 6.88, "USD",
       GP_UNIT_INSTANCE_HOUR, 6.88},
      {"p6-b200.48xlarge", "us-east-1", "b200", GP_TIER_ON_DEMAND, 8, 113.9328, "USD",
       GP_UNIT_INSTANCE_HOUR, 14.2416},
      {"p5en.48xlarge", "us-east-1", "h200-sxm", GP_TIER_ON_DEMAND, 8, 63.296, "USD",
       GP_UNIT_INSTANCE_HOUR, 7.912},
      {"p5.48xlarge", "us-east-1", "h100-sxm", GP_TIER_CAPACITY_BLOCK, 8, 31.464, "USD",
       GP_UNIT_INSTANCE_HOUR, 3.933}}},
    {"aws-query",
     "aws",
     {"aws/getproducts_p1.json", "aws/getproducts_p2.json"},
     4,
     2,
     1,
     0,
     "g6.xlarge",
     {{"p5.48xlarge", "us-east-1", "h100-sxm", GP_TIER_ON_DEMAND, 8, 55.04, "USD",
       GP_UNIT_INSTANCE_HOUR, 6.88},
      {"p6-b200.48xlarge", "us-west-2", "b200", GP_TIER_ON_DEMAND, 8, 113.9328, "USD",
       GP_UNIT_INSTANCE_HOUR, 14.2416},
      {"p5.48xlarge", "us-east-2", "h100-sxm", GP_TIER_CAPACITY_BLOCK, 8, 31.464, "USD",
       GP_UNIT_INSTANCE_HOUR, 3.933}}},
    {"lambda",
     "lambda",
     {"lambda/instance_types.json"},
     3,
     1,
     1,
     1,
     "gpu_1x_x300_hyper",
     /* cents per instance-hour; one offer per region with capacity, none: no region */
     {{"gpu_8x_h100_sxm5", "", "h100-sxm", GP_TIER_ON_DEMAND, 8, 31.92, "USD",
       GP_UNIT_INSTANCE_HOUR, 3.99},
      {"gpu_1x_h100_pcie", "us-east-1", "h100-pcie", GP_TIER_ON_DEMAND, 1, 3.29, "USD",
       GP_UNIT_INSTANCE_HOUR, 3.29},
      {"gpu_8x_b200_sxm6", "us-south-2", "b200", GP_TIER_ON_DEMAND, 8, 53.52, "USD",
       GP_UNIT_INSTANCE_HOUR, 6.69}}},
    {"runpod",
     "runpod",
     {"runpod/v2_catalog_gpus.json"},
     8,
     2,
     1,
     3,
     "NVIDIA Z100 Hyper",
     /* a secure card once per data centre that lists it; community hosts have none */
     {{"secure", "EU-SE-1", "h100-sxm", GP_TIER_ON_DEMAND, 1, 2.99, "USD", GP_UNIT_GPU_HOUR, 2.99},
      {"secure", "US-TX-3", "h100-sxm", GP_TIER_ON_DEMAND, 1, 2.99, "USD", GP_UNIT_GPU_HOUR, 2.99},
      {"community", "", "h100-sxm", GP_TIER_ON_DEMAND, 1, 2.69, "USD", GP_UNIT_GPU_HOUR, 2.69},
      /* the community figure of a secure-only card is ignored */
      {"secure", "EU-RO-1", "mi300x", GP_TIER_ON_DEMAND, 1, 2.39, "USD", GP_UNIT_GPU_HOUR, 2.39}}},
    /* names map exactly (H100T and "H200 Local" stay unmapped); a part prices one GPU-hour of
     * an 8-GPU bare-metal shape, rented whole, or of a GB200 rack's 4-GPU tray */
    {"oci",
     "oci",
     {"oci/products.json"},
     6,
     1,
     2,
     1,
     "OCI - Compute - GPU - H100T",
     {{"BM.GPU.MI355X.8", "", "mi355x", GP_TIER_ON_DEMAND, 8, 8.6, "USD", GP_UNIT_GPU_HOUR, 8.6},
      {"BM.GPU.MI300X.8", "", "mi300x", GP_TIER_ON_DEMAND, 8, 6.0, "USD", GP_UNIT_GPU_HOUR, 6.0},
      {"BM.GPU.H200.8", "", "h200-sxm", GP_TIER_ON_DEMAND, 8, 10.0, "USD", GP_UNIT_GPU_HOUR, 10.0},
      {"BM.GPU.H100.8", "", "h100-sxm", GP_TIER_ON_DEMAND, 8, 10.0, "USD", GP_UNIT_GPU_HOUR, 10.0},
      {"BM.GPU.GB200.4", "", "gb200-nvl72", GP_TIER_ON_DEMAND, 4, 16.0, "USD", GP_UNIT_GPU_HOUR,
       16.0}}},
    /* one offer per location, at its own price where it has one; only the deployable ways */
    {"vultr",
     "vultr",
     {"vultr/plans_metal_p1.json", "vultr/plans_metal_p2.json", "vultr/plans_vcg.json",
      "vultr/plans_vdm.json"},
     8,
     3,
     0,
     2,
     NULL,
     {{"vbm-112c-2048gb-8-h100-gpu", "sea", "h100-sxm", GP_TIER_ON_DEMAND, 8, 25.12, "USD",
       GP_UNIT_INSTANCE_HOUR, 3.14},
      {"vbm-256c-3072gb-8-b200-gpu", "ams", "b200", GP_TIER_SPOT, 8, 25.6, "USD",
       GP_UNIT_INSTANCE_HOUR, 3.2},
      {"vcg-h100-216c-1914gb-640vram", "fra", "h100-sxm", GP_TIER_ON_DEMAND, 8, 21.52, "USD",
       GP_UNIT_INSTANCE_HOUR, 2.69},
      {"vcg-h100-12c-120g-80vram", "ewr", "h100-sxm", GP_TIER_ON_DEMAND, 1, 2.99, "USD",
       GP_UNIT_INSTANCE_HOUR, 2.99}}},
    /* one offer per listed region; "-contracted" is reserved, never on demand */
    {"digitalocean",
     "digitalocean",
     {"digitalocean/sizes_p1.json", "digitalocean/sizes_p2.json"},
     8,
     1,
     1,
     0,
     "gpu-q900x1-96gb",
     {{"gpu-mi300x8-1536gb", "atl1", "mi300x", GP_TIER_ON_DEMAND, 8, 15.92, "USD",
       GP_UNIT_INSTANCE_HOUR, 1.99},
      {"gpu-mi355x8-2304gb-spot", "atl1", "mi355x", GP_TIER_SPOT, 8, 23.76, "USD",
       GP_UNIT_INSTANCE_HOUR, 2.97},
      {"gpu-mi325x8-2048gb-contracted", "nyc2", "mi325x", GP_TIER_RESERVED, 8, 30.40, "USD",
       GP_UNIT_INSTANCE_HOUR, 3.80},
      {"gpu-h100x1-80gb", "tor1", "h100-sxm", GP_TIER_ON_DEMAND, 1, 3.39, "USD",
       GP_UNIT_INSTANCE_HOUR, 3.39},
      {"gpu-mi300x1-192gb", "", "mi300x", GP_TIER_ON_DEMAND, 1, 1.99, "USD", GP_UNIT_INSTANCE_HOUR,
       1.99}}},
    /* medians per machine size and country: 1x H100 SXM in the US on demand 2.4 2.8 (4000
     * rejected), spot 1.0 1.1 1.3; the 8x machine is its own offer */
    {"vast",
     "vast",
     {"vast/bundles.json"},
     10,
     2,
     2,
     2,
     "Z100 SXM",
     {{"1x H100 SXM", "US", "h100-sxm", GP_TIER_ON_DEMAND, 1, 2.6, "USD", GP_UNIT_INSTANCE_HOUR,
       2.6},
      {"1x H100 SXM", "US", "h100-sxm", GP_TIER_SPOT, 1, 1.1, "USD", GP_UNIT_INSTANCE_HOUR, 1.1},
      {"8x H100 SXM", "US", "h100-sxm", GP_TIER_ON_DEMAND, 8, 17.6, "USD", GP_UNIT_INSTANCE_HOUR,
       2.2},
      {"8x B200", "US", "b200", GP_TIER_ON_DEMAND, 8, 40.0, "USD", GP_UNIT_INSTANCE_HOUR, 5.0}}},
    /* one Instance type of a zone per offer, the zone from the page's URL; the H100 types
     * without "-SXM" are the PCIe card; L4 and L40S are out of scope, RENDER-S (a P100 the name
     * does not say) unmapped; a price or GPU count that is no number is rejected */
    {"scaleway",
     "scaleway",
     {"scaleway/servers_fr-par-2.json"},
     5,
     2,
     1,
     2,
     "RENDER-S",
     {{"H100-SXM-8-80G", "fr-par-2", "h100-sxm", GP_TIER_ON_DEMAND, 8, 23.028, "EUR",
       GP_UNIT_INSTANCE_HOUR, 0},
      {"H100-SXM-2-80G", "fr-par-2", "h100-sxm", GP_TIER_ON_DEMAND, 2, 6.018, "EUR",
       GP_UNIT_INSTANCE_HOUR, 0},
      {"H100-1-80G", "fr-par-2", "h100-pcie", GP_TIER_ON_DEMAND, 1, 2.73, "EUR",
       GP_UNIT_INSTANCE_HOUR, 0},
      {"H100-2-80G", "fr-par-2", "h100-pcie", GP_TIER_ON_DEMAND, 2, 5.46, "EUR",
       GP_UNIT_INSTANCE_HOUR, 0},
      {"B300-SXM-8-288G", "fr-par-2", "b300", GP_TIER_ON_DEMAND, 8, 60.0, "EUR",
       GP_UNIT_INSTANCE_HOUR, 0}}},
    {"scaleway",
     "scaleway",
     {"scaleway/servers_pl-waw-2.json"},
     2,
     0,
     0,
     2,
     NULL,
     {{"H100-2-80G", "pl-waw-2", "h100-pcie", GP_TIER_ON_DEMAND, 2, 5.46, "EUR",
       GP_UNIT_INSTANCE_HOUR, 0}}},
    /* the hourly plans of the instance flavours with a GPU, one offer per region, in 1e-8 EUR;
     * a flavour whose hourly plan lists no region takes its monthly plan's; Windows flavours,
     * monthly plans and managed AI products are not offers; L40S, A100, A10 and L4 are out of
     * scope; a price that is text or a GPU number that is missing is rejected */
    {"ovh",
     "ovh",
     {"ovh/catalog_cloud_fr.json"},
     4,
     2,
     0,
     4,
     NULL,
     {{"h100-380", "GRA11", "h100-sxm", GP_TIER_ON_DEMAND, 1, 2.8, "EUR", GP_UNIT_INSTANCE_HOUR, 0},
      {"h100-380", "BHS5", "h100-sxm", GP_TIER_ON_DEMAND, 1, 2.8, "EUR", GP_UNIT_INSTANCE_HOUR, 0},
      {"h100-760", "GRA11", "h100-sxm", GP_TIER_ON_DEMAND, 2, 5.6, "EUR", GP_UNIT_INSTANCE_HOUR, 0},
      {"h100-1520", "GRA11", "h100-sxm", GP_TIER_ON_DEMAND, 4, 11.2, "EUR", GP_UNIT_INSTANCE_HOUR,
       0}}},
    /* the public catalogue alone: every type once, with no location */
    {"verda",
     "verda",
     {"verda/instance-types.json"},
     9,
     1,
     0,
     2,
     NULL,
     {{"8H200.141S.176V", "", "h200-sxm", GP_TIER_ON_DEMAND, 8, 28.72, "USD", GP_UNIT_INSTANCE_HOUR,
       3.59},
      {"8H200.141S.176V", "", "h200-sxm", GP_TIER_SPOT, 8, 11.49, "USD", GP_UNIT_INSTANCE_HOUR,
       1.43625},
      {"1H100.80S.30V", "", "h100-sxm", GP_TIER_ON_DEMAND, 1, 2.29, "USD", GP_UNIT_INSTANCE_HOUR,
       2.29},
      {"8B200.180S.240V", "", "b200", GP_TIER_ON_DEMAND, 8, 39.92, "USD", GP_UNIT_INSTANCE_HOUR,
       4.99}}},
    /* with the availability: one offer per location that lists the type; B200, listed
     * nowhere, stays without one */
    {"verda",
     "verda",
     {"verda/instance-types.json", "verda/availability.json"},
     13,
     1,
     0,
     2,
     NULL,
     {{"8H200.141S.176V", "FIN-02", "h200-sxm", GP_TIER_ON_DEMAND, 8, 28.72, "USD",
       GP_UNIT_INSTANCE_HOUR, 3.59},
      {"1H200.141S.44V", "FIN-01", "h200-sxm", GP_TIER_SPOT, 1, 1.44, "USD", GP_UNIT_INSTANCE_HOUR,
       1.44},
      {"1H200.141S.44V", "FIN-02", "h200-sxm", GP_TIER_ON_DEMAND, 1, 3.59, "USD",
       GP_UNIT_INSTANCE_HOUR, 3.59},
      {"8H100.80S.176V", "ICE-01", "h100-sxm", GP_TIER_ON_DEMAND, 8, 18.32, "USD",
       GP_UNIT_INSTANCE_HOUR, 2.29},
      {"8B200.180S.240V", "", "b200", GP_TIER_ON_DEMAND, 8, 39.92, "USD", GP_UNIT_INSTANCE_HOUR,
       4.99}}},
    {"pricelist-csv",
     "acme",
     {"pricelist/negotiated.csv"},
     4,
     2,
     1,
     0,
     "zx-9000",
     {{"", "us-west", "mi325x", GP_TIER_QUOTE, 1, 2.10, "USD", GP_UNIT_GPU_HOUR, 2.10},
      {"", "us-west", "mi355x", GP_TIER_QUOTE, 1, 2.95, "USD", GP_UNIT_GPU_HOUR, 2.95},
      {"acme.h200x8", "eu-central", "h200-sxm", GP_TIER_RESERVED, 8, 26.40, "EUR",
       GP_UNIT_INSTANCE_HOUR, 0},
      {"", "eu-central", "mi300x", GP_TIER_SPOT, 1, 1.20, "USD", GP_UNIT_GPU_HOUR, 1.20}}},
};

static void adapters_parse_their_fixtures(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const struct adapter_case *k = &cases[c];
        struct gp_feed_ctx ctx;
        int rc = parse_pages(&ctx, k->adapter, k->provider, k->pages);

        if (rc != 0)
            fail_msg("%s: %s", k->adapter, gp_error_last());
        if (ctx.count != k->offers || ctx.rejected != k->rejected || ctx.unmapped != k->unmapped ||
            ctx.out_of_scope != k->out_of_scope)
            fail_msg("%s: %zu offers, %zu rejected, %zu unmapped, %zu out of scope; expected "
                     "%zu, %zu, %zu, %zu (first rejection: %s)",
                     k->adapter, ctx.count, ctx.rejected, ctx.unmapped, ctx.out_of_scope, k->offers,
                     k->rejected, k->unmapped, k->out_of_scope, ctx.first_rejection);
        if (k->unmapped_name) {
            bool listed = false;
            for (size_t i = 0; i < ctx.unmapped_name_count; i++)
                listed |= strcmp(ctx.unmapped_names[i], k->unmapped_name) == 0;
            if (!listed)
                fail_msg("%s: '%s' is not listed as unmapped", k->adapter, k->unmapped_name);
        }
        for (size_t e = 0; e < sizeof(k->expect) / sizeof(k->expect[0]) && k->expect[e].gpu; e++) {
            const struct expect_offer *x = &k->expect[e];
            const struct gp_offer *o = find_offer(&ctx, x->instance, x->region, x->gpu, x->tier);
            if (!o)
                fail_msg("%s: no offer %s/%s/%s/%s", k->adapter, x->instance, x->region, x->gpu,
                         gp_tier_name(x->tier));
            assert_int_equal(o->gpus_per_instance, x->gpus);
            assert_float_equal(o->amount, x->amount, 1e-9);
            assert_string_equal(o->currency, x->currency);
            assert_int_equal(o->unit, x->unit);
            assert_string_equal(o->feed, k->adapter);
            if (x->usd_per_gpu_hour > 0) {
                assert_float_equal(o->usd_per_gpu_hour, x->usd_per_gpu_hour, 1e-6);
            } else { /* converted with the bundled rate of the day it was observed */
                double per_usd = 0;
                assert_int_equal(gp_fx_per_usd(&fx, x->currency, o->observed_at, &per_usd), 0);
                assert_float_equal(
                    o->usd_per_gpu_hour,
                    x->amount / per_usd / (x->unit == GP_UNIT_INSTANCE_HOUR ? x->gpus : 1), 1e-9);
            }
            assert_true(o->usd_per_gpu_hour > 0);
        }
        gp_feed_ctx_release(&ctx);
    }
}

/* What a provider does not sell is not invented: no spot where a plan cannot be deployed
 * preemptible, no on-demand where it cannot be deployed on demand, no offer without a place to
 * deploy in, no second offer through a loose name match; capacity blocks carry their term. */
static void offers_are_only_what_is_sold(void **state)
{
    static const struct {
        const char *adapter, *pages[5], *instance, *region, *gpu;
        enum gp_tier tier;
    } absent[] = {
        {"vultr",
         {"vultr/plans_metal_p1.json"},
         "vbm-112c-2048gb-8-h100-gpu",
         "ewr",
         "h100-sxm",
         GP_TIER_SPOT},
        {"vultr",
         {"vultr/plans_metal_p2.json"},
         "vbm-256c-3072gb-8-b200-gpu",
         "ord",
         "b200",
         GP_TIER_ON_DEMAND},
        {"vultr",
         {"vultr/plans_metal_p1.json"},
         "vbm-256c-2048gb-8-mi300x-gpu",
         "",
         "mi300x",
         GP_TIER_SPOT},
        {"vultr",
         {"vultr/plans_vdm.json"},
         "vcg-h100-216c-1914gb-640vram",
         "",
         "h100-sxm",
         GP_TIER_ON_DEMAND},
        {"aws", {"aws/index.csv"}, "p5.48xlarge", "us-east-1", "h100-sxm", GP_TIER_SPOT},
    };
    struct gp_feed_ctx ctx;
    const struct gp_offer *o;
    size_t h100 = 0;
    (void)state;

    for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
        assert_int_equal(parse_pages(&ctx, absent[i].adapter, absent[i].adapter, absent[i].pages),
                         0);
        if (find_offer(&ctx, absent[i].instance, absent[i].region, absent[i].gpu, absent[i].tier))
            fail_msg("%s: invented %s %s in '%s'", absent[i].adapter, absent[i].instance,
                     gp_tier_name(absent[i].tier), absent[i].region);
        gp_feed_ctx_release(&ctx);
    }
    assert_int_equal(
        parse_pages(&ctx, "oci", "oci", (const char *const[]){"oci/products.json", NULL}), 0);
    for (size_t i = 0; i < ctx.count; i++)
        h100 += strcmp(ctx.offers[i].gpu_id, "h100-sxm") == 0;
    assert_int_equal(h100, 1); /* H100T is not a second H100 */
    gp_feed_ctx_release(&ctx);
    assert_int_equal(parse_pages(&ctx, "aws", "aws", (const char *const[]){"aws/index.csv", NULL}),
                     0);
    o = find_offer(&ctx, "p5.48xlarge", "us-east-1", "h100-sxm", GP_TIER_CAPACITY_BLOCK);
    assert_non_null(o);
    assert_int_equal(o->term_days, 1);
    assert_int_equal(o->min_term_hours, 24);
    gp_feed_ctx_release(&ctx);
}

/* Parse one page given as text with `adapter`, as fetched from `url`. */
static int parse_text(struct gp_feed_ctx *ctx, const char *adapter, const char *text,
                      const char *url)
{
    const struct gp_feed_adapter *a = gp_feed_adapter_find(adapter);

    assert_non_null(a);
    gp_feed_ctx_init(ctx, adapter, adapter, 1791500000, &fx, &catalog);
    ctx->url = url;
    return a->parse(ctx, text, strlen(text));
}

/* Scaleway pages by number while a page is full, or while total_count says more types remain;
 * a MIG profile is a slice of a GPU. OVHcloud's catalogue yields only the hourly plans of
 * instance flavours, and a catalogue without the instance family is refused. */
static void eu_catalogues_page_and_keep_to_instances(void **state)
{
    static const char *const fr_par_2[] = {"scaleway/servers_fr-par-2.json", NULL};
    static const char *const ovh[] = {"ovh/catalog_cloud_fr.json", NULL};
    static const char zone[] =
        "https://api.scaleway.com/instance/v1/zones/fr-par-2/products/servers";
    static const char mig[] = "{\"servers\": {\"H100-1-80G-MIG\": {\"gpu\": 1, "
                              "\"hourly_price\": 0.6, \"mig_profile\": \"1g.10gb\"}}, "
                              "\"total_count\": 1}";
    static const char no_family[] = "{\"locale\": {\"currencyCode\": \"EUR\"}, \"plans\": "
                                    "[{\"planCode\": \"project\", \"addonFamilies\": []}], "
                                    "\"addons\": []}";
    char url[256];
    struct gp_feed_ctx ctx;
    (void)state;

    /* 15 types on a page of 5: there is a next page; a page of 100 is the last */
    snprintf(url, sizeof(url), "%s?per_page=5&page=2", zone);
    assert_int_equal(parse_pages_at(&ctx, "scaleway", "scaleway", fr_par_2, url), 0);
    snprintf(url, sizeof(url), "%s?per_page=5&page=3", zone);
    assert_string_equal(ctx.next_url, url);
    gp_feed_ctx_release(&ctx);
    snprintf(url, sizeof(url), "%s?per_page=100", zone);
    assert_int_equal(parse_pages_at(&ctx, "scaleway", "scaleway", fr_par_2, url), 0);
    assert_string_equal(ctx.next_url, "");
    gp_feed_ctx_release(&ctx);
    /* a full page of one, but total_count says it was all */
    snprintf(url, sizeof(url), "%s?per_page=1", zone);
    assert_int_equal(parse_text(&ctx, "scaleway", mig, url), 0);
    assert_string_equal(ctx.next_url, "");
    assert_int_equal(ctx.count, 0);
    assert_int_equal(ctx.out_of_scope, 1);
    gp_feed_ctx_release(&ctx);

    assert_int_equal(parse_pages(&ctx, "ovh", "ovh", ovh), 0);
    assert_null(find_offer(&ctx, "win-h100-380", "GRA11", "h100-sxm", GP_TIER_ON_DEMAND));
    for (size_t i = 0; i < ctx.count; i++)
        assert_string_equal(ctx.offers[i].currency, "EUR");
    gp_feed_ctx_release(&ctx);
    assert_int_equal(parse_text(&ctx, "ovh", no_family, "https://eu.api.ovh.com/v1/x"),
                     GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "no \"instance\" addon family"));
    gp_feed_ctx_release(&ctx);
}

/* The ECB's reference rates become dated rates per US dollar, crossed through the day's dollar
 * rate; empty and NaN observations are skipped; a page that is no rate CSV fails. */
static void ecb_rates_cross_through_the_dollar(void **state)
{
    struct gp_buf body;
    struct gp_fx_table rates;
    size_t rejected = 0;
    double eur = 0, dkk = 0;
    int64_t day = 0;
    (void)state;

    read_fixture(&body, "fx/rates.csv");
    assert_int_equal(gp_fx_ecb_parse(&rates, body.data, body.len, "ecb", &rejected), 0);
    gp_buf_release(&body);
    assert_int_equal(rates.count, 4); /* EUR and DKK on 2026-11-20 and 2026-11-23 */
    assert_int_equal(rejected, 2);
    assert_int_equal(gp_time_parse("2026-11-23", &day), 0);
    assert_int_equal(gp_fx_per_usd(&rates, "EUR", day, &eur), 0);
    assert_int_equal(gp_fx_per_usd(&rates, "DKK", day, &dkk), 0);
    assert_float_equal(eur, 1 / 1.04, 1e-12);
    assert_float_equal(dkk, 7.4590 / 1.04, 1e-12);
    assert_int_equal(gp_fx_per_usd(&rates, "DKK", day - 1, &dkk), 0); /* the rate in force */
    assert_float_equal(dkk, 7.4586 / 1.0512, 1e-12);
    assert_string_equal(rates.rates[0].source, "ecb");
    gp_fx_release(&rates);

    read_fixture(&body, "fx/not-csv.html");
    assert_int_equal(gp_fx_ecb_parse(&rates, body.data, body.len, "ecb", NULL), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "not ECB reference rates"));
    gp_buf_release(&body);
    assert_int_equal(gp_fx_ecb_parse(&rates, "", 0, "ecb", NULL), GP_EINVALID);
}

/* Shape changes, invalid JSON and API error bodies fail the page with a message. */
static void broken_pages_fail_loudly(void **state)
{
    static const struct {
        const char *adapter, *page, *message_part;
    } broken[] = {
        {"azure", "azure/shape-drift.json", "no Items array"},
        {"azure", "azure/invalid.json", "invalid JSON"},
        {"runpod", "runpod/wrong-types.json", "no gpus array"},
        {"lambda", "lambda/error.json", "API key was invalid"},
        {"vast", "vast/error.json", "unknown field gpu_nam"},
        {"vultr", "azure/page1.json", "no plans"},
        {"scaleway", "azure/page1.json", "no servers object: not a Scaleway Instance types"},
        {"scaleway", "scaleway/error.json", "the API answered: invalid argument(s)"},
        {"ovh", "azure/page1.json", "no addons array"},
        {"ovh", "ovh/error.json", "the API answered: Invalid value for ovhSubsidiary"},
        {"verda", "verda/bad-credentials.json", "the API answered: Invalid client credentials"},
        {"verda", "verda/not-json.html", "invalid JSON"},
        {"verda", "azure/page1.json", "not a list"},
        {"aws", "azure/page1.json", "not an AWS offer file"},
        {"pricelist-csv", "azure/page1.json", "unknown column"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
        struct gp_feed_ctx ctx;
        const char *pages[] = {broken[i].page, NULL};
        int rc = parse_pages(&ctx, broken[i].adapter, broken[i].adapter, pages);
        if (rc == 0 || !strstr(gp_error_last(), broken[i].message_part))
            fail_msg("%s on %s: rc %d, message '%s'", broken[i].adapter, broken[i].page, rc,
                     gp_error_last());
        gp_feed_ctx_release(&ctx);
    }
}

/* The offer file parses the same whatever the chunk boundaries, 1 byte included. */
static void streamed_csv_ignores_chunk_boundaries(void **state)
{
    const struct gp_feed_adapter *a = gp_feed_adapter_find("aws");
    struct gp_buf body;
    (void)state;

    read_fixture(&body, "aws/index.csv");
    for (size_t chunk = 1; chunk <= 4099; chunk = chunk * 3 + 1) {
        struct gp_feed_ctx ctx;
        struct gp_feed_stream *s = NULL;
        gp_feed_ctx_init(&ctx, "aws", "aws", 1790000000, &fx, &catalog);
        ctx.url = "http://127.0.0.1:9/index.csv";
        assert_int_equal(a->stream_open(&s, &ctx), 0);
        for (size_t off = 0; off < body.len; off += chunk) {
            size_t n = body.len - off < chunk ? body.len - off : chunk;
            assert_int_equal(a->stream_push(s, body.data + off, n), 0);
        }
        assert_int_equal(a->stream_end(s), 0);
        a->stream_free(s);
        assert_int_equal(ctx.count, 6);
        assert_int_equal(ctx.rejected, 4);
        gp_feed_ctx_release(&ctx);
    }
    gp_buf_release(&body);
}

/* A feed holds at most max_offers offers across its pages; one more fails the feed, so a huge
 * list cannot grow the process without bound. */
static void offers_are_capped_per_feed(void **state)
{
    const struct gp_feed_adapter *a = gp_feed_adapter_find("aws");
    struct gp_feed_ctx ctx;
    struct gp_feed_stream *s = NULL;
    struct gp_buf body;
    int rc;
    (void)state;

    assert_int_equal(GP_FEED_MAX_OFFERS, 200000);
    read_fixture(&body, "aws/index.csv");
    gp_feed_ctx_init(&ctx, "aws", "aws", 1790000000, &fx, &catalog);
    assert_int_equal(ctx.max_offers, GP_FEED_MAX_OFFERS);
    ctx.url = "http://127.0.0.1:9/index.csv";
    ctx.max_offers = 4; /* the fixture has 5 */
    assert_int_equal(a->stream_open(&s, &ctx), 0);
    rc = a->stream_push(s, body.data, body.len);
    if (rc == 0)
        rc = a->stream_end(s);
    assert_int_equal(rc, GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "more than 4 offers"));
    assert_int_equal(ctx.count, 4);
    a->stream_free(s);
    gp_feed_ctx_release(&ctx);
    gp_buf_release(&body);
}

static void next_links_are_rerooted_on_the_base(void **state)
{
    static const struct {
        const char *base, *link, *want;
    } links[] = {
        {"http://127.0.0.1:8080/azure/ok",
         "https://prices.azure.com:443/api/retail/prices?a=1&$skip=1000",
         "http://127.0.0.1:8080/azure/ok/api/retail/prices?a=1&$skip=1000"},
        {"https://api.digitalocean.com", "https://api.digitalocean.com/v2/sizes?page=2",
         "https://api.digitalocean.com/v2/sizes?page=2"},
        {"https://proxy.example/do/", "/v2/sizes?page=3",
         "https://proxy.example/do/v2/sizes?page=3"},
        {"https://h", "v2/x", "https://h/v2/x"},
        {"https://h", "", ""},
    };
    struct gp_feed_ctx ctx;
    (void)state;

    gp_feed_ctx_init(&ctx, "t", "t", 0, &fx, &catalog);
    for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
        ctx.base_url = links[i].base;
        assert_int_equal(gp_feed_set_next(&ctx, links[i].link), 0);
        assert_string_equal(ctx.next_url, links[i].want);
    }
    ctx.url = "https://api.vultr.com/v2/plans?type=vcg&cursor=old&per_page=500";
    assert_int_equal(gp_feed_set_next_param(&ctx, "cursor", "bmV4=dA=="), 0);
    assert_string_equal(
        ctx.next_url,
        "https://api.vultr.com/v2/plans?type=vcg&per_page=500&cursor=bmV4%3DdA%3D%3D");
    ctx.url = "https://api.vultr.com/v2/plans-metal";
    assert_int_equal(gp_feed_set_next_param(&ctx, "cursor", "x"), 0);
    assert_string_equal(ctx.next_url, "https://api.vultr.com/v2/plans-metal?cursor=x");
    gp_feed_ctx_release(&ctx);
}

static void csv_split_handles_quotes(void **state)
{
    char line[] = "\"a,b\",plain,\"say \"\"hi\"\"\",,\"\"";
    char bad[] = "\"open,field";
    char *f[8];
    (void)state;

    assert_int_equal(gp_feed_csv_split(line, f, 8), 5);
    assert_string_equal(f[0], "a,b");
    assert_string_equal(f[1], "plain");
    assert_string_equal(f[2], "say \"hi\"");
    assert_string_equal(f[3], "");
    assert_string_equal(f[4], "");
    assert_int_equal(gp_feed_csv_split(bad, f, 8), -1);
}

static void json_prices_accept_numbers_and_numeric_strings(void **state)
{
    static const struct {
        const char *json;
        int rc;
        double value;
    } prices[] = {
        {"55.04", 0, 55.04},  {"\"55.0400000000\"", 0, 55.04},
        {"\" 3 \"", 0, 3},    {"\"N/A*\"", -1, 0},
        {"\"\"", -1, 0},      {"null", -1, 0},
        {"true", -1, 0},      {"\"nan\"", -1, 0},
        {"\"1e999\"", -1, 0}, {"[1]", -1, 0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(prices) / sizeof(prices[0]); i++) {
        cJSON *item = cJSON_Parse(prices[i].json);
        double v = 0;
        assert_non_null(item);
        assert_int_equal(gp_feed_json_price(item, &v), prices[i].rc);
        if (prices[i].rc == 0)
            assert_float_equal(v, prices[i].value, 1e-12);
        cJSON_Delete(item);
    }
}

static void urls_are_classified_and_redacted(void **state)
{
    char out[256];
    (void)state;

    assert_true(gp_http_is_loopback("http://127.0.0.1:8080/x"));
    assert_true(gp_http_is_loopback("http://localhost/x"));
    assert_true(gp_http_is_loopback("http://[::1]:80/x"));
    assert_false(gp_http_is_loopback("http://127.0.0.1.example.com/x"));
    assert_false(gp_http_is_loopback("http://10.0.0.1/x"));
    assert_false(gp_http_is_loopback("https://prices.azure.com/"));
    assert_false(gp_http_has_credentials("https://prices.azure.com"));
    assert_false(gp_http_has_credentials("https://h.example/a@b?x=c@d"));
    assert_false(gp_http_has_credentials("file:///srv/prices/acme.csv"));
    assert_true(gp_http_has_credentials("https://user:s3cret@host.example/path"));
    assert_true(gp_http_has_credentials("https://token@host.example"));
    gp_http_redact_url(out, sizeof(out), "https://user:s3cret@host.example/path?q=1");
    assert_null(strstr(out, "s3cret"));
    assert_non_null(strstr(out, "host.example/path?q=1"));
    gp_http_redact_url(out, sizeof(out), "https://host.example/v1?region=x&api_key=k3y&Token=t");
    assert_string_equal(out, "https://host.example/v1?region=x&api_key=***&Token=***");
}

static void plain_http_to_remote_hosts_is_refused(void **state)
{
    struct gp_http_options opts;
    struct gp_http_request req = {0};
    struct gp_http_response resp;
    (void)state;

    gp_http_options_init(&opts, "gpuplan/test");
    req.url = "http://prices.example.com/list.json";
    gp_http_response_init(&resp);
    assert_int_equal(gp_http_fetch(&opts, &req, &resp), GP_EINVALID);
    assert_non_null(strstr(resp.message, "refusing plain http"));
    assert_int_equal(resp.attempts, 0);
    req.url = "file:///etc/hostname";
    assert_int_equal(gp_http_fetch(&opts, &req, &resp), GP_EINVALID);
    req.url = "ftp://prices.example.com/list.json";
    assert_int_equal(gp_http_fetch(&opts, &req, &resp), GP_EINVALID);
    gp_http_response_release(&resp);
}

static const char user_config[] =
    "{\"feeds\": [\n"
    "  {\"name\": \"azure\", \"enabled\": false},\n"
    "  {\"name\": \"acme\", \"adapter\": \"pricelist-csv\", \"base_url\": \"file:///srv/acme.csv\","
    "   \"key_file\": \"KEYFILE\"}\n"
    "]}\n";

static void user_config_merges_by_name(void **state)
{
    struct gp_feed_configs cfg;
    char dir[] = "/tmp/gpuplan-feeds-XXXXXX";
    char path[256], keyfile[256], text[1024];
    struct gp_feed_key key;
    FILE *f;
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/feeds.json", dir);
    snprintf(keyfile, sizeof(keyfile), "%s/acme.key", dir);
    snprintf(text, sizeof(text), "%s", user_config);
    char *k = strstr(text, "KEYFILE");
    memmove(k + strlen(keyfile), k + 7, strlen(k + 7) + 1);
    memcpy(k, keyfile, strlen(keyfile));
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);

    assert_int_equal(gp_feed_configs_load(&cfg, path), 0);
    assert_false(gp_feed_configs_find(&cfg, "azure")->enabled);
    assert_non_null(strstr(gp_feed_configs_find(&cfg, "azure")->source.paths[0], "$filter="));
    assert_non_null(strstr(gp_feed_configs_find(&cfg, "vast")->source.body, "\"rentable\""));
    struct gp_feed_config *acme = gp_feed_configs_find(&cfg, "acme");
    assert_non_null(acme);
    assert_string_equal(acme->provider, "acme");
    assert_int_equal(gp_feed_configs_override(&cfg, "azure=http://127.0.0.1:1/az"), 0);
    assert_string_equal(gp_feed_configs_find(&cfg, "azure")->source.base_url,
                        "http://127.0.0.1:1/az");
    assert_int_equal(gp_feed_configs_override(&cfg, "azur=http://x"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "did you mean 'azure'"));

    /* a key file others can read is refused, without its content in the message */
    f = fopen(keyfile, "w");
    assert_non_null(f);
    fputs("acme-SECRET-key\n", f);
    fclose(f);
    chmod(keyfile, 0644);
    assert_int_equal(gp_feed_key_load(&key, acme), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "0644"));
    assert_null(strstr(gp_error_last(), "SECRET"));
    chmod(keyfile, 0600);
    assert_int_equal(gp_feed_key_load(&key, acme), 0);
    assert_true(key.present);
    assert_string_equal(key.token, "acme-SECRET-key");
    gp_feed_key_wipe(&key);
    assert_false(key.present);

    unlink(keyfile);
    unlink(path);
    rmdir(dir);
    gp_feed_configs_release(&cfg);
}

static void bad_configs_are_rejected_with_a_location(void **state)
{
    static const struct {
        const char *json, *message_part;
    } bad[] = {
        {"{\"feeds\": [{\"name\": \"x\", \"adapter\": \"azur\", \"base_url\": \"https://h\"}]}",
         "did you mean 'azure'"},
        {"{\"feeds\": [{\"name\": \"x\", \"base_url\": \"https://h\"}]}", "adapter"},
        {"{\"feeds\": [{\"name\": \"x\", \"adapter\": \"oci\"}]}", "base_url"},
        {"{\"feeds\": [{\"name\": \"x\", \"adapter\": \"oci\", \"base_url\": \"https://h\", "
         "\"enabeld\": true}]}",
         "enabled"},
        {"{\"feeds\": {}}", "feeds"},
        {"[{\"feeds\": []}]", "must be an object"},
        {"{\"feeds\": [{\"name\": \"vast\", \"adapter\": \"vast\", \"base_url\": \"https://h\", "
         "\"body\": \"gpu_name=H100\"}]}",
         "must be a JSON object"},
        {"{\"feeds\": [{\"name\": \"e\", \"adapter\": \"entsoe\", \"base_url\": \"https://h\", "
         "\"paths\": [\"/api?a=1\", \"/api?start={now-30}\"]}]}",
         "paths: [1]: path '/api?start={now-30}': '{now-30}' is not a date field"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct gp_feed_configs cfg = {0};
        int rc = gp_feed_configs_parse(&cfg, bad[i].json, strlen(bad[i].json), "user.json", true);
        if (rc == 0 || !strstr(gp_error_last(), bad[i].message_part) ||
            !strstr(gp_error_last(), "user.json"))
            fail_msg("config %zu: rc %d, message '%s'", i, rc, gp_error_last());
        gp_feed_configs_release(&cfg);
    }
}

/* The client-credentials grant: the request names the grant and both credentials, escaped;
 * the answer gives a Bearer token fit for a header, or a message that never quotes it. */
static void client_credentials_are_exchanged_for_a_token(void **state)
{
    static const struct {
        const char *answer, *why;
    } bad[] = {
        {"[]", "did not answer a JSON object"},
        {"not json", "did not answer a JSON object"},
        {"{\"token_type\":\"Bearer\"}", "no access_token"},
        {"{\"access_token\":\"\"}", "no access_token"},
        {"{\"access_token\":\"ab cd\"}", "no access_token"},
        {"{\"access_token\":\"ab\\r\\nX-Evil: 1\"}", "no access_token"},
        {"{\"access_token\":7}", "no access_token"},
        {"{\"access_token\":\"tok_SECRET\",\"token_type\":\"mac\"}", "not Bearer"},
    };
    struct gp_buf body = GP_BUF_INIT;
    char token[64];

    (void)state;
    assert_int_equal(gp_oauth_token_request(&body, "id-1", "se\"cret\\"), 0);
    assert_string_equal(body.data, "{\"grant_type\":\"client_credentials\",\"client_id\":\"id-1\","
                                   "\"client_secret\":\"se\\\"cret\\\\\"}");
    gp_buf_wipe(&body);
    assert_int_equal(body.len, 0);
    assert_int_equal(body.data[0], 0);
    gp_buf_release(&body);
    static const char good[] = "{\"access_token\":\"eyJ.abc-_~+/=\",\"token_type\":\"bearer\","
                               "\"expires_in\":3600}";
    assert_int_equal(gp_oauth_token_read(token, sizeof(token), good, sizeof(good) - 1, "u"), 0);
    assert_string_equal(token, "eyJ.abc-_~+/=");
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int rc = gp_oauth_token_read(token, sizeof(token), bad[i].answer, strlen(bad[i].answer),
                                     "https://api.example/v1/oauth2/token");
        if (rc != GP_EINVALID || !strstr(gp_error_last(), bad[i].why) ||
            strstr(gp_error_last(), "SECRET"))
            fail_msg("answer %zu: rc %d, '%s'", i, rc, gp_error_last());
    }
    assert_int_equal(gp_oauth_token_read(token, 4, good, sizeof(good) - 1, "u"), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "longer than 3 bytes"));
}

/* {day-N} and {day+N} in a path become midnight UTC of the day that many days off, as
 * yyyyMMddHHmm; anything else in braces is refused. */
static void path_dates_are_filled_in(void **state)
{
    static const struct {
        const char *path, *expanded;
    } good[] = {
        {"/api?periodStart={day-30}&periodEnd={day+2}",
         "/api?periodStart=202611010000&periodEnd=202612030000"},
        {"/api?x={day+0}{day-0}", "/api?x=202612010000202612010000"},
        {"/api?leap={day+455}", "/api?leap=202802290000"},
        {"/plain", "/plain"},
        {"", ""},
    };
    static const char *const bad[] = {"/api?{day}",    "/api?{day-}", "/api?{day-3661}",
                                      "/api?{day-1x}", "/api?{day-1", "/api?{month-1}",
                                      "/api?{day--1}", "/api?{}"};
    int64_t now;
    char out[128];

    (void)state;
    assert_int_equal(gp_time_parse("2026-12-01T23:59:59Z", &now), 0);
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        assert_int_equal(gp_feed_path_expand(out, sizeof(out), good[i].path, now), 0);
        assert_string_equal(out, good[i].expanded);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (gp_feed_path_expand(out, sizeof(out), bad[i], now) != GP_EINVALID)
            fail_msg("accepted %s", bad[i]);
        assert_non_null(strstr(gp_error_last(), "is not a date field"));
    }
    assert_int_equal(gp_feed_path_expand(out, 20, "/api?p={day-1}&q={day+1}", now), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "longer than 19 bytes"));
}

/* The statuses retried are curl's --retry set, and only those. */
static void retried_statuses_are_curls(void **state)
{
    static const struct {
        long status;
        bool retried;
    } statuses[] = {
        {200, false}, {304, false}, {400, false}, {404, false}, {408, true},
        {429, true},  {500, true},  {501, false}, {502, true},  {503, true},
        {504, true},  {505, false}, {599, false}, {0, false},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
        if (gp_http_retryable_status(statuses[i].status) != statuses[i].retried)
            fail_msg("status %ld: retried %d", statuses[i].status, !statuses[i].retried);
}

/* Pages read element by element must read exactly as the plain way reads them: the same
 * elements, counts, document and errors, including where the two ways could part (escapes in
 * member names, escaped NULs, byte-order marks, nesting at cJSON's limit, bytes below the space
 * as blanks, a callback failing half-way). */
static void lists_read_element_by_element_as_plainly(void **state)
{
    static const char *const pages[] = {
        "{\"Items\":[{\"a\":1},{\"a\":[2,{\"b\":\"c\"}]}],\"NextPageLink\":null}",
        " \t\r\n{ \"x\" : {\"Items\":[9]} , \"Items\" : [ 1 , \"two\" , null ] } \n",
        "{\"Items\":[{\"a\":1},{\"a\":}]}",
        "{\"Items\":[1,]}",
        "{\"Items\":[1 2]}",
        "{\"Items\":[1,2]} x",
        "{\"Items\":[1,2]}{}",
        "{\"Items\":[\"a\\u0000b\",\"c\"]}",
        "{\"Items\":[\"a\\\\u0000b\"]}",
        "{\"It\\u0065ms\":[1,2]}",
        "{\"Items\":5}",
        "{\"Items\":[1],\"Items\":[2]}",
        "{\"Items\":[\xef\xbb\xbf"
        "1]}",
        "\xef\xbb\xbf{\"Items\":[1]}",
        "{\"Items\":[\x01 1 \x02,\x1f"
        "2]}",
        "{\"Items\":[ ]}",
        "{\"Items\":[]}",
        "{\"Items\":[1,2",
        "{\"Items\":[1, ",
        "{\"Items\":[1",
        "{\"Items\":[",
        "{\"Items\":",
        "{\"Items\"",
        "{\"message\":\"throttled\"}",
        "[1,2]",
        "{}",
        "",
        "   ",
        "{\"a\":1,}",
        "{\"a\":\"\\\"Items\\\":[\",\"Items\":[3]}",
        "{\"Items\":[1e999,-0,0.5e-3,\"\\ud83d\\ude00\"]}",
    };
    char buf[4096];
    (void)state;

    for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
        for (size_t fail_at = 0; fail_at < 4; fail_at++) {
            const char *why = items_check_differs(pages[i], strlen(pages[i]), "Items", fail_at);
            if (why)
                fail_msg("page %zu, failing at %zu: %s", i, fail_at, why);
        }
    }
    /* a NUL in a member name, which cJSON ends the name at */
    {
        static const char nul_name[] = "{\"Ite\0ms\":[1],\"Items\":[2]}";
        assert_null(items_check_differs(nul_name, sizeof(nul_name) - 1, "Items", 0));
    }
    /* an element nested as deep as the document allows, and one level deeper */
    for (int depth = 996; depth <= 1000; depth++) {
        size_t n = 0;
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "{\"Items\":[");
        for (int d = 0; d < depth; d++)
            buf[n++] = '[';
        for (int d = 0; d < depth; d++)
            buf[n++] = ']';
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "]}");
        const char *why = items_check_differs(buf, n, "Items", 0);
        if (why)
            fail_msg("nesting %d: %s", depth, why);
    }
}

/* Offers record their own page's URL, however the caller reuses the URL's buffer. */
static void offers_record_their_own_page(void **state)
{
    const struct gp_feed_adapter *a = gp_feed_adapter_find("azure");
    struct gp_feed_ctx ctx;
    struct gp_buf body;
    char url[128];
    size_t first;
    (void)state;

    read_fixture(&body, "azure/page1.json");
    gp_feed_ctx_init(&ctx, "azure", "azure", 1791500000, &fx, &catalog);
    ctx.base_url = "https://prices.azure.com";
    ctx.url = url;
    snprintf(url, sizeof(url), "https://prices.azure.com/api/retail/prices?$skip=0");
    assert_int_equal(a->parse(&ctx, body.data, body.len), 0);
    first = ctx.count;
    assert_true(first > 0);
    snprintf(url, sizeof(url), "https://user:pw@prices.azure.com/api/retail/prices?$skip=100");
    assert_int_equal(a->parse(&ctx, body.data, body.len), 0);
    assert_int_equal(ctx.count, 2 * first);
    for (size_t i = 0; i < ctx.count; i++)
        assert_string_equal(ctx.offers[i].source_url,
                            i < first ? "https://prices.azure.com/api/retail/prices?$skip=0"
                                      : "https://prices.azure.com/api/retail/prices?$skip=100");
    gp_feed_ctx_release(&ctx);
    gp_buf_release(&body);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(adapters_parse_their_fixtures),
        cmocka_unit_test(path_dates_are_filled_in),
        cmocka_unit_test(client_credentials_are_exchanged_for_a_token),
        cmocka_unit_test(offers_are_only_what_is_sold),
        cmocka_unit_test(eu_catalogues_page_and_keep_to_instances),
        cmocka_unit_test(ecb_rates_cross_through_the_dollar),
        cmocka_unit_test(broken_pages_fail_loudly),
        cmocka_unit_test(streamed_csv_ignores_chunk_boundaries),
        cmocka_unit_test(offers_are_capped_per_feed),
        cmocka_unit_test(next_links_are_rerooted_on_the_base),
        cmocka_unit_test(csv_split_handles_quotes),
        cmocka_unit_test(json_prices_accept_numbers_and_numeric_strings),
        cmocka_unit_test(urls_are_classified_and_redacted),
        cmocka_unit_test(plain_http_to_remote_hosts_is_refused),
        cmocka_unit_test(retried_statuses_are_curls),
        cmocka_unit_test(user_config_merges_by_name),
        cmocka_unit_test(bad_configs_are_rejected_with_a_location),
        cmocka_unit_test(lists_read_element_by_element_as_plainly),
        cmocka_unit_test(offers_record_their_own_page),
    };
    return cmocka_run_group_tests(tests, load_data, free_data);
}
