/* `gpuplan plan`: fleet size, power and cost per GPU type for a workload, with what-if
 * overrides (--set) and sensitivity sweeps (--sweep). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "cli/cli.h"
#include "cli/plan_input.h"
#include "planner/efficiency.h"
#include "planner/fleet.h"
#include "planner/sweep.h"
#include "report/plan_table.h"
#include "store/calibrations.h"
#include "util/error.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

enum { DEFAULT_MAX_AGE_DAYS = 7 };

/* What the user asked for, as typed. */
struct plan_args {
    const char *workload, *gpus, *vendor, *max_gpus, *power_budget, *pue, *kwh_price, *pricing;
    const char *capex, *years, *max_age, *sweep, *columns;
    bool wide;
    struct gp_strlist set;
};

enum pricing { PRICING_CHEAPEST, PRICING_ON_DEMAND, PRICING_SPOT, PRICING_QUOTE, PRICING_OWNED };
static const char *const pricing_names[] = {"cheapest", "on-demand", "spot",
                                            "quote",    "owned",     NULL};

/* Everything resolved for one GPU type before the sweep runs. */
struct gpu_plan {
    const struct gp_gpu *gpu;
    struct gp_efficiency eff;
    struct gp_price price;
};

/* ---- prices ------------------------------------------------------------------------------ */

static void price_from_offer(struct gp_price *p, const struct gp_offer *o, int64_t now,
                             long max_age_days)
{
    p->known = true;
    p->usd_per_gpu_hour = o->usd_per_gpu_hour;
    gp_text_copy(p->tier, sizeof(p->tier), gp_tier_name(o->tier));
    gp_text_copy(p->source, sizeof(p->source), o->provider);
    gp_time_format_date(o->observed_at, p->date, sizeof(p->date));
    p->stale = now - o->observed_at > (int64_t)max_age_days * 86400;
}

/* The cheapest valid quote for `gpu_id` among `quotes`, or NULL. */
static const struct gp_quote *best_quote(const struct gp_quote *quotes, size_t n,
                                         const char *gpu_id, int64_t now)
{
    const struct gp_quote *best = NULL;

    for (size_t i = 0; i < n; i++) {
        const struct gp_quote *q = &quotes[i];
        if (strcmp(q->offer.gpu_id, gpu_id) || (q->offer.valid_until && q->offer.valid_until < now))
            continue;
        if (!best || q->offer.usd_per_gpu_hour < best->offer.usd_per_gpu_hour)
            best = q;
    }
    return best;
}

/*
 * The price of one GPU type under the chosen pricing. "cheapest" is the lowest current
 * non-preemptible price: on-demand, reserved or a valid quote; spot only when asked for.
 */
static int resolve_price(struct gp_price *out, struct gp_store *store, enum pricing pricing,
                         const char *gpu_id, const struct gp_quote *quotes, size_t nquotes,
                         int64_t now, long max_age_days)
{
    int tiers[2] = {GP_TIER_ON_DEMAND, GP_TIER_RESERVED}, ntiers = 2;

    memset(out, 0, sizeof(*out));

    if (pricing == PRICING_OWNED) {
        out->owned = true;
        gp_text_copy(out->tier, sizeof(out->tier), "owned");
        gp_text_copy(out->source, sizeof(out->source), "capex");
        return 0;
    }
    const struct gp_quote *q = pricing == PRICING_CHEAPEST || pricing == PRICING_QUOTE
                                   ? best_quote(quotes, nquotes, gpu_id, now)
                                   : NULL;
    if (q) {
        price_from_offer(out, &q->offer, now, max_age_days);
        snprintf(out->source, sizeof(out->source), "quote:%lld", (long long)q->id);
        out->stale = false; /* a quote holds until valid_until, whatever its age */
    }
    if (pricing == PRICING_QUOTE)
        return 0;
    if (pricing != PRICING_CHEAPEST) {
        tiers[0] = pricing == PRICING_SPOT ? GP_TIER_SPOT : GP_TIER_ON_DEMAND;
        ntiers = 1;
    }
    for (int i = 0; i < ntiers; i++) {
        struct gp_offer_filter filter = {.gpu_id = gpu_id, .tier = tiers[i]};
        struct gp_offer *offers = NULL;
        size_t count = 0;
        int rc = gp_store_purchase_offers(store, &filter, 1, &offers, &count);
        if (rc)
            return rc;
        for (size_t k = 0; k < count; k++)
            if (!out->known || offers[k].usd_per_gpu_hour < out->usd_per_gpu_hour)
                price_from_offer(out, &offers[k], now, max_age_days);
        free(offers);
    }
    return 0;
}

