/* Unit tests for pricing/normalize.c and pricing/pricelist.c: GPU name mapping (with the traps
 * the providers set), price normalisation, and the generic price-list format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "pricing/normalize.h"
#include "pricing/pricelist.h"
#include "util/error.h"

static void names_map_to_canonical_ids(void **state)
{
    static const struct {
        const char *provider, *name, *gpu_id;
        int count;
        enum gp_name_match match;
    } cases[] = {
        {"aws", "p5.48xlarge", "h100-sxm", 8, GP_NAME_MAPPED},
        {"aws", "p5.4xlarge", "h100-sxm", 1, GP_NAME_MAPPED},
        {"aws", "p5en.48xlarge", "h200-sxm", 8, GP_NAME_MAPPED},
        {"aws", "p6-b200.48xlarge", "b200", 8, GP_NAME_MAPPED},
        {"azure", "Standard_ND96isr_H100_v5", "h100-sxm", 8, GP_NAME_MAPPED},
        {"azure", "Standard_ND96isr_H200_v5", "h200-sxm", 8, GP_NAME_MAPPED},
        {"azure", "Standard_ND96isr_MI300X_v5", "mi300x", 8, GP_NAME_MAPPED},
        /* trap: Azure NC*_H100_v5 is H100 NVL (94 GB), never H100 PCIe */
        {"azure", "Standard_NC40ads_H100_v5", "h100-nvl", 1, GP_NAME_OUT_OF_SCOPE},
        {"azure", "Standard_NC80adis_H100_v5", "h100-nvl", 2, GP_NAME_OUT_OF_SCOPE},
        {"azure", "Standard_NCC40ads_H100_v5", "h100-nvl", 1, GP_NAME_OUT_OF_SCOPE},
        {"azure", "Standard_NC96ads_H100_v6", "h100-nvl", 0, GP_NAME_OUT_OF_SCOPE},
        {"runpod", "NVIDIA H100 80GB HBM3", "h100-sxm", 0, GP_NAME_MAPPED},
        {"runpod", "NVIDIA H100 PCIe", "h100-pcie", 0, GP_NAME_MAPPED},
        {"runpod", "NVIDIA H100 NVL", "h100-nvl", 0, GP_NAME_OUT_OF_SCOPE},
        {"runpod", "NVIDIA H200", "h200-sxm", 0, GP_NAME_MAPPED},
        /* trap: H200 NVL is not H200 SXM */
        {"runpod", "NVIDIA H200 NVL", "h200-nvl", 0, GP_NAME_MAPPED},
        {"runpod", "AMD Instinct MI300X OAM", "mi300x", 0, GP_NAME_MAPPED},
        {"runpod", "NVIDIA B200", "b200", 0, GP_NAME_MAPPED},
        {"lambda", "gpu_8x_h100_sxm5", "h100-sxm", 8, GP_NAME_MAPPED},
        {"lambda", "gpu_1x_h100_pcie", "h100-pcie", 1, GP_NAME_MAPPED},
        {"lambda", "gpu_8x_b200_sxm6", "b200", 8, GP_NAME_MAPPED},
        {"lambda", "gpu_1x_gh200", "gh200", 1, GP_NAME_OUT_OF_SCOPE},
        {"oci", "BM.GPU.MI355X.8", "mi355x", 8, GP_NAME_MAPPED},
        {"oci", "BM.GPU.MI355X-v1.8", "mi355x", 8, GP_NAME_MAPPED},
        {"oci", "BM.GPU.H100.8", "h100-sxm", 8, GP_NAME_MAPPED},
        {"oci", "OCI- Compute - GPU - MI355X", "mi355x", 0, GP_NAME_MAPPED},
        {"digitalocean", "gpu-mi325x8-2048gb", "mi325x", 8, GP_NAME_MAPPED},
        {"digitalocean", "gpu-mi300x1-192gb", "mi300x", 1, GP_NAME_MAPPED},
        {"digitalocean", "gpu-h100x8-640gb", "h100-sxm", 8, GP_NAME_MAPPED},
        {"digitalocean", "gpu-mi355x8-2304gb-spot", "mi355x", 8, GP_NAME_MAPPED},
        {"digitalocean", "AMD Instinct MI325X", "mi325x", 0, GP_NAME_MAPPED},
        {"vultr", "vbm-256c-2048gb-8-mi300x-gpu", "mi300x", 8, GP_NAME_MAPPED},
        {"vultr", "AMD_MI355X", "mi355x", 0, GP_NAME_MAPPED},
        {"vultr", "NVIDIA_B200", "b200", 0, GP_NAME_MAPPED},
        {"vast", "H100 SXM", "h100-sxm", 0, GP_NAME_MAPPED},
        {"vast", "H100_NVL", "h100-nvl", 0, GP_NAME_OUT_OF_SCOPE},
        {"crusoe", "MI355X_288GB", "mi355x", 0, GP_NAME_MAPPED},
        {"crusoe", "H200-SXM-141GB", "h200-sxm", 0, GP_NAME_MAPPED},
        /* trap: Scaleway's H100 types without "-SXM" are the PCIe card */
        {"scaleway", "H100-1-80G", "h100-pcie", 1, GP_NAME_MAPPED},
        {"scaleway", "H100-2-80G", "h100-pcie", 2, GP_NAME_MAPPED},
        {"scaleway", "H100-SXM-8-80G", "h100-sxm", 0, GP_NAME_MAPPED},
        {"scaleway", "B300-SXM-8-288G", "b300", 0, GP_NAME_MAPPED},
        {"scaleway", "L40S-1-48G", "l40", 0, GP_NAME_OUT_OF_SCOPE},
        {"scaleway", "L4-1-24G", "l4", 0, GP_NAME_OUT_OF_SCOPE},
        {"scaleway", "RENDER-S", "", 0, GP_NAME_UNKNOWN},
        {"ovh", "H100", "h100-sxm", 0, GP_NAME_MAPPED},
        {"ovh", "A10", "a10", 0, GP_NAME_OUT_OF_SCOPE},
        {"ovh", "L4", "l4", 0, GP_NAME_OUT_OF_SCOPE},
        {"azure", "Standard_ND128isr_NDR_GB200_v6", "gb200-nvl72", 4, GP_NAME_MAPPED},
        {NULL, "NVIDIA GB200", "gb200-nvl72", 0, GP_NAME_MAPPED},
        {NULL, "NVIDIA GB300", "gb300-nvl72", 0, GP_NAME_MAPPED},
        {NULL, "NVIDIA B300 SXM6 AC", "b300", 0, GP_NAME_MAPPED},
        {"lambda", "gpu_8x_b300_sxm6", "b300", 8, GP_NAME_MAPPED},
        {NULL, "NVIDIA B200", "b200", 0, GP_NAME_MAPPED},
        {NULL, "A100 80GB", "a100", 0, GP_NAME_OUT_OF_SCOPE},
        {NULL, "Gaudi 3", "", 0, GP_NAME_UNKNOWN},
        {NULL, "TPU v5p", "", 0, GP_NAME_UNKNOWN},
    };
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gp_gpu_name out;
        enum gp_name_match m = gp_normalize_gpu_name(&out, cases[i].provider, cases[i].name);
        if (m != cases[i].match || strcmp(out.gpu_id, cases[i].gpu_id) != 0 ||
            out.gpu_count != cases[i].count)
            fail_msg("'%s': got %d %s x%d, want %d %s x%d", cases[i].name, m, out.gpu_id,
                     out.gpu_count, cases[i].match, cases[i].gpu_id, cases[i].count);
    }
}

