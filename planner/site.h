/* Pricing an owned fleet at a site: the all-in electricity price of its zone, the PUE and rack
 * limit of the cooling a GPU's servers need, colocation, heat sold back, and the largest fleet
 * a facility's power holds. Pure functions over struct gp_site (data/sites.json). */
#ifndef GP_PLANNER_SITE_H
#define GP_PLANNER_SITE_H

#include <stdbool.h>
#include <stdint.h>

#include "catalog/fx.h"
#include "gpuplan/gpu.h"
#include "gpuplan/site.h"
#include "planner/energy.h"

/* A site's money in US dollars, as the planner prices with it. */
struct gp_site_terms {
    const struct gp_site *site;       /* borrowed; must outlive the terms */
    bool from_history;                /* the spot price is the zone's stored history, not the
                                         site file's reference figures */
    struct gp_energy_summary history; /* that history, when from_history */
    double spot_usd_kwh;              /* mean day-ahead price */
    double levies_usd_kwh;            /* energy tax and grid tariff */
    double energy_usd_kwh;          /* all-in at the mean: spot + levies, VAT when not reclaimed */
    double energy_p90_usd_kwh;      /* the same at the 90th-percentile spot price; 0: unknown */
    double heat_usd_kwh;            /* paid per kWh of heat sold; 0 = none is sold */
    double heat_recovery;           /* share of the IT energy sold as heat, 0..1 */
    double colocation_usd_kw_month; /* per IT kW-month; 0 = not published (hosting applies) */
};

/* The least history that replaces a site's reference spot price: a week of prices. */
#define GP_SITE_HISTORY_MIN_HOURS 168.0

/*
 * The terms of `site` (borrowed) with its money converted at the rates in force at `at`. The
 * spot price's mean and p90 are the zone's stored prices (`history`, NULL: none) when they
 * cover at least GP_SITE_HISTORY_MIN_HOURS, else the site's reference figures. Returns 0, or
 * GP_ENOTFOUND naming the currency when `fx` has no rate for it.
 */
int gp_site_terms_init(struct gp_site_terms *out, const struct gp_site *site,
                       const struct gp_energy_summary *history, const struct gp_fx_table *fx,
                       int64_t at);

/* How one GPU type's servers sit at a site. A "server" is the catalog's node: an 8-GPU box, or
 * a whole rack-scale system (NVL72). */
struct gp_site_fit {
    enum gp_cooling cooling; /* what the servers need: the catalog's rack, else air when a server
                                fits an air-cooled rack; GP_COOLING_UNKNOWN without a site */
    double pue;              /* of that cooling at the site (the assumption without a site) */
    double server_kw;        /* one server at its rated power (GPU TDP and node), kW IT */
    int servers_per_rack;    /* at the site's rack limit for that cooling (and no more than the
                                catalog's rack holds); 0: one server exceeds it, or no site */
};

/* The fit of `gpu` at `terms`' site, or without one (terms NULL: `pue` is `default_pue`). */
void gp_site_fit(struct gp_site_fit *out, const struct gp_site_terms *terms,
                 const struct gp_gpu *gpu, double default_pue);

/* Whole servers whose rated power, with the PUE, stays within `facility_kw`. */
int gp_site_servers_within(const struct gp_site_fit *fit, double facility_kw);

/* Running cost of a fleet drawing `it_kw` at the site, USD per hour: energy at the mean price
 * for it_kw * pue, colocation on it_kw, less the heat sold. */
double gp_site_running_per_hour(const struct gp_site_terms *terms, const struct gp_site_fit *fit,
                                double it_kw);

#endif
