/* Which calibration fits a plan trusts: for each kernel and precision the fleet median of the
 * GPU type, over each GPU's newest run, with the band widened by the fleet's spread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/fleetcal.h"
#include "planner/plan.h"
#include "util/error.h"
#include "util/timeutil.h"

/* One curve slot of an efficiency: bandwidth, or the GEMM curve of one precision. */
enum { SLOT_BANDWIDTH = GP_PRECISION_COUNT, SLOT_COUNT };

/* The slot a fit fills, or -1 for a kernel or precision the model has no curve for. */
static int slot_of(const struct gp_calibration_curve *c)
{
    if (strcmp(c->kernel, "bandwidth") == 0)
        return SLOT_BANDWIDTH;
    if (strcmp(c->kernel, "gemm") != 0)
        return -1;
    return gp_precision_parse(c->precision);
}

static bool usable(const struct gp_calibration_curve *c)
{
    return c->eff_max > 0 && c->eff_max <= 1.0 && c->s_half >= 0;
}

/* The fleet's curve of one slot into *est: the median over each GPU's newest usable run, and the
 * spread; est->nodes is 0 when no GPU has one. Returns 0, or GP_ENOMEM. */
static int fleet_curve(struct gp_fleet_estimate *est, const struct gp_calibration_curve *fits,
                       size_t count, const char *gpu_id, int slot)
{
    struct gp_fleet_curve *curves = calloc(count ? count : 1, sizeof(*curves));
    size_t n = 0;
    int rc = 0;

    memset(est, 0, sizeof(*est));
    if (!curves)
        return gp_error_set(GP_ENOMEM, "out of memory choosing the calibrated curves");
    for (size_t i = 0; i < count; i++) {
        const struct gp_calibration_curve *c = &fits[i];
        if (slot_of(c) != slot || !usable(c) || strcmp(c->gpu_id, gpu_id) != 0)
            continue;
        curves[n++] = (struct gp_fleet_curve){
            c->host,   c->device, c->gpu_id, "",  c->kernel, c->precision, c->eff_max,
            c->s_half, c->peak,   1.0,       1.0, 0.0,       c->started_at};
    }
    if (n > 0)
        rc = gp_fleet_estimate(est, curves, n, gpu_id, curves[0].kernel, curves[0].precision);
    if (rc)
        memset(est, 0, sizeof(*est));
    free(curves);
    return rc;
}

int gp_plan_calibration_choose(struct gp_efficiency *eff, const struct gp_calibration_curve *fits,
                               size_t count, const char *gpu_id)
{
    struct gp_eff_override ov;
    double low = 1.0, high = 1.0;
    size_t nodes = 0;
    int64_t newest = 0;
    const char *host = "";

    memset(&ov, 0, sizeof(ov));
    for (int s = 0; s < SLOT_COUNT; s++) {
        struct gp_fleet_estimate est;
        int rc = fleet_curve(&est, fits, count, gpu_id, s);
        if (rc)
            return rc;
        if (est.nodes == 0)
            continue;
        struct gp_eff_curve curve = {est.eff_max, est.s_half};
        if (s == SLOT_BANDWIDTH) {
            ov.bandwidth = curve;
            ov.bandwidth_set = true;
        } else {
            ov.gemm[s] = curve;
            ov.gemm_set[s] = true;
        }
        low = est.low < low ? est.low : low;
        high = est.high > high ? est.high : high;
        nodes = est.nodes > nodes ? est.nodes : nodes;
        newest = est.newest > newest ? est.newest : newest;
    }
    for (size_t i = 0; nodes == 1 && i < count; i++)
        if (strcmp(fits[i].gpu_id, gpu_id) == 0 && fits[i].started_at == newest)
            host = fits[i].host;
    if (nodes == 0 || newest <= 0)
        return 0;
    char date[11];
    gp_time_format_date(newest, date, sizeof(date));
    if (nodes == 1)
        snprintf(ov.source, sizeof(ov.source), "calibrated:%.60s:%s", host, date);
    else
        snprintf(ov.source, sizeof(ov.source), "calibrated:median of %zu nodes:%s", nodes, date);
    gp_efficiency_apply(eff, &ov);
    gp_efficiency_widen(eff, low, high);
    return 0;
}
