/* Fitting efficiency against problem size: eff(s) = eff_max * s / (s + s_half). */
#ifndef GP_CALIBRATE_FIT_H
#define GP_CALIBRATE_FIT_H

#include <stddef.h>

struct gp_fit_result {
    double eff_max;    /* asymptotic efficiency, in the unit of the data */
    double s_half;     /* size at which eff_max / 2 is reached, in the unit of the sizes */
    double eff_max_se; /* standard errors (from the Jacobian at the optimum); 0 for 2 points */
    double s_half_se;
    double rmse; /* root mean square residual */
    double r2;   /* 1 - SSE / SST; 1 for a perfect fit of constant data */
    size_t points;
    int iterations; /* solver iterations */
};

/*
 * Least-squares fit of the saturating curve to (sizes[i], eff[i]) with GSL's trust-region
 * solver, started from a grid search over s_half. Needs n >= 3 points with finite positive
 * sizes and finite efficiencies, at least one of them positive. When `residuals` is not NULL
 * it receives eff[i] - curve(sizes[i]). Returns 0 or GP_EINVALID (naming the problem).
 */
int gp_fit_saturating(struct gp_fit_result *out, const double *sizes, const double *eff, size_t n,
                      double *residuals);

/* The curve itself. */
double gp_fit_eval(double eff_max, double s_half, double size);

#endif
