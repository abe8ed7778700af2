/* Which offers can be bought as one cluster: data/clusters.json names, per provider and
 * instance type, whether nodes of it join a scale-out fabric, which, and how fast. */
#ifndef GP_CATALOG_CLUSTERS_H
#define GP_CATALOG_CLUSTERS_H

#include <stdbool.h>
#include <stddef.h>

/* One entry: a provider's instance types (a shell glob) and whether they form clusters. */
struct gp_cluster_rule {
    char provider[32];      /* as offers name it: "oci", "azure", ... */
    char instance_type[96]; /* the instance type, or a shell glob over it */
    bool cluster;           /* nodes of it can be bought as one cluster */
    char fabric[32];        /* "InfiniBand", "EFA", ...; "" when not a cluster */
    double fabric_gbps;     /* scale-out bandwidth of one node, Gb/s; 0 = not documented */
};

struct gp_cluster_table {
    struct gp_cluster_rule *rules; /* owned, file order: the first match decides */
    size_t count;
};

/* Load clusters.json through gp_data_read (embedded, or --data) / parse its text (`origin` names
 * it in messages). Returns 0 or GP_EINVALID naming file, field, line and column (or
 * GP_ENOMEM). Release with gp_clusters_release (accepts a zeroed table). */
int gp_clusters_load(struct gp_cluster_table *out);
/* clusters.json as a table (catalog/data.h), for gp_clusters_load and for compiling. */
extern const struct gp_data_table gp_clusters_file;
int gp_clusters_parse(struct gp_cluster_table *out, const char *text, size_t len,
                      const char *origin);
void gp_clusters_release(struct gp_cluster_table *table);

/* The rule for an offer of `provider` and `instance_type`: the first that matches, or NULL (the
 * offer cannot form a cluster). Borrowed from the table; a NULL table matches nothing. */
const struct gp_cluster_rule *gp_clusters_find(const struct gp_cluster_table *table,
                                               const char *provider, const char *instance_type);

#endif
