/* The sites an owned fleet can be hosted at: data/sites.json (embedded, or --data), one entry
 * per electricity bidding zone or named colocation site, every figure with its source. */
#ifndef GP_CATALOG_SITES_H
#define GP_CATALOG_SITES_H

#include <stddef.h>

#include "gpuplan/site.h"

struct gp_site_table {
    struct gp_site *sites; /* owned, file order; `count` entries */
    size_t count;
};

/* Load sites.json through gp_data_read / parse its text (`origin` names it in messages).
 * Returns 0 or GP_EINVALID naming file, field, line and column (or GP_ENOMEM, or the read's
 * error). Release with gp_sites_release. */
int gp_sites_load(struct gp_site_table *out);
int gp_sites_parse(struct gp_site_table *out, const char *text, size_t len, const char *origin);
void gp_sites_release(struct gp_site_table *table);

/* The site whose id is `id` (case-insensitive: "DK1" finds "dk1"), or NULL. Borrowed. */
const struct gp_site *gp_sites_find(const struct gp_site_table *table, const char *id);

/* Like gp_sites_find, but a missing id is GP_EINVALID with a message listing the known ids. */
int gp_sites_require(const struct gp_site_table *table, const char *id, const struct gp_site **out);

#endif
