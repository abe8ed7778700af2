/* What the HTML report's renderers share: escaping, the chart frame and its colours, and the
 * charts drawn outside report/render_html.c. Internal to report/. */
#ifndef GP_REPORT_HTML_H
#define GP_REPORT_HTML_H

#include <stdio.h>

#include "planner/frontier.h"
#include "report/report.h"

#define GP_HTML_CHART_WIDTH  640
#define GP_HTML_PALETTE_SIZE 16
#define CHART_WIDTH          GP_HTML_CHART_WIDTH

/* Series colours: Paul Tol's "muted" scheme, told apart under the common colour blindnesses,
 * legible on white, and of distinct lightness in greyscale where the charts also label them;
 * then the hues of his "vibrant" scheme that muted lacks, so sixteen GPU types each keep
 * their own colour. */
extern const char *const gp_html_palette[GP_HTML_PALETTE_SIZE];

/* The one colour of GPU type `gpu` in every chart of the report: the palette in the order the
 * GPU types first appear in its plans (then its price history). */
const char *gp_html_gpu_color(const struct gp_report *r, const char *gpu);

/* The first screen: per workload what to buy, its cost and band, the runner-up, what would
 * change the answer and the risks, then the totals by kind, from the summary section; numbers
 * grouped in thousands with `decimal`. Nothing without a summary. */
void gp_html_recommendation(FILE *out, const struct gp_report *r, char decimal);

/* Text with &, <, >, " and ' escaped, and control characters as U+FFFD. */
void gp_html_escaped(FILE *out, const char *s);

/* An inline SVG of the chart width and `height`, titled for screen readers. */
void gp_html_svg_open(FILE *out, int height, const char *title);

/* The throughput-interactivity frontier of one workload: a line per GPU type and profile,
 * tokens/s per GPU against tokens/s per user, both axes logarithmic; numbers with `decimal`. */
void gp_html_frontier(FILE *out, const struct gp_report *r, const struct gp_frontier *f,
                      char decimal);

/* Rent against own for one owned plan: the cumulative cost of the fleet cheapest to own and of
 * the fleet cheapest to rent, month by month, with the break-even month; numbers with
 * `decimal`. */
void gp_html_rent_own(FILE *out, const struct gp_report *r, const struct gp_rent_own *ro,
                      char decimal);

#endif
