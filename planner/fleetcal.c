/* The fleet view and the fleet median: calibrated curves grouped by node, GPU type, software and
 * curve, and compared with the median of their group. */
#include "planner/fleetcal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gp_fleet_quantile(double *values, size_t count, double q)
{
    if (count == 0)
        return 0.0;
    qsort(values, count, sizeof(*values), cmp_double);
    double at = q * (double)(count - 1);
    size_t lo = (size_t)at;
    if (lo + 1 >= count)
        return values[count - 1];
    return values[lo] + (at - (double)lo) * (values[lo + 1] - values[lo]);
}

/* The group a curve is compared within: GPU type, curve and software. */
static int cmp_group(const struct gp_fleet_curve *a, const struct gp_fleet_curve *b)
{
    int c = strcmp(a->gpu, b->gpu);
    if (!c)
        c = strcmp(a->kernel, b->kernel);
    if (!c)
        c = strcmp(a->precision, b->precision);
    if (!c)
        c = strcmp(a->software, b->software);
    return c;
}

/* The row a curve belongs to: its group, host and device. */
static int cmp_row(const struct gp_fleet_curve *a, const struct gp_fleet_curve *b)
{
    int c = cmp_group(a, b);
    if (!c)
        c = strcmp(a->host, b->host);
    if (!c)
        c = (a->device > b->device) - (a->device < b->device);
    return c;
}

/* Rows in order, and a row's runs oldest first. */
static int cmp_run(const void *pa, const void *pb)
{
    const struct gp_fleet_curve *a = *(const struct gp_fleet_curve *const *)pa;
    const struct gp_fleet_curve *b = *(const struct gp_fleet_curve *const *)pb;
    int c = cmp_row(a, b);
    if (!c)
        c = (a->started_at > b->started_at) - (a->started_at < b->started_at);
    return c;
}

/* Pointers to the curves, sorted by cmp_run; NULL when out of memory. */
static const struct gp_fleet_curve **sorted_runs(const struct gp_fleet_curve *curves, size_t count)
{
    const struct gp_fleet_curve **order = malloc((count ? count : 1) * sizeof(*order));

    if (!order)
        return NULL;
    for (size_t i = 0; i < count; i++)
        order[i] = &curves[i];
    qsort(order, count, sizeof(*order), cmp_run);
    return order;
}

/* Coefficient of variation of eff_max over runs[0..n), fraction; 0 for fewer than two. */
static double runs_cv(const struct gp_fleet_curve *const *runs, size_t n)
{
    double mean = 0.0, var = 0.0;

    if (n < 2)
        return 0.0;
    for (size_t i = 0; i < n; i++)
        mean += runs[i]->eff_max / (double)n;
    for (size_t i = 0; i < n; i++)
        var += (runs[i]->eff_max - mean) * (runs[i]->eff_max - mean) / (double)(n - 1);
    return mean > 0 ? sqrt(var) / mean : 0.0;
}

/* Fill one row from a row's runs (oldest first). */
static void fill_row(struct gp_fleet_row *row, const struct gp_fleet_curve *curves,
                     const struct gp_fleet_curve *const *runs, size_t n)
{
    const struct gp_fleet_curve *last = runs[n - 1];
    double cv = runs_cv(runs, n);

    memset(row, 0, sizeof(*row));
    row->newest = (size_t)(last - curves);
    row->runs = n;
    row->eff_max = last->eff_max;
    row->eff_p10 = last->eff_max * last->p10_ratio;
    row->eff_p90 = last->eff_max * last->p90_ratio;
    row->cv = last->cv > cv ? last->cv : cv;
}

/* Compare rows[0..n) of one group with their median. */
static int judge_group(struct gp_fleet_row *rows, size_t n, const struct gp_fleet_options *opt)
{
    double *values = malloc(n * sizeof(*values));

    if (!values)
        return gp_error_set(GP_ENOMEM, "out of memory comparing a fleet");
    for (size_t i = 0; i < n; i++)
        values[i] = rows[i].eff_max;
    double median = gp_fleet_quantile(values, n, 0.5);
    free(values);
    for (size_t i = 0; i < n; i++) {
        rows[i].median = median;
        rows[i].group = n;
        rows[i].deviation = median > 0 ? rows[i].eff_max / median - 1.0 : 0.0;
        rows[i].low = rows[i].deviation < -opt->max_below;
        rows[i].unstable = rows[i].cv > opt->max_cv;
    }
    return 0;
}

