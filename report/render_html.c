/* The HTML report: one self-contained page (inline style, inline SVG charts, no script, font or
 * image from anywhere), readable on a phone and printable. Every text from the data is escaped. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"
#include "util/error.h"
#include "util/timeutil.h"

enum { NUMBER_ROOM = 352, SCRATCH_MAX = 512, BAR_HEIGHT = 22, LABEL_WIDTH = 110 };

static const char style[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;"
    "max-width:72rem;padding:1rem;color:#1b1f24;background:#fff}"
    "h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.25rem;margin:2rem 0 .5rem;"
    "border-bottom:1px solid #d0d7de}h3{font-size:1rem;margin:1rem 0 .3rem}"
    ".meta{color:#57606a;margin:0}nav a{margin-right:.8rem}"
    ".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}"
    "table{border-collapse:collapse;font-size:.85rem;font-variant-numeric:tabular-nums}"
    "th,td{padding:.25rem .5rem;border-bottom:1px solid #eaeef2;text-align:left;"
    "white-space:nowrap}th{background:#f6f8fa;position:sticky;top:0}"
    "td.n,th.n{text-align:right}tr.best td{background:#dafbe1;font-weight:600}"
    "tr.total td{border-top:2px solid #57606a;font-weight:600}"
    "figure{margin:1rem 0}figcaption{font-weight:600;margin-bottom:.3rem}"
    "svg{max-width:100%;height:auto}svg text{font:12px system-ui,sans-serif;fill:#1b1f24}"
    ".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(30rem,100%),1fr));gap:"
    "1rem}"
    ".cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(22rem,100%),1fr));"
    "gap:.6rem}.card{border:1px solid #d0d7de;border-radius:6px;padding:.5rem .8rem}"
    ".card h3{margin:.1rem 0 .3rem}.card p{margin:.2rem 0}.card .buy,.card .cost{font-size:1.05rem}"
    ".total{font-weight:600;margin:.5rem 0 0}"
    ".legend span{display:inline-block;margin-right:.9rem}.legend i{display:inline-block;"
    "width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:-.1rem}"
    "@media (max-width:40rem){body{font-size:14px;padding:.5rem}th,td{padding:.2rem .3rem}}"
    "@page{size:A4 landscape;margin:10mm}"
    "@media print{nav{display:none}body{max-width:none;font-size:9pt;padding:0}"
    ".scroll{overflow:visible}table{font-size:6pt;width:100%}th{position:static}"
    "th,td{white-space:normal;overflow-wrap:anywhere;padding:1px 2px}tr{break-inside:avoid}"
    ".card{break-inside:avoid}figure{break-inside:avoid}h2,h3{break-after:avoid}"
    "#recommendation{break-after:page}a{color:inherit;text-decoration:none}}";

const char *const gp_html_palette[GP_HTML_PALETTE_SIZE] = {
    "#332288", "#88ccee", "#117733", "#cc6677", "#ddcc77", "#882255", "#44aa99", "#999933",
    "#aa4499", "#6f6f6f", "#ee7733", "#0077bb", "#ee3377", "#009988", "#cc3311", "#000000"};

const char *gp_html_gpu_color(const struct gp_report *r, const char *gpu)
{
    size_t rank = 0;

    while (rank < r->ngpus && strcmp(r->gpus[rank], gpu) != 0)
        rank++;
    return gp_html_palette[rank % GP_HTML_PALETTE_SIZE];
}

void gp_html_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
                fputs("\xEF\xBF\xBD", out);
            else
                fputc(c, out);
        }
    }
}

static bool numeric(const struct gp_column *c)
{
    return c->kind == GP_CELL_NUMBER || c->kind == GP_CELL_INT;
}

/* The value of a GPU column in row r, or NULL: it marks the row for finding it. */
static const char *row_gpu(const struct gp_table *t, size_t r, char *scratch)
{
    struct gp_value v;

    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->columns[c].name, "gpu") == 0) {
            gp_table_value(t, r, c, &v, scratch, SCRATCH_MAX);
            return v.kind == GP_CELL_TEXT ? v.text : NULL;
        }
    return NULL;
}