/* ---- calibration ------------------------------------------------------------------------- */

/* Calibrated curves for `gpu_id`, applied over the defaults; the source names the newest run. */
static int apply_calibration(struct gp_efficiency *eff, struct gp_store *store, const char *gpu_id)
{
    struct gp_calibration_curve *curves = NULL;
    struct gp_eff_override ov;
    size_t n = 0;
    int64_t newest = 0;
    const char *host = "";
    int rc = gp_store_calibration_fits_for_gpu(store, gpu_id, &curves, &n);

    if (rc)
        return rc;
    memset(&ov, 0, sizeof(ov));
    for (size_t i = 0; i < n; i++) {
        const struct gp_calibration_curve *c = &curves[i];
        struct gp_eff_curve curve = {c->eff_max, c->s_half};
        if (!(c->eff_max > 0 && c->eff_max <= 1.0) || !(c->s_half >= 0))
            continue;
        if (strcmp(c->kernel, "bandwidth") == 0) {
            ov.bandwidth = curve;
            ov.bandwidth_set = true;
        } else {
            int p = gp_precision_parse(c->precision);
            if (strcmp(c->kernel, "gemm") || p < 0)
                continue;
            ov.gemm[p] = curve;
            ov.gemm_set[p] = true;
        }
        if (c->started_at >= newest) {
            newest = c->started_at;
            host = c->host;
        }
    }
    if (newest > 0) {
        char date[11];
        gp_time_format_date(newest, date, sizeof(date));
        snprintf(ov.source, sizeof(ov.source), "calibrated:%.60s:%s", host, date);
        gp_efficiency_apply(eff, &ov);
    }
    free(curves);
    return 0;
}

/* ---- output ------------------------------------------------------------------------------ */

static cJSON *workload_json(const struct gp_workload *w)
{
    cJSON *o = cJSON_CreateObject();

    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "name", w->name);
    cJSON_AddStringToObject(o, "kind", gp_workload_kind_name(w->kind));
    cJSON_AddStringToObject(o, "description", w->description);
    if (w->kind != GP_WORKLOAD_GENERIC) {
        cJSON_AddStringToObject(o, "model", w->model.name);
        cJSON_AddNumberToObject(o, "params", w->model.params);
        cJSON_AddNumberToObject(o, "active_params", gp_model_active_params(&w->model));
    }
    if (w->kind == GP_WORKLOAD_INFERENCE) {
        const struct gp_inference *in = &w->inference;
        cJSON_AddStringToObject(o, "precision", gp_precision_name(in->precision));
        cJSON_AddStringToObject(o, "kv_precision", gp_precision_name(in->kv_precision));
        cJSON_AddNumberToObject(o, "input_tokens", in->input_tokens);
        cJSON_AddNumberToObject(o, "output_tokens", in->output_tokens);
        if (in->load == GP_LOAD_MAX)
            cJSON_AddStringToObject(o, "target", "max");
        else
            cJSON_AddNumberToObject(
                o, in->load == GP_LOAD_REQUESTS ? "requests_per_s" : "output_tokens_per_s",
                in->rate);
        cJSON_AddNumberToObject(o, "ttft_ms", in->ttft_ms);
        cJSON_AddNumberToObject(o, "tpot_ms", in->tpot_ms);
        cJSON_AddNumberToObject(o, "memory_fraction", in->memory_fraction);
    } else if (w->kind == GP_WORKLOAD_TRAINING) {
        const struct gp_training *t = &w->training;
        cJSON_AddStringToObject(o, "precision", gp_precision_name(t->precision));
        cJSON_AddNumberToObject(o, "tokens", t->tokens);
        cJSON_AddNumberToObject(o, "deadline_hours", t->deadline_hours);
        cJSON_AddNumberToObject(o, "gpus", t->gpus);
        cJSON_AddBoolToObject(o, "recompute", t->recompute);
        cJSON_AddNumberToObject(o, "zero_stage", t->zero_stage);
    } else {
        const struct gp_generic *g = &w->generic;
        cJSON_AddStringToObject(o, "precision", gp_precision_name(g->precision));
        cJSON_AddNumberToObject(o, "flops", g->flops);
        cJSON_AddNumberToObject(o, "bytes", g->bytes);
        cJSON_AddNumberToObject(o, "jobs_per_hour", g->jobs_per_hour);
    }
    return o;
}

