/* The plan's conclusion and summary lines, the stale-price warning, the exchange-rate and
 * price-age facts of the JSON assumptions, and each JSON row's alternatives. */
#include "cli/plan_summary.h"

#include <string.h>

#include "report/plan_table.h"
#include "report/table.h"
#include "util/error.h"
#include "util/msg.h"
#include "util/timeutil.h"

/* The best row and the runner-up of its sweep point, as the planner chose them (NULL when
 * none). */
static const struct gp_plan_row *best_and_next(const struct gp_plan_result *res,
                                               const struct gp_plan_row **next)
{
    *next = res->runner_up < res->count ? &res->rows[res->runner_up] : NULL;
    return res->best < res->count ? &res->rows[res->best] : NULL;
}

/* "3 x B200 (secure cloud) at runpod" (or the combination) into out[size]. */
static void fleet_text(char *out, size_t size, const struct gp_plan_row *r)
{
    char speed[32] = "";

    if (r->cluster.fabric_gbps > 0)
        snprintf(speed, sizeof(speed), "%.0f Gb/s ", r->cluster.fabric_gbps);
    if (r->price_mix[0])
        snprintf(out, size, "%s at %s", r->price_mix, r->provider);
    else if (r->cluster.nodes > 0)
        snprintf(out, size, "%d x %s at %s, one cluster on %s%s", r->instances, r->instance_type,
                 r->provider, speed, r->cluster.fabric);
    else
        snprintf(out, size, "%d x %s at %s", r->instances, r->instance_type, r->provider);
}

/* `value` with `decimals` and the decimal mark `decimal`, into a 32-byte `buf`; returns buf. */
static const char *number(char buf[32], double value, int decimals, char decimal)
{
    gp_number_grouped(buf, 32, value, decimals, decimal);
    return buf;
}

/* The cost per unit of work with its unit: per million output tokens, per run, per job. */
static void unit_text(char *out, size_t size, const struct gp_plan_row *r, const char *currency,
                      char decimal)
{
    char n[32];

    switch (r->kind) {
    case GP_WORKLOAD_INFERENCE:
        snprintf(out, size, "%s %s per million output tokens", currency,
                 number(n, r->cost_per_mtok, 4, decimal));
        break;
    case GP_WORKLOAD_TRAINING:
        snprintf(out, size, "%s %s per run", currency, number(n, r->total_cost, 0, decimal));
        break;
    case GP_WORKLOAD_GENERIC:
        snprintf(out, size, "%s %s per job", currency, number(n, r->total_cost, 6, decimal));
        break;
    }
}

/* An owned fleet: what is bought, the capital, the running cost, and when owning breaks even
 * against renting the same fleet. */
static bool owned_conclusion(char *out, size_t size, const struct gp_plan_row *best,
                             const struct gp_plan_row *next, const char *currency, char decimal)
{
    char capital[32], month[32], amortised[32], unit[96];
    char even[96] = "; no rented price to break even against";
    char runner[160] = "";

    if (best->break_even_months > 0) {
        char months[32];
        snprintf(even, sizeof(even), "; owning breaks even against renting after %s months",
                 number(months, best->break_even_months, 1, decimal));
    }
    unit_text(unit, sizeof(unit), best, currency, decimal);
    if (next)
        snprintf(runner, sizeof(runner), "; runner-up: %d x %s, %s %s to buy", next->gpus,
                 next->gpu, currency, number(month, next->upfront, 0, decimal));
    return snprintf(out, size,
                    "cheapest fleet to own: %d x %s, %s %s capital (GPUs and server share), "
                    "%s %s/month to run (energy and hosting; %s/month with the capital spread "
                    "over its years), %s%s%s",
                    best->gpus, best->gpu, currency, number(capital, best->upfront, 0, decimal),
                    currency, number(month, best->running_per_month, 0, decimal),
                    number(amortised, best->cost_per_month, 0, decimal), unit, even, runner) > 0;
}

