/* The calibration time budget: a step's share of the time left, and which optional steps fit. */
#include "calibrate/schedule.h"

/* The share of the budget planned for the kernels themselves; the rest covers allocation, input
 * generation and verification, which the per-step budgets do not count. */
#define SPEND_SHARE 0.8
/* The share of the time left that the remaining steps' budgets may claim. */
#define STEP_SHARE 0.4
/* The most one step's timed runs may take, s: medians settle well before. */
#define STEP_MAX_S 1.0
/* What a required step gets once the budget is spent: its minimum repetitions, s. */
#define STEP_MIN_S 1e-3

void gp_schedule_init(struct gp_schedule *s, double limit_s, double total_weight)
{
    s->limit_s = limit_s;
    s->weight_left = total_weight;
    s->skipped = 0;
    s->over_budget = 0;
}

double gp_schedule_next(struct gp_schedule *s, double elapsed_s, double weight, int required,
                        double predicted_s)
{
    double left = s->limit_s * SPEND_SHARE - elapsed_s;
    double share = s->weight_left > weight ? weight / s->weight_left : 1.0;
    double budget = left * STEP_SHARE * share;

    s->weight_left -= weight;
    if (s->weight_left < 0)
        s->weight_left = 0;
    if (!required && (left <= 0 || predicted_s > left)) {
        s->skipped++;
        return 0.0;
    }
    if (required && left <= 0)
        s->over_budget++;
    if (budget > STEP_MAX_S)
        budget = STEP_MAX_S;
    return budget > STEP_MIN_S ? budget : STEP_MIN_S;
}
