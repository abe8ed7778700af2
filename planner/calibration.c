/* Which calibration fits a plan trusts: for each kernel and precision, the newest run's curve. */
#include <stdio.h>
#include <string.h>

#include "planner/plan.h"
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

void gp_plan_calibration_choose(struct gp_efficiency *eff, const struct gp_calibration_curve *fits,
                                size_t count, const char *gpu_id)
{
    const struct gp_calibration_curve *chosen[SLOT_COUNT] = {0}, *newest = NULL;
    struct gp_eff_override ov;

    for (size_t i = 0; i < count; i++) {
        int slot = slot_of(&fits[i]);
        if (slot < 0 || strcmp(fits[i].gpu_id, gpu_id) != 0)
            continue;
        if (!chosen[slot] || fits[i].started_at >= chosen[slot]->started_at)
            chosen[slot] = &fits[i];
    }
    memset(&ov, 0, sizeof(ov));
    for (int s = 0; s < SLOT_COUNT; s++) {
        const struct gp_calibration_curve *c = chosen[s];
        if (!c || !usable(c))
            continue;
        struct gp_eff_curve curve = {c->eff_max, c->s_half};
        if (s == SLOT_BANDWIDTH) {
            ov.bandwidth = curve;
            ov.bandwidth_set = true;
        } else {
            ov.gemm[s] = curve;
            ov.gemm_set[s] = true;
        }
        if (!newest || c->started_at >= newest->started_at)
            newest = c;
    }
    if (!newest || newest->started_at <= 0)
        return;
    char date[11];
    gp_time_format_date(newest->started_at, date, sizeof(date));
    snprintf(ov.source, sizeof(ov.source), "calibrated:%.60s:%s", newest->host, date);
    gp_efficiency_apply(eff, &ov);
}
