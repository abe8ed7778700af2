/* Catalog citations: the cited words read as quantities, each checked against its figure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "catalog/citations.h"
#include "util/error.h"

/* A 72-GPU rack system, as an NVL72 entry describes one. */
static struct gp_gpu rack_system(void)
{
    struct gp_gpu g;

    memset(&g, 0, sizeof(g));
    g.gpus_per_node = 72;
    g.rack.gpus = 72;
    g.peak_tflops[GP_FP4] = 10000;
    g.hbm_gb = 186;
    return g;
}

static void words_come_to_the_figure_unit(void **state)
{
    static const struct {
        const char *says;
        int figure;
        double value;
    } cases[] = {
        {"1440 PFLOPS sparse per rack", GP_FP4, 10000.0},
        {"10000 TFLOPS sparse", GP_FP8, 5000.0},
        {"5 PFLOPS dense", GP_FP8, 5000.0},
        {"105 PFLOPS dense per 8 gpus", GP_FP4, 13125.0},
        {"0.15 POPS dense", GP_INT8, 150.0},
        {"13.4 TB per rack", GP_FIGURE_HBM_GB, 13400.0 / 72},
        {"288 GB", GP_FIGURE_HBM_GB, 288.0},
        {"576 TB/s per rack", GP_FIGURE_HBM_TBS, 8.0},
        {"1.1 kW", GP_FIGURE_TDP_W, 1100.0},
        {"900 GB/s one-way", GP_FIGURE_SCALEUP_GBS, 1800.0},
        {"3.6 TB/s bidirectional", GP_FIGURE_SCALEUP_GBS, 3600.0},
        {"130 TB/s per rack", GP_FIGURE_SCALEUP_GBS, 130000.0 / 72},
        {"800 Gb/s", GP_FIGURE_SCALEOUT_GBPS, 800.0},
        {"1.6 Tb/s", GP_FIGURE_SCALEOUT_GBPS, 1600.0},
        {"300 GB/s", GP_FIGURE_SCALEOUT_GBPS, 2400.0},
        {"72 GPUs", GP_FIGURE_GPUS_PER_NODE, 72.0},
        {"120 kW", GP_FIGURE_RACK_KW, 120.0},
    };
    struct gp_gpu g = rack_system();
    char why[200];
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        double value = 0;
        if (gp_citation_value(cases[i].says, (enum gp_figure)cases[i].figure, &g, &value, why,
                              sizeof(why)) != 0)
            fail_msg("case %zu: '%s' refused: %s", i, cases[i].says, why);
        if (value < cases[i].value * 0.9999 || value > cases[i].value * 1.0001)
            fail_msg("case %zu: '%s' came to %g, not %g", i, cases[i].says, value, cases[i].value);
    }
}

static void words_that_say_nothing_certain_are_refused(void **state)
{
    static const struct {
        const char *says;
        int figure;
        const char *reason;
    } cases[] = {
        {"1440 PFLOPS per rack", GP_FP4, "dense or sparse"},
        {"5 TB/s", GP_FIGURE_HBM_GB, "'TB/s' is not a unit of hbm_gb"},
        {"10 furlongs", GP_FIGURE_TDP_W, "furlongs"},
        {"about 5 PFLOPS dense", GP_FP8, "about"},
        {"5 PFLOPS dense per galaxy", GP_FP8, "galaxy"},
        {"", GP_FP8, ""},
    };
    struct gp_gpu g = rack_system();
    char why[200];
    double value;
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        why[0] = '\0';
        if (gp_citation_value(cases[i].says, (enum gp_figure)cases[i].figure, &g, &value, why,
                              sizeof(why)) != -1)
            fail_msg("case %zu: '%s' was read", i, cases[i].says);
        if (!strstr(why, cases[i].reason))
            fail_msg("case %zu: '%s' lacks '%s'", i, why, cases[i].reason);
    }
    /* per rack needs a rack */
    g.rack.gpus = 0;
    assert_int_equal(
        gp_citation_value("13.4 TB per rack", GP_FIGURE_HBM_GB, &g, &value, why, sizeof(why)), -1);
}

/* Every citation of the embedded catalog backs its figure within the tolerance. */
static void embedded_citations_back_their_figures(void **state)
{
    struct gp_catalog cat;
    char why[256];
    (void)state;

    assert_int_equal(gp_catalog_load(&cat), 0);
    assert_int_equal(cat.ncitations, 0); /* a plan does not read them */
    assert_int_equal(gp_catalog_load_citations(&cat), 0);
    assert_true(cat.ncitations > 60);
    for (size_t i = 0; i < cat.ncitations; i++) {
        const struct gp_citation *c = &cat.citations[i];
        const struct gp_gpu *g = &cat.gpus[c->gpu];
        assert_true(c->gpu < cat.count);
        if (gp_citation_check(c, g, why, sizeof(why)) != 0)
            fail_msg("%s: %s", g->id, why);
        assert_true(strlen(c->source) > 0);
    }
    gp_catalog_release(&cat);
}

static bool cited(const struct gp_catalog *cat, const char *id, enum gp_figure f)
{
    for (size_t i = 0; i < cat->ncitations; i++)
        if (strcmp(cat->gpus[cat->citations[i].gpu].id, id) == 0 && cat->citations[i].figure == f)
            return true;
    return false;
}

