/* Loading the planner's data files and workloads for the plan and workloads commands. */
#include "cli/plan_input.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/data.h"
#include "planner/sweep.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/msg.h"
#include "util/text.h"

/* Workload files are small; anything larger is a mistake. */
#define INPUT_LIMIT ((size_t)1 << 20)

/* gp_data_parse_fn for bands.json: one small struct, parsed each run. */
static int parse_bands(void *out, const char *text, size_t len, const char *origin)
{
    return gp_bands_parse(out, text, len, origin);
}

int gp_cli_plan_inputs(struct gp_cli *cli, struct gp_efficiency_table *effs,
                       struct gp_model_table *models)
{
    (void)cli;
    if (gp_data_load_table(&gp_efficiency_file, effs))
        return gp_cli_fail();
    if (gp_data_load_table(&gp_model_file, models)) {
        gp_efficiency_table_release(effs);
        return gp_cli_fail();
    }
    return GP_EXIT_OK;
}

int gp_cli_plan_stacks(struct gp_cli *cli, struct gp_stack_table *stacks, struct gp_bands *bands)
{
    (void)cli;
    if (gp_data_load_table(&gp_stack_file, stacks))
        return gp_cli_fail();
    if (gp_data_parse_file("bands.json", parse_bands, bands)) {
        gp_stack_table_release(stacks);
        return gp_cli_fail();
    }
    return GP_EXIT_OK;
}

/* "unknown workload" with the nearest preset and the list of presets. */
static int unknown_preset(struct gp_cli *cli, const char *name)
{
    char **list = NULL, names_text[1024] = "";
    struct gp_nearest near;
    size_t count = 0, used = 0;

    gp_nearest_init(&near, name);
    if (gp_data_list(&list, &count, "workloads", ".json") == 0) {
        for (size_t i = 0; i < count; i++) {
            char *base = strrchr(list[i], '/');
            base = base ? base + 1 : list[i];
            char *dot = strstr(base, ".json");
            if (dot)
                *dot = '\0';
            gp_nearest_offer(&near, base);
            int w = snprintf(names_text + used, sizeof(names_text) - used, "%s%s", used ? ", " : "",
                             base);
            if (w > 0 && (size_t)w < sizeof(names_text) - used)
                used += (size_t)w;
        }
    }
    const char *hint = gp_nearest_result(&near);
    int rc = hint
                 ? gp_cli_usage_error(cli, "unknown workload '%s' (did you mean '%s'?)", name, hint)
                 : gp_cli_usage_error(cli, "unknown workload '%s'; presets: %s", name, names_text);
    gp_data_list_free(list, count);
    return rc;
}

int gp_cli_workload_load(struct gp_cli *cli, const char *name, const struct gp_model_table *models,
                         struct gp_workload *out)
{
    struct gp_buf buf;
    char origin[512], rel[256];
    size_t len = strlen(name);
    bool is_file = strchr(name, '/') || (len > 5 && strcmp(name + len - 5, ".json") == 0);
    int rc;

    gp_buf_init(&buf, INPUT_LIMIT);
    if (is_file) {
        gp_text_copy(origin, sizeof(origin), name);
        if (gp_buf_read_file(&buf, name)) {
            gp_buf_release(&buf);
            return gp_cli_input_error(cli, "--workload: %s", gp_error_last());
        }
        rc = 0;
    } else {
        if (len == 0 || len > 100 ||
            strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-._") != len) {
            gp_buf_release(&buf);
            return unknown_preset(cli, name);
        }
        snprintf(rel, sizeof(rel), "workloads/%s.json", name);
        rc = gp_data_read(&buf, rel, origin, sizeof(origin));
        if (rc == GP_ENOTFOUND) {
            gp_buf_release(&buf);
            return unknown_preset(cli, name);
        }
    }
    if (!rc)
        rc = gp_workload_parse(out, buf.data ? buf.data : "", buf.len, origin, models);
    gp_buf_release(&buf);
    return rc ? gp_cli_fail() : GP_EXIT_OK;
}

void gp_cli_plan_keys_print(FILE *out)
{
    size_t n = 0;
    const struct gp_plan_key *keys = gp_plan_keys(&n);

    fputs("\nkeys for --set, --sweep and workload files (name, workload kind, unit, meaning, "
          "accepted values):\n",
          out);
    for (size_t i = 0; i < n; i++) {
        char range[160];
        gp_plan_key_range(&keys[i], range, sizeof(range));
        fprintf(out, "  %-25s %-10s %-18s %s [%s%s]\n", keys[i].name, keys[i].applies_to,
                keys[i].unit, keys[i].description, range,
                keys[i].whole && !keys[i].power_of_two ? "; whole" : "");
    }
}
