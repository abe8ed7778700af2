/* The report's store-backed sections: offers, quotes, price history and assumptions. */
#include "cli/report_sections.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/plan_meta.h"
#include "util/error.h"
#include "util/json.h"
#include "util/timeutil.h"

static const struct gp_column offer_columns[] = {
    {"workload", GP_CELL_TEXT, 0},
    {"gpu", GP_CELL_TEXT, 0},
    {"provider", GP_CELL_TEXT, 0},
    {"instance_type", GP_CELL_TEXT, 0},
    {"region", GP_CELL_TEXT, 0},
    {"tier", GP_CELL_TEXT, 0},
    {"term", GP_CELL_TEXT, 0},
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
    {"gpus_needed", GP_CELL_INT, 0},
    {"headroom", GP_CELL_NUMBER, 3},
    {"bought", GP_CELL_TEXT, 0},
    {"alternatives", GP_CELL_TEXT, 0},
};
static const struct gp_column_look offer_looks[] = {
    {"Workload", NULL, GP_STYLE_TEXT, 0},
    {"GPU", NULL, GP_STYLE_TEXT, 0},
    {"Provider", NULL, GP_STYLE_TEXT, 0},
    {"Instance", NULL, GP_STYLE_TEXT, 0},
    {"Region", NULL, GP_STYLE_TEXT, 0},
    {"Tier", NULL, GP_STYLE_TEXT, 0},
    {"Term", NULL, GP_STYLE_TEXT, 0},
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
    {"GPUs needed", NULL, GP_STYLE_COUNT, 0},
    {"Headroom", "fraction", GP_STYLE_PERCENT, 0},
    {"Bought as", NULL, GP_STYLE_TEXT, 0},
    {"Alternatives", NULL, GP_STYLE_TEXT, 0},
};

/* The offer among run's offers that the row's fleet was bought from: same GPU, provider,
 * instance type, region (when the row names one) and tier; the cheapest of those. NULL for a
 * fleet bought from several offers, owned, or not priced. */
static const struct gp_offer *bought_from(const struct gp_cli_plan_run *run,
                                          const struct gp_plan_row *row)
{
    const struct gp_offer *best = NULL;

    for (size_t i = 0; i < run->req.offer_count; i++) {
        const struct gp_offer *o = &run->offers[i];
        if (strcmp(o->gpu_id, row->gpu) || strcmp(o->provider, row->provider) ||
            strcmp(o->instance_type, row->instance_type) ||
            (row->region[0] && strcmp(o->region, row->region)) ||
            strcmp(gp_tier_name(o->tier), row->price_tier))
            continue;
        if (!best || o->usd_per_gpu_hour < best->usd_per_gpu_hour)
            best = o;
    }
    return best;
}

/* The offer or quote that priced GPU `g` when the row was not bought in instances. */
static const struct gp_offer *priced_from(const struct gp_cli_plan_run *run, size_t g,
                                          const struct gp_plan_row *row)
{
    const struct gp_plan_gpu *pg = &run->res.gpus[g];
    const struct gp_offer *best = row->instances > 0 ? bought_from(run, row) : NULL;
    double want = pg->price.usd_per_gpu_hour;

    if (best || !pg->price.known || pg->price.owned)
        return best;
    for (size_t i = 0; i < run->req.offer_count; i++) {
        const struct gp_offer *o = &run->offers[i];
        if (strcmp(o->gpu_id, pg->gpu->id) || strcmp(o->provider, pg->price.source) ||
            strcmp(gp_tier_name(o->tier), pg->price.tier))
            continue;
        if (!best || fabs(o->usd_per_gpu_hour - want) < fabs(best->usd_per_gpu_hour - want))
            best = o;
    }
    for (size_t i = 0; !best && i < run->req.quote_count; i++) {
        char id[32];
        snprintf(id, sizeof(id), "quote:%lld", (long long)run->quotes[i].id);
        if (strcmp(id, pg->price.source) == 0)
            best = &run->quotes[i].offer;
    }
    return best;
}