static cJSON *assumptions_json(const struct gp_assumptions *a, const char *currency,
                               const char *pricing, long max_age, const struct gp_sweep *sweep)
{
    cJSON *o = cJSON_CreateObject();

    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "currency", currency);
    cJSON_AddStringToObject(o, "pricing", pricing);
    cJSON_AddNumberToObject(o, "pue", a->pue);
    cJSON_AddNumberToObject(o, "kwh_price", a->kwh_price);
    cJSON_AddNumberToObject(o, "years", a->years);
    cJSON_AddNumberToObject(o, "capex", a->capex);
    cJSON_AddNumberToObject(o, "server_overhead", a->server_overhead);
    cJSON_AddNumberToObject(o, "max_age_days", (double)max_age);
    cJSON_AddNumberToObject(o, "max_gpus", a->max_gpus);
    cJSON_AddNumberToObject(o, "power_budget_kw", a->power_budget_kw);
    cJSON_AddNumberToObject(o, "hours_per_month", 730);
    if (sweep->count)
        cJSON_AddStringToObject(o, "sweep", sweep->key);
    return o;
}

/* ---- the command ------------------------------------------------------------------------- */

/* Apply one "key=value" to the input; usage errors name the flag. */
static int apply_set(struct gp_cli *cli, struct gp_plan_input *in, const char *flag, const char *kv)
{
    char key[64];
    const char *eq = strchr(kv, '=');

    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key))
        return gp_cli_usage_error(cli, "%s '%s': expected key=value", flag, kv);
    memcpy(key, kv, (size_t)(eq - kv));
    key[eq - kv] = '\0';
    if (gp_plan_set(in, key, eq + 1) || gp_workload_validate(&in->workload))
        return gp_cli_usage_error(cli, "%s: %s", flag, gp_error_last());
    return GP_EXIT_OK;
}

/* Numeric flag values go through the same key table as --set. */
static int apply_flag(struct gp_cli *cli, struct gp_plan_input *in, const char *flag,
                      const char *key, const char *value)
{
    if (!value)
        return GP_EXIT_OK;
    if (gp_plan_set(in, key, value))
        return gp_cli_usage_error(cli, "%s: %s", flag, gp_error_last());
    return GP_EXIT_OK;
}

static int select_gpus(struct gp_cli *cli, const struct plan_args *a, const struct gp_catalog *cat,
                       const struct gp_gpu **out, size_t *n)
{
    *n = 0;
    if (a->vendor && strcmp(a->vendor, "nvidia") && strcmp(a->vendor, "amd"))
        return gp_cli_usage_error(cli, "--vendor '%s' is not nvidia or amd", a->vendor);
    if (a->gpus) {
        const char *p = a->gpus;
        while (*p) {
            char id[GP_GPU_ID_MAX + 8];
            size_t len = strcspn(p, ",");
            const struct gp_gpu *gpu;
            if (len == 0 || len >= sizeof(id))
                return gp_cli_usage_error(cli, "--gpus '%s': expected ID,ID,...", a->gpus);
            memcpy(id, p, len);
            id[len] = '\0';
            if (gp_catalog_require(cat, id, &gpu))
                return gp_cli_usage_error(cli, "--gpus: %s", gp_error_last());
            bool seen = false;
            for (size_t i = 0; i < *n; i++)
                seen |= out[i] == gpu;
            if (!seen && (!a->vendor || strcmp(gp_vendor_name(gpu->vendor), a->vendor) == 0))
                out[(*n)++] = gpu;
            p += len + (p[len] == ',');
        }
    } else {
        for (size_t i = 0; i < cat->count; i++)
            if (!a->vendor || strcmp(gp_vendor_name(cat->gpus[i].vendor), a->vendor) == 0)
                out[(*n)++] = &cat->gpus[i];
    }
    if (*n == 0)
        return gp_cli_usage_error(cli, "no GPU type left after --gpus and --vendor");
    return GP_EXIT_OK;
}

