/* Fuzz target: the comma lists and NAME=VALUE pairs of the command line: --gpus (with and
 * without --vendor), --columns of the plan view, and refresh --url NAME=URL against the bundled
 * feeds. The first byte picks the parser; the rest is the flag's value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "pricing/feeds.h"
#include "report/plan_table.h"

/* Stop on a broken invariant, whatever NDEBUG says (the replay build has it). */
#define require(cond) ((cond) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct gp_catalog catalog;
static struct gp_feed_configs feeds;

static void gpus(const char *list, const char *vendor, bool announced)
{
    const struct gp_gpu *chosen[64];
    size_t n = 0;

    require(catalog.count <= sizeof(chosen) / sizeof(chosen[0]));
    if (gp_catalog_select(&catalog, list, vendor, announced, chosen, &n) == 0) {
        require(n >= 1 && n <= catalog.count);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                require(chosen[i] != chosen[j]);
    }
}

static void columns(const char *list, enum gp_workload_kind kind)
{
    struct gp_plan_view view;

    gp_plan_view_init(&view, NULL, 0, kind, "USD", 1.0);
    gp_plan_view_pick(&view, list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text;

    if (size < 1)
        return 0;
    if (!catalog.count && gp_catalog_load(&catalog) != 0)
        abort();
    if (!feeds.count) {
        setenv("XDG_CONFIG_HOME", "/nonexistent", 1); /* the bundled feeds only */
        if (gp_feed_configs_load(&feeds, NULL) != 0)
            abort();
    }
    if (!(text = malloc(size)))
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    switch (data[0] % 5) {
    case 0:
        gpus(text, NULL, data[0] & 16);
        break;
    case 1:
        gpus(text, data[0] & 8 ? "amd" : "nvidia", data[0] & 16);
        break;
    case 2:
        columns(text, GP_WORKLOAD_INFERENCE);
        break;
    case 3:
        columns(text, GP_WORKLOAD_TRAINING);
        break;
    default:
        gp_feed_configs_override(&feeds, text);
        break;
    }
    free(text);
    return 0;
}
