/* A test module that exports a table under the wrong name: no entry symbol. */
#include "mod_common.h"

static int probe(char *reason, size_t size)
{
    snprintf(reason, size, "%s", "");
    return 100;
}

static const struct gp_backend_ops ops = {
    GP_BACKEND_ABI_VERSION, "nosym",          "test module",   probe,     mod_init,
    mod_shutdown,           mod_device_count, mod_device_info, mod_bench, mod_last_error,
};

EXPORT const struct gp_backend_ops *gpuplan_backend_entry_v0(void)
{
    return &ops;
}