/* Say why no row could be planned, with the nearest miss. Returns GP_EXIT_USAGE. */
static int explain_infeasible(const struct gp_plan_row *rows, size_t n,
                              const struct gp_assumptions *a)
{
    const struct gp_plan_row *smallest = NULL;
    unsigned all = 0;

    for (size_t i = 0; i < n; i++) {
        all |= rows[i].notes;
        if (rows[i].gpus > 0 && (!smallest || rows[i].gpus < smallest->gpus))
            smallest = &rows[i];
    }
    if ((all & GP_NOTE_OVER_MAX_GPUS) && smallest && a->max_gpus > 0)
        gp_msg_error("no GPU type reaches the target within --max-gpus %d: the smallest fleet "
                     "needs %d x %s",
                     a->max_gpus, smallest->gpus, smallest->gpu);
    else if (all & GP_NOTE_OVER_MAX_GPUS)
        gp_msg_error("the target needs more than a billion GPUs of every selected type");
    else if (all & GP_NOTE_OVER_POWER_BUDGET)
        gp_msg_error("no fleet fits the power budget of %.1f kW", a->power_budget_kw);
    else if (all & GP_NOTE_LATENCY_UNMET)
        gp_msg_error("no GPU type meets the TTFT/TPOT targets; relax ttft_ms or tpot_ms");
    else
        gp_msg_error("the workload does not fit any selected GPU type within one node");
    return GP_EXIT_USAGE;
}

/* Everything one `plan` run holds; plan_run_release frees it. */
struct plan_run {
    struct plan_args args;
    enum pricing pricing;
    long max_age_days;
    double fx;   /* output currency units per USD */
    int64_t now; /* Unix seconds UTC */
    const struct gp_catalog *catalog;
    struct gp_store *store;
    struct gp_efficiency_table effs;
    struct gp_model_table models;
    struct gp_plan_input base; /* workload and assumptions after every flag and --set */
    struct gp_sweep sweep;
    struct gp_quote *quotes;
    size_t nquotes;
    const struct gp_gpu **gpus;
    struct gpu_plan *plans; /* one per GPU type planned, `ngpus` */
    size_t ngpus;
    struct gp_plan_row *rows; /* sweep point-major: row = point * ngpus + gpu */
    size_t nrows;
};

static void plan_run_release(struct plan_run *run)
{
    gp_sweep_release(&run->sweep);
    gp_efficiency_table_release(&run->effs);
    gp_model_table_release(&run->models);
    free(run->quotes);
    free(run->plans);
    free(run->gpus);
    free(run->rows);
}

/* Check --pricing and --max-age. */
static int parse_pricing(struct gp_cli *cli, struct plan_run *run)
{
    const struct plan_args *a = &run->args;
    int pricing = PRICING_CHEAPEST;

    if (a->pricing) {
        for (pricing = 0; pricing_names[pricing]; pricing++)
            if (strcmp(pricing_names[pricing], a->pricing) == 0)
                break;
        if (!pricing_names[pricing])
            return gp_cli_usage_error(cli,
                                      "--pricing '%s' is not one of cheapest, on-demand, "
                                      "spot, quote, owned",
                                      a->pricing);
    }
    run->pricing = (enum pricing)pricing;
    run->max_age_days = DEFAULT_MAX_AGE_DAYS;
    if (a->max_age && gp_text_to_int(a->max_age, 0, 36500, &run->max_age_days))
        return gp_cli_usage_error(cli, "--max-age '%s' is not a number of days", a->max_age);
    return GP_EXIT_OK;
}

/* Apply sweep point `v` to `in`. */
static int apply_sweep_point(struct gp_cli *cli, const struct gp_sweep *sweep, size_t v,
                             struct gp_plan_input *in)
{
    char kv[128];

    snprintf(kv, sizeof(kv), "%s=%s", sweep->key, sweep->values[v]);
    return apply_set(cli, in, "--sweep", kv);
}

/* The assumptions from the flags, then every --set, then a check of every sweep value, so a bad
 * one fails before any output. */
static int build_base(struct gp_cli *cli, struct plan_run *run)
{
    const struct plan_args *a = &run->args;
    struct gp_plan_input *base = &run->base;
    int rc;

    gp_assumptions_init(&base->assumptions);
    base->assumptions.fx_per_usd = run->fx;
    base->assumptions.kwh_price *= run->fx;
    if ((rc = apply_flag(cli, base, "--pue", "pue", a->pue)) ||
        (rc = apply_flag(cli, base, "--kwh-price", "kwh_price", a->kwh_price)) ||
        (rc = apply_flag(cli, base, "--capex", "capex", a->capex)) ||
        (rc = apply_flag(cli, base, "--years", "years", a->years)) ||
        (rc = apply_flag(cli, base, "--max-gpus", "max_gpus", a->max_gpus)) ||
        (rc = apply_flag(cli, base, "--power-budget-kw", "power_budget_kw", a->power_budget)))
        return rc;
    for (size_t i = 0; i < a->set.count; i++)
        if ((rc = apply_set(cli, base, "--set", a->set.items[i])))
            return rc;
    if (!a->sweep)
        return GP_EXIT_OK;
    if (gp_sweep_parse(&run->sweep, a->sweep))
        return gp_cli_usage_error(cli, "%s", gp_error_last());
    for (size_t v = 0; v < run->sweep.count; v++) {
        struct gp_plan_input probe = *base;
        if ((rc = apply_sweep_point(cli, &run->sweep, v, &probe)))
            return rc;
    }
    return GP_EXIT_OK;
}

