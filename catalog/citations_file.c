/* Reading data/citations.json into a loaded catalog: each figure's citation, checked against
 * the figure it backs. Only what lists or checks the citations reads the file. */
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/citations.h"
#include "catalog/data.h"
#include "util/error.h"
#include "util/json.h"

/* The citations read so far, grown by doubling; handed to the catalog when all are read. */
struct citation_list {
    struct gp_citation *items;
    size_t count, cap;
};

static struct gp_citation *next_slot(struct citation_list *l)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        struct gp_citation *grown = realloc(l->items, cap * sizeof(*grown));
        if (!grown)
            return NULL;
        l->items = grown;
        l->cap = cap;
    }
    return &l->items[l->count];
}

/* FIGURE: {"says", "source", "note"} of entry `index`: read, and checked against the figure.
 * How sure the figure is comes from the entry (gpus.json's "confidence"). */
static int read_citation(struct gp_json_reader *r, const cJSON *cited, const struct gp_gpu *gpu,
                         size_t index, struct gp_citation *c)
{
    static const char *const keys[] = {"says", "source", "note", NULL};
    int figure = gp_figure_parse(cited->string), rc;
    char why[256];

    memset(c, 0, sizeof(*c));
    if (figure < 0)
        return gp_json_fail(r, NULL, "is not a figure of a gpus.json entry");
    if (!cJSON_IsObject(cited))
        return gp_json_fail(r, NULL, "must be an object");
    c->gpu = index;
    c->figure = (enum gp_figure)figure;
    c->confidence = (enum gp_confidence)gpu->confidence[figure];
    rc = gp_json_check_keys(r, cited, keys);
    if (!rc)
        rc = gp_json_string(r, cited, "says", c->says, sizeof(c->says), GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_string(r, cited, "source", c->source, sizeof(c->source), GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_string(r, cited, "note", c->note, sizeof(c->note), GP_JSON_OPTIONAL);
    if (!rc && !c->says[0] && (c->confidence != GP_CONFIDENCE_ESTIMATE || !c->note[0]))
        rc = gp_json_fail(r, "says",
                          "only a figure gpus.json calls an estimate, with a note, may leave out "
                          "what it cites");
    if (!rc && gp_citation_check(c, gpu, why, sizeof(why)))
        rc = gp_json_fail(r, "says", "%s", why);
    return rc;
}

/* ID: {FIGURE: citation, ...} for the catalog entry `id`. */
static int read_entry(struct gp_json_reader *r, const struct gp_catalog *cat, const cJSON *map,
                      struct citation_list *list)
{
    const struct gp_gpu *gpu = gp_catalog_find(cat, map->string);
    const cJSON *cited;
    int rc = 0;

    if (!gpu)
        return gp_json_fail(r, NULL, "is not an entry of gpus.json");
    if (!cJSON_IsObject(map))
        return gp_json_fail(r, NULL, "must be an object of figures");
    cJSON_ArrayForEach(cited, map)
    {
        size_t saved = gp_json_enter(r, cited->string, 0);
        struct gp_citation *c = next_slot(list);
        rc = c ? read_citation(r, cited, gpu, (size_t)(gpu - cat->gpus), c)
               : gp_error_set(GP_ENOMEM, "out of memory reading citations");
        gp_json_leave(r, saved);
        if (rc)
            return rc;
        list->count++;
    }
    return 0;
}

int gp_citations_parse(struct gp_catalog *cat, const char *text, size_t len, const char *origin)
{
    static const char *const top_keys[] = {"schema_version", "notes", "citations", NULL};
    struct gp_json_reader r;
    struct citation_list list = {NULL, 0, 0};
    cJSON *root = NULL;
    const cJSON *all = NULL, *map;
    int rc;

    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse_versioned(&root, &r, top_keys, 1);
    if (!rc)
        rc = gp_json_child(&r, root, "citations", false, &all, GP_JSON_REQUIRED);
    if (!rc) {
        size_t outer = gp_json_enter(&r, "citations", 0);
        cJSON_ArrayForEach(map, all)
        {
            size_t saved = gp_json_enter(&r, map->string, 0);
            rc = read_entry(&r, cat, map, &list);
            gp_json_leave(&r, saved);
            if (rc)
                break;
        }
        gp_json_leave(&r, outer);
    }
    cJSON_Delete(root);
    if (rc) {
        free(list.items);
        return rc;
    }
    free(cat->citations);
    cat->citations = list.items;
    cat->ncitations = list.count;
    return 0;
}

static int parse_into(void *out, const char *text, size_t len, const char *origin)
{
    return gp_citations_parse(out, text, len, origin);
}

int gp_catalog_load_citations(struct gp_catalog *cat)
{
    /* The embedded citations describe the embedded catalog, not a --data folder's own. */
    if (gp_data_in_dir("gpus.json") && !gp_data_in_dir("citations.json"))
        return 0;
    return gp_data_parse_file("citations.json", parse_into, cat);
}
