/* fmin and fmax as inline code. Under strict IEEE semantics the compiler must call libm for
 * them; these give the same results (a NaN argument yields the other one) in a compare and a
 * select, which matters in the performance model's inner loops. */
#ifndef GP_UTIL_FMINMAX_H
#define GP_UTIL_FMINMAX_H

#include <math.h>

static inline double gp_fmin(double a, double b)
{
    return b < a || isnan(a) ? b : a;
}

static inline double gp_fmax(double a, double b)
{
    return b > a || isnan(a) ? b : a;
}

#endif