static struct gp_fx_table test_fx(void)
{
    static struct gp_fx_rate rates[] = {{"EUR", 0.9, 0, ""}, {"DKK", 7.0, 0, ""}};
    return (struct gp_fx_table){rates, 2};
}

static void prices_normalise_to_usd_per_gpu_hour(void **state)
{
    struct gp_fx_table fx = test_fx();
    struct gp_offer o;
    (void)state;

    memset(&o, 0, sizeof(o));
    o.amount = 31.92;
    o.unit = GP_UNIT_INSTANCE_HOUR;
    o.gpus_per_instance = 8;
    memcpy(o.currency, "USD", 4);
    assert_int_equal(gp_normalize_price(&o, &fx), 0);
    assert_float_equal(o.usd_per_gpu_hour, 3.99, 1e-9);

    memcpy(o.currency, "DKK", 4);
    o.amount = 14.0;
    o.unit = GP_UNIT_GPU_HOUR;
    o.gpus_per_instance = 1;
    assert_int_equal(gp_normalize_price(&o, &fx), 0);
    assert_float_equal(o.usd_per_gpu_hour, 2.0, 1e-9);

    static const struct {
        double amount;
        int gpus;
        const char *currency;
    } bad[] = {{0, 1, "USD"},   {-1, 1, "USD"},  {1e9, 1, "USD"},  {0.001, 1, "USD"},
               {2.0, 1, "XYZ"}, {2.0, 0, "USD"}, {2.0, 100, "USD"}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        o.amount = bad[i].amount;
        o.gpus_per_instance = bad[i].gpus;
        memcpy(o.currency, bad[i].currency, 4);
        assert_int_equal(gp_normalize_price(&o, &fx), GP_EINVALID);
    }
}

