/* The GPU spec catalog: loading data/gpus.json and looking GPUs up by canonical id. */
#ifndef GP_CATALOG_CATALOG_H
#define GP_CATALOG_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "gpuplan/gpu.h"

/* Load gpus.json through gp_data_read. Returns 0 or GP_EINVALID naming file, path, line and
 * column. The catalog owns its array; release with gp_catalog_release. */
int gp_catalog_load(struct gp_catalog *out);
/* gpus.json as a table (catalog/data.h), for gp_catalog_load and for compiling at build time. */
extern const struct gp_data_table gp_catalog_file;

/* Parse catalog text; `origin` names it in messages. */
int gp_catalog_parse(struct gp_catalog *out, const char *text, size_t len, const char *origin);

void gp_catalog_release(struct gp_catalog *cat);

/* The entry with this id, or NULL. Borrowed from the catalog. */
const struct gp_gpu *gp_catalog_find(const struct gp_catalog *cat, const char *id);

/* Like gp_catalog_find, but a missing id is GP_EINVALID with a message listing the known ids
 * (and the nearest one). */
int gp_catalog_require(const struct gp_catalog *cat, const char *id, const struct gp_gpu **out);

/*
 * The GPU types a command line names: `list` "ID,ID,..." (NULL: every type), each once, in the
 * order given, and of `vendor` only ("nvidia", "amd"; NULL: any); announced entries only when
 * `announced` (naming one without it is an error saying so). out[] has room for cat->count
 * entries (borrowed from the catalog); *n is how many were chosen. GP_EINVALID with a message
 * for an empty or overlong item, an unknown id (naming the nearest), an unknown vendor, or a
 * choice that leaves none.
 */
int gp_catalog_select(const struct gp_catalog *cat, const char *list, const char *vendor,
                      bool announced, const struct gp_gpu **out, size_t *n);

#endif
