/* Uncertainty bands per case class, derived from the model's own error on published
 * measurements (data/bands.json, written by the validation harness), and the class of a plan. */
#ifndef GP_PLANNER_BANDS_H
#define GP_PLANNER_BANDS_H

#include <stddef.h>

#include "planner/workload.h"

/* The case classes a band is measured for. */
enum gp_band_class {
    GP_BAND_INFERENCE_DENSE, /* dense decoder serving */
    GP_BAND_INFERENCE_MOE,   /* mixture-of-experts serving */
    GP_BAND_TRAINING_NODE,   /* training within one node */
    GP_BAND_TRAINING_SCALE,  /* training across nodes */
    GP_BAND_COUNT
};

/* measured / predicted throughput at the ends of the class's conformal band (gp_bands_conformal)
 * at `coverage`. */
struct gp_band {
    double low;    /* multiplier on the central prediction at the pessimistic end, > 0 */
    double high;   /* multiplier at the optimistic end, >= low */
    int cases;     /* validation cases the band was derived from */
    double spread; /* engine spread: how far engines differ on identical cases, log units */
};

struct gp_bands {
    double coverage;                    /* share of cases each band holds, (0, 1] */
    double drift_per_year;              /* how fast evidence ages: log throughput per year */
    struct gp_band band[GP_BAND_COUNT]; /* cases 0 = no band derived for the class */
};

/* "inference-dense", ...; gp_band_class_parse returns -1 for an unknown name. */
const char *gp_band_class_name(enum gp_band_class c);
int gp_band_class_parse(const char *name);

/* The class of workload `w` planned on `gpus` GPUs of nodes of `gpus_per_node`. Generic jobs
 * have no class: returns -1. */
int gp_band_class_of(const struct gp_workload *w, int gpus, int gpus_per_node);

/* Parse data/bands.json; errors name origin, path, line and column. Returns 0, GP_EINVALID. */
int gp_bands_parse(struct gp_bands *out, const char *text, size_t len, const char *origin);

/*
 * The band a plan shows: the model's error `b` combined in quadrature with its engine spread,
 * and its optimistic end widened by `drift_per_year` for each of `age_years` since the
 * profile's evidence (engines get faster: old evidence underestimates today's). A band of no
 * cases is left as it is.
 */
void gp_band_widen(struct gp_band *b, double drift_per_year, double age_years);

/*
 * The split-conformal band of `n` absolute log errors |log(measured / predicted)| (`e`, any
 * order; sorted in place): their ceil((n + 1) x coverage)-th smallest, q. A new case
 * exchangeable with these lies within exp(-q)..exp(q) times the prediction with probability at
 * least `coverage`. Returns 0 with *q set, or -1 when n is too small for that order statistic.
 */
int gp_bands_conformal(double *e, size_t n, double coverage, double *q);

#endif
