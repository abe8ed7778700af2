/* Nonlinear least squares (GSL gsl_multifit_nlinear) of eff(s) = eff_max * s / (s + s_half).
 * The only file that sees GSL. s_half is fitted as its logarithm, which keeps it positive and
 * the problem well scaled across the many decades problem sizes span. */
#include "calibrate/fit.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

#include "util/error.h"

#define GRID_STEPS 81
#define MAX_ITER   200

struct data {
    const double *s;
    const double *y;
    size_t n;
};

double gp_fit_eval(double eff_max, double s_half, double size)
{
    return eff_max * size / (size + s_half);
}

static int residual_f(const gsl_vector *x, void *arg, gsl_vector *f)
{
    const struct data *d = arg;
    double e = gsl_vector_get(x, 0), h = exp(gsl_vector_get(x, 1));
    for (size_t i = 0; i < d->n; i++)
        gsl_vector_set(f, i, gp_fit_eval(e, h, d->s[i]) - d->y[i]);
    return GSL_SUCCESS;
}

static int residual_df(const gsl_vector *x, void *arg, gsl_matrix *jac)
{
    const struct data *d = arg;
    double e = gsl_vector_get(x, 0), h = exp(gsl_vector_get(x, 1));
    for (size_t i = 0; i < d->n; i++) {
        double s = d->s[i], q = s + h;
        gsl_matrix_set(jac, i, 0, s / q);
        gsl_matrix_set(jac, i, 1, -e * s * h / (q * q));
    }
    return GSL_SUCCESS;
}

/* For fixed s_half the best eff_max is linear least squares; scan log s_half on a grid over the
 * sampled sizes (and a little beyond) and keep the best pair. */
static void initial_guess(const struct data *d, double *e_out, double *u_out)
{
    double lo = INFINITY, hi = -INFINITY, best = INFINITY;

    for (size_t i = 0; i < d->n; i++) {
        lo = fmin(lo, log(d->s[i]));
        hi = fmax(hi, log(d->s[i]));
    }
    lo -= 2.0;
    hi += 2.0;
    for (int g = 0; g < GRID_STEPS; g++) {
        double u = lo + (hi - lo) * g / (GRID_STEPS - 1), h = exp(u);
        double num = 0.0, den = 0.0, sse = 0.0;
        for (size_t i = 0; i < d->n; i++) {
            double b = d->s[i] / (d->s[i] + h);
            num += b * d->y[i];
            den += b * b;
        }
        double e = den > 0 ? num / den : 0.0;
        for (size_t i = 0; i < d->n; i++) {
            double r = gp_fit_eval(e, h, d->s[i]) - d->y[i];
            sse += r * r;
        }
        if (sse < best) {
            best = sse;
            *e_out = e;
            *u_out = u;
        }
    }
}

/* Refuse what no fit can use: fewer than 3 points, sizes that are not positive, efficiencies
 * that are not finite or all zero. Sets *mean to the mean efficiency. */
static int check_points(const double *sizes, const double *eff, size_t n, double *mean)
{
    int any_positive = 0;

    *mean = 0.0;
    if (n < 3)
        return gp_error_set(GP_EINVALID, "a curve fit needs at least 3 points, got %zu", n);
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(sizes[i]) || sizes[i] <= 0.0)
            return gp_error_set(GP_EINVALID, "point %zu: size %g is not a positive number", i,
                                sizes[i]);
        if (!isfinite(eff[i]))
            return gp_error_set(GP_EINVALID, "point %zu: efficiency is not finite", i);
        any_positive |= eff[i] > 0.0;
        *mean += eff[i] / (double)n;
    }
    if (!any_positive)
        return gp_error_set(GP_EINVALID, "no point has a positive efficiency");
    return 0;
}

/* The fitted parameters, the goodness of fit and the standard errors from the solver's final
 * state; the residuals (data - curve) into residuals[n] when it is not NULL. */
static void fill_result(struct gp_fit_result *out, gsl_multifit_nlinear_workspace *w,
                        gsl_matrix *covar, const double *eff, size_t n, double mean,
                        double *residuals)
{
    const gsl_vector *best = gsl_multifit_nlinear_position(w);
    const gsl_vector *f = gsl_multifit_nlinear_residual(w);
    double sst = 0.0, sse = 0.0;

    out->eff_max = gsl_vector_get(best, 0);
    out->s_half = exp(gsl_vector_get(best, 1));
    out->iterations = (int)gsl_multifit_nlinear_niter(w);
    out->points = n;
    for (size_t i = 0; i < n; i++) {
        double r = -gsl_vector_get(f, i); /* f is curve - data */
        sse += r * r;
        sst += (eff[i] - mean) * (eff[i] - mean);
        if (residuals)
            residuals[i] = r;
    }
    out->rmse = sqrt(sse / (double)n);
    out->r2 = sst > 0.0 ? 1.0 - sse / sst : (sse == 0.0 ? 1.0 : 0.0);
    if (n > 2 &&
        gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, covar) == GSL_SUCCESS) {
        double sigma2 = sse / (double)(n - 2);
        double ve = gsl_matrix_get(covar, 0, 0) * sigma2, vu = gsl_matrix_get(covar, 1, 1) * sigma2;
        out->eff_max_se = ve > 0 && isfinite(ve) ? sqrt(ve) : 0.0;
        out->s_half_se = vu > 0 && isfinite(vu) ? out->s_half * sqrt(vu) : 0.0;
    }
}

int gp_fit_saturating(struct gp_fit_result *out, const double *sizes, const double *eff, size_t n,
                      double *residuals)
{
    struct data d = {sizes, eff, n};
    gsl_multifit_nlinear_workspace *w = NULL;
    gsl_matrix *covar = NULL;
    gsl_vector *x = NULL;
    double e0 = 0.0, u0 = 0.0, mean = 0.0;
    int info = 0, rc;

    memset(out, 0, sizeof(*out));
    gsl_set_error_handler_off();
    if ((rc = check_points(sizes, eff, n, &mean)))
        return rc;

    initial_guess(&d, &e0, &u0);
    gsl_multifit_nlinear_fdf fdf = {0};
    fdf.f = residual_f;
    fdf.df = residual_df;
    fdf.n = n;
    fdf.p = 2;
    fdf.params = &d;
    gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters();
    w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params, n, 2);
    x = gsl_vector_alloc(2);
    covar = gsl_matrix_alloc(2, 2);
    if (!w || !x || !covar) {
        rc = gp_error_set(GP_ENOMEM, "out of memory for the curve fit");
        goto done;
    }
    gsl_vector_set(x, 0, e0);
    gsl_vector_set(x, 1, u0);
    int status = gsl_multifit_nlinear_init(x, &fdf, w);
    if (status == GSL_SUCCESS)
        status = gsl_multifit_nlinear_driver(MAX_ITER, 1e-10, 1e-10, 0.0, NULL, NULL, &info, w);
    /* Running out of iterations on a flat valley still leaves the best point found, which is
     * no worse than the grid start; anything else is a real failure. */
    if (status != GSL_SUCCESS && status != GSL_EMAXITER) {
        rc = gp_error_set(GP_EINVALID, "curve fit failed: %s", gsl_strerror(status));
        goto done;
    }
    fill_result(out, w, covar, eff, n, mean, residuals);

done:
    gsl_multifit_nlinear_free(w);
    gsl_vector_free(x);
    gsl_matrix_free(covar);
    return rc;
}
