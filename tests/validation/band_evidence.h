/* What the validation cases of a band class say beyond their own errors: coverage when a whole
 * source is left out, how far engines differ on the same case, and how fast an engine's
 * throughput moves with the date of its evidence. */
#ifndef GP_TESTS_BAND_EVIDENCE_H
#define GP_TESTS_BAND_EVIDENCE_H

#include <stddef.h>

#define BAND_SOURCE_MAX 64
#define BAND_KEY_MAX    128

/* One case of a band class. */
struct band_case {
    double ratio;                 /* measured / predicted throughput */
    char source[BAND_SOURCE_MAX]; /* the publication: host and repository of its address */
    char key[BAND_KEY_MAX];       /* its conditions: GPU, model, precisions, lengths, batch */
    char hardware[BAND_KEY_MAX];  /* GPU and model only */
    char stack[32];               /* the profile it was planned with */
    double as_of_years;           /* date of the stack profile's evidence, years since 1970 */
};

/* The publication an address belongs to: "github.com/NVIDIA/TensorRT-LLM" for a GitHub URL,
 * the host otherwise, into out[size]. */
void band_source_of(char *out, size_t size, const char *url);

/* Engine spread: the median |log| ratio between two engines' (profiles') errors on cases of
 * identical conditions whose evidence is under 90 days apart; 0 when no two such cases exist. */
double band_engine_spread(const struct band_case *c, size_t n);

/* Drift: the median over case pairs on the same GPU and model, with evidence at least 60 days
 * apart, of |difference of log errors| per year between them; 0 when none. */
double band_drift_per_year(const struct band_case *c, size_t n, size_t *pairs);

/* Leave-one-source-out: each case against the band of the other sources' cases (conformal at
 * `coverage`, combined in quadrature with `spread`). Counts the cases inside in *held and the
 * cases that had a band in *with_band; the median band width (high / low) in *median_width.
 * `sources` is how many distinct publications there are. */
void band_leave_source_out(const struct band_case *c, size_t n, double coverage, double spread,
                           size_t *held, size_t *with_band, double *median_width, size_t *sources);

#endif
