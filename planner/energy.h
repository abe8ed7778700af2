/* Electricity price statistics over a window: per zone, the mean and percentiles of the stored
 * day-ahead prices, each period weighted by its length, so hourly and quarter-hourly prices
 * count alike. Pure functions. */
#ifndef GP_PLANNER_ENERGY_H
#define GP_PLANNER_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/energy.h"

/* The window a site's price history is read over by default, days back from the plan's date:
 * a year, so every season weighs in. */
#define GP_ENERGY_WINDOW_DAYS 365

/* One zone's prices over the periods given. */
struct gp_energy_summary {
    char zone[GP_ZONE_MAX];
    size_t periods;  /* prices summarised */
    int64_t from;    /* start of the first period, Unix seconds UTC */
    int64_t to;      /* end of the last period */
    double hours;    /* hours of prices (less than to - from where periods are missing) */
    double mean;     /* EUR/MWh, weighted by period length */
    double p10, p90; /* EUR/MWh: the price at or below which 10% (90%) of the hours fall */
    double min, max; /* EUR/MWh */
};

/*
 * Summarise `prices` (n, sorted by zone as the store lists them; borrowed) into one summary per
 * zone, in zone order: *out malloc'd (free()), *count of them; none for n == 0. Returns 0 or
 * GP_ENOMEM.
 */
int gp_energy_summarize(struct gp_energy_summary **out, size_t *count,
                        const struct gp_energy_price *prices, size_t n);

#endif
