/* The report's offers section, one row per purchase line read from the line's own offer or
 * quote, and its quotes section. */
#include <stdio.h>
#include <string.h>

#include "report/sections.h"
#include "util/error.h"
#include "util/timeutil.h"

static const struct gp_column offer_columns[] = {
    {"workload", GP_CELL_TEXT, 0},
    {"gpu", GP_CELL_TEXT, 0},
    {"stack", GP_CELL_TEXT, 0},
    {"provider", GP_CELL_TEXT, 0},
    {"instance_type", GP_CELL_TEXT, 0},
    {"region", GP_CELL_TEXT, 0},
    {"tier", GP_CELL_TEXT, 0},
    {"term", GP_CELL_TEXT, 0},
    {"bought_for", GP_CELL_TEXT, 0},
    {"gpus_per_instance", GP_CELL_INT, 0},
    {"price_per_gpu_hour", GP_CELL_NUMBER, 3},
    {"original_amount", GP_CELL_NUMBER, 4},
    {"original_currency", GP_CELL_TEXT, 0},
    {"original_unit", GP_CELL_TEXT, 0},
    {"observed", GP_CELL_TEXT, 0},
    {"age_days", GP_CELL_INT, 0},
    {"source", GP_CELL_TEXT, 0},
    {"instances", GP_CELL_INT, 0},
    {"gpus_bought", GP_CELL_INT, 0},
    {"cost_per_month", GP_CELL_NUMBER, 0},
    {"gpus_needed", GP_CELL_INT, 0},
    {"headroom", GP_CELL_NUMBER, 3},
    {"cluster", GP_CELL_TEXT, 0},
    {"lines_not_listed", GP_CELL_INT, 0},
    {"alternatives", GP_CELL_TEXT, 0},
};
static const struct gp_column_look offer_looks[] = {
    {"Workload", NULL, GP_STYLE_TEXT, 0},
    {"GPU", NULL, GP_STYLE_TEXT, 0},
    {"Stack", NULL, GP_STYLE_TEXT, 0},
    {"Provider", NULL, GP_STYLE_TEXT, 0},
    {"Instance", NULL, GP_STYLE_TEXT, 0},
    {"Region", NULL, GP_STYLE_TEXT, 0},
    {"Tier", NULL, GP_STYLE_TEXT, 0},
    {"Term", NULL, GP_STYLE_TEXT, 0},
    {"Bought for", NULL, GP_STYLE_TEXT, 0},
    {"GPUs per instance", NULL, GP_STYLE_COUNT, 0},
    {"Price per GPU-hour", "per GPU-hour", GP_STYLE_CURRENCY, 0},
    {"Original amount", NULL, GP_STYLE_PLAIN, 0},
    {"Original currency", NULL, GP_STYLE_TEXT, 0},
    {"Original unit", NULL, GP_STYLE_TEXT, 0},
    {"Observed", NULL, GP_STYLE_DATE, 0},
    {"Age (days)", "days", GP_STYLE_COUNT, 0},
    {"Source", NULL, GP_STYLE_TEXT, 0},
    {"Instances", NULL, GP_STYLE_COUNT, 0},
    {"GPUs bought", NULL, GP_STYLE_COUNT, 0},
    {"Cost per month", GP_MONTH_TEXT, GP_STYLE_CURRENCY, 0},
    {"GPUs needed", NULL, GP_STYLE_COUNT, 0},
    {"Headroom", "fraction", GP_STYLE_PERCENT, 0},
    {"Cluster", NULL, GP_STYLE_TEXT, 0},
    {"Lines not listed", NULL, GP_STYLE_COUNT, 0},
    {"Alternatives", NULL, GP_STYLE_TEXT, 0},
};

/* The offer's own figures: where it is, how it is sold, what it cost as published. */
static int offer_cells(struct gp_table *t, const struct gp_offer *o, double fx, int64_t now)
{
    char observed[16], term[GP_OFFER_TERM_TEXT_MAX];
    int rc = 0;

    gp_time_format_date(o->observed_at, observed, sizeof(observed));
    rc = rc ? rc : gp_table_set_text(t, "provider", "%s", o->provider);
    rc = rc ? rc : gp_table_set_text(t, "region", "%s", o->region);
    rc = rc ? rc : gp_table_set_text(t, "term", "%s", gp_offer_term_text(o, term, sizeof(term)));
    rc = rc ? rc : gp_table_set_number(t, "price_per_gpu_hour", o->usd_per_gpu_hour * fx);
    rc = rc ? rc : gp_table_set_number(t, "original_amount", o->amount);
    rc = rc ? rc : gp_table_set_text(t, "original_currency", "%s", o->currency);
    rc = rc ? rc : gp_table_set_text(t, "original_unit", "%s", gp_price_unit_name(o->unit));
    rc = rc ? rc : gp_table_set_text(t, "observed", "%s", observed);
    rc = rc ? rc : gp_table_set_int(t, "age_days", gp_time_age_days(o->observed_at, now));
    return rc ? rc : gp_table_set_text(t, "source", "%s", o->source_url);
}

