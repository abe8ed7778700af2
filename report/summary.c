/* The report's first section, the recommendation: per workload what to buy and from whom, what
 * it costs with its band, the runner-up and by how much it loses, what would change the answer
 * and the largest risks; then one total for the recurring services per month and one for the
 * one-off jobs per run, each with its band, never added together. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/timeutil.h"

static const struct gp_column summary_columns[] = {
    {"workload", GP_CELL_TEXT, 0},
    {"kind", GP_CELL_TEXT, 0},
    {"recommended", GP_CELL_TEXT, 0},
    {"buy", GP_CELL_TEXT, 0},
    {"gpus", GP_CELL_INT, 0},
    {"provider", GP_CELL_TEXT, 0},
    {"region", GP_CELL_TEXT, 0},
    {"tier", GP_CELL_TEXT, 0},
    {"cost", GP_CELL_NUMBER, 0},
    {"cost_low", GP_CELL_NUMBER, 0},
    {"cost_high", GP_CELL_NUMBER, 0},
    {"cost_per", GP_CELL_TEXT, 0},
    {"unit_cost", GP_CELL_NUMBER, 4},
    {"unit", GP_CELL_TEXT, 0},
    {"runner_up", GP_CELL_TEXT, 0},
    {"runner_up_buy", GP_CELL_TEXT, 0},
    {"saving", GP_CELL_NUMBER, 3},
    {"would_change", GP_CELL_TEXT, 0},
    {"risks", GP_CELL_TEXT, 0},
    {"facility_kw", GP_CELL_NUMBER, 2},
    {"energy_kwh_per_month", GP_CELL_NUMBER, 0},
};
static const struct gp_column_look summary_looks[] = {
    {"Workload", NULL, GP_STYLE_TEXT, 0},
    {"Kind", NULL, GP_STYLE_TEXT, 0},
    {"Recommended GPU", NULL, GP_STYLE_TEXT, 0},
    {"Buy", NULL, GP_STYLE_TEXT, 0},
    {"GPUs", "GPUs", GP_STYLE_COUNT, 0},
    {"Provider", NULL, GP_STYLE_TEXT, 0},
    {"Region", NULL, GP_STYLE_TEXT, 0},
    {"Tier", NULL, GP_STYLE_TEXT, 0},
    {"Cost", NULL, GP_STYLE_CURRENCY, 0},
    {"Cost, low", NULL, GP_STYLE_CURRENCY, 0},
    {"Cost, high", NULL, GP_STYLE_CURRENCY, 0},
    {"Cost per", NULL, GP_STYLE_TEXT, 0},
    {"Cost per unit", "per unit of work", GP_STYLE_CURRENCY, 0},
    {"Unit", NULL, GP_STYLE_TEXT, 0},
    {"Runner-up", NULL, GP_STYLE_TEXT, 0},
    {"Runner-up buys", NULL, GP_STYLE_TEXT, 0},
    {"Saving vs runner-up", "fraction", GP_STYLE_PERCENT, 0},
    {"Would change the answer", NULL, GP_STYLE_TEXT, 0},
    {"Risks", NULL, GP_STYLE_TEXT, 0},
    {"Facility kW", "kW", GP_STYLE_PLAIN, 0},
    {"Energy kWh/month", "kWh per month", GP_STYLE_PLAIN, 0},
};

/* What the risks and the answer's conditions know beyond the plan: quotes that expire soon. */
struct summary_context {
    const struct gp_report *r;
    size_t expiring; /* quotes the plans use that expire inside the horizon */
};

/* Risks a recommendation names at most: the largest, in words. */
#define MAX_RISKS 3

static const char *unit_name(enum gp_workload_kind kind)
{
    switch (kind) {
    case GP_WORKLOAD_INFERENCE:
        return "million output tokens";
    case GP_WORKLOAD_TRAINING:
        return "training run";
    default:
        return "job";
    }
}

/* A training run is bought once; a service (inference, a job stream) is paid every month. */
static bool one_off(enum gp_workload_kind kind)
{
    return kind == GP_WORKLOAD_TRAINING;
}

