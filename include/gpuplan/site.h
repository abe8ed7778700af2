/* A site to host an owned fleet at: an electricity bidding zone, or a named colocation site in
 * one, with the figures data/sites.json gives for it. Shared by the catalog, which reads it, and
 * the planner, which prices a fleet there. */
#ifndef GPUPLAN_SITE_H
#define GPUPLAN_SITE_H

#include <stdbool.h>
#include <stdint.h>

#include "gpuplan/gpu.h" /* enum gp_cooling */

#define GP_SITE_ID_MAX 24

/* One published (or estimated) figure and where it comes from. */
struct gp_site_figure {
    double value;     /* in the unit its field names */
    bool known;       /* false: not published for this site (the figure does not apply) */
    bool estimate;    /* derived or typical, not a figure published for this site */
    int64_t date;     /* when it was published or applies from, Unix seconds UTC */
    char source[256]; /* https:// address, or the document it comes from */
};

/* One site. Money is in `currency` unless its field says EUR. */
struct gp_site {
    char id[GP_SITE_ID_MAX]; /* "dk1", "se3", "fi" */
    char name[64];           /* "Denmark West (DK1)" */
    char zone[8];            /* the bidding zone: "DK1", "SE3", "FI" */
    char country[3];         /* ISO 3166-1 alpha-2 */
    char currency[4];        /* ISO 4217 code of the site's money figures */
    /* Day-ahead electricity price over a reference period, EUR per MWh: the mean and the 90th
     * percentile of the hours (not known when unpublished). Used until a price history for the
     * zone is stored. */
    struct gp_site_figure spot_mean_eur_mwh, spot_p90_eur_mwh;
    char spot_period[16];                      /* "2025": the period the two describe */
    struct gp_site_figure energy_tax_kwh;      /* electricity tax and levies, currency per kWh */
    struct gp_site_figure grid_tariff_kwh;     /* grid tariff for a MW-scale connection, per kWh */
    double vat_rate;                           /* VAT on electricity, 0.25 = 25% */
    bool vat_reclaimed;                        /* a business reclaims it (not a cost) */
    struct gp_site_figure pue_air;             /* facility/IT power, air-cooled halls, typical */
    struct gp_site_figure pue_liquid;          /* the same, direct liquid cooling */
    struct gp_site_figure rack_kw_air;         /* IT power one air-cooled rack may draw, kW */
    struct gp_site_figure rack_kw_liquid;      /* the same, liquid-cooled */
    struct gp_site_figure floor_m2_per_rack;   /* white space per rack, aisles included, m2 */
    struct gp_site_figure colocation_kw_month; /* per IT kW contracted per month; energy apart */
    struct gp_site_figure heat_price_mwh;      /* paid for recovered heat, currency per MWh heat */
    struct gp_site_figure heat_recovery;       /* share of the IT energy sold as heat, 0..1 */
};

#endif
