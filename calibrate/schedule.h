/* The time budget of one device's calibration: which planned steps run, in which order, and how
 * long each may repeat its kernel. Pure bookkeeping over the elapsed time the caller passes in. */
#ifndef GP_CALIBRATE_SCHEDULE_H
#define GP_CALIBRATE_SCHEDULE_H

/*
 * A plan's steps are either required (the core every calibration measures: each bandwidth
 * kernel, the triad curve, and per GEMM precision the verification shape, the square curve,
 * the own-kernel cross-check and the decode shapes) or optional (the extra sizes of a full
 * plan). Required steps always run, first and in plan order, each at least its minimum number of
 * repetitions even once the budget is spent; optional steps follow in plan order and are left
 * out once the budget is gone or their predicted duration does not fit what is left.
 */
struct gp_schedule {
    double limit_s;     /* the device's time budget, s */
    double weight_left; /* relative time share of the steps not yet decided */
    int skipped;        /* optional steps left out for time */
    int over_budget;    /* required steps started after the budget was spent */
};

/* Start a schedule over steps whose weights sum to `total_weight`, for `limit_s` seconds. */
void gp_schedule_init(struct gp_schedule *s, double limit_s, double total_weight);

/*
 * Decide the next step, `elapsed_s` seconds after the calibration started. `predicted_s` is the
 * least time the step can take (its minimum repetitions at the last rate seen for its kind),
 * 0 when unknown. Returns the time its timed repetitions may take, s (> 0: run it), or 0 for
 * an optional step left out; either way the step's weight is taken off what is left.
 */
double gp_schedule_next(struct gp_schedule *s, double elapsed_s, double weight, int required,
                        double predicted_s);

#endif