/* The plan's best row and its runner-up, as the planner chose them (NULL for none). */
static void best_two(const struct gp_report_plan *p, const struct gp_plan_row **best,
                     const struct gp_plan_row **runner)
{
    const struct gp_plan_result *res = p->result;

    *best = res->best < p->nrows ? &p->rows[res->best] : NULL;
    *runner = *best && res->runner_up < p->nrows ? &p->rows[res->runner_up] : NULL;
}

/* The cost the kind is judged by, in the report currency: a month of a service, a whole run of
 * a training job; and its band at the efficiency bounds. */
static void kind_cost(const struct gp_plan_row *row, enum gp_workload_kind kind, double fx,
                      double *cost, double *low, double *high)
{
    if (one_off(kind)) {
        *cost = row->total_cost * fx;
        *low = row->cost_low * fx;
        *high = row->cost_high * fx;
        return;
    }
    *cost = row->cost_per_month * fx;
    gp_report_month_band(row, fx, low, high);
}

/* How the first line of the purchase is committed: "on-demand", "reserved 12 months",
 * "contract of unpublished term", "owned". */
static void terms_text(char *out, size_t size, const struct gp_plan_row *row)
{
    const struct gp_plan_line *l = row->nlines ? &row->lines[0] : NULL;

    if (!l)
        snprintf(out, size, "%s", row->price_tier);
    else if (l->term_unknown)
        snprintf(out, size, "%s, a contract of unpublished term", row->price_tier);
    else if (l->term_months > 0)
        snprintf(out, size, "%s, %d-month term", row->price_tier, l->term_months);
    else
        snprintf(out, size, "%s", row->price_tier);
}

/* A fleet of several lines, line by line from their own offers: "baseline 1 x MI300X (secure
 * cloud) at runpod + spot 1 x Standard_ND96isr_MI300X_v5 at azure"; roles only when they
 * differ. */
static void lines_text(char *out, size_t size, const struct gp_report_plan *p,
                       const struct gp_plan_row *row)
{
    bool roles = false;
    size_t used = 0;

    out[0] = '\0';
    for (size_t i = 1; i < row->nlines; i++)
        roles |= row->lines[i].role != row->lines[0].role;
    for (size_t i = 0; i < row->nlines && used < size; i++) {
        const struct gp_plan_line *l = &row->lines[i];
        const struct gp_offer *o = gp_report_line_offer(&p->inputs, l);
        char instance[128];
        int n =
            snprintf(out + used, size - used, "%s%s%s%d x %s at %s", i ? " + " : "",
                     roles ? gp_purchase_role_name(l->role) : "", roles ? " " : "", l->instances,
                     gp_report_line_instance(instance, sizeof(instance), &p->inputs, l),
                     o ? o->provider : row->provider);
        used += n > 0 ? (size_t)n : 0;
    }
    if (row->lines_total > row->nlines && used < size)
        snprintf(out + used, size - used, " + %zu more", row->lines_total - row->nlines);
}

/* What to buy, in words: "6 x BM.GPU.MI355X.8 at oci, on-demand, one cluster of 6 x 8-GPU
 * nodes, RDMA cluster network (48 mi355x GPUs)"; owned fleets are bought outright. */
static void buy_text(char *out, size_t size, const struct gp_report_plan *p,
                     const struct gp_plan_row *row)
{
    char terms[96], cluster[GP_PLAN_CLUSTER_TEXT_MAX], where[64] = "", lines[400];

    if (p->result->pricing == GP_PRICING_OWNED) {
        snprintf(out, size, "%d x %s, owned", row->gpus, row->gpu);
        return;
    }
    terms_text(terms, sizeof(terms), row);
    gp_plan_cluster_format(cluster, sizeof(cluster), &row->cluster);
    if (row->region[0])
        snprintf(where, sizeof(where), " (%s)", row->region);
    if (row->nlines > 1) {
        lines_text(lines, sizeof(lines), p, row);
        snprintf(out, size, "%s, %s (%d %s GPUs)", lines, terms, row->gpus, row->gpu);
    } else {
        snprintf(out, size, "%d x %s at %s%s, %s%s%s (%d %s GPUs)", row->instances,
                 row->instance_type, row->provider, where, terms,
                 cluster[0] ? ", one cluster of " : "", cluster, row->gpus, row->gpu);
    }
}

