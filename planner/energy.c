/* Weighted mean and percentiles of a zone's electricity prices. */
#include "planner/energy.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* A price and the hours it held for. */
struct weighted {
    double eur_mwh, hours;
};

static int by_price(const void *a, const void *b)
{
    double x = ((const struct weighted *)a)->eur_mwh, y = ((const struct weighted *)b)->eur_mwh;
    return (x > y) - (x < y);
}

/* The lowest price at or below which a share `q` of the hours fall; w[] sorted by price. */
static double percentile(const struct weighted *w, size_t n, double total_hours, double q)
{
    double seen = 0.0;

    for (size_t i = 0; i < n; i++) {
        seen += w[i].hours;
        if (seen >= q * total_hours * (1.0 - 1e-12))
            return w[i].eur_mwh;
    }
    return w[n - 1].eur_mwh;
}

/* One zone: prices[0..n), all of one zone, n >= 1; `scratch` holds n. */
static void summarize_zone(struct gp_energy_summary *s, const struct gp_energy_price *prices,
                           size_t n, struct weighted *scratch)
{
    double cost = 0.0;

    memset(s, 0, sizeof(*s));
    memcpy(s->zone, prices[0].zone, sizeof(s->zone));
    s->periods = n;
    s->from = prices[0].start;
    for (size_t i = 0; i < n; i++) {
        int64_t end = prices[i].start + (int64_t)prices[i].minutes * 60;
        scratch[i] = (struct weighted){prices[i].eur_mwh, prices[i].minutes / 60.0};
        s->hours += scratch[i].hours;
        cost += prices[i].eur_mwh * scratch[i].hours;
        if (prices[i].start < s->from)
            s->from = prices[i].start;
        if (end > s->to)
            s->to = end;
    }
    qsort(scratch, n, sizeof(*scratch), by_price);
    s->mean = cost / s->hours;
    s->min = scratch[0].eur_mwh;
    s->max = scratch[n - 1].eur_mwh;
    s->p10 = percentile(scratch, n, s->hours, 0.10);
    s->p90 = percentile(scratch, n, s->hours, 0.90);
}

int gp_energy_summarize(struct gp_energy_summary **out, size_t *count,
                        const struct gp_energy_price *prices, size_t n)
{
    struct weighted *scratch = malloc((n + 1) * sizeof(*scratch));
    size_t zones = 0;

    *out = NULL;
    *count = 0;
    for (size_t i = 0; i < n; i++)
        zones += i == 0 || strcmp(prices[i].zone, prices[i - 1].zone) != 0;
    *out = calloc(zones + 1, sizeof(**out));
    if (!scratch || !*out) {
        free(scratch);
        free(*out);
        *out = NULL;
        return gp_error_set(GP_ENOMEM, "out of memory summarising electricity prices");
    }
    for (size_t start = 0; start < n;) {
        size_t end = start + 1;
        while (end < n && strcmp(prices[end].zone, prices[start].zone) == 0)
            end++;
        summarize_zone(&(*out)[(*count)++], prices + start, end - start, scratch);
        start = end;
    }
    free(scratch);
    return 0;
}
