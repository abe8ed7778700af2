/* Summary statistics of repeated timings. */
#include "calibrate/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gp_stats_percentile(const double *sorted, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)floor(pos);
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    return sorted[lo] + (pos - (double)lo) * (sorted[hi] - sorted[lo]);
}

int gp_stats_compute(struct gp_stats *out, const double *values, size_t n)
{
    double *sorted;
    double sum = 0.0, sq = 0.0;

    memset(out, 0, sizeof(*out));
    if (n == 0)
        return gp_error_set(GP_EINVALID, "no values to summarise");
    for (size_t i = 0; i < n; i++)
        if (!isfinite(values[i]))
            return gp_error_set(GP_EINVALID, "value %zu is not finite", i);
    sorted = malloc(n * sizeof(*sorted));
    if (!sorted)
        return gp_error_set(GP_ENOMEM, "out of memory");
    memcpy(sorted, values, n * sizeof(*sorted));
    qsort(sorted, n, sizeof(*sorted), compare);

    for (size_t i = 0; i < n; i++)
        sum += sorted[i];
    out->mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        sq += (sorted[i] - out->mean) * (sorted[i] - out->mean);
    out->n = n;
    out->min = sorted[0];
    out->max = sorted[n - 1];
    out->median = gp_stats_percentile(sorted, n, 0.5);
    out->p10 = gp_stats_percentile(sorted, n, 0.1);
    out->p90 = gp_stats_percentile(sorted, n, 0.9);
    out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
    out->cv = out->mean != 0.0 ? out->stddev / fabs(out->mean) : 0.0;
    free(sorted);
    return 0;
}