/* The offer's own figures. */
static int offer_cells(struct gp_table *t, const struct gp_offer *o, double fx, int64_t now)
{
    char observed[16], term[GP_OFFER_TERM_TEXT_MAX];
    int rc = 0;

    gp_time_format_date(o->observed_at, observed, sizeof(observed));
    rc = rc ? rc : gp_table_set_text(t, "provider", "%s", o->provider);
    rc = rc ? rc : gp_table_set_text(t, "instance_type", "%s", o->instance_type);
    rc = rc ? rc : gp_table_set_text(t, "region", "%s", o->region);
    rc = rc ? rc : gp_table_set_text(t, "tier", "%s", gp_tier_name(o->tier));
    rc = rc ? rc : gp_table_set_text(t, "term", "%s", gp_offer_term_text(o, term, sizeof(term)));
    rc = rc ? rc : gp_table_set_int(t, "gpus_per_instance", o->gpus_per_instance);
    rc = rc ? rc : gp_table_set_number(t, "price_per_gpu_hour", o->usd_per_gpu_hour * fx);
    rc = rc ? rc : gp_table_set_number(t, "original_amount", o->amount);
    rc = rc ? rc : gp_table_set_text(t, "original_currency", "%s", o->currency);
    rc = rc ? rc : gp_table_set_text(t, "original_unit", "%s", gp_price_unit_name(o->unit));
    rc = rc ? rc : gp_table_set_text(t, "observed", "%s", observed);
    rc = rc ? rc : gp_table_set_int(t, "age_days", gp_time_age_days(o->observed_at, now));
    return rc ? rc : gp_table_set_text(t, "source", "%s", o->source_url);
}

/* How the row's fleet was bought: whole instances, against the GPUs the target needs, and the
 * next cheapest fleets. Nothing when the row was not bought in instances. */
static int purchase_cells(struct gp_table *t, const struct gp_plan_row *row, const char *currency)
{
    char alternatives[512] = "";
    size_t used = 0;
    int rc = 0;

    if (row->instances <= 0)
        return 0;
    for (size_t i = 0; i < row->nalternatives && used < sizeof(alternatives); i++) {
        const struct gp_plan_alternative *a = &row->alternatives[i];
        int n = snprintf(alternatives + used, sizeof(alternatives) - used,
                         "%s%d x %s %s (%d GPUs, %.0f %s/month)", used ? "; " : "", a->instances,
                         a->provider, a->instance_type, a->gpus, a->cost_per_month, currency);
        used += n > 0 ? (size_t)n : 0;
    }
    rc = rc ? rc : gp_table_set_int(t, "instances", row->instances);
    rc = rc ? rc : gp_table_set_int(t, "gpus_bought", row->gpus);
    rc = rc ? rc : gp_table_set_int(t, "gpus_needed", row->gpus_needed);
    rc = rc ? rc : gp_table_set_number(t, "headroom", row->headroom);
    rc = rc ? rc
            : gp_table_set_text(t, "bought", "%s",
                                row->price_mix[0] ? row->price_mix : row->instance_type);
    return rc ? rc : gp_table_set_text(t, "alternatives", "%s", alternatives);
}

/* The first row (the base point) of GPU type `id`, or NULL. */
static const struct gp_plan_row *row_of(const struct gp_cli_plan_run *run, const char *id)
{
    for (size_t i = 0; i < run->res.per_point && i < run->res.count; i++)
        if (strcmp(run->res.rows[i].gpu, id) == 0)
            return &run->res.rows[i];
    return NULL;
}

static int offer_row(struct gp_table *t, const char *workload, const struct gp_cli_plan_run *run,
                     size_t g, int64_t now)
{
    const struct gp_plan_row *row = row_of(run, run->res.gpus[g].gpu->id);
    const struct gp_offer *o = row ? priced_from(run, g, row) : NULL;
    int rc;

    if (!row || !row->price_known || (!o && row->instances <= 0))
        return 0;
    rc = gp_table_add_row(t);
    rc = rc ? rc : gp_table_set_text(t, "workload", "%s", workload);
    rc = rc ? rc : gp_table_set_text(t, "gpu", "%s", row->gpu);
    if (o)
        rc = rc ? rc : offer_cells(t, o, run->res.fx_per_usd, now);
    else {
        rc = rc ? rc : gp_table_set_text(t, "provider", "%s", row->provider);
        rc = rc ? rc : gp_table_set_text(t, "region", "%s", row->region);
        rc = rc ? rc : gp_table_set_text(t, "tier", "%s", row->price_tier);
    }
    return rc ? rc : purchase_cells(t, row, run->res.currency);
}