static void pricelist_strict_and_lenient(void **state)
{
    static const char good[] =
        "{\"provider\": \"acme\", \"currency\": \"EUR\", \"observed\": \"2026-09-01\","
        " \"source_url\": \"https://example.invalid/list\", \"offers\": ["
        "{\"gpu\": \"mi300x\", \"price\": 18.0, \"unit\": \"instance-hour\","
        " \"gpus_per_instance\": 8, \"tier\": \"reserved\"},"
        "{\"gpu\": \"NVIDIA H100 80GB HBM3\", \"price\": 2.7}]}";
    static const char mixed[] =
        "{\"provider\": \"acme\", \"currency\": \"USD\", \"observed\": \"2026-09-01\","
        " \"offers\": [{\"gpu\": \"b200\", \"price\": 5.0},"
        " {\"gpu\": \"b200\", \"price\": -5.0},"
        " {\"gpu\": \"Gaudi 3\", \"price\": 2.0},"
        " {\"gpu\": \"A100 80GB\", \"price\": 1.0},"
        " {\"gpu\": \"b200\", \"price\": 5.0, \"unit\": \"per-fortnight\"}]}";
    struct gp_catalog cat;
    struct gp_fx_table fx = test_fx();
    struct gp_pricelist list = {0};
    (void)state;

    assert_int_equal(gp_catalog_load(&cat), 0);
    assert_int_equal(gp_pricelist_parse(&list, good, strlen(good), "g.json", "mine", &cat, &fx,
                                        GP_PRICELIST_STRICT),
                     0);
    assert_int_equal(list.count, 2);
    assert_string_equal(list.offers[0].gpu_id, "mi300x");
    assert_int_equal(list.offers[0].tier, GP_TIER_RESERVED);
    assert_float_equal(list.offers[0].usd_per_gpu_hour, 18.0 / 0.9 / 8, 1e-9);
    assert_string_equal(list.offers[1].gpu_id, "h100-sxm");
    assert_string_equal(list.offers[1].feed, "mine");
    gp_pricelist_release(&list);

    assert_int_equal(gp_pricelist_parse(&list, mixed, strlen(mixed), "m.json", "mine", &cat, &fx,
                                        GP_PRICELIST_STRICT),
                     GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), "m.json:1:"));
    assert_non_null(strstr(gp_error_last(), "offers[1].price"));
    gp_pricelist_release(&list);

    assert_int_equal(gp_pricelist_parse(&list, mixed, strlen(mixed), "m.json", "mine", &cat, &fx,
                                        GP_PRICELIST_LENIENT),
                     0);
    assert_int_equal(list.count, 1);
    assert_int_equal(list.rejected, 2);
    assert_int_equal(list.unmapped, 1);
    assert_int_equal(list.out_of_scope, 1);
    gp_pricelist_release(&list);
    gp_catalog_release(&cat);
}

/* A price list states commitments: a reserved term with its upfront share, a capacity block's
 * days, minimum term and GPUs, how long the price holds; terms on the wrong tier are refused. */