static void put_row(FILE *out, const struct gp_table *t, size_t r, const struct gp_locale *loc)
{
    char number[NUMBER_ROOM], scratch[SCRATCH_MAX], gpu_scratch[SCRATCH_MAX];
    const char *gpu = row_gpu(t, r, gpu_scratch);
    bool best = false;

    for (size_t c = 0; c < t->ncols; c++) {
        struct gp_value v;
        if (strcmp(t->columns[c].name, "notes") != 0)
            continue;
        gp_table_value(t, r, c, &v, scratch, sizeof(scratch));
        best = v.kind == GP_CELL_TEXT && strncmp(v.text, "best", 4) == 0;
    }
    fputs(best ? "<tr class=\"best\"" : "<tr", out);
    if (gpu) {
        fputs(" data-gpu=\"", out);
        gp_html_escaped(out, gpu);
        fputc('"', out);
    }
    fputc('>', out);
    for (size_t c = 0; c < t->ncols; c++) {
        struct gp_value v;
        size_t len;
        gp_table_value(t, r, c, &v, scratch, sizeof(scratch));
        fputs(numeric(&t->columns[c]) ? "<td class=\"n\">" : "<td>", out);
        enum gp_column_style shown = gp_table_look(t, c)->style;
        if (v.kind == GP_CELL_NUMBER && shown == GP_STYLE_PERCENT) {
            len = gp_number_format(number, sizeof(number), v.number * 100, 1, loc->decimal);
            fprintf(out, "%s %%</td>", number);
            continue;
        }
        if (v.kind == GP_CELL_NUMBER || v.kind == GP_CELL_INT) { /* for reading: grouped */
            gp_number_grouped(number, sizeof(number), v.number,
                              gp_number_display_decimals(v.number, shown, t->columns[c].decimals),
                              loc->decimal);
            fprintf(out, "%s</td>", number);
            continue;
        }
        gp_html_escaped(out, gp_value_text(&v, &t->columns[c], loc, number, sizeof(number), &len));
        fputs("</td>", out);
    }
    fputs("</tr>\n", out);
}

/* A row of sums under the section's total columns. */
static void put_totals(FILE *out, const struct gp_report_section *s, const struct gp_locale *loc)
{
    const struct gp_table *t = &s->table;
    char number[NUMBER_ROOM], scratch[SCRATCH_MAX];

    fputs("<tr class=\"total\">", out);
    for (size_t c = 0; c < t->ncols; c++) {
        double sum = 0;
        if (c == 0 || !gp_report_is_total(s, c)) {
            fputs(c == 0 ? "<td>Total</td>" : "<td></td>", out);
            continue;
        }
        for (size_t r = 0; r < t->nrows; r++) {
            struct gp_value v;
            gp_table_value(t, r, c, &v, scratch, sizeof(scratch));
            sum += v.kind == GP_CELL_NUMBER || v.kind == GP_CELL_INT ? v.number : 0;
        }
        gp_number_format(number, sizeof(number), sum, t->columns[c].decimals, loc->decimal);
        fprintf(out, "<td class=\"n\">%s</td>", number);
    }
    fputs("</tr>\n", out);
}

static void put_table(FILE *out, const struct gp_report_section *s, const struct gp_locale *loc)
{
    const struct gp_table *t = &s->table;

    fputs("<div class=\"scroll\"><table>\n<thead><tr>", out);
    for (size_t c = 0; c < t->ncols; c++) {
        fputs(numeric(&t->columns[c]) ? "<th class=\"n\">" : "<th>", out);
        gp_html_escaped(out, gp_table_header(t, c));
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
    for (size_t r = 0; r < t->nrows; r++)
        put_row(out, t, r, loc);
    if (s->totals && t->nrows > 1)
        put_totals(out, s, loc);
    fputs("</tbody></table></div>\n", out);
}

/* ---- charts ------------------------------------------------------------------------------ */

/* One horizontal bar per row with a value; a band [low, high] drawn as a whisker when given. */
struct bar {
    const char *label;       /* the GPU type: its name and its colour */
    double value, low, high; /* low > high: no band */
    bool missing;            /* drawn as a note instead of a bar: `reason` */
    char reason[96];         /* why the row has no value, in the planner's words */
};

void gp_html_svg_open(FILE *out, int height, const char *title)
{
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" "
            "height=\"%d\" role=\"img\"><title>",
            CHART_WIDTH, height, CHART_WIDTH, height);
    gp_html_escaped(out, title);
    fputs("</title>\n", out);
}

