/* Calendar time in UTC: the clock (overridable for tests), ISO 8601 parsing and formatting. */
#ifndef GP_UTIL_TIMEUTIL_H
#define GP_UTIL_TIMEUTIL_H

#include <stddef.h>
#include <stdint.h>

/* Now, Unix seconds UTC. When the environment sets GPUPLAN_NOW (an ISO date or timestamp),
 * that instant is returned instead, so golden tests and what-if runs are reproducible. */
int64_t gp_time_now(void);

/* Seconds on the monotonic clock (CLOCK_MONOTONIC): for durations and timeouts only; never
 * pinned by GPUPLAN_NOW. */
double gp_time_monotonic(void);

/* Parse "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS]Z" or with a space instead of T, as UTC; seconds
 * 00 to 59 (Unix time has no leap second: ":60" would name the next day's first second).
 * Returns 0 or GP_EINVALID (no message set; the caller names the field). */
int gp_time_parse(const char *text, int64_t *out);

/* No date: a price's observed or valid-until time that was not given. No parsed price date is
 * ever this value, since gp_time_parse_price accepts nothing before GP_TIME_EARLIEST. */
#define GP_TIME_UNSET ((int64_t)0)

/* The earliest date a price, quote or observation may carry, 2022-01-01T00:00:00Z: the oldest
 * GPU of the catalog (H100) was announced in March 2022, so an earlier date is a mistake or a
 * zero read as a date. docs/price-list-format.md says so. */
#define GP_TIME_EARLIEST      ((int64_t)1640995200)
#define GP_TIME_EARLIEST_TEXT "2022-01-01"

/* gp_time_parse for a price's date: GP_EINVALID also for a date before GP_TIME_EARLIEST. */
int gp_time_parse_price(const char *text, int64_t *out);

/* The month every monthly figure is counted over, hours (8760 / 12): the one place its number
 * is written. GP_MONTH_TEXT says it in column units and captions. */
#define GP_HOURS_PER_MONTH_WHOLE 730
#define GP_HOURS_PER_MONTH       ((double)GP_HOURS_PER_MONTH_WHOLE)
#define GP_TEXT_OF(x)            #x
#define GP_TEXT(x)               GP_TEXT_OF(x)
#define GP_MONTH_TEXT            "per month of " GP_TEXT(GP_HOURS_PER_MONTH_WHOLE) " h"

/* A duration a user types, into whole hours: a bare number of hours, or one with a unit, "720h",
 * "30d", "2w", "12mo" (GP_HOURS_PER_MONTH each) or "1y" (8760), from 1 to 100000 units. 0, or
 * GP_EINVALID (no message set: the caller names the flag). */
int gp_duration_parse_hours(const char *text, int64_t *hours);

/* Format as "YYYY-MM-DD" (date) or "YYYY-MM-DDTHH:MM:SSZ" (stamp) into out[size >= 21]. */
void gp_time_format_date(int64_t t, char *out, size_t size);
void gp_time_format_stamp(int64_t t, char *out, size_t size);

/* The first instant of the calendar month `months` (>= 0) after the one holding `t`, Unix
 * seconds UTC: 2026-10-15 and 1 give 2026-11-01T00:00:00Z. */
int64_t gp_time_month_start(int64_t t, int months);

/* Whole days from `then` to `now`, floored; negative when `then` is in the future. */
long gp_time_age_days(int64_t then, int64_t now);

#endif