/* Choose the GPU types and resolve each one's efficiencies (calibrated where measured) and
 * price. */
static int prepare_gpus(struct gp_cli *cli, struct plan_run *run)
{
    const struct gp_catalog *cat = run->catalog;
    int rc;

    run->gpus = calloc(cat->count + 1, sizeof(*run->gpus));
    run->plans = calloc(cat->count + 1, sizeof(*run->plans));
    if (!run->gpus || !run->plans) {
        gp_error_set(GP_ENOMEM, "out of memory");
        return gp_cli_fail();
    }
    if ((rc = select_gpus(cli, &run->args, cat, run->gpus, &run->ngpus)))
        return rc;
    if ((rc = gp_cli_store_read(cli, &run->store)))
        return rc;
    if (run->pricing != PRICING_OWNED &&
        gp_store_quotes_list(run->store, &run->quotes, &run->nquotes))
        return gp_cli_fail();
    for (size_t g = 0; g < run->ngpus; g++) {
        struct gpu_plan *p = &run->plans[g];
        p->gpu = run->gpus[g];
        gp_efficiency_resolve(&p->eff, &run->effs, p->gpu->id);
        if (apply_calibration(&p->eff, run->store, p->gpu->id) ||
            resolve_price(&p->price, run->store, run->pricing, p->gpu->id, run->quotes,
                          run->nquotes, run->now, run->max_age_days))
            return gp_cli_fail();
        if (run->pricing == PRICING_OWNED && !(run->base.assumptions.capex > 0) &&
            !(p->gpu->capex_usd > 0))
            gp_msg_warn("%s: no purchase price in the catalog; give --capex for owned pricing",
                        p->gpu->id);
    }
    return GP_EXIT_OK;
}

/* One row per sweep point and GPU type, ranked. */
static int evaluate(struct gp_cli *cli, struct plan_run *run)
{
    size_t points = run->sweep.count ? run->sweep.count : 1;
    int rc;

    run->rows = calloc(points * run->ngpus + 1, sizeof(*run->rows));
    if (!run->rows) {
        gp_error_set(GP_ENOMEM, "out of memory");
        return gp_cli_fail();
    }
    for (size_t v = 0; v < points; v++) {
        struct gp_plan_input in = run->base;
        if (run->sweep.count && (rc = apply_sweep_point(cli, &run->sweep, v, &in)))
            return rc;
        for (size_t g = 0; g < run->ngpus; g++)
            gp_plan_evaluate(&run->rows[run->nrows++], &in.workload, &in.assumptions,
                             run->plans[g].gpu, &run->plans[g].eff, &run->plans[g].price);
    }
    gp_plan_rank(run->rows, run->nrows, run->ngpus);
    return GP_EXIT_OK;
}

/* The rows as a table of the chosen columns: --columns, else every column (--wide, CSV and
 * JSON), else the compact set. */
static int plan_view(struct gp_cli *cli, const struct plan_run *run, struct gp_plan_view *view)
{
    const struct plan_args *a = &run->args;

    gp_plan_view_init(view, run->rows, run->nrows, run->base.workload.kind, cli->currency, run->fx);
    if (run->sweep.count)
        gp_plan_view_sweep(view, run->sweep.key, run->sweep.values[0], sizeof(run->sweep.values[0]),
                           run->ngpus);
    if (a->columns) {
        if (gp_plan_view_pick(view, a->columns))
            return gp_cli_usage_error(cli, "--columns: %s", gp_error_last());
    } else if (cli->format == GP_FORMAT_TABLE && !a->wide) {
        gp_plan_view_compact(view);
    }
    return GP_EXIT_OK;
}

