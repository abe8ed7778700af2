/* Releasing a calibration record: plain memory, no database, so the fallback calibration driver
 * links it without SQLite. */
#include <stdlib.h>

#include "gpuplan/calibration.h"

void gp_calibration_release(struct gp_calibration *cal)
{
    if (!cal)
        return;
    free(cal->conditions);
    free(cal->points);
    free(cal->fits);
    cal->conditions = NULL;
    cal->points = NULL;
    cal->fits = NULL;
    cal->point_count = cal->fit_count = 0;
}