/* The rack-scale and announced entries cite each figure a buyer compares. */
static void new_systems_cite_every_figure(void **state)
{
    static const char *const ids[] = {"b300", "gb200-nvl72", "gb300-nvl72", "mi455x-helios",
                                      "vr200-nvl72"};
    static const int figures[] = {GP_BF16,
                                  GP_FP8,
                                  GP_FP4,
                                  GP_FIGURE_HBM_GB,
                                  GP_FIGURE_HBM_TBS,
                                  GP_FIGURE_TDP_W,
                                  GP_FIGURE_SCALEUP_GBS,
                                  GP_FIGURE_SCALEOUT_GBPS,
                                  GP_FIGURE_RACK_KW};
    struct gp_catalog cat;
    (void)state;

    assert_int_equal(gp_catalog_load(&cat), 0);
    assert_int_equal(gp_catalog_load_citations(&cat), 0);
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        const struct gp_gpu *g = gp_catalog_find(&cat, ids[i]);
        assert_non_null(g);
        assert_true(g->system[0] != '\0');
        assert_true(g->rack.gpus > 0 && g->rack.kw > 0);
        for (size_t f = 0; f < sizeof(figures) / sizeof(figures[0]); f++)
            if (!cited(&cat, ids[i], (enum gp_figure)figures[f]))
                fail_msg("%s: %s has no citation", ids[i],
                         gp_figure_name((enum gp_figure)figures[f]));
    }
    assert_int_equal(gp_catalog_find(&cat, "mi455x-helios")->status, GP_STATUS_ANNOUNCED);
    assert_int_equal(gp_catalog_find(&cat, "vr200-nvl72")->status, GP_STATUS_ANNOUNCED);
    assert_int_equal(gp_catalog_find(&cat, "gb300-nvl72")->status, GP_STATUS_SHIPPING);
    assert_int_equal(gp_catalog_find(&cat, "gb300-nvl72")->gpus_per_node, 72);
    assert_true(gp_catalog_find(&cat, "vr200-nvl72")->ships[0] != '\0');
    gp_catalog_release(&cat);
}

/* A citation that contradicts its entry's figure is refused, naming the file's field; so is
 * one of an entry or a figure the catalog does not have. */
static void a_wrong_figure_is_refused(void **state)
{
    static const char gpus[] =
        "{\"gpus\": [{\"id\": \"x\", \"name\": \"X\", \"vendor\": \"nvidia\", \"arch\": "
        "\"sm_100\", \"peak_tflops\": {\"fp64\": 37, \"fp32\": 75, \"tf32\": 1100, "
        "\"bf16\": 2250, \"fp16\": 2250, \"fp8\": 4500, \"fp6\": 4500, \"fp4\": 9000, "
        "\"int8\": 4500}, \"hbm_gb\": 180, \"hbm_tbs\": 8, \"tdp_w\": 1000, "
        "\"scaleup_gbs\": 1800, \"scaleout_gbps\": 400, \"gpus_per_node\": 8, "
        "\"node_overhead_w\": 3000, \"llc_mb\": 126, \"source\": \"https://example.com\", "
        "\"confidence\": {\"default\": \"official\", \"llc_mb\": \"estimate\"}}]}";
    static const char head[] = "{\"schema_version\": 1, \"citations\": {\"%s\": {\"%s\": "
                               "{\"says\": \"%s\", \"source\": \"https://example.com\"%s}}}}";
    static const struct {
        const char *id, *figure, *says, *note;
        int rc;
        const char *message;
    } cases[] = {
        {"x", "hbm_gb", "180 GB", "", 0, NULL},
        {"x", "hbm_gb", "192 GB", "", GP_EINVALID, "citations.x.hbm_gb.says"},
        {"x", "peak_tflops.fp8", "9 PFLOPS sparse", "", 0, NULL},
        {"x", "peak_tflops.fp8", "9 PFLOPS dense", "", GP_EINVALID,
         "citations.x.peak_tflops.fp8.says"},
        {"x", "hbm_gbs", "180 GB", "", GP_EINVALID, "citations.x.hbm_gbs: is not a figure"},
        {"x", "hbm_gb", "180 parsecs", "", GP_EINVALID, "parsecs"},
        {"y", "hbm_gb", "180 GB", "", GP_EINVALID, "citations.y: is not an entry of gpus.json"},
        {"x", "llc_mb", "", ", \"note\": \"as the B200\"", 0, NULL},
        {"x", "hbm_gb", "", ", \"note\": \"as the B200\"", GP_EINVALID, "only a figure"},
    };
    char text[1024];
    struct gp_catalog cat;
    (void)state;

    assert_int_equal(gp_catalog_parse(&cat, gpus, strlen(gpus), "g.json"), 0);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(text, sizeof(text), head, cases[i].id, cases[i].figure, cases[i].says,
                 cases[i].note);
        int rc = gp_citations_parse(&cat, text, strlen(text), "c.json");
        if (rc != cases[i].rc)
            fail_msg("case %zu: rc %d: %s", i, rc, rc ? gp_error_last() : "");
        if (rc == 0)
            assert_int_equal(cat.ncitations, 1);
        else if (!strstr(gp_error_last(), cases[i].message))
            fail_msg("case %zu: '%s' lacks '%s'", i, gp_error_last(), cases[i].message);
    }
    assert_int_equal(cat.citations[0].confidence, GP_CONFIDENCE_ESTIMATE); /* the entry's */
    gp_catalog_release(&cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(words_come_to_the_figure_unit),
        cmocka_unit_test(words_that_say_nothing_certain_are_refused),
        cmocka_unit_test(embedded_citations_back_their_figures),
        cmocka_unit_test(new_systems_cite_every_figure),
        cmocka_unit_test(a_wrong_figure_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