int gp_cli_report_offers(struct gp_report *r, const struct gp_cli_plan_run *runs, size_t nruns)
{
    struct gp_report_section *s = gp_report_add_section(r, "offers", "Offers");

    if (!s)
        return GP_EINVALID;
    gp_table_init(&s->table, offer_columns, sizeof(offer_columns) / sizeof(offer_columns[0]));
    s->table.looks = offer_looks;
    s->note = "The offer each GPU type of each plan is priced from, and the instances bought.";
    for (size_t i = 0; i < nruns; i++)
        for (size_t g = 0; g < runs[i].res.per_point; g++)
            if (offer_row(&s->table, r->plans[i].workload, &runs[i], g, r->generated_at))
                return gp_error_set(GP_ENOMEM, "out of memory listing offers");
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

int gp_cli_report_quotes(struct gp_report *r, const struct gp_quote *quotes, size_t n,
                         double fx_per_usd, long horizon_days)
{
    struct gp_report_section *s = gp_report_add_section(r, "quotes", "Quotes");
    int64_t horizon = r->generated_at + (int64_t)horizon_days * 86400;
    int rc = 0;

    if (!s)
        return GP_EINVALID;
    gp_table_init(&s->table, quote_columns, sizeof(quote_columns) / sizeof(quote_columns[0]));
    s->table.looks = quote_looks;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const struct gp_offer *o = &quotes[i].offer;
        char entered[16], until[16] = "";
        const char *status = !o->valid_until                    ? "valid, open-ended"
                             : o->valid_until < r->generated_at ? "expired"
                             : o->valid_until < horizon         ? "expires inside the horizon"
                                                                : "valid";
        gp_time_format_date(o->observed_at, entered, sizeof(entered));
        if (o->valid_until)
            gp_time_format_date(o->valid_until, until, sizeof(until));
        rc = gp_table_add_row(&s->table);
        rc = rc ? rc : gp_table_set_int(&s->table, "id", quotes[i].id);
        rc = rc ? rc : gp_table_set_text(&s->table, "provider", "%s", o->provider);
        rc = rc ? rc : gp_table_set_text(&s->table, "gpu", "%s", o->gpu_id);
        rc = rc ? rc
                : gp_table_set_number(&s->table, "price_per_gpu_hour",
                                      o->usd_per_gpu_hour * fx_per_usd);
        rc = rc ? rc : gp_table_set_int(&s->table, "gpus_per_unit", o->gpus_per_instance);
        rc = rc ? rc : gp_table_set_text(&s->table, "entered", "%s", entered);
        if (until[0])
            rc = rc ? rc : gp_table_set_text(&s->table, "valid_until", "%s", until);
        rc = rc ? rc : gp_table_set_text(&s->table, "status", "%s", status);
        rc = rc ? rc : gp_table_set_text(&s->table, "note", "%s", quotes[i].note);
    }
    return rc ? gp_error_set(GP_ENOMEM, "out of memory listing quotes") : 0;
}

/* ---- price history ----------------------------------------------------------------------- */

static const struct gp_column history_columns[] = {
    {"gpu", GP_CELL_TEXT, 0},
    {"tier", GP_CELL_TEXT, 0},
    {"date", GP_CELL_TEXT, 0},
    {"price_per_gpu_hour", GP_CELL_NUMBER, 3},
};
static const struct gp_column_look history_looks[] = {
    {"GPU", NULL, GP_STYLE_TEXT, 0},
    {"Tier", NULL, GP_STYLE_TEXT, 0},
    {"Date", NULL, GP_STYLE_DATE, 0},
    {"Cheapest price per GPU-hour", "per GPU-hour", GP_STYLE_CURRENCY, 0},
};

static bool same_key(const struct gp_offer *a, const struct gp_offer *b)
{
    return strcmp(a->feed, b->feed) == 0 && strcmp(a->provider, b->provider) == 0 &&
           strcmp(a->region, b->region) == 0 && strcmp(a->instance_type, b->instance_type) == 0;
}

/* The cheapest price on `day` (USD per GPU-hour): over every offer key, its last observation
 * made by the end of the day. Observations come grouped by key, oldest first. */
