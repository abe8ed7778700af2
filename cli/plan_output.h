/* How `plan` shows its rows: the columns (--columns, --wide or the compact set), --limit, a
 * result shown whole, and a plan streamed point by point as the planner hands each point over
 * (CSV always; JSON and the table for a sweep), so that a sweep of any length holds one point's
 * rows (CSV, JSON) or the rows it shows (the table). */
#ifndef GP_CLI_PLAN_OUTPUT_H
#define GP_CLI_PLAN_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "cli/plan_run.h"

/* The most rows the table format holds to show, about 870 MB of rows: a longer sweep is
 * refused before its second point unless --limit shows fewer rows (CSV and JSON stream any
 * number). */
#define GP_CLI_PLAN_TABLE_MAX_ROWS 500000
/* A sweep of more points than this, shown as a table, first says how many rows follow. */
#define GP_CLI_PLAN_NOTICE_POINTS 10000

struct gp_cli_plan_output {
    const char *columns; /* --columns, NULL = every column (--wide, CSV, JSON) or the compact set */
    bool wide;           /* --wide */
    size_t limit;        /* --limit: the most rows shown, SIZE_MAX = all; every point is planned */
};

/* Show the result of gp_cli_plan_execute whole, with the workload, the assumptions and the
 * conclusion. Returns the exit code: 2 when no GPU type can be planned. */
int gp_cli_plan_show(struct gp_cli *cli, const struct gp_cli_plan_run *run,
                     const struct gp_cli_plan_output *out);

/* Plan a request made by gp_cli_plan_prepare point by point, showing each point's rows as they
 * come: CSV lines; JSON rows between the workload and the members known only at the end (the
 * assumptions with the prices used, the conclusion); or, for the table, the rows kept and
 * shown once planned. Returns the exit code. */
int gp_cli_plan_stream(struct gp_cli *cli, struct gp_cli_plan_run *run,
                       const struct gp_cli_plan_output *out);

#endif
