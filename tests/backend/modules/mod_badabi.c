/* A test module built for the next ABI version: the registry must reject it unopened. */
#include "mod_common.h"

static int probe(char *reason, size_t size)
{
    snprintf(reason, size, "%s", "");
    return 100;
}

static const struct gp_backend_ops ops = {
    GP_BACKEND_ABI_VERSION + 1,
    "badabi",
    "test module",
    probe,
    mod_init,
    mod_shutdown,
    mod_device_count,
    mod_device_info,
    mod_bench,
    mod_last_error,
};

EXPORT const struct gp_backend_ops *gpuplan_backend_entry(void)
{
    return &ops;
}
