/* A site's electricity, cooling, racks, colocation and heat credit, in US dollars. */
#include "planner/site.h"

#include <math.h>
#include <string.h>

#include "util/error.h"
#include "util/timeutil.h" /* GP_HOURS_PER_MONTH */

static int rate(const struct gp_fx_table *fx, const char *currency, int64_t at, double *per_usd)
{
    if (gp_fx_per_usd(fx, currency, at, per_usd) || !(*per_usd > 0))
        return gp_error_set(GP_ENOTFOUND,
                            "no exchange rate for %s in fx.json: a site priced in it needs one",
                            currency);
    return 0;
}

int gp_site_terms_init(struct gp_site_terms *out, const struct gp_site *site,
                       const struct gp_energy_summary *history, const struct gp_fx_table *fx,
                       int64_t at)
{
    double eur_per_usd, local_per_usd;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = rate(fx, "EUR", at, &eur_per_usd)) ||
        (rc = rate(fx, site->currency, at, &local_per_usd)))
        return rc;
    out->site = site;
    out->from_history = history && history->hours >= GP_SITE_HISTORY_MIN_HOURS;
    if (out->from_history)
        out->history = *history;
    double vat = site->vat_reclaimed ? 1.0 : 1.0 + site->vat_rate;
    double mean = out->from_history ? history->mean : site->spot_mean_eur_mwh.value;
    bool p90_known = out->from_history || site->spot_p90_eur_mwh.known;
    double p90 = out->from_history ? history->p90 : site->spot_p90_eur_mwh.value;

    out->spot_usd_kwh = mean / 1000.0 / eur_per_usd;
    out->levies_usd_kwh =
        (site->energy_tax_kwh.value + site->grid_tariff_kwh.value) / local_per_usd;
    out->energy_usd_kwh = (out->spot_usd_kwh + out->levies_usd_kwh) * vat;
    if (p90_known)
        out->energy_p90_usd_kwh = (p90 / 1000.0 / eur_per_usd + out->levies_usd_kwh) * vat;
    if (site->heat_price_mwh.known && site->heat_recovery.known) {
        out->heat_usd_kwh = site->heat_price_mwh.value / 1000.0 / local_per_usd;
        out->heat_recovery = site->heat_recovery.value;
    }
    if (site->colocation_kw_month.known)
        out->colocation_usd_kw_month = site->colocation_kw_month.value / local_per_usd;
    return 0;
}

void gp_site_fit(struct gp_site_fit *out, const struct gp_site_terms *terms,
                 const struct gp_gpu *gpu, double default_pue)
{
    const struct gp_site *s = terms ? terms->site : NULL;
    double limit;

    memset(out, 0, sizeof(*out));
    out->server_kw = (gpu->gpus_per_node * gpu->tdp_w + gpu->node_overhead_w) / 1000.0;
    out->pue = default_pue;
    if (!s)
        return;
    out->cooling = gpu->rack.cooling != GP_COOLING_UNKNOWN  ? gpu->rack.cooling
                   : out->server_kw <= s->rack_kw_air.value ? GP_COOLING_AIR
                                                            : GP_COOLING_LIQUID;
    limit = out->cooling == GP_COOLING_LIQUID ? s->rack_kw_liquid.value : s->rack_kw_air.value;
    out->pue = out->cooling == GP_COOLING_LIQUID ? s->pue_liquid.value : s->pue_air.value;
    out->servers_per_rack = out->server_kw > 0 ? (int)floor(limit / out->server_kw) : 0;
    /* no more servers than the catalog's rack holds: its space, cabling and cooling */
    if (gpu->rack.gpus >= gpu->gpus_per_node && gpu->gpus_per_node > 0) {
        int catalog = gpu->rack.gpus / gpu->gpus_per_node;
        if (out->servers_per_rack > catalog)
            out->servers_per_rack = catalog;
    }
}

int gp_site_servers_within(const struct gp_site_fit *fit, double facility_kw)
{
    double each = fit->server_kw * fit->pue, n;

    if (!(each > 0) || !(facility_kw > 0))
        return 0;
    n = floor(facility_kw / each + 1e-9); /* a budget of exactly n servers holds n */
    return n > 1e9 ? 1000000000 : (int)n;
}

double gp_site_running_per_hour(const struct gp_site_terms *terms, const struct gp_site_fit *fit,
                                double it_kw)
{
    double energy = it_kw * fit->pue * terms->energy_usd_kwh;
    double colocation = it_kw * terms->colocation_usd_kw_month / GP_HOURS_PER_MONTH;
    double heat = it_kw * terms->heat_recovery * terms->heat_usd_kwh;

    return energy + colocation - heat;
}