/* Digits after the point that show about three significant figures. */
static int label_decimals(double v)
{
    int d = 0;

    for (v = fabs(v); v > 0 && v < 100 && d < 9; v *= 10)
        d++;
    return d;
}

/* The report's locale: its decimal mark goes into every number on the page. */
static const struct gp_locale *locale_of(const struct gp_report *r)
{
    return r->locale ? r->locale : gp_locale_default();
}

static void put_bars(FILE *out, const struct gp_report *r, const char *caption, const char *unit,
                     const struct bar *bars, size_t n, double limit, char decimal)
{
    double max = limit > 0 ? limit : 0;
    char value[32];
    int height = (int)n * BAR_HEIGHT + 30, plot = CHART_WIDTH - LABEL_WIDTH - 90;

    for (size_t i = 0; i < n; i++)
        if (!bars[i].missing)
            max = fmax(max, fmax(bars[i].value, bars[i].high));
    fputs("<figure><figcaption>", out);
    gp_html_escaped(out, caption);
    fputs("</figcaption>\n", out);
    gp_html_svg_open(out, height, caption);
    for (size_t i = 0; i < n; i++) {
        double y = 10 + (double)i * BAR_HEIGHT, w = max > 0 ? bars[i].value / max * plot : 0;
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LABEL_WIDTH - 6, y + 14);
        gp_html_escaped(out, bars[i].label);
        fputs("</text>", out);
        if (bars[i].missing) {
            fprintf(out, "<text x=\"%d\" y=\"%.1f\" fill=\"#57606a\">not priced: ", LABEL_WIDTH,
                    y + 14);
            gp_html_escaped(out, bars[i].reason);
            fputs("</text>\n", out);
            continue;
        }
        fprintf(out,
                "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" data-gpu=\"",
                LABEL_WIDTH, y + 2, w, BAR_HEIGHT - 6, gp_html_gpu_color(r, bars[i].label));
        gp_html_escaped(out, bars[i].label);
        fputs("\"/>", out);
        if (bars[i].low <= bars[i].high && max > 0)
            fprintf(out,
                    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#1b1f24\" "
                    "stroke-width=\"1.5\"/>",
                    LABEL_WIDTH + bars[i].low / max * plot, LABEL_WIDTH + bars[i].high / max * plot,
                    y + 10, y + 10);
        gp_number_grouped(value, sizeof(value), bars[i].value, label_decimals(bars[i].value),
                          decimal);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                LABEL_WIDTH + fmax(w, max > 0 ? bars[i].high / max * plot : 0) + 6, y + 14, value);
    }
    if (limit > 0 && max > 0) { /* the limit the bars are held to: the site's power budget */
        double x = LABEL_WIDTH + limit / max * plot;
        gp_number_grouped(value, sizeof(value), limit,
                          gp_number_display_decimals(limit, GP_STYLE_PLAIN, 1), decimal);
        fprintf(out,
                "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"4\" y2=\"%d\" stroke=\"#1b1f24\" "
                "stroke-dasharray=\"3 3\" class=\"limit\"/><text x=\"%.1f\" y=\"%d\" "
                "text-anchor=\"end\">budget %s</text>\n",
                x, x, height - 22, x - 3, height - 20, value);
    }
    fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"#57606a\">", LABEL_WIDTH, height - 6);
    gp_html_escaped(out, unit);
    fputs("</text></svg></figure>\n", out);
}

enum plan_chart { CHART_MONTH, CHART_UNIT, CHART_POWER };

/* The bars of one of a plan's charts, one per row, in plan order. */
static size_t plan_bars(const struct gp_report *r, const struct gp_report_plan *p,
                        enum plan_chart chart, struct bar *bars)
{
    size_t n = 0;