/* Render the rows with the workload and assumptions; exit 2 when no GPU type can be planned. */
static int render(struct gp_cli *cli, const struct plan_run *run)
{
    struct gp_plan_view view;
    struct gp_table table;
    size_t best = SIZE_MAX;
    bool feasible = false;
    int rc = plan_view(cli, run, &view);

    if (rc)
        return rc;
    gp_plan_view_table(&view, &table);
    table.meta = cJSON_CreateObject();
    if (!table.meta ||
        !cJSON_AddItemToObject(table.meta, "workload", workload_json(&run->base.workload)) ||
        !cJSON_AddItemToObject(table.meta, "assumptions",
                               assumptions_json(&run->base.assumptions, cli->currency,
                                                pricing_names[run->pricing], run->max_age_days,
                                                &run->sweep))) {
        gp_table_release(&table);
        gp_error_set(GP_ENOMEM, "out of memory describing the plan");
        return gp_cli_fail();
    }
    for (size_t i = 0; i < run->nrows; i++) {
        feasible |= run->rows[i].feasible;
        if (best == SIZE_MAX && (run->rows[i].notes & GP_NOTE_BEST))
            best = i;
    }
    rc = gp_cli_output(cli, &table, best);
    if (rc == 0 && !feasible)
        rc = explain_infeasible(run->rows, run->nrows, &run->base.assumptions);
    gp_table_release(&table);
    return rc;
}

int gp_cmd_plan(struct gp_cli *cli, int argc, char **argv)
{
    struct plan_run run = {0};
    struct plan_args *a = &run.args;
    const struct gp_opt opts[] = {
        {"workload", 'w', GP_OPT_STRING, &a->workload, "FILE|PRESET",
         "workload file or preset name (see 'gpuplan workloads')"},
        {"gpus", 0, GP_OPT_STRING, &a->gpus, "ID,...", "GPU types to plan (default: all)"},
        {"vendor", 0, GP_OPT_STRING, &a->vendor, "VENDOR", "nvidia or amd"},
        {"max-gpus", 0, GP_OPT_STRING, &a->max_gpus, "N", "largest fleet considered"},
        {"power-budget-kw", 0, GP_OPT_STRING, &a->power_budget, "KW",
         "facility power available; larger fleets say over-power-budget"},
        {"pue", 0, GP_OPT_STRING, &a->pue, "X", "facility power / IT power (default 1.3)"},
        {"kwh-price", 0, GP_OPT_STRING, &a->kwh_price, "PRICE",
         "energy price per kWh in --currency (default 0.083 USD)"},
        {"pricing", 0, GP_OPT_STRING, &a->pricing, "MODE",
         "cheapest (default; on-demand, reserved or quote), on-demand, spot, quote, owned"},
        {"capex", 0, GP_OPT_STRING, &a->capex, "PRICE",
         "purchase price per GPU in --currency, for --pricing owned"},
        {"years", 0, GP_OPT_STRING, &a->years, "N", "amortisation period for owned (default 3)"},
        {"max-age", 0, GP_OPT_STRING, &a->max_age, "DAYS",
         "offers older than this say stale-price (default 7)"},
        {"set", 0, GP_OPT_LIST, &a->set, "KEY=VALUE", "override a workload or assumption field"},
        {"sweep", 0, GP_OPT_ONCE, &a->sweep, "KEY=SPEC",
         "one row per value and GPU type; SPEC is FROM:TO:STEP or A,B,C"},
        {"columns", 0, GP_OPT_STRING, &a->columns, "NAME,...",
         "only these columns, in this order (names as in CSV and JSON)"},
        {"wide", 0, GP_OPT_FLAG, &a->wide, NULL,
         "every column in the table format (default: the compact set)"},
        GP_OPT_END,
    };
    int rc = gp_cli_parse_options(cli, "plan", opts, argc, argv);

    if (rc) {
        if (rc < 0)
            gp_cli_plan_keys_print(stdout);
        return rc < 0 ? GP_EXIT_OK : rc;
    }
    if (!a->workload)
        return gp_cli_usage_error(cli, "--workload is required (a file or a preset; see "
                                       "'gpuplan workloads')");
    run.fx = 1.0;
    run.now = gp_time_now();
    rc = parse_pricing(cli, &run);
    if (!rc)
        rc = gp_cli_catalog(cli, &run.catalog);
    if (!rc)
        rc = gp_cli_currency_rate(cli, &run.fx);
    if (!rc)
        rc = gp_cli_plan_inputs(cli, &run.effs, &run.models);
    if (!rc)
        rc = gp_cli_workload_load(cli, a->workload, &run.models, &run.base.workload);
    if (!rc)
        rc = build_base(cli, &run);
    if (!rc)
        rc = prepare_gpus(cli, &run);
    if (!rc)
        rc = evaluate(cli, &run);
    if (!rc)
        rc = render(cli, &run);
    plan_run_release(&run);
    return rc;
}
