/* A catalog figure against what its citation says: the cited words read as a quantity, brought
 * to the figure's unit and basis (dense, per GPU, both directions), and compared. */
#ifndef GP_CATALOG_CITATIONS_H
#define GP_CATALOG_CITATIONS_H

#include <stddef.h>

#include "gpuplan/gpu.h"

/* Figure `f` of entry `g` in the catalog's unit (TFLOP/s, GB, TB/s, W, GB/s, Gb/s, GPUs, MB,
 * USD, kW). */
double gp_gpu_figure(const struct gp_gpu *g, enum gp_figure f);

/*
 * What `says` ("NUMBER UNIT [dense|sparse] [one-way|bidirectional] [per gpu|node|rack|N gpus]",
 * e.g. "1440 PFLOPS sparse per rack") comes to in figure `f`'s unit and basis for entry `g`:
 * *value, and 0; or -1 with the reason in why[size] (an unknown unit or word, a unit of
 * another quantity, a peak that does not say dense or sparse, "per rack" without a rack).
 */
int gp_citation_value(const char *says, enum gp_figure f, const struct gp_gpu *g, double *value,
                      char *why, size_t size);

/* Whether citation `c` backs its entry's figure: 0, or -1 with the reason in why[size] (what
 * the words come to, against the figure). A citation without words (a derived estimate) backs
 * any value. */
int gp_citation_check(const struct gp_citation *c, const struct gp_gpu *g, char *why, size_t size);

struct gp_catalog;

/* Parse data/citations.json text ({"citations": {ID: {FIGURE: {"says", "source", "note"}}}})
 * into cat->citations, each checked against `cat`'s figure and given its confidence; errors
 * name origin, path, line and column (an unknown entry or figure, words that do not come to the
 * figure). Returns 0, GP_EINVALID or GP_ENOMEM; `cat` keeps its old citations on error. */
int gp_citations_parse(struct gp_catalog *cat, const char *text, size_t len, const char *origin);

/* gp_citations_parse of data/citations.json (or --data DIR's); none when DIR has its own
 * gpus.json but no citations.json, as the embedded ones describe the embedded catalog. */
int gp_catalog_load_citations(struct gp_catalog *cat);

/* How far a figure's value and its citation's may differ, relative: the rounding of figures
 * given to two or three digits. */
#define GP_CITATION_TOLERANCE 0.01

#endif