/* What was bought of the line's offer: whole instances, GPUs and the line's monthly cost. */
static int line_cells(struct gp_table *t, const struct gp_report_inputs *in,
                      const struct gp_plan_line *l)
{
    char instance[128];
    int rc = gp_table_set_text(t, "instance_type", "%s",
                               gp_report_line_instance(instance, sizeof(instance), in, l));

    rc = rc ? rc : gp_table_set_text(t, "tier", "%s", gp_tier_name(l->tier));
    rc = rc ? rc : gp_table_set_text(t, "bought_for", "%s", gp_purchase_role_name(l->role));
    rc = rc ? rc : gp_table_set_int(t, "gpus_per_instance", l->gpus_per_instance);
    rc = rc ? rc : gp_table_set_int(t, "instances", l->instances);
    rc = rc ? rc : gp_table_set_int(t, "gpus_bought", l->gpus);
    return rc ? rc
              : gp_table_set_number(t, "cost_per_month", l->cost_per_hour * GP_HOURS_PER_MONTH);
}

/* The row's own figures, on its first line: the need, the headroom, the cluster, how many of
 * its lines the row could not keep (a fleet of more than GP_PLAN_MAX_LINES offers), and the
 * next cheapest fleets. */
static int row_cells(struct gp_table *t, const struct gp_plan_row *row, const char *currency)
{
    char alternatives[512] = "", cluster[GP_PLAN_CLUSTER_TEXT_MAX];
    size_t used = 0;
    int rc = 0;

    for (size_t i = 0; i < row->nalternatives && used < sizeof(alternatives); i++) {
        const struct gp_plan_alternative *a = &row->alternatives[i];
        int n = snprintf(alternatives + used, sizeof(alternatives) - used,
                         "%s%d x %s %s (%d GPUs, %.0f %s/month)", used ? "; " : "", a->instances,
                         a->provider, a->instance_type, a->gpus, a->cost_per_month, currency);
        used += n > 0 ? (size_t)n : 0;
    }
    rc = rc ? rc : gp_table_set_int(t, "gpus_needed", row->gpus_needed);
    rc = rc ? rc : gp_table_set_number(t, "headroom", row->headroom);
    if (row->lines_total > row->nlines)
        rc = rc ? rc
                : gp_table_set_int(t, "lines_not_listed",
                                   (long long)(row->lines_total - row->nlines));
    rc = rc ? rc
            : gp_table_set_text(t, "cluster", "%s",
                                gp_plan_cluster_format(cluster, sizeof(cluster), &row->cluster));
    return rc ? rc : gp_table_set_text(t, "alternatives", "%s", alternatives);
}

/* One table row per purchase line of `row`. */
static int row_lines(struct gp_table *t, const struct gp_report *r, const struct gp_report_plan *p,
                     const struct gp_plan_row *row)
{
    int rc = 0;

    for (size_t i = 0; rc == 0 && i < row->nlines; i++) {
        const struct gp_plan_line *l = &row->lines[i];
        const struct gp_offer *o = gp_report_line_offer(&p->inputs, l);
        if (!o)
            return gp_error_set(GP_EINVALID, "%s: a purchase line of %s names no input",
                                p->workload, row->gpu);
        rc = gp_table_add_row(t);
        rc = rc ? rc : gp_table_set_text(t, "workload", "%s", p->workload);
        rc = rc ? rc : gp_table_set_text(t, "gpu", "%s", row->gpu);
        rc = rc ? rc : gp_table_set_text(t, "stack", "%s", row->stack);
        rc = rc ? rc : offer_cells(t, o, p->result->fx_per_usd, r->generated_at);
        rc = rc ? rc : line_cells(t, &p->inputs, l);
        if (i == 0)
            rc = rc ? rc : row_cells(t, row, r->currency);
    }
    return rc;
}

/* The rows of the sweep point the plan's best row is at (the first point without one). */
static void best_point(const struct gp_report_plan *p, size_t *first, size_t *end)
{
    size_t per = p->result->per_point ? p->result->per_point : p->nrows;

    *first = p->result->best < p->nrows ? p->result->best / per * per : 0;
    *end = *first + per < p->nrows ? *first + per : p->nrows;
}

