/* UTC calendar arithmetic without the C library's time-zone state. */
#include "util/timeutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/error.h"
#include "util/text.h"

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)((int64_t)yoe + era * 400 + (*m <= 2));
}

static int days_in_month(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return days[m - 1] + (m == 2 && leap);
}

int gp_time_parse(const char *text, int64_t *out)
{
    int y, mo, d, h = 0, mi = 0, s = 0, n = 0;
    size_t len = strlen(text);

    if (len == 10) {
        if (sscanf(text, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
            return GP_EINVALID;
    } else if (len == 17 || len == 20) {
        int want = len == 17 ? 5 : 6;
        const char *fmt =
            len == 17 ? "%4d-%2d-%2d%*1[T ]%2d:%2d%n" : "%4d-%2d-%2d%*1[T ]%2d:%2d:%2d%n";
        int got = len == 17 ? sscanf(text, fmt, &y, &mo, &d, &h, &mi, &n)
                            : sscanf(text, fmt, &y, &mo, &d, &h, &mi, &s, &n);
        if (got != want || (size_t)n != len - 1 || text[len - 1] != 'Z')
            return GP_EINVALID;
    } else {
        return GP_EINVALID;
    }
    if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 ||
        mi > 59 || s > 59 || h < 0 || mi < 0 || s < 0)
        return GP_EINVALID;
    *out = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + s;
    return 0;
}

int gp_time_parse_price(const char *text, int64_t *out)
{
    int64_t t;

    if (gp_time_parse(text, &t) != 0 || t < GP_TIME_EARLIEST)
        return GP_EINVALID;
    *out = t;
    return 0;
}

int gp_duration_parse_hours(const char *text, int64_t *hours)
{
    static const struct {
        const char *suffix;
        long hours;
    } units[] = {{"", 1},    {"h", 1}, {"d", 24}, {"w", 168}, {"mo", (long)GP_HOURS_PER_MONTH},
                 {"y", 8760}};
    char digits[16];
    size_t n = strspn(text, "0123456789");
    long count = 0;

    if (n == 0 || n >= sizeof(digits))
        return GP_EINVALID;
    memcpy(digits, text, n);
    digits[n] = '\0';
    if (gp_text_to_int(digits, 1, 100000, &count))
        return GP_EINVALID;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(text + n, units[i].suffix) == 0) {
            *hours = (int64_t)count * units[i].hours;
            return 0;
        }
    return GP_EINVALID;
}

int64_t gp_time_now(void)
{
    const char *fixed = getenv("GPUPLAN_NOW");
    int64_t t;

    if (fixed && *fixed && gp_time_parse(fixed, &t) == 0)
        return t;
    return (int64_t)time(NULL);
}

void gp_time_format_date(int64_t t, char *out, size_t size)
{
    int y, m, d;
    int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);

    civil_from_days(days, &y, &m, &d);
    if (size < 11 || y < 0 || y > 9999) {
        snprintf(out, size, "%04d-%02d-%02d", y, m, d);
        return;
    }
    /* printf's digits without printf: plans format one date per row */
    const char text[11] = {(char)('0' + y / 1000),
                           (char)('0' + y / 100 % 10),
                           (char)('0' + y / 10 % 10),
                           (char)('0' + y % 10),
                           '-',
                           (char)('0' + m / 10),
                           (char)('0' + m % 10),
                           '-',
                           (char)('0' + d / 10),
                           (char)('0' + d % 10),
                           '\0'};
    memcpy(out, text, sizeof(text));
}

void gp_time_format_stamp(int64_t t, char *out, size_t size)
{
    int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
    int64_t secs = t - days * 86400;
    int y, m, d;

    civil_from_days(days, &y, &m, &d);
    snprintf(out, size, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, m, d, (int)(secs / 3600),
             (int)(secs / 60 % 60), (int)(secs % 60));
}

long gp_time_age_days(int64_t then, int64_t now)
{
    int64_t diff = now - then;
    return (long)(diff >= 0 ? diff / 86400 : -((-diff + 86399) / 86400));
}

double gp_time_monotonic(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int64_t gp_time_month_start(int64_t t, int months)
{
    time_t at = (time_t)t;
    struct tm tm;

    if (!gmtime_r(&at, &tm))
        return t;
    int64_t m = (int64_t)tm.tm_mon + (months > 0 ? months : 0);
    return days_from_civil(tm.tm_year + 1900 + m / 12, (unsigned)(m % 12) + 1, 1) * 86400;
}
