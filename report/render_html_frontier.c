/* The frontier chart of the HTML report: per GPU type, tokens/s per GPU against tokens/s per
 * user, on logarithmic axes (the curve spans two or three decades each way). */
#include <math.h>
#include <string.h>

#include "report/html.h"
#include "report/table.h"

enum { HEIGHT = 300, LEFT = 64, RIGHT = 470, TOP = 16, BOTTOM = 250, LEGEND = 486 };

/* The smallest and largest of both axes over every point. */
static void ranges(const struct gp_frontier *f, double *x0, double *x1, double *y0, double *y1)
{
    *x0 = *y0 = INFINITY;
    *x1 = *y1 = 0;
    for (size_t i = 0; i < f->count; i++) {
        const struct gp_frontier_point *p = &f->points[i];
        *x0 = fmin(*x0, p->tokens_per_s_per_user);
        *x1 = fmax(*x1, p->tokens_per_s_per_user);
        *y0 = fmin(*y0, p->tokens_per_s_per_gpu);
        *y1 = fmax(*y1, p->tokens_per_s_per_gpu);
    }
    /* whole decades around the data, at least one each */
    *x0 = pow(10, floor(log10(*x0)));
    *x1 = fmax(*x0 * 10, pow(10, ceil(log10(*x1))));
    *y0 = pow(10, floor(log10(*y0)));
    *y1 = fmax(*y0 * 10, pow(10, ceil(log10(*y1))));
}

static double at(double v, double lo, double hi, double from, double to)
{
    return from + (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) * (to - from);
}

/* Axes with a label at every decade. */
static void axes(FILE *out, double x0, double x1, double y0, double y1, char decimal)
{
    char text[32];

    fprintf(out,
            "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#57606a\"/>"
            "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#57606a\"/>\n",
            LEFT, RIGHT, BOTTOM, BOTTOM, LEFT, LEFT, TOP, BOTTOM);
    for (double v = x0; v <= x1 * 1.001; v *= 10) {
        gp_number_grouped(text, sizeof(text), v, v < 1 ? 1 : 0, decimal);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                at(v, x0, x1, LEFT, RIGHT), BOTTOM + 16, text);
    }
    for (double v = y0; v <= y1 * 1.001; v *= 10) {
        gp_number_grouped(text, sizeof(text), v, v < 1 ? 1 : 0, decimal);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT - 4,
                at(v, y0, y1, BOTTOM, TOP) + 4, text);
    }
    fprintf(out,
            "\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#57606a\">output tokens/s "
            "each user sees (1000 / TPOT ms)</text><text x=\"%d\" y=\"%d\" fill=\"#57606a\">"
            "output tokens/s per GPU</text>\n",
            (LEFT + RIGHT) / 2, BOTTOM + 34, LEFT + 4, TOP - 4);
}

/* Whether a series of `gpu` comes before point i (an earlier profile of the same GPU type). */
static bool seen(const struct gp_frontier *f, size_t i, const char *gpu)
{
    for (size_t j = 0; j < i; j++)
        if (strcmp(f->points[j].gpu, gpu) == 0)
            return true;
    return false;
}

/* A shape's colour and GPU type: `fill` or `stroke` of the GPU's one colour, and data-gpu. */
static void paint(FILE *out, const struct gp_report *r, const char *attr, const char *gpu)
{
    fprintf(out, " %s=\"%s\" data-gpu=\"", attr, gp_html_gpu_color(r, gpu));
    gp_html_escaped(out, gpu);
    fputc('"', out);
}

/* One polyline per GPU type and profile (their points are consecutive; a GPU's later profiles
 * dashed), dots on the points, and a legend swatch. */
static void series(FILE *out, const struct gp_report *r, const struct gp_frontier *f, double x0,
                   double x1, double y0, double y1)
{
    size_t n = 0;

    for (size_t i = 0; i < f->count; n++) {
        const struct gp_frontier_point *first = &f->points[i];
        size_t end = i;
        while (end < f->count && strcmp(f->points[end].gpu, first->gpu) == 0 &&
               strcmp(f->points[end].stack, first->stack) == 0)
            end++;
        fputs("<polyline fill=\"none\" stroke-width=\"2\"", out);
        if (seen(f, i, first->gpu))
            fputs(" stroke-dasharray=\"6 3\"", out);
        paint(out, r, "stroke", first->gpu);
        fputs(" points=\"", out);
        for (size_t j = i; j < end; j++)
            fprintf(out, "%.1f,%.1f ", at(f->points[j].tokens_per_s_per_user, x0, x1, LEFT, RIGHT),
                    at(f->points[j].tokens_per_s_per_gpu, y0, y1, BOTTOM, TOP));
        fputs("\"/>", out);
        for (size_t j = i; j < end; j++) {
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"",
                    at(f->points[j].tokens_per_s_per_user, x0, x1, LEFT, RIGHT),
                    at(f->points[j].tokens_per_s_per_gpu, y0, y1, BOTTOM, TOP));
            paint(out, r, "fill", first->gpu);
            fputs("/>", out);
        }
        fprintf(out, "<rect x=\"%d\" y=\"%zu\" width=\"10\" height=\"10\"", LEGEND, TOP + n * 16);
        paint(out, r, "fill", first->gpu);
        fprintf(out, "/><text x=\"%d\" y=\"%zu\">", LEGEND + 14, TOP + 9 + n * 16);
        gp_html_escaped(out, first->gpu);
        fputs(seen(f, i, first->gpu) ? " (dashed: " : "", out);
        if (seen(f, i, first->gpu)) {
            gp_html_escaped(out, first->stack);
            fputc(')', out);
        }
        fputs("</text>\n", out);
        i = end;
    }
}

void gp_html_frontier(FILE *out, const struct gp_report *r, const struct gp_frontier *f,
                      char decimal)
{
    double x0, x1, y0, y1;

    ranges(f, &x0, &x1, &y0, &y1);
    fputs("<figure><figcaption>Throughput against interactivity: the best layout and batch for "
          "each speed a user sees</figcaption>\n",
          out);
    gp_html_svg_open(out, HEIGHT, "Throughput per GPU against tokens per second per user");
    axes(out, x0, x1, y0, y1, decimal);
    series(out, r, f, x0, x1, y0, y1);
    fputs("</svg></figure>\n", out);
}
