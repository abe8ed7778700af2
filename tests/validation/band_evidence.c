/* Leave-one-source-out coverage, engine spread and evidence drift of a band class's cases. */
#include "tests/validation/band_evidence.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/bands.h"

#define MAX_PAIRS 4096

void band_source_of(char *out, size_t size, const char *url)
{
    const char *p = strstr(url, "://");
    const char *start = p ? p + 3 : url, *end = start;
    int slashes = strncmp(start, "github.com/", 11) == 0 ? 3 : 1;

    while (*end && *end != ' ' && *end != '(') {
        if (*end == '/' && --slashes == 0)
            break;
        end++;
    }
    snprintf(out, size, "%.*s", (int)(end - start), start);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    if (n == 0)
        return 0.0;
    qsort(v, n, sizeof(*v), compare_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double band_engine_spread(const struct band_case *c, size_t n)
{
    static double d[MAX_PAIRS];
    size_t k = 0;

    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n && k < MAX_PAIRS; j++)
            if (strcmp(c[i].key, c[j].key) == 0 && strcmp(c[i].stack, c[j].stack) != 0 &&
                fabs(c[i].as_of_years - c[j].as_of_years) < 90.0 / 365.25)
                d[k++] = fabs(log(c[i].ratio / c[j].ratio));
    return median_of(d, k);
}

double band_drift_per_year(const struct band_case *c, size_t n, size_t *pairs)
{
    static double d[MAX_PAIRS];
    size_t k = 0;

    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n && k < MAX_PAIRS; j++) {
            double years = fabs(c[i].as_of_years - c[j].as_of_years);
            if (strcmp(c[i].hardware, c[j].hardware) == 0 && years >= 60.0 / 365.25)
                d[k++] = fabs(log(c[i].ratio / c[j].ratio)) / years;
        }
    }
    *pairs = k;
    return median_of(d, k);
}

void band_leave_source_out(const struct band_case *c, size_t n, double coverage, double spread,
                           size_t *held, size_t *with_band, double *median_width, size_t *sources)
{
    static double e[MAX_PAIRS], widths[MAX_PAIRS];
    size_t w = 0;

    *held = *with_band = *sources = 0;
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(c[i].source, c[j].source) != 0;
        *sources += first;
        size_t m = 0;
        double q;
        for (size_t j = 0; j < n && m < MAX_PAIRS; j++)
            if (strcmp(c[i].source, c[j].source) != 0)
                e[m++] = fabs(log(c[j].ratio));
        if (gp_bands_conformal(e, m, coverage, &q))
            continue;
        q = sqrt(q * q + spread * spread);
        (*with_band)++;
        *held += fabs(log(c[i].ratio)) <= q + 1e-12;
        if (w < MAX_PAIRS)
            widths[w++] = exp(2.0 * q);
    }
    *median_width = median_of(widths, w);
}
