/* A test module whose probe scores 0 ("no devices"): listed, not loaded, never initialised. */
#include <stdlib.h>

#include "mod_common.h"

static int probe(char *reason, size_t size)
{
    snprintf(reason, size, "%s", "no devices");
    return 0;
}

/* Initialising a module that scored 0 is a registry bug: make it loud. */
static int init_must_not_run(void)
{
    (void)mod_init;
    abort();
}

static const struct gp_backend_ops ops = {
    GP_BACKEND_ABI_VERSION, "zero",           "test module",   probe,     init_must_not_run,
    mod_shutdown,           mod_device_count, mod_device_info, mod_bench, mod_last_error,
};

EXPORT const struct gp_backend_ops *gpuplan_backend_entry(void)
{
    return &ops;
}