    for (size_t i = 0; i < p->nrows && n < GP_PLAN_COLUMNS_MAX; i++) {
        const struct gp_plan_row *row = &p->rows[i];
        struct bar *b = &bars[n];
        if (row->gpus <= 0)
            continue;
        memset(b, 0, sizeof(*b));
        b->label = row->gpu;
        b->low = 1; /* no band unless set below */
        b->missing = chart != CHART_POWER && !row->price_known;
        gp_plan_unpriced_reason(b->reason, sizeof(b->reason), row);
        if (chart == CHART_MONTH) {
            b->value = row->cost_per_month * r->fx;
            gp_report_month_band(row, r->fx, &b->low, &b->high);
        } else if (chart == CHART_UNIT) {
            b->value = gp_plan_unit_cost(row) * r->fx;
            b->low = row->cost_low * r->fx;
            b->high = row->cost_high * r->fx;
        } else {
            b->value = row->facility_kw;
        }
        n++;
    }
    return n;
}

static void put_plan_charts(FILE *out, const struct gp_report *r, const struct gp_report_plan *p)
{
    struct bar bars[GP_PLAN_COLUMNS_MAX];
    char caption[160], unit[96];
    char decimal = locale_of(r)->decimal;
    const char *per = p->kind == GP_WORKLOAD_INFERENCE  ? "million output tokens"
                      : p->kind == GP_WORKLOAD_TRAINING ? "training run"
                                                        : "job";
    size_t n;

    fputs("<h3>", out);
    gp_html_escaped(out, p->workload);
    fputs("</h3>\n<div class=\"charts\">\n", out);
    n = plan_bars(r, p, CHART_MONTH, bars);
    snprintf(caption, sizeof(caption), "Monthly cost per GPU type, with its uncertainty band");
    snprintf(unit, sizeof(unit), "%s " GP_MONTH_TEXT "; the line spans the band", r->currency);
    put_bars(out, r, caption, unit, bars, n, 0, decimal);
    n = plan_bars(r, p, CHART_UNIT, bars);
    snprintf(caption, sizeof(caption), "Cost per %s", per);
    snprintf(unit, sizeof(unit), "%s per %s", r->currency, per);
    put_bars(out, r, caption, unit, bars, n, 0, decimal);
    n = plan_bars(r, p, CHART_POWER, bars);
    put_bars(out, r, "Facility power, against the power budget where one is set",
             "kW at the facility (IT power x PUE)", bars, n,
             gp_assumptions_power_limit_kw(&p->result->used.assumptions), decimal);
    if (p->frontier && p->frontier->count)
        gp_html_frontier(out, r, p->frontier, decimal);
    if (p->rent_own.owned)
        gp_html_rent_own(out, r, &p->rent_own, decimal);
    fputs("</div>\n", out);
}

/* The range of the history's days and prices. */
static void history_range(const struct gp_report *r, int64_t *d0, int64_t *d1, double *pmax)
{
    *d0 = INT64_MAX;
    *d1 = INT64_MIN;
    *pmax = 0;
    for (size_t i = 0; i < r->nhistory; i++) {
        const struct gp_report_price_point *pt = &r->history[i];
        *d0 = pt->day < *d0 ? pt->day : *d0;
        *d1 = pt->day > *d1 ? pt->day : *d1;
        *pmax = fmax(*pmax, pt->price);
    }
    if (*d1 <= *d0)
        *d1 = *d0 + 86400;
}

/* The history chart's frame: its ranges and where they are drawn. */
struct frame {
    int64_t d0, d1; /* first and last day, Unix seconds */
    double top;     /* the price axis's top, a whole number of steps */
    double step;    /* between the price axis's ticks: 1, 2 or 5 times a power of ten */
    int height;
};

enum { PLOT_LEFT = 64, PLOT_RIGHT = 500, PLOT_TOP = 20, PLOT_BOTTOM_GAP = 30 };

static double frame_x(const struct frame *f, int64_t day)
{
    return PLOT_LEFT + (double)(day - f->d0) / (double)(f->d1 - f->d0) * (PLOT_RIGHT - PLOT_LEFT);
}