/* A "; "-separated list in words, and how many items it holds. */
struct items {
    struct gp_buf buf;
    size_t n;
};

/* Append one more item, printf-style. */
static int item(struct items *b, const char *fmt, ...) GP_PRINTF(2, 3);
static int item(struct items *b, const char *fmt, ...)
{
    va_list ap;
    int rc = b->n ? gp_buf_puts(&b->buf, "; ") : 0;

    if (rc)
        return rc;
    va_start(ap, fmt);
    rc = gp_buf_vprintf(&b->buf, fmt, ap);
    va_end(ap);
    b->n++;
    return rc;
}

/* What would change the answer: bands that overlap, a price older than the age limit, a vendor
 * claim that would rank first, a recommendation resting on an estimate. */
static int would_change(struct items *b, const struct gp_report_plan *p,
                        const struct gp_plan_row *best, const struct gp_plan_row *runner)
{
    int rc = 0;

    if (runner && best->cost_high >= runner->cost_low)
        rc = item(b, "the cost bands of %s and %s overlap: better measurements may swap them",
                  best->gpu, runner->gpu);
    if (!rc && (best->notes & GP_NOTE_STALE_PRICE))
        rc = item(b, "a price refresh: the recommended price dates from %s", best->price_date);
    if (!rc && (best->notes & GP_NOTE_CAPEX_ESTIMATE))
        rc = item(b, "a real purchase price: %s is owned at an estimate", best->gpu);
    for (size_t i = 0; rc == 0 && i < p->nrows; i++) {
        const struct gp_plan_row *row = &p->rows[i];
        if ((row->notes & GP_NOTE_VENDOR_CLAIM) && row->feasible && row->price_known &&
            gp_plan_unit_cost(row) < gp_plan_unit_cost(best))
            rc = item(b, "the vendor's claim %s would put %s first, if it were measured",
                      row->stack, row->gpu);
    }
    return rc;
}

/* Whether row i of the plan's first point could not be bought (a vendor's claim aside), and
 * why, into why[160]. */
static bool unbought_row(const struct gp_report_plan *p, size_t i, char *why)
{
    const struct gp_plan_row *row = &p->rows[i];

    if ((row->feasible && row->price_known) || (row->notes & GP_NOTE_VENDOR_CLAIM))
        return false;
    gp_plan_unpriced_reason(why, 160, row);
    return true;
}

/* The GPU types of the plan's first point that could not be bought, grouped by why:
 * "no-cluster-offer for b200, h100-sxm; no-public-price for mi350x". */
static int unbought(struct items *b, const struct gp_report_plan *p)
{
    char reasons[8][160], why[160];
    size_t counts[8] = {0}, nreasons = 0;
    size_t per = p->result->per_point ? p->result->per_point : p->nrows;
    int rc = 0;

    for (size_t i = 0; i < p->nrows && i < per; i++) {
        size_t k = 0;
        if (!unbought_row(p, i, why))
            continue;
        while (k < nreasons && strcmp(reasons[k], why) != 0)
            k++;
        if (k == nreasons && nreasons < 8)
            snprintf(reasons[nreasons++], sizeof(reasons[0]), "%s", why);
        if (k < nreasons)
            counts[k]++;
    }
    /* the largest risks only, MAX_RISKS items in all: the reasons most GPU types share first */
    while (rc == 0 && b->n < MAX_RISKS) {
        size_t k = 0, sep = 0;
        for (size_t j = 1; j < nreasons; j++)
            k = counts[j] > counts[k] ? j : k;
        if (nreasons == 0 || counts[k] == 0)
            break;
        rc = item(b, "%s for ", reasons[k]);
        for (size_t i = 0; rc == 0 && i < p->nrows && i < per; i++)
            if (unbought_row(p, i, why) && strcmp(why, reasons[k]) == 0)
                rc = gp_buf_printf(&b->buf, "%s%s", sep++ ? ", " : "", p->rows[i].gpu);
        counts[k] = 0;
    }
    return rc;
}

