/* Fuzz target: the dates and durations a user or a data file types: gp_time_parse (GPUPLAN_NOW,
 * --since, --changed-since, calibration stamps), gp_time_parse_price (observed, valid_until,
 * --valid-until) and gp_duration_parse_hours (--min-term), with what must hold of a value they
 * accept: a date formats back to a stamp that parses to the same second, a price date is never
 * before GP_TIME_EARLIEST, and a duration is a whole number of hours from 1 to 100000 years. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/timeutil.h"

/* Stop on a broken invariant, whatever NDEBUG says (the replay build has it). */
#define require(cond) ((cond) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[64], stamp[32];
    int64_t t, again, hours;

    if (size >= sizeof(text))
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (gp_time_parse(text, &t) == 0) {
        gp_time_format_stamp(t, stamp, sizeof(stamp));
        require(gp_time_parse(stamp, &again) == 0 && again == t);
    }
    if (gp_time_parse_price(text, &t) == 0)
        require(t >= GP_TIME_EARLIEST && t != GP_TIME_UNSET);
    if (gp_duration_parse_hours(text, &hours) == 0)
        require(hours >= 1 && hours <= (int64_t)100000 * 8760);
    return 0;
}