static double frame_y(const struct frame *f, double price)
{
    double bottom = f->height - PLOT_BOTTOM_GAP;
    return bottom - price / f->top * (bottom - PLOT_TOP);
}

/* A price step that gives four to six ticks up to `max`. */
static double nice_step(double max)
{
    double raw = max / 5, power = pow(10, floor(log10(raw)));
    double m = raw / power;

    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power;
}

/* The axes with their ticks: prices at the steps, five dates spread over the range. */
static void put_history_axes(FILE *out, const struct frame *f, char decimal)
{
    double bottom = f->height - PLOT_BOTTOM_GAP;
    char text[32];

    for (double p = 0; p <= f->top + f->step / 2; p += f->step) {
        gp_number_grouped(text, sizeof(text), p, f->step < 1 ? 2 : 0, decimal);
        fprintf(out,
                "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eaeef2\"/>"
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                PLOT_LEFT, PLOT_RIGHT, frame_y(f, p), frame_y(f, p), PLOT_LEFT - 4,
                frame_y(f, p) + 4, text);
    }
    for (int k = 0; k <= 4; k++) {
        int64_t day = f->d0 + (f->d1 - f->d0) * k / 4;
        gp_time_format_date(day - day % 86400, text, sizeof(text));
        fprintf(out,
                "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#57606a\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>",
                frame_x(f, day), frame_x(f, day), bottom, bottom + 4, frame_x(f, day), bottom + 18,
                k == 0   ? "start"
                : k == 4 ? "end"
                         : "middle",
                text);
    }
    fprintf(out,
            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#57606a\"/>"
            "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%.1f\" stroke=\"#57606a\"/>\n",
            PLOT_LEFT, PLOT_RIGHT, bottom, bottom, PLOT_LEFT, PLOT_LEFT, PLOT_TOP, bottom);
}

/* One step line per GPU and tier (points are grouped by GPU then tier; a price holds until the
 * next one is seen, the last until the end of the range), spot dashed, and a dot on every
 * observation, so a price seen on one day only is still drawn. */
static void put_history_lines(FILE *out, const struct gp_report *r, const struct frame *f)
{
    for (size_t i = 0; i < r->nhistory;) {
        const struct gp_report_price_point *first = &r->history[i];
        const char *color = gp_html_gpu_color(r, first->gpu);
        size_t end = i;
        while (end < r->nhistory && strcmp(r->history[end].gpu, first->gpu) == 0 &&
               strcmp(r->history[end].tier, first->tier) == 0)
            end++;
        fprintf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s data-gpu=\"", color,
                strcmp(first->tier, "spot") == 0 ? " stroke-dasharray=\"5 3\"" : "");
        gp_html_escaped(out, first->gpu);
        fprintf(out, "\" d=\"M%.1f,%.1f", frame_x(f, first->day), frame_y(f, first->price));
        for (size_t j = i + 1; j < end; j++)
            fprintf(out, " H%.1f V%.1f", frame_x(f, r->history[j].day),
                    frame_y(f, r->history[j].price));
        fprintf(out, " H%.1f\"/>", frame_x(f, f->d1));
        for (size_t j = i; j < end; j++) {
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\" data-gpu=\"",
                    frame_x(f, r->history[j].day), frame_y(f, r->history[j].price), color);
            gp_html_escaped(out, first->gpu);
            fputs("\"/>", out);
        }
        fputc('\n', out);
        i = end;
    }
}

/* The legend: one swatch per GPU type of the history, in the report's colour for it. */
static void put_history_legend(FILE *out, const struct gp_report *r)
{
    size_t n = 0;

    for (size_t i = 0; i < r->nhistory; i++) {
        if (i > 0 && strcmp(r->history[i].gpu, r->history[i - 1].gpu) == 0)
            continue;
        fprintf(out, "<rect x=\"510\" y=\"%zu\" width=\"10\" height=\"10\" fill=\"%s\"/>",
                11 + n * 16, gp_html_gpu_color(r, r->history[i].gpu));
        fprintf(out, "<text x=\"524\" y=\"%zu\">", 20 + n * 16);
        gp_html_escaped(out, r->history[i].gpu);
        fputs("</text>\n", out);
        n++;
    }
}