/* The largest risks, in words: what the recommendation is bought on, the power budget, quotes
 * that expire, and which GPU types could not be bought at all and why. */
static int risks(struct items *b, const struct summary_context *ctx, const struct gp_report_plan *p,
                 const struct gp_plan_row *best)
{
    int rc = 0;

    if (best && (best->notes & GP_NOTE_TERM_UNKNOWN))
        rc = item(b, "%s is bought on a contract whose term is not published (taken as %d months)",
                  best->gpu, GP_TERM_UNKNOWN_MIN_MONTHS);
    if (rc == 0 && !best)
        rc = item(b, "no GPU type is feasible and priced");
    for (size_t i = 0; rc == 0 && i < p->nrows && i < p->result->per_point; i++)
        if (p->rows[i].notes & GP_NOTE_OVER_POWER_BUDGET)
            rc = item(b, "%s is over the power budget", p->rows[i].gpu);
    if (rc == 0 && ctx->expiring)
        rc = item(b, "%zu quote%s expire%s inside the horizon", ctx->expiring,
                  ctx->expiring == 1 ? "" : "s", ctx->expiring == 1 ? "s" : "");
    return rc ? rc : unbought(b, p);
}

/* The recommended purchase's cells. */
static int best_cells(struct gp_table *t, const struct gp_report *r, const struct gp_report_plan *p,
                      const struct gp_plan_row *best)
{
    char buy[512];
    double cost, low, high;
    int rc = 0;

    buy_text(buy, sizeof(buy), p, best);
    kind_cost(best, p->kind, r->fx, &cost, &low, &high);
    rc = rc ? rc : gp_table_set_text(t, "recommended", "%s", best->gpu);
    rc = rc ? rc : gp_table_set_text(t, "buy", "%s", buy);
    rc = rc ? rc : gp_table_set_int(t, "gpus", best->gpus);
    rc = rc ? rc : gp_table_set_text(t, "provider", "%s", best->provider);
    rc = rc ? rc : gp_table_set_text(t, "region", "%s", best->region);
    rc = rc ? rc : gp_table_set_text(t, "tier", "%s", best->price_tier);
    rc = rc ? rc : gp_table_set_number(t, "cost", cost);
    rc = rc ? rc : gp_table_set_number(t, "cost_low", low);
    rc = rc ? rc : gp_table_set_number(t, "cost_high", high);
    rc = rc ? rc : gp_table_set_number(t, "unit_cost", gp_plan_unit_cost(best) * r->fx);
    rc = rc ? rc : gp_table_set_number(t, "facility_kw", best->facility_kw);
    return rc ? rc : gp_table_set_number(t, "energy_kwh_per_month", best->energy_kwh_per_month);
}

static int summary_row(struct gp_table *t, const struct summary_context *ctx,
                       const struct gp_report_plan *p)
{
    const struct gp_plan_row *best, *runner;
    struct items change = {GP_BUF_INIT, 0}, risk = {GP_BUF_INIT, 0};
    char other[512];
    int rc = gp_table_add_row(t);

    best_two(p, &best, &runner);
    rc = rc ? rc : gp_table_set_text(t, "workload", "%s", p->workload);
    rc = rc ? rc : gp_table_set_text(t, "kind", "%s", one_off(p->kind) ? "one-off" : "recurring");
    rc = rc ? rc : gp_table_set_text(t, "cost_per", "%s", one_off(p->kind) ? "run" : "month");
    rc = rc ? rc : gp_table_set_text(t, "unit", "%s", unit_name(p->kind));
    if (!rc && best)
        rc = best_cells(t, ctx->r, p, best);
    if (!rc && runner) {
        buy_text(other, sizeof(other), p, runner);
        rc = gp_table_set_text(t, "runner_up", "%s", runner->gpu);
        rc = rc ? rc : gp_table_set_text(t, "runner_up_buy", "%s", other);
        rc = rc ? rc : gp_table_set_number(t, "saving", gp_plan_saving(best, runner));
    }
    rc = rc || !best ? rc : would_change(&change, p, best, runner);
    rc = rc ? rc : risks(&risk, ctx, p, best);
    if (!rc && change.n)
        rc = gp_table_set_text(t, "would_change", "%s", gp_buf_str(&change.buf));
    if (!rc && best && !change.n)
        rc = gp_table_set_text(t, "would_change", "nothing within the plan's uncertainty");
    rc = rc ? rc : gp_table_set_text(t, "risks", "%s", gp_buf_str(&risk.buf));
    gp_buf_release(&change.buf);
    gp_buf_release(&risk.buf);
    return rc;
}