int gp_report_add_offers(struct gp_report *r)
{
    struct gp_report_section *s = gp_report_add_section(r, "offers", "Offers");

    if (!s)
        return GP_EINVALID;
    gp_table_init(&s->table, offer_columns, sizeof(offer_columns) / sizeof(offer_columns[0]));
    s->table.looks = offer_looks;
    s->note = "Each offer and quote the plans buy from, line by line, and what is bought of it.";
    for (size_t i = 0; i < r->nplans; i++) {
        size_t first, end;
        best_point(&r->plans[i], &first, &end);
        for (size_t k = first; k < end; k++) {
            int rc = row_lines(&s->table, r, &r->plans[i], &r->plans[i].rows[k]);
            if (rc == GP_EINVALID)
                return rc;
            if (rc)
                return gp_error_set(GP_ENOMEM, "out of memory listing offers");
        }
    }
    return 0;
}

/* ---- quotes ------------------------------------------------------------------------------ */

static const struct gp_column quote_columns[] = {
    {"id", GP_CELL_INT, 0},
    {"provider", GP_CELL_TEXT, 0},
    {"gpu", GP_CELL_TEXT, 0},
    {"price_per_gpu_hour", GP_CELL_NUMBER, 3},
    {"gpus_per_unit", GP_CELL_INT, 0},
    {"entered", GP_CELL_TEXT, 0},
    {"valid_until", GP_CELL_TEXT, 0},
    {"status", GP_CELL_TEXT, 0},
    {"note", GP_CELL_TEXT, 0},
};
static const struct gp_column_look quote_looks[] = {
    {"Quote", NULL, GP_STYLE_COUNT, 0},
    {"Provider", NULL, GP_STYLE_TEXT, 0},
    {"GPU", NULL, GP_STYLE_TEXT, 0},
    {"Price per GPU-hour", NULL, GP_STYLE_CURRENCY, 0},
    {"GPUs per unit", NULL, GP_STYLE_COUNT, 0},
    {"Entered", NULL, GP_STYLE_DATE, 0},
    {"Valid until", NULL, GP_STYLE_DATE, 0},
    {"Status", NULL, GP_STYLE_TEXT, 0},
    {"Note", NULL, GP_STYLE_TEXT, 0},
};

static const char *quote_status(const struct gp_offer *o, int64_t now, int64_t horizon)
{
    return !o->valid_until            ? "valid, open-ended"
           : o->valid_until < now     ? "expired"
           : o->valid_until < horizon ? "expires inside the horizon"
                                      : "valid";
}

static int quote_row(struct gp_table *t, const struct gp_quote *q, double fx, int64_t now,
                     int64_t horizon)
{
    const struct gp_offer *o = &q->offer;
    char entered[16], until[16] = "";
    int rc = gp_table_add_row(t);

    gp_time_format_date(o->observed_at, entered, sizeof(entered));
    if (o->valid_until)
        gp_time_format_date(o->valid_until, until, sizeof(until));
    rc = rc ? rc : gp_table_set_int(t, "id", q->id);
    rc = rc ? rc : gp_table_set_text(t, "provider", "%s", o->provider);
    rc = rc ? rc : gp_table_set_text(t, "gpu", "%s", o->gpu_id);
    rc = rc ? rc : gp_table_set_number(t, "price_per_gpu_hour", o->usd_per_gpu_hour * fx);
    rc = rc ? rc : gp_table_set_int(t, "gpus_per_unit", o->gpus_per_instance);
    rc = rc ? rc : gp_table_set_text(t, "entered", "%s", entered);
    if (until[0])
        rc = rc ? rc : gp_table_set_text(t, "valid_until", "%s", until);
    rc = rc ? rc : gp_table_set_text(t, "status", "%s", quote_status(o, now, horizon));
    return rc ? rc : gp_table_set_text(t, "note", "%s", q->note);
}

int gp_report_add_quotes(struct gp_report *r, const struct gp_quote *quotes, size_t n,
                         double fx_per_usd, long horizon_days)
{
    struct gp_report_section *s = gp_report_add_section(r, "quotes", "Quotes");
    int64_t horizon = r->generated_at + (int64_t)horizon_days * 86400;
    int rc = 0;

    if (!s)
        return GP_EINVALID;
    gp_table_init(&s->table, quote_columns, sizeof(quote_columns) / sizeof(quote_columns[0]));
    s->table.looks = quote_looks;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = quote_row(&s->table, &quotes[i], fx_per_usd, r->generated_at, horizon);
    return rc ? gp_error_set(GP_ENOMEM, "out of memory listing quotes") : 0;
}