static double cheapest_on(const struct gp_offer *obs, size_t n, int64_t day)
{
    double best = -1;

    for (size_t i = 0; i < n; i++) {
        bool last =
            i + 1 == n || !same_key(&obs[i], &obs[i + 1]) || obs[i + 1].observed_at >= day + 86400;
        if (obs[i].observed_at < day + 86400 && last &&
            (best < 0 || obs[i].usd_per_gpu_hour < best))
            best = obs[i].usd_per_gpu_hour;
    }
    return best;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Append one GPU and tier's daily points to the section and to *points. */
static int history_series(struct gp_report_section *s, const struct gp_offer *obs, size_t n,
                          const char *gpu, const char *tier, double fx,
                          struct gp_report_price_point **points, size_t *count)
{
    int64_t *days = malloc((n ? n : 1) * sizeof(*days));
    struct gp_report_price_point *grown = realloc(*points, (*count + n + 1) * sizeof(**points));
    size_t ndays = 0;
    int rc = 0;

    if (grown)
        *points = grown;
    if (!days || !grown) {
        free(days);
        return gp_error_set(GP_ENOMEM, "out of memory reading the price history");
    }
    for (size_t i = 0; i < n; i++)
        days[ndays++] = obs[i].observed_at - obs[i].observed_at % 86400;
    qsort(days, ndays, sizeof(*days), cmp_i64);
    for (size_t d = 0; rc == 0 && d < ndays; d++) {
        char date[16];
        double usd = cheapest_on(obs, n, days[d]);
        if ((d > 0 && days[d] == days[d - 1]) || usd < 0)
            continue;
        struct gp_report_price_point *pt = &(*points)[(*count)++];
        memset(pt, 0, sizeof(*pt));
        snprintf(pt->gpu, sizeof(pt->gpu), "%s", gpu);
        snprintf(pt->tier, sizeof(pt->tier), "%s", tier);
        pt->day = days[d];
        pt->price = usd * fx;
        gp_time_format_date(days[d], date, sizeof(date));
        rc = gp_table_add_row(&s->table);
        rc = rc ? rc : gp_table_set_text(&s->table, "gpu", "%s", gpu);
        rc = rc ? rc : gp_table_set_text(&s->table, "tier", "%s", tier);
        rc = rc ? rc : gp_table_set_text(&s->table, "date", "%s", date);
        rc = rc ? rc : gp_table_set_number(&s->table, "price_per_gpu_hour", pt->price);
    }
    free(days);
    return rc;
}

/* Whether GPU `id` comes before run i, GPU g among the runs (each GPU once). */
static bool seen_before(const struct gp_cli_plan_run *runs, size_t i, size_t g, const char *id)
{
    for (size_t a = 0; a <= i; a++)
        for (size_t b = 0; b < runs[a].res.per_point && (a < i || b < g); b++)
            if (strcmp(runs[a].res.gpus[b].gpu->id, id) == 0)
                return true;
    return false;
}

int gp_cli_report_history(struct gp_report *r, struct gp_store *store,
                          const struct gp_cli_plan_run *runs, size_t nruns,
                          struct gp_report_price_point **points)
{
    static const enum gp_tier tiers[] = {GP_TIER_ON_DEMAND, GP_TIER_SPOT};
    struct gp_report_section *s = gp_report_add_section(r, "price-history", "Price history");
    size_t count = 0;
    int rc = 0;

    *points = NULL;
    if (!s)
        return GP_EINVALID;
    gp_table_init(&s->table, history_columns, 4);
    s->table.looks = history_looks;
    s->note = "Per GPU, the cheapest on-demand and spot price on each day a price was seen.";
    for (size_t i = 0; rc == 0 && i < nruns; i++)
        for (size_t g = 0; rc == 0 && g < runs[i].res.per_point; g++) {
            const char *id = runs[i].res.gpus[g].gpu->id;
            for (size_t t = 0; rc == 0 && t < 2 && !seen_before(runs, i, g, id); t++) {
                struct gp_offer_filter filter = {.gpu_id = id, .tier = (int)tiers[t]};
                struct gp_offer *obs = NULL;
                size_t n = 0;
                rc = gp_store_history_query(store, &filter, &obs, &n);
                if (rc == 0 && n > 0)
                    rc = history_series(s, obs, n, id, gp_tier_name(tiers[t]),
                                        runs[i].res.fx_per_usd, points, &count);
                free(obs);
            }
        }
    r->history = *points;
    r->nhistory = count;
    return rc;
}

/* ---- assumptions ------------------------------------------------------------------------- */

static const struct gp_column assumption_columns[] = {
    {"item", GP_CELL_TEXT, 0},
    {"value", GP_CELL_NUMBER, 4},
    {"detail", GP_CELL_TEXT, 0},
};
static const struct gp_column_look assumption_looks[] = {
    {"Item", NULL, GP_STYLE_TEXT, 0},
    {"Value", NULL, GP_STYLE_PLAIN, 0},
    {"Detail", NULL, GP_STYLE_TEXT, 0},
};

/* One row: `item`, a number when `has_value`, and the detail text. */
static int fact(struct gp_table *t, const char *item, bool has_value, double value,
                const char *detail)
{
    int rc = gp_table_add_row(t);

    rc = rc ? rc : gp_table_set_text(t, "item", "%s", item);
    if (has_value)
        rc = rc ? rc : gp_table_set_number(t, "value", value);
    return rc ? rc : gp_table_set_text(t, "detail", "%s", detail);
}

/* The workload as run and the efficiency source of each of its GPU types. */
static int run_facts(struct gp_table *t, const struct gp_cli_plan_run *run)
{
    const struct gp_plan_input *in = &run->res.used;
    cJSON *workload = gp_cli_plan_workload_json(&in->workload);
    char *text = gp_json_print(workload, false);
    char item[160], detail[160];
    int rc = text ? 0 : GP_ENOMEM;

    snprintf(item, sizeof(item), "Workload %s", in->workload.name);
    rc = rc ? rc : fact(t, item, false, 0, text);
    cJSON_free(text);
    cJSON_Delete(workload);
    snprintf(detail, sizeof(detail), "%s per kWh", run->res.currency);
    rc = rc ? rc : fact(t, "PUE", true, in->assumptions.pue, "facility power / IT power");
    rc = rc ? rc : fact(t, "Energy price", true, in->assumptions.kwh_price, detail);
    rc = rc ? rc : fact(t, "Pricing", false, 0, gp_pricing_name(run->res.pricing));
    rc = rc ? rc
            : fact(t, "Prices older than this are stale (days)", true,
                   (double)run->res.max_age_days, "");
    for (size_t g = 0; rc == 0 && g < run->res.per_point; g++) {
        snprintf(item, sizeof(item), "Efficiency of %s", run->res.gpus[g].gpu->id);
        rc = fact(t, item, false, 0, run->res.gpus[g].eff.source);
    }
    return rc;
}

int gp_cli_report_assumptions(struct gp_report *r, const struct gp_cli_plan_run *runs, size_t nruns,
                              const struct gp_fx_table *fx)
{
    struct gp_report_section *s = gp_report_add_section(r, "assumptions", "Assumptions");
    char when[32], item[64], detail[320];
    int rc = 0;

    if (!s)
        return GP_EINVALID;
    gp_table_init(&s->table, assumption_columns, 3);
    s->table.looks = assumption_looks;
    for (size_t i = 0; rc == 0 && i < nruns; i++)
        rc = run_facts(&s->table, &runs[i]);
    for (size_t i = 0; rc == 0 && fx && i < fx->count; i++) {
        char date[16];
        gp_time_format_date(fx->rates[i].date, date, sizeof(date));
        snprintf(item, sizeof(item), "%s per USD", fx->rates[i].currency);
        snprintf(detail, sizeof(detail), "from %s, %.250s", date, fx->rates[i].source);
        rc = fact(&s->table, item, true, fx->rates[i].per_usd, detail);
    }
    gp_time_format_stamp(r->generated_at, when, sizeof(when));
    rc = rc ? rc : fact(&s->table, "gpuplan version", false, 0, r->version);
    rc = rc ? rc : fact(&s->table, "Database", false, 0, r->database);
    rc = rc ? rc : fact(&s->table, "Generated", false, 0, when);
    return rc ? gp_error_set(GP_ENOMEM, "out of memory listing the assumptions") : 0;
}
