/* The rent-against-own chart of the HTML report: what owning the fleet cheapest to own and
 * renting the fleet cheapest to rent have cost by each month of the horizon, on linear axes,
 * with the month owning catches up marked. */
#include <math.h>

#include "report/html.h"
#include "report/table.h"

enum { HEIGHT = 300, LEFT = 84, RIGHT = 470, TOP = 16, BOTTOM = 250, LEGEND = 486, TICKS = 4 };

static double x_at(double month, int months)
{
    return LEFT + month / (months > 0 ? months : 1) * (RIGHT - LEFT);
}

static double y_at(double cost, double top)
{
    return BOTTOM - cost / top * (BOTTOM - TOP);
}

/* A round top for the cost axis: 1, 2 or 5 times a power of ten at or above `max`. */
static double round_top(double max)
{
    double decade = pow(10, floor(log10(max > 0 ? max : 1)));

    for (int i = 0; i < 3; i++) {
        double step = decade * (i == 0 ? 1 : i == 1 ? 2 : 5);
        if (step >= max)
            return step;
    }
    return decade * 10;
}

/* The cost axis's labels in units, thousands or millions of the currency, so that they fit. */
static double label_scale(double top, const char **word)
{
    *word = top >= 1e7 ? " million" : top >= 1e4 ? " thousand" : "";
    return top >= 1e7 ? 1e6 : top >= 1e4 ? 1e3 : 1.0;
}

static void axes(FILE *out, const char *currency, int months, double top, char decimal)
{
    const char *word;
    double scale = label_scale(top, &word);
    char text[32];

    fprintf(out,
            "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#57606a\"/>"
            "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#57606a\"/>\n",
            LEFT, RIGHT, BOTTOM, BOTTOM, LEFT, LEFT, TOP, BOTTOM);
    for (int i = 0; i <= TICKS; i++) {
        double month = (double)months * i / TICKS, cost = top * i / TICKS;
        gp_number_grouped(text, sizeof(text), month, month == floor(month) ? 0 : 1, decimal);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                x_at(month, months), BOTTOM + 16, text);
        gp_number_grouped(text, sizeof(text), cost / scale, cost / scale < 10 && cost > 0 ? 1 : 0,
                          decimal);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT - 4,
                y_at(cost, top) + 4, text);
    }
    fprintf(out,
            "\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#57606a\">months</text>"
            "<text x=\"%d\" y=\"%d\" fill=\"#57606a\">",
            (LEFT + RIGHT) / 2, BOTTOM + 34, LEFT + 4, TOP - 4);
    gp_html_escaped(out, currency);
    fprintf(out, "%s, cumulative</text>\n", word);
}

/* One fleet's line (owned solid, rented dashed) in its GPU type's colour, and its legend. */
static void line(FILE *out, const struct gp_report *r, const struct gp_rent_own *ro, bool owned,
                 double top)
{
    const struct gp_plan_row *row = owned ? ro->owned : ro->rented;
    int slot = owned ? 0 : 1;

    fprintf(out,
            "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"%s\"%s class=\"%s\" points=\"",
            gp_html_gpu_color(r, row->gpu), owned ? "" : " stroke-dasharray=\"6 3\"",
            owned ? "owned" : "rented");
    for (int m = 0; m <= ro->months; m++) {
        double cost = owned ? gp_rent_own_owned_by(ro, m) : gp_rent_own_rented_by(ro, m);
        fprintf(out, "%.1f,%.1f ", x_at(m, ro->months), y_at(cost, top));
    }
    fprintf(out,
            "\"/><line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>"
            "<text x=\"%d\" y=\"%d\">%s ",
            LEGEND, LEGEND + 12, TOP + 5 + slot * 16, TOP + 5 + slot * 16,
            gp_html_gpu_color(r, row->gpu), owned ? "" : " stroke-dasharray=\"4 2\"", LEGEND + 16,
            TOP + 9 + slot * 16, owned ? "own" : "rent");
    gp_html_escaped(out, row->gpu);
    fputs("</text>\n", out);
}

void gp_html_rent_own(FILE *out, const struct gp_report *r, const struct gp_rent_own *ro,
                      char decimal)
{
    double top = round_top(
        fmax(gp_rent_own_owned_by(ro, ro->months), gp_rent_own_rented_by(ro, ro->months)));

    fputs("<figure><figcaption>Rent against own: cumulative cost of the fleet cheapest to own "
          "and the fleet cheapest to rent</figcaption>\n",
          out);
    gp_html_svg_open(out, HEIGHT, "Cumulative cost of owning and of renting, by month");
    axes(out, r->currency, ro->months, top, decimal);
    line(out, r, ro, true, top);
    line(out, r, ro, false, top);
    if (ro->break_even_months >= 0 && ro->break_even_months <= ro->months) {
        double x = x_at(ro->break_even_months, ro->months);
        char text[32];
        gp_number_grouped(text, sizeof(text), ro->break_even_months, 1, decimal);
        fprintf(out,
                "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#1b1f24\" "
                "stroke-dasharray=\"3 3\" class=\"break-even\"/><text x=\"%.1f\" y=\"%d\">"
                "break-even, month %s</text>\n",
                x, x, TOP, BOTTOM, x + 4, TOP + 44, text);
    }
    fputs("</svg></figure>\n", out);
}
