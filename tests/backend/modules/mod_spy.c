/* A test module that leaves a trace when it is loaded at all: its constructor appends a line to
 * the file named by GPUPLAN_SPY_FILE, before any check of the registry could stop it. The loader
 * tests use it to see which commands and folders make gpuplan run a module's code. */
#include <stdlib.h>

#include "mod_common.h"

/* What the trace says; a second build of this file (the "other user's" module of the flipped-link
 * test) says something else, so the test can tell which of the two ran. */
#ifndef SPY_TRACE
#define SPY_TRACE "spy module code ran"
#endif

__attribute__((constructor)) static void spy_loaded(void)
{
    const char *path = getenv("GPUPLAN_SPY_FILE");
    FILE *f = path ? fopen(path, "a") : NULL;

    if (f) {
        fputs(SPY_TRACE "\n", f);
        fclose(f);
    }
}

static int probe(char *reason, size_t size)
{
    snprintf(reason, size, "%s", "");
    return 1;
}

static const struct gp_backend_ops ops = {
    GP_BACKEND_ABI_VERSION, "spy",           "test module", probe,          mod_init, mod_shutdown,
    mod_device_count,       mod_device_info, mod_bench,     mod_last_error,
};

EXPORT const struct gp_backend_ops *gpuplan_backend_entry(void)
{
    return &ops;
}
