/* Shared pieces of the deliberately broken test modules: a minimal, valid-looking table whose
 * fields each module overrides. */
#ifndef GP_TESTS_MOD_COMMON_H
#define GP_TESTS_MOD_COMMON_H

#include <stdio.h>
#include <string.h>

#include "gpuplan/backend.h"

#define EXPORT __attribute__((visibility("default")))

static int mod_init(void)
{
    return GP_BACKEND_OK;
}

static void mod_shutdown(void)
{
}

static int mod_device_count(void)
{
    return 1;
}

static int mod_device_info(int index, struct gp_device_info *out)
{
    memset(out, 0, sizeof(*out));
    snprintf(out->name, sizeof(out->name), "Fake Device %d", index);
    snprintf(out->vendor, sizeof(out->vendor), "test");
    out->memory_bytes = (uint64_t)1 << 30;
    return GP_BACKEND_OK;
}

static int mod_bench(int device, const struct gp_bench_params *params, struct gp_bench_result *out)
{
    (void)device;
    (void)params;
    (void)out;
    return GP_BACKEND_EUNSUPPORTED;
}

static const char *mod_last_error(void)
{
    return "";
}

#endif
