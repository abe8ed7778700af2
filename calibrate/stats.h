/* Summary statistics of repeated timings: median, percentiles, coefficient of variation. */
#ifndef GP_CALIBRATE_STATS_H
#define GP_CALIBRATE_STATS_H

#include <stddef.h>

struct gp_stats {
    size_t n; /* values summarised */
    double min, max;
    double median; /* 50th percentile */
    double p10;    /* 10th percentile */
    double p90;    /* 90th percentile */
    double mean;
    double stddev; /* sample standard deviation (n - 1); 0 for n < 2 */
    double cv;     /* stddev / mean; 0 when the mean is 0 */
};

/* Percentile q in [0, 1] of sorted[0..n-1], linearly interpolated between closest ranks
 * (the "type 7" definition of R and NumPy). n must be > 0. */
double gp_stats_percentile(const double *sorted, size_t n, double q);

/* Summarise values[0..n-1] (left unchanged). Returns 0, GP_EINVALID for n == 0 or a value
 * that is not finite, GP_ENOMEM. */
int gp_stats_compute(struct gp_stats *out, const double *values, size_t n);

#endif