static void put_history_chart(FILE *out, const struct gp_report *r)
{
    struct frame f = {0, 0, 1, 1, 260};
    double pmax;

    fputs("<figure><figcaption>Price history: the cheapest on-demand (solid) and spot (dashed) "
          "price per GPU-hour, each held until the next one seen</figcaption>\n",
          out);
    gp_html_svg_open(out, f.height, "Price history per GPU");
    if (r->nhistory == 0) {
        fputs("<text x=\"60\" y=\"40\">No price history in the database.</text></svg></figure>\n",
              out);
        return;
    }
    history_range(r, &f.d0, &f.d1, &pmax);
    f.step = nice_step(pmax > 0 ? pmax : 1);
    f.top = ceil((pmax > 0 ? pmax : 1) / f.step) * f.step;
    put_history_axes(out, &f, locale_of(r)->decimal);
    put_history_lines(out, r, &f);
    put_history_legend(out, r);
    fputs("<text x=\"68\" y=\"14\" fill=\"#57606a\">", out);
    gp_html_escaped(out, r->currency);
    fputs(" per GPU-hour</text></svg></figure>\n", out);
}

/* ---- the page ---------------------------------------------------------------------------- */

static void put_head(FILE *out, const struct gp_report *r)
{
    char when[32];

    gp_time_format_stamp(r->generated_at, when, sizeof(when));
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          out);
    gp_html_escaped(out, r->title);
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<header><h1>", style);
    gp_html_escaped(out, r->title);
    fputs("</h1>\n<p class=\"meta\">", out);
    if (r->author[0]) {
        fputs("By ", out);
        gp_html_escaped(out, r->author);
        fputs(" · ", out);
    }
    fprintf(out, "Generated %s by gpuplan ", when);
    gp_html_escaped(out, r->version);
    fputs(" · money in ", out);
    gp_html_escaped(out, r->currency);
    fputs("</p></header>\n", out);
}

static void put_nav(FILE *out, const struct gp_report *r)
{
    fputs("<nav>", out);
    for (size_t i = 0; i < r->nsections; i++) {
        fprintf(out, "<a href=\"#%s\">", r->sections[i].key);
        gp_html_escaped(out, r->sections[i].title);
        fputs("</a>", out);
    }
    fputs("<a href=\"#charts\">Charts</a></nav>\n", out);
}

static void put_section(FILE *out, const struct gp_report *r, const struct gp_report_section *s)
{
    fprintf(out, "<section id=\"%s\">\n<h2>", s->key);
    gp_html_escaped(out, s->title);
    fputs("</h2>\n", out);
    if (s->note) {
        fputs("<p>", out);
        gp_html_escaped(out, s->note);
        fputs("</p>\n", out);
    }
    if (s->table.nrows == 0)
        fputs("<p>None.</p>\n", out);
    else
        put_table(out, s, locale_of(r));
    fputs("</section>\n", out);
}

/* One swatch per GPU type in the colour every chart draws it in. */
static void put_legend(FILE *out, const struct gp_report *r)
{
    fputs("<p class=\"legend\">", out);
    for (size_t i = 0; i < r->ngpus; i++) {
        fprintf(out, "<span><i style=\"background:%s\"></i>", gp_html_gpu_color(r, r->gpus[i]));
        gp_html_escaped(out, r->gpus[i]);
        fputs("</span>", out);
    }
    fputs("</p>\n", out);
}

int gp_report_render_html(const struct gp_report *r, FILE *out)
{
    put_head(out, r);
    gp_html_recommendation(out, r, locale_of(r)->decimal);
    put_nav(out, r);
    for (size_t i = 0; i < r->nsections; i++) {
        put_section(out, r, &r->sections[i]);
        if (i == 0) { /* the charts follow the summary */
            fputs("<section id=\"charts\">\n<h2>Charts</h2>\n", out);
            put_legend(out, r);
            for (size_t p = 0; p < r->nplans; p++)
                put_plan_charts(out, r, &r->plans[p]);
            put_history_chart(out, r);
            fputs("</section>\n", out);
        }
    }
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? gp_error_set(GP_ERROR, "cannot write the HTML report") : 0;
}
