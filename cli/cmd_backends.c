/* `gpuplan backends`: every calibration backend candidate, loaded or rejected with the reason,
 * one row per device of each loaded backend. */
#include <stdint.h>

#include "calibrate/device_map.h"
#include "calibrate/registry.h"
#include "cli/cli.h"
#include "util/text.h"

static const struct gp_column backend_columns[] = {
    {"backend", GP_CELL_TEXT, 0},     {"status", GP_CELL_TEXT, 0},  {"score", GP_CELL_INT, 0},
    {"device", GP_CELL_INT, 0},       {"name", GP_CELL_TEXT, 0},    {"gpu", GP_CELL_TEXT, 0},
    {"memory_gb", GP_CELL_NUMBER, 1}, {"library", GP_CELL_TEXT, 0}, {"reason", GP_CELL_TEXT, 0},
    {"path", GP_CELL_TEXT, 0},
};

/* One row: the candidate, and device `dev` of it or -1 for a row without a device. */
static int add_row(struct gp_table *t, const struct gp_backend_candidate *c, int dev)
{
    int rc = gp_table_add_row(t);

    if (!rc)
        rc = gp_table_set_text(t, "backend", "%s", c->name);
    if (!rc)
        rc = gp_table_set_text(t, "status", "%s", c->loaded ? "loaded" : "rejected");
    if (!rc)
        rc = gp_table_set_int(t, "score", c->score);
    if (!rc && c->reason[0])
        rc = gp_table_set_text(t, "reason", "%s", c->reason);
    if (!rc && c->path[0])
        rc = gp_table_set_text(t, "path", "%s", c->path);
    if (rc || dev < 0)
        return rc;
    const struct gp_device_info *d = &c->devices[dev];
    const char *gpu = gp_calibrate_map_device(d->name, d->memory_bytes);
    rc = gp_table_set_int(t, "device", dev);
    if (!rc)
        rc = gp_table_set_text(t, "name", "%s", d->name);
    if (!rc && gpu && !gp_text_ieq(d->vendor, "cpu"))
        rc = gp_table_set_text(t, "gpu", "%s", gpu);
    if (!rc)
        rc = gp_table_set_number(t, "memory_gb", (double)d->memory_bytes / 1e9);
    if (!rc && d->library_version[0])
        rc = gp_table_set_text(t, "library", "%s", d->library_version);
    return rc;
}

int gp_cmd_backends(struct gp_cli *cli, int argc, char **argv)
{
    static const struct gp_opt opts[] = {GP_OPT_END};
    struct gp_registry reg;
    struct gp_table table;
    int rc = gp_cli_parse_options(cli, "backends", opts, argc, argv);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    if (gp_registry_scan(&reg) != 0)
        return gp_cli_fail();
    gp_table_init(&table, backend_columns, sizeof(backend_columns) / sizeof(backend_columns[0]));
    for (size_t i = 0; rc == 0 && i < reg.count; i++) {
        const struct gp_backend_candidate *c = &reg.items[i];
        if (c->device_count == 0 && add_row(&table, c, -1))
            rc = gp_cli_fail();
        for (int d = 0; rc == 0 && d < c->device_count; d++)
            if (add_row(&table, c, d))
                rc = gp_cli_fail();
    }
    if (rc == 0)
        rc = gp_cli_output(cli, &table, SIZE_MAX);
    gp_table_release(&table);
    gp_registry_release(&reg);
    return rc;
}
