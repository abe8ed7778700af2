/* Parsing data/clusters.json and finding the rule an offer falls under. */
#include "catalog/clusters.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/data.h"
#include "util/error.h"
#include "util/json.h"

/* A scale-out link faster than this per node is no published product (Gb/s). */
#define MAX_FABRIC_GBPS 100000.0

/* The fabric of a cluster entry: its name, and its speed (0: not documented). */
static int read_fabric(struct gp_json_reader *r, const cJSON *item, struct gp_cluster_rule *rule)
{
    int rc =
        gp_json_string(r, item, "fabric", rule->fabric, sizeof(rule->fabric), GP_JSON_REQUIRED);

    if (!rc)
        rc = gp_json_number(r, item, "fabric_gbps", &rule->fabric_gbps, GP_JSON_REQUIRED);
    if (!rc && !rule->fabric[0])
        rc = gp_json_fail(r, "fabric", "names the fabric (\"InfiniBand\"); it is empty");
    if (!rc && !(rule->fabric_gbps >= 0 && rule->fabric_gbps <= MAX_FABRIC_GBPS))
        rc = gp_json_fail(r, "fabric_gbps", "must be 0 (not documented) to %.0f Gb/s",
                          MAX_FABRIC_GBPS);
    return rc;
}

static int read_rule(struct gp_json_reader *r, const cJSON *item, void *items, size_t index,
                     const void *ctx)
{
    static const char *const keys[] = {"provider",    "instance_type", "cluster", "fabric",
                                       "fabric_gbps", "source",        "note",    NULL};
    struct gp_cluster_rule *rule = &((struct gp_cluster_rule *)items)[index];
    char source[512];
    int rc = gp_json_check_keys(r, item, keys);

    (void)ctx;
    if (!rc)
        rc = gp_json_string(r, item, "provider", rule->provider, sizeof(rule->provider),
                            GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_string(r, item, "instance_type", rule->instance_type,
                            sizeof(rule->instance_type), GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_bool(r, item, "cluster", &rule->cluster, GP_JSON_REQUIRED);
    if (!rc)
        rc = gp_json_string(r, item, "source", source, sizeof(source), GP_JSON_REQUIRED);
    if (!rc && (!rule->provider[0] || !rule->instance_type[0]))
        rc = gp_json_fail(r, rule->provider[0] ? "instance_type" : "provider", "is empty");
    if (!rc && rule->cluster)
        rc = read_fabric(r, item, rule);
    else if (!rc && (cJSON_GetObjectItemCaseSensitive(item, "fabric") ||
                     cJSON_GetObjectItemCaseSensitive(item, "fabric_gbps")))
        rc = gp_json_fail(r, "fabric", "is given for an entry that forms no cluster");
    return rc;
}

int gp_clusters_parse(struct gp_cluster_table *out, const char *text, size_t len,
                      const char *origin)
{
    static const char *const keys[] = {"schema_version", "notes", "offers", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    void *rules = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse_versioned(&root, &r, keys, 1);
    if (!rc)
        rc = gp_json_read_list(&rules, &out->count, &r, root, "offers", sizeof(*out->rules),
                               read_rule, NULL);
    out->rules = rules;
    cJSON_Delete(root);
    if (rc)
        gp_clusters_release(out);
    return rc;
}

static int parse_clusters(void *out, const char *text, size_t len, const char *origin)
{
    return gp_clusters_parse(out, text, len, origin);
}

const struct gp_data_table gp_clusters_file = {
    "clusters.json", parse_clusters, GP_DATA_LAYOUT(struct gp_cluster_table, rules, count)};

int gp_clusters_load(struct gp_cluster_table *out)
{
    memset(out, 0, sizeof(*out));
    return gp_data_load_table(&gp_clusters_file, out);
}

void gp_clusters_release(struct gp_cluster_table *table)
{
    if (!table)
        return;
    free(table->rules);
    memset(table, 0, sizeof(*table));
}

const struct gp_cluster_rule *gp_clusters_find(const struct gp_cluster_table *table,
                                               const char *provider, const char *instance_type)
{
    for (size_t i = 0; table && provider && instance_type && i < table->count; i++) {
        const struct gp_cluster_rule *rule = &table->rules[i];
        if (strcmp(rule->provider, provider) == 0 &&
            fnmatch(rule->instance_type, instance_type, 0) == 0)
            return rule;
    }
    return NULL;
}
