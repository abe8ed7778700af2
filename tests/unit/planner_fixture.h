/* The planner tests' shared fixture: the embedded GPU catalog, efficiency table and model
 * presets, loaded once per test group, and a lookup of a catalog GPU that must exist. Included
 * by one test file at a time (static storage). */
#ifndef GP_TESTS_PLANNER_FIXTURE_H
#define GP_TESTS_PLANNER_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "planner/efficiency.h"
#include "planner/workload.h"
#include "util/buf.h"

static struct gp_catalog cat;
static struct gp_efficiency_table effs;
static struct gp_model_table models;

static int load_data(char **text, size_t *len, const char *rel)
{
    struct gp_buf buf;
    char origin[256];
    gp_buf_init(&buf, 1 << 20);
    int rc = gp_data_read(&buf, rel, origin, sizeof(origin));
    *text = gp_buf_detach(&buf, len);
    return rc;
}

static int setup(void **state)
{
    char *text;
    size_t len;
    (void)state;
    if (gp_catalog_load(&cat))
        return -1;
    if (load_data(&text, &len, "efficiency.json") ||
        gp_efficiency_table_parse(&effs, text, len, "efficiency.json"))
        return -1;
    free(text);
    if (load_data(&text, &len, "models.json") ||
        gp_model_table_parse(&models, text, len, "models.json"))
        return -1;
    free(text);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gp_catalog_release(&cat);
    gp_efficiency_table_release(&effs);
    gp_model_table_release(&models);
    return 0;
}

/* An inference workload on preset `model`: best throughput per GPU, no latency limits, an fp8
 * KV cache, the engine's memory rule. Inline: not every test of the fixture plans one. */
static inline struct gp_workload fixture_inference(const char *model, enum gp_precision p,
                                                   double in, double out)
{
    struct gp_workload w;
    memset(&w, 0, sizeof(w));
    w.kind = GP_WORKLOAD_INFERENCE;
    w.model = *gp_model_table_find(&models, model);
    w.inference.precision = p;
    w.inference.kv_precision = GP_FP8;
    w.inference.input_tokens = in;
    w.inference.output_tokens = out;
    w.inference.load = GP_LOAD_MAX;
    return w;
}

static const struct gp_gpu *gpu(const char *id)
{
    const struct gp_gpu *g = gp_catalog_find(&cat, id);
    assert_non_null(g);
    return g;
}

#endif
