/* Day-ahead electricity prices by bidding zone, as the electricity feeds yield them and the
 * store keeps them: one price per delivery period. */
#ifndef GPUPLAN_ENERGY_H
#define GPUPLAN_ENERGY_H

#include <stdint.h>

#define GP_ZONE_MAX 8

/* The price of one delivery period in one zone. */
struct gp_energy_price {
    char zone[GP_ZONE_MAX]; /* bidding zone as the feed names it: "DK1", "SE3", "FI" */
    int64_t start;          /* start of the period, Unix seconds UTC */
    int minutes;            /* length of the period: 60 (hourly), 15 (quarter-hourly) */
    double eur_mwh;         /* day-ahead price, EUR per MWh (may be negative) */
};

#endif
