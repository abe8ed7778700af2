/* Choosing GPU types from the catalog by a list a user typed (`--gpus ID,ID,...`). */
#include "catalog/catalog.h"

#include <stdbool.h>
#include <string.h>

#include "util/error.h"

/* Add the GPU named by item[0..len) unless it is chosen already or of another vendor; 0, or
 * GP_EINVALID (with a message only for an unknown id). */
static int select_one(const struct gp_catalog *cat, const char *item, size_t len,
                      const char *vendor, bool announced, const struct gp_gpu **out, size_t *n)
{
    char id[GP_GPU_ID_MAX + 8];
    const struct gp_gpu *gpu;
    bool seen = false;

    if (len == 0 || len >= sizeof(id))
        return GP_EINVALID;
    memcpy(id, item, len);
    id[len] = '\0';
    if (gp_catalog_require(cat, id, &gpu))
        return GP_EINVALID;
    if (gpu->status == GP_STATUS_ANNOUNCED && !announced)
        return gp_error_set(
            GP_EINVALID, "'%s' is announced, not shipping: ships %s; --include-announced plans it",
            id, gpu->ships);
    for (size_t i = 0; i < *n; i++)
        seen |= out[i] == gpu;
    if (!seen && (!vendor || strcmp(gp_vendor_name(gpu->vendor), vendor) == 0))
        out[(*n)++] = gpu;
    return 0;
}

/* Whether entry `g` is planned when no list names the types. */
static bool chosen_by_default(const struct gp_gpu *g, const char *vendor, bool announced)
{
    return (!vendor || strcmp(gp_vendor_name(g->vendor), vendor) == 0) &&
           (announced || g->status != GP_STATUS_ANNOUNCED);
}

int gp_catalog_select(const struct gp_catalog *cat, const char *list, const char *vendor,
                      bool announced, const struct gp_gpu **out, size_t *n)
{
    *n = 0;
    if (vendor && strcmp(vendor, "nvidia") != 0 && strcmp(vendor, "amd") != 0)
        return gp_error_set(GP_EINVALID, "--vendor '%s' is not nvidia or amd", vendor);
    for (const char *p = list; p && *p;) {
        size_t len = strcspn(p, ",");
        gp_error_clear();
        if (select_one(cat, p, len, vendor, announced, out, n) != 0)
            return gp_error_last()[0]
                       ? gp_error_wrap("--gpus")
                       : gp_error_set(GP_EINVALID, "--gpus '%s': expected ID,ID,...", list);
        p += len + (p[len] == ',');
    }
    for (size_t i = 0; !list && i < cat->count; i++)
        if (chosen_by_default(&cat->gpus[i], vendor, announced))
            out[(*n)++] = &cat->gpus[i];
    if (*n == 0)
        return gp_error_set(GP_EINVALID, "no GPU type left after --gpus and --vendor");
    return 0;
}
