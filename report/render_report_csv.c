/* The CSV report: one RFC 4180 file per section, "<key>.csv", in one folder. Sections have
 * different columns, and a spreadsheet opens one table per CSV file: a second header inside a
 * file would be read as a data row and its numbers as text, so each section gets its own file. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "util/error.h"

int gp_report_render_csv(const struct gp_report *r, const char *dir)
{
    struct gp_render_options options = {false, 1, SIZE_MAX, r->locale, 0, true};
    char path[4200];

    for (size_t i = 0; i < r->nsections; i++) {
        FILE *out;
        int rc;
        snprintf(path, sizeof(path), "%s/%s.csv", dir, r->sections[i].key);
        if (!(out = fopen(path, "wb")))
            return gp_error_set(GP_ERROR, "%s: %s", path, strerror(errno));
        rc = gp_render_csv(&r->sections[i].table, &options, out);
        if (fclose(out) != 0 && rc == 0)
            rc = gp_error_set(GP_ERROR, "%s: %s", path, strerror(errno));
        if (rc)
            return rc;
    }
    return 0;
}
