/* What the HTML report's renderers share: escaping, the chart frame and its colours, and the
 * charts drawn outside report/render_html.c. Internal to report/. */
#ifndef GP_REPORT_HTML_H
#define GP_REPORT_HTML_H

#include <stdio.h>

#include "planner/frontier.h"

#define GP_HTML_CHART_WIDTH  640
#define GP_HTML_PALETTE_SIZE 10
#define CHART_WIDTH          GP_HTML_CHART_WIDTH

/* Series colours, distinguishable and legible on white. */
extern const char *const gp_html_palette[GP_HTML_PALETTE_SIZE];

/* Text with &, <, >, " and ' escaped, and control characters as U+FFFD. */
void gp_html_escaped(FILE *out, const char *s);

/* An inline SVG of the chart width and `height`, titled for screen readers. */
void gp_html_svg_open(FILE *out, int height, const char *title);

/* The throughput-interactivity frontier of one workload: a line per GPU type and profile,
 * tokens/s per GPU against tokens/s per user, both axes logarithmic; numbers with `decimal`. */
void gp_html_frontier(FILE *out, const struct gp_frontier *f, char decimal);

#endif
