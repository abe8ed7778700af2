/* The planner tests' shared fixture: the embedded GPU catalog, efficiency table and model
 * presets, loaded once per test group, and a lookup of a catalog GPU that must exist. Included
 * by one test file at a time (static storage). */
#ifndef GP_TESTS_PLANNER_FIXTURE_H
#define GP_TESTS_PLANNER_FIXTURE_H

#include <stdlib.h>

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

static const struct gp_gpu *gpu(const char *id)
{
    const struct gp_gpu *g = gp_catalog_find(&cat, id);
    assert_non_null(g);
    return g;
}

#endif