/* The conclusion without the sweep point it holds at. */
static bool fleet_conclusion(char *out, size_t size, const struct gp_plan_result *res, char decimal)
{
    const struct gp_plan_row *next, *best = best_and_next(res, &next);
    char fleet[256], unit[96], runner[448] = "; no runner-up", month[32];
    int n;

    out[0] = '\0';
    if (!best)
        return false;
    if (res->pricing == GP_PRICING_OWNED)
        return owned_conclusion(out, size, best, next, res->currency, decimal);
    fleet_text(fleet, sizeof(fleet), best);
    unit_text(unit, sizeof(unit), best, res->currency, decimal);
    if (next) {
        char other[256], saving[32];
        fleet_text(other, sizeof(other), next);
        snprintf(runner, sizeof(runner),
                 "; runner-up: %s, %s (%d GPU%s), %s %s/month; the cheapest costs %s%% less "
                 "per unit of work",
                 next->gpu, other, next->gpus, next->gpus == 1 ? "" : "s", res->currency,
                 number(month, next->cost_per_month, 0, decimal),
                 number(saving, 100.0 * gp_plan_saving(best, next), 1, decimal));
    }
    n = snprintf(out, size, "cheapest purchasable fleet: %s, %s (%d GPU%s), %s %s/month, %s%s",
                 best->gpu, fleet, best->gpus, best->gpus == 1 ? "" : "s", res->currency,
                 number(month, best->cost_per_month, 0, decimal), unit, runner);
    return n > 0;
}

bool gp_cli_plan_conclusion(char *out, size_t size, const struct gp_plan_result *res, char decimal)
{
    char fleet[1024];
    int n;

    if (!fleet_conclusion(fleet, sizeof(fleet), res, decimal))
        return false;
    if (!res->sweep_key || !res->best_value[0])
        n = snprintf(out, size, "%s", fleet);
    else /* the point of the sweep that costs least per unit of work */
        n = snprintf(out, size, "at %s = %s, the cheapest point of the sweep per unit of work: %s",
                     res->sweep_key, res->best_value, fleet);
    return n > 0;
}

/* "prices observed 2026-09-15 to 2026-09-30" and the exchange rate, into out[size]. */
static void prices_text(char *out, size_t size, const struct gp_plan_result *res, char decimal)
{
    char oldest[11] = "", newest[11] = "", rate[224] = "", fx_date[11] = "", fx[32];

    if (strcmp(res->currency, "USD") != 0) {
        gp_time_format_date(res->fx_date, fx_date, sizeof(fx_date));
        snprintf(rate, sizeof(rate),
                 "; %s at %s per USD (rate of %s; prices convert at the rate "
                 "of the day they were observed)",
                 res->currency, number(fx, res->fx_per_usd, 4, decimal), fx_date);
    }
    if (!res->oldest_price) {
        snprintf(out, size, "prices: none used%s", rate);
        return;
    }
    gp_time_format_date(res->oldest_price, oldest, sizeof(oldest));
    gp_time_format_date(res->newest_price, newest, sizeof(newest));
    snprintf(out, size, "prices observed %s to %s%s", oldest, newest, rate);
}

void gp_cli_plan_summary_print(FILE *out, const struct gp_plan_result *res, char decimal)
{
    const struct gp_plan_row *next, *best = best_and_next(res, &next);
    char line[1024];

    prices_text(line, sizeof(line), res, decimal);
    fprintf(out, "%s\n", line);
    if (best && next && (best->notes & GP_NOTE_WITHIN_UNCERTAINTY))
        fprintf(out,
                "within uncertainty: the cost bands of %s and %s overlap, so the order of the two "
                "may flip\n",
                best->gpu, next->gpu);
    for (size_t i = 0; i < res->count && i < res->per_point; i++)
        if (res->rows[i].excluded_offers)
            fprintf(out, "%s: %d offer%s outside the region or jurisdiction (%s)\n",
                    res->rows[i].gpu, res->rows[i].excluded_offers,
                    res->rows[i].excluded_offers == 1 ? "" : "s", res->rows[i].excluded);
    if (gp_cli_plan_conclusion(line, sizeof(line), res, decimal))
        fprintf(out, "%s\n", line);
}

void gp_cli_plan_announced_print(FILE *out, const struct gp_plan_request *req)
{
    const char *lead = "announced, not shipping (never best): ";

    for (size_t i = 0; i < req->gpu_count; i++) {
        const struct gp_gpu *g = req->gpus[i];
        if (g->status != GP_STATUS_ANNOUNCED)
            continue;
        fprintf(out, "%s%s ships %s, figures %s", lead, g->id, g->ships,
                gp_confidence_name(gp_gpu_throughput_confidence(g)));
        lead = "; ";
    }
    if (lead[0] == ';')
        fputc('\n', out);
}