int gp_fleet_view(struct gp_fleet_row **out, size_t *rows, const struct gp_fleet_curve *curves,
                  size_t count, const struct gp_fleet_options *options)
{
    const struct gp_fleet_curve **order = NULL;
    struct gp_fleet_row *list = NULL;
    size_t n = 0, group_start = 0;
    int rc = 0;

    *out = NULL;
    *rows = 0;
    if (!(options->max_below >= 0) || !(options->max_cv >= 0))
        return gp_error_set(GP_EINVALID, "fleet thresholds must be numbers of at least 0");
    order = sorted_runs(curves, count);
    list = calloc(count ? count : 1, sizeof(*list));
    if (!order || !list) {
        rc = gp_error_set(GP_ENOMEM, "out of memory building the fleet view");
        goto done;
    }
    for (size_t i = 0; i < count;) {
        size_t j = i + 1;
        while (j < count && cmp_row(order[i], order[j]) == 0)
            j++;
        fill_row(&list[n++], curves, order + i, j - i);
        i = j;
    }
    for (size_t r = 1; rc == 0 && r <= n; r++)
        if (r == n || cmp_group(&curves[list[r].newest], &curves[list[group_start].newest])) {
            rc = judge_group(list + group_start, r - group_start, options);
            group_start = r;
        }

done:
    free(order);
    if (rc) {
        free(list);
        return rc;
    }
    *out = list;
    *rows = n;
    return 0;
}

static bool matches(const struct gp_fleet_curve *c, const char *gpu, const char *kernel,
                    const char *precision)
{
    return strcmp(c->gpu, gpu) == 0 && strcmp(c->kernel, kernel) == 0 &&
           strcmp(c->precision, precision) == 0;
}

/* Hosts, then devices, then runs oldest first. */
static int cmp_node_run(const void *pa, const void *pb)
{
    const struct gp_fleet_curve *a = *(const struct gp_fleet_curve *const *)pa;
    const struct gp_fleet_curve *b = *(const struct gp_fleet_curve *const *)pb;
    int c = strcmp(a->host, b->host);
    if (!c)
        c = (a->device > b->device) - (a->device < b->device);
    if (!c)
        c = (a->started_at > b->started_at) - (a->started_at < b->started_at);
    return c;
}

/* The estimate from the newest run of each (host, device) in order[0..n), sorted. */
static int estimate_newest(struct gp_fleet_estimate *out, const struct gp_fleet_curve **order,
                           size_t n)
{
    double *eff = malloc(2 * n * sizeof(*eff)), *s_half = eff ? eff + n : NULL;
    const char *host = NULL;
    size_t gpus = 0;

    if (!eff)
        return gp_error_set(GP_ENOMEM, "out of memory estimating a fleet's curve");
    for (size_t i = 0; i < n; i++) {
        const struct gp_fleet_curve *c = order[i];
        bool last = i + 1 == n || strcmp(order[i + 1]->host, c->host) != 0 ||
                    order[i + 1]->device != c->device;
        if (!last)
            continue;
        if (!host || strcmp(host, c->host) != 0)
            out->nodes++;
        host = c->host;
        eff[gpus] = c->eff_max;
        s_half[gpus++] = c->s_half;
        out->newest = c->started_at > out->newest ? c->started_at : out->newest;
    }
    out->gpus = gpus;
    out->eff_max = gp_fleet_quantile(eff, gpus, 0.5);
    out->s_half = gp_fleet_quantile(s_half, gpus, 0.5);
    out->low = out->eff_max > 0 ? gp_fleet_quantile(eff, gpus, 0.1) / out->eff_max : 1.0;
    out->high = out->eff_max > 0 ? gp_fleet_quantile(eff, gpus, 0.9) / out->eff_max : 1.0;
    free(eff);
    return 0;
}

int gp_fleet_estimate(struct gp_fleet_estimate *out, const struct gp_fleet_curve *curves,
                      size_t count, const char *gpu, const char *kernel, const char *precision)
{
    const struct gp_fleet_curve **order = malloc((count ? count : 1) * sizeof(*order));
    size_t n = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    if (!order)
        return gp_error_set(GP_ENOMEM, "out of memory estimating a fleet's curve");
    for (size_t i = 0; i < count; i++)
        if (matches(&curves[i], gpu, kernel, precision))
            order[n++] = &curves[i];
    qsort(order, n, sizeof(*order), cmp_node_run);
    rc = n ? estimate_newest(out, order, n)
           : gp_error_set(GP_ENOTFOUND, "no calibrated %s %s%s%s curve", gpu, kernel,
                          precision[0] ? " " : "", precision);
    free(order);
    return rc;
}
