/* The HTML report's first screen: per workload what to buy, what it costs with its band, the
 * runner-up, what would change the answer and the risks, read from the summary section; then
 * the totals, one per kind. Numbers are grouped in thousands for reading. */
#include <stdio.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"

enum { SCRATCH_MAX = 512, NUMBER_ROOM = 64 };

/* Row `row`'s value in column `name` (GP_CELL_EMPTY when there is no such column). */
static void cell(const struct gp_table *t, size_t row, const char *name, struct gp_value *v,
                 char *scratch)
{
    v->kind = GP_CELL_EMPTY;
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->columns[c].name, name) == 0) {
            gp_table_value(t, row, c, v, scratch, SCRATCH_MAX);
            return;
        }
}

/* Text in column `name`, escaped, after `label` (nothing when the cell is empty). */
static void put_text(FILE *out, const struct gp_table *t, size_t row, const char *name,
                     const char *label)
{
    char scratch[SCRATCH_MAX];
    struct gp_value v;

    cell(t, row, name, &v, scratch);
    if (v.kind != GP_CELL_TEXT || !v.text[0])
        return;
    fprintf(out, "<p class=\"%s\"><b>%s</b> ", name, label);
    gp_html_escaped(out, v.text);
    fputs("</p>\n", out);
}

/* A number of column `name` grouped in thousands with `decimals`, into a NUMBER_ROOM buffer;
 * "" when the cell is empty. */
static const char *number(char *buf, const struct gp_table *t, size_t row, const char *name,
                          int decimals, char decimal)
{
    char scratch[SCRATCH_MAX];
    struct gp_value v;

    cell(t, row, name, &v, scratch);
    buf[0] = '\0';
    if (v.kind == GP_CELL_NUMBER || v.kind == GP_CELL_INT)
        gp_number_grouped(buf, NUMBER_ROOM, v.number, decimals, decimal);
    return buf;
}

/* "<b>USD 9,913</b> per month (band 9,913 to 14,870)"; nothing when the row has no cost. */
static bool put_cost(FILE *out, const struct gp_report *r, const struct gp_table *t, size_t row,
                     char decimal)
{
    char cost[NUMBER_ROOM], low[NUMBER_ROOM], high[NUMBER_ROOM], scratch[SCRATCH_MAX];
    struct gp_value per;

    cell(t, row, "cost_per", &per, scratch);
    if (!number(cost, t, row, "cost", 0, decimal)[0])
        return false;
    fputs("<b>", out);
    gp_html_escaped(out, r->currency);
    fprintf(
        out, " %s</b> per %s (band %s to %s)", cost, per.kind == GP_CELL_TEXT ? per.text : "month",
        number(low, t, row, "cost_low", 0, decimal), number(high, t, row, "cost_high", 0, decimal));
    return true;
}

/* The runner-up and how much more it costs per unit of work than the recommendation. */
static void put_runner(FILE *out, const struct gp_table *t, size_t row, char decimal)
{
    char scratch[SCRATCH_MAX], more[NUMBER_ROOM];
    struct gp_value buy, saving;

    cell(t, row, "runner_up_buy", &buy, scratch);
    if (buy.kind != GP_CELL_TEXT)
        return;
    cell(t, row, "saving", &saving, more);
    fputs("<p class=\"runner\"><b>Runner-up</b> ", out);
    gp_html_escaped(out, buy.text);
    if (saving.kind == GP_CELL_NUMBER && saving.number < 1) {
        /* the best saves s of the runner-up's cost: the runner-up costs 1 / (1 - s) - 1 more */
        gp_number_grouped(more, sizeof(more), 100.0 * (1.0 / (1.0 - saving.number) - 1.0), 0,
                          decimal);
        fprintf(out, ": it costs %s%% more per unit of work", more);
    }
    fputs("</p>\n", out);
}

static void put_card(FILE *out, const struct gp_report *r, const struct gp_table *t, size_t row,
                     char decimal)
{
    char scratch[SCRATCH_MAX];
    struct gp_value workload;

    cell(t, row, "workload", &workload, scratch);
    fputs("<div class=\"card\" data-workload=\"", out);
    gp_html_escaped(out, workload.kind == GP_CELL_TEXT ? workload.text : "");
    fputs("\">\n<h3>", out);
    gp_html_escaped(out, workload.kind == GP_CELL_TEXT ? workload.text : "");
    fputs("</h3>\n", out);
    put_text(out, t, row, "buy", "Buy");
    fputs("<p class=\"cost\">", out);
    if (!put_cost(out, r, t, row, decimal))
        fputs("No GPU type is feasible and priced.", out);
    fputs("</p>\n", out);
    put_runner(out, t, row, decimal);
    put_text(out, t, row, "would_change", "Would change the answer:");
    put_text(out, t, row, "risks", "Risks:");
    fputs("</div>\n", out);
}

void gp_html_recommendation(FILE *out, const struct gp_report *r, char decimal)
{
    const struct gp_report_section *s = gp_report_find_section(r, "summary");
    char scratch[SCRATCH_MAX];

    if (!s || s->table.nrows == 0)
        return;
    fputs("<section id=\"recommendation\">\n<h2>Recommendation</h2>\n<div class=\"cards\">\n", out);
    for (size_t i = 0; i < s->table.nrows; i++) {
        struct gp_value rec, cost;
        cell(&s->table, i, "recommended", &rec, scratch);
        cell(&s->table, i, "cost", &cost, scratch);
        if (rec.kind == GP_CELL_EMPTY && cost.kind != GP_CELL_EMPTY)
            continue; /* a total: after the cards */
        put_card(out, r, &s->table, i, decimal);
    }
    fputs("</div>\n", out);
    for (size_t i = 0; i < s->table.nrows; i++) {
        struct gp_value rec, cost, workload;
        cell(&s->table, i, "recommended", &rec, scratch);
        cell(&s->table, i, "cost", &cost, scratch);
        if (rec.kind != GP_CELL_EMPTY || cost.kind == GP_CELL_EMPTY)
            continue; /* a workload's card, shown above */
        cell(&s->table, i, "workload", &workload, scratch);
        fputs("<p class=\"total\">", out);
        gp_html_escaped(out, workload.kind == GP_CELL_TEXT ? workload.text : "");
        fputs(": ", out);
        put_cost(out, r, &s->table, i, decimal);
        fputs("</p>\n", out);
    }
    fputs("</section>\n", out);
}