int gp_cli_plan_announced_json(cJSON *meta, const struct gp_plan_request *req)
{
    cJSON *list = NULL;

    for (size_t i = 0; i < req->gpu_count; i++) {
        const struct gp_gpu *g = req->gpus[i];
        cJSON *e;
        if (g->status != GP_STATUS_ANNOUNCED)
            continue;
        if (!list && !(list = cJSON_AddArrayToObject(meta, "announced")))
            return gp_error_set(GP_ENOMEM, "out of memory describing the plan");
        e = cJSON_CreateObject();
        if (!e || !cJSON_AddStringToObject(e, "gpu", g->id) ||
            !cJSON_AddStringToObject(e, "system", g->system) ||
            !cJSON_AddStringToObject(e, "ships", g->ships) ||
            !cJSON_AddStringToObject(e, "confidence",
                                     gp_confidence_name(gp_gpu_throughput_confidence(g))) ||
            !cJSON_AddItemToArray(list, e)) {
            cJSON_Delete(e);
            return gp_error_set(GP_ENOMEM, "out of memory describing the plan");
        }
    }
    return 0;
}

void gp_cli_plan_warn_stale(const struct gp_plan_result *res)
{
    if (res->stale) {
        char date[11];
        gp_time_format_date(res->oldest_stale, date, sizeof(date));
        gp_msg_warn("%zu of %zu rows use prices older than %ld days (oldest %s); 'gpuplan "
                    "refresh' updates them",
                    res->stale, res->planned, res->max_age_days, date);
    }
}

static const struct gp_column alternative_columns[] = {
    {"provider", GP_CELL_TEXT, 0},        {"instance_type", GP_CELL_TEXT, 0},
    {"instances", GP_CELL_INT, 0},        {"gpus", GP_CELL_INT, 0},
    {"cost_per_hour", GP_CELL_NUMBER, 2}, {"cost_per_month", GP_CELL_NUMBER, 2},
};

static size_t count_alternatives(const void *view, size_t row)
{
    return ((const struct gp_plan_view *)view)->rows[row].nalternatives;
}

static void read_alternative(const void *view, size_t row, size_t item, size_t col,
                             struct gp_value *out)
{
    const struct gp_plan_alternative *a =
        &((const struct gp_plan_view *)view)->rows[row].alternatives[item];
    static const enum gp_cell_kind kinds[] = {GP_CELL_TEXT, GP_CELL_TEXT,   GP_CELL_INT,
                                              GP_CELL_INT,  GP_CELL_NUMBER, GP_CELL_NUMBER};
    const double numbers[] = {0, 0, a->instances, a->gpus, a->cost_per_hour, a->cost_per_month};

    out->kind = kinds[col];
    out->text = col == 0 ? a->provider : col == 1 ? a->instance_type : NULL;
    out->number = numbers[col];
}

const struct gp_table_list gp_cli_plan_alternatives = {"alternatives", alternative_columns,
                                                       sizeof(alternative_columns) /
                                                           sizeof(alternative_columns[0]),
                                                       count_alternatives, read_alternative};

/* The offers a region rule ruled out, per GPU type of the first sweep point. */
static int excluded_json(cJSON *o, const struct gp_plan_result *res)
{
    cJSON *list = cJSON_AddArrayToObject(o, "excluded_offers");

    for (size_t i = 0; list && i < res->count && i < res->per_point; i++) {
        const struct gp_plan_row *r = &res->rows[i];
        cJSON *e;
        if (!r->excluded_offers)
            continue;
        e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(list, e) || !cJSON_AddStringToObject(e, "gpu", r->gpu) ||
            !cJSON_AddNumberToObject(e, "count", r->excluded_offers) ||
            !cJSON_AddStringToObject(e, "first", r->excluded))
            return -1;
    }
    return list ? 0 : -1;
}

int gp_cli_plan_prices_json(cJSON *o, const struct gp_plan_result *res)
{
    char fx_date[11] = "", oldest[11] = "", newest[11] = "";
    int64_t now = gp_time_now();

    gp_time_format_date(res->fx_date, fx_date, sizeof(fx_date));
    gp_time_format_date(res->oldest_price, oldest, sizeof(oldest));
    gp_time_format_date(res->newest_price, newest, sizeof(newest));
    if (!cJSON_AddNumberToObject(o, "fx_rate", res->fx_per_usd) ||
        !(res->fx_date ? cJSON_AddStringToObject(o, "fx_date", fx_date)
                       : cJSON_AddNullToObject(o, "fx_date")))
        return -1;
    if (res->oldest_price) {
        if (!cJSON_AddStringToObject(o, "prices_oldest", oldest) ||
            !cJSON_AddStringToObject(o, "prices_newest", newest) ||
            !cJSON_AddNumberToObject(o, "price_age_days_max",
                                     (double)gp_time_age_days(res->oldest_price, now)) ||
            !cJSON_AddNumberToObject(o, "price_age_days_min",
                                     (double)gp_time_age_days(res->newest_price, now)))
            return -1;
    }
    return excluded_json(o, res);
}