/* One total row: the sum of the recommended costs of the plans of one kind, the bands summed
 * too (the efficiencies of one report's plans err together). Nothing when no plan is of it. */
static int total_row(struct gp_table *t, const struct gp_report *r, bool of_one_off)
{
    double cost = 0, low = 0, high = 0, kw = 0, kwh = 0;
    size_t n = 0;
    int rc;

    for (size_t i = 0; i < r->nplans; i++) {
        const struct gp_report_plan *p = &r->plans[i];
        const struct gp_plan_row *best, *runner;
        double c, l, h;
        best_two(p, &best, &runner);
        if (!best || one_off(p->kind) != of_one_off)
            continue;
        kind_cost(best, p->kind, r->fx, &c, &l, &h);
        cost += c, low += l, high += h;
        kw += best->facility_kw;
        kwh += best->energy_kwh_per_month;
        n++;
    }
    if (n < 2)
        return 0; /* one plan is its own total */
    rc = gp_table_add_row(t);
    rc = rc ? rc
            : gp_table_set_text(t, "workload", "%s",
                                of_one_off ? "Total, one-off jobs (per run, each once)"
                                           : "Total, recurring services (per month)");
    rc = rc ? rc : gp_table_set_text(t, "kind", "%s", of_one_off ? "one-off" : "recurring");
    rc = rc ? rc : gp_table_set_text(t, "cost_per", "%s", of_one_off ? "run" : "month");
    rc = rc ? rc : gp_table_set_number(t, "cost", cost);
    rc = rc ? rc : gp_table_set_number(t, "cost_low", low);
    rc = rc ? rc : gp_table_set_number(t, "cost_high", high);
    if (!of_one_off) { /* power adds up only over what runs at the same time */
        rc = rc ? rc : gp_table_set_number(t, "facility_kw", kw);
        rc = rc ? rc : gp_table_set_number(t, "energy_kwh_per_month", kwh);
    }
    return rc;
}

int gp_report_add_summary(struct gp_report *r, const int64_t *quote_expiry, size_t nexpiry,
                          long horizon_days)
{
    struct gp_report_section *s = gp_report_add_section(r, "summary", "Summary");
    struct summary_context ctx = {r, 0};
    int rc = 0;

    if (!s)
        return GP_EINVALID;
    for (size_t i = 0; i < nexpiry; i++)
        ctx.expiring += quote_expiry[i] > 0 &&
                        quote_expiry[i] < r->generated_at + (int64_t)horizon_days * 86400;
    gp_table_init(&s->table, summary_columns, sizeof(summary_columns) / sizeof(summary_columns[0]));
    s->table.looks = summary_looks;
    s->note = "What to buy for each workload, what it costs with its band, the runner-up, and "
              "what would change the answer. Services are paid per month, training runs once; "
              "each has its own total.";
    for (size_t i = 0; rc == 0 && i < r->nplans; i++)
        rc = summary_row(&s->table, &ctx, &r->plans[i]);
    rc = rc ? rc : total_row(&s->table, r, false);
    rc = rc ? rc : total_row(&s->table, r, true);
    if (rc)
        return gp_error_set(GP_ENOMEM, "out of memory building the summary");
    /* the summary reads first */
    struct gp_report_section moved = *s;
    memmove(&r->sections[1], &r->sections[0], (r->nsections - 1) * sizeof(r->sections[0]));
    r->sections[0] = moved;
    return 0;
}
