/* `plan --frontier`: the frontier traced for the prepared run, printed in the cli's format. */
#include "cli/plan_frontier.h"

#include <stdio.h>

#include "cli/plan_meta.h"
#include "planner/frontier.h"
#include "report/sections.h"
#include "util/error.h"
#include "util/json.h"
#include "util/msg.h"

static int print_frontier(struct gp_cli *cli, const struct gp_frontier *f,
                          const struct gp_workload *w)
{
    struct gp_table table;
    int rc = gp_report_frontier_table(&table, f);

    table.rows_key = "points";
    table.meta = cJSON_CreateObject();
    if (!rc && !gp_json_add_owned(table.meta, "workload", gp_cli_plan_workload_json(w)))
        rc = gp_error_set(GP_ENOMEM, "out of memory describing the frontier");
    rc = rc ? gp_cli_fail() : gp_cli_output(cli, &table, SIZE_MAX);
    gp_table_release(&table);
    return rc;
}

int gp_cli_plan_frontier(struct gp_cli *cli, struct gp_cli_plan_run *run)
{
    struct gp_frontier f;
    int rc = gp_plan_frontier(&f, &run->req);

    if (rc == GP_EINVALID)
        return gp_cli_input_error(cli, "--frontier: %s", gp_error_last());
    if (rc)
        return gp_cli_fail();
    if (f.count == 0) {
        gp_msg_error("--frontier: the workload runs on none of the selected GPU types within "
                     "one node");
        rc = GP_EXIT_USAGE;
    } else {
        rc = print_frontier(cli, &f, &run->req.base.workload);
    }
    gp_frontier_release(&f);
    return rc;
}