static void pricelist_reads_terms(void **state)
{
    static const char good[] =
        "{\"provider\": \"acme\", \"currency\": \"USD\", \"observed\": \"2026-09-01\","
        " \"offers\": [{\"gpu\": \"b200\", \"price\": 4.0, \"gpus_per_instance\": 8,"
        " \"tier\": \"reserved\", \"term_months\": 12, \"upfront_share\": 0.5,"
        " \"min_term_hours\": 8760, \"min_gpus\": 16, \"valid_until\": \"2026-12-31\"},"
        " {\"gpu\": \"b200\", \"price\": 60.0, \"unit\": \"instance-hour\","
        " \"gpus_per_instance\": 8, \"tier\": \"capacity-block\", \"term_days\": 7}]}";
    static const char *const bad[] = {
        "{\"provider\": \"a\", \"currency\": \"USD\", \"observed\": \"2026-09-01\", \"offers\":"
        " [{\"gpu\": \"b200\", \"price\": 4.0, \"term_months\": 12}]}",
        "{\"provider\": \"a\", \"currency\": \"USD\", \"observed\": \"2026-09-01\", \"offers\":"
        " [{\"gpu\": \"b200\", \"price\": 4.0, \"tier\": \"capacity-block\"}]}",
        "{\"provider\": \"a\", \"currency\": \"USD\", \"observed\": \"2026-09-01\", \"offers\":"
        " [{\"gpu\": \"b200\", \"price\": 4.0, \"tier\": \"reserved\", \"term_months\": 12,"
        " \"upfront_share\": 1.5}]}",
    };
    struct gp_catalog cat;
    struct gp_fx_table fx = test_fx();
    struct gp_pricelist list = {0};
    (void)state;

    assert_int_equal(gp_catalog_load(&cat), 0);
    assert_int_equal(gp_pricelist_parse(&list, good, strlen(good), "t.json", "mine", &cat, &fx,
                                        GP_PRICELIST_STRICT),
                     0);
    assert_int_equal(list.count, 2);
    assert_int_equal(list.offers[0].term_months, 12);
    assert_float_equal(list.offers[0].upfront_share, 0.5, 1e-12);
    assert_int_equal(list.offers[0].min_term_hours, 8760);
    assert_int_equal(list.offers[0].min_gpus, 16);
    assert_true(list.offers[0].valid_until > list.offers[0].observed_at);
    assert_float_equal(list.offers[0].usd_per_instance_hour, 32.0, 1e-9);
    assert_int_equal(list.offers[1].tier, GP_TIER_CAPACITY_BLOCK);
    assert_int_equal(list.offers[1].term_days, 7);
    assert_float_equal(list.offers[1].usd_per_gpu_hour, 7.5, 1e-9);
    gp_pricelist_release(&list);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(gp_pricelist_parse(&list, bad[i], strlen(bad[i]), "b.json", "mine", &cat,
                                            &fx, GP_PRICELIST_STRICT),
                         GP_EINVALID);
        gp_pricelist_release(&list);
    }
    gp_catalog_release(&cat);
}

static void embedded_snapshot_parses(void **state)
{
    struct gp_catalog cat;
    struct gp_fx_table fx;
    struct gp_pricelist list = {0};
    size_t h100_sxm = 0, mi350x = 0;
    (void)state;

    assert_int_equal(gp_catalog_load(&cat), 0);
    assert_int_equal(gp_fx_load(&fx), 0);
    assert_int_equal(gp_pricelist_load_snapshot(&list, &cat, &fx), 0);
    assert_true(list.count >= 20);
    for (size_t i = 0; i < list.count; i++) {
        const struct gp_offer *o = &list.offers[i];
        struct gp_gpu_name unit;
        h100_sxm += strcmp(o->gpu_id, "h100-sxm") == 0;
        mi350x += strcmp(o->gpu_id, "mi350x") == 0;
        assert_true(o->source_url[0] != '\0');
        /* a multi-GPU machine is rented whole, whatever unit its price is quoted in */
        if (gp_normalize_gpu_name(&unit, o->provider, o->instance_type) == GP_NAME_MAPPED &&
            unit.gpu_count > 0 && o->gpus_per_instance != unit.gpu_count)
            fail_msg("%s %s: %d GPUs per instance, the machine has %d", o->provider,
                     o->instance_type, o->gpus_per_instance, unit.gpu_count);
        assert_true(o->usd_per_instance_hour >= o->usd_per_gpu_hour * o->gpus_per_instance - 1e-9);
        /* "-contracted" sizes are sold under a contract, never on demand */
        if (strstr(o->instance_type, "-contracted"))
            assert_int_equal(o->tier, GP_TIER_RESERVED);
        if (strcmp(o->provider, "oci") == 0 && strncmp(o->instance_type, "BM.GPU.", 7) == 0)
            assert_int_equal(o->gpus_per_instance, 8);
    }
    assert_int_equal(h100_sxm, 2); /* RunPod secure $3.49 and Lambda 8x $31.92 */
    assert_int_equal(mi350x, 0);   /* no public price */
    gp_pricelist_release(&list);
    gp_fx_release(&fx);
    gp_catalog_release(&cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_map_to_canonical_ids),
        cmocka_unit_test(prices_normalise_to_usd_per_gpu_hour),
        cmocka_unit_test(pricelist_strict_and_lenient),
        cmocka_unit_test(pricelist_reads_terms),
        cmocka_unit_test(embedded_snapshot_parses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
