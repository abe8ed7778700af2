/* `gpuplan plan`: fleet size, power and cost per GPU type for a workload, with what-if
 * overrides (--set) and sensitivity sweeps (--sweep). This file parses, loads and renders;
 * every planning decision is in planner/plan.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "cli/cli.h"
#include "cli/plan_input.h"
#include "cli/plan_meta.h"
#include "planner/plan.h"
#include "report/plan_table.h"
#include "store/calibrations.h"
#include "util/error.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

/* What the user asked for, as typed. */
struct plan_args {
    const char *workload, *gpus, *vendor, *max_gpus, *power_budget, *pue, *kwh_price, *pricing;
    const char *capex, *years, *max_age, *sweep, *columns;
    bool wide;
    struct gp_strlist set;
};

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
    if (gp_plan_apply(in, key, eq + 1))
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
static int explain_infeasible(const struct gp_plan_result *res)
{
    const struct gp_assumptions *a = &res->used.assumptions;

    switch (res->infeasible) {
    case GP_PLAN_OVER_MAX_GPUS:
        gp_msg_error("no GPU type reaches the target within --max-gpus %d: the smallest fleet "
                     "needs %d x %s",
                     a->max_gpus, res->smallest->gpus, res->smallest->gpu);
        break;
    case GP_PLAN_OVER_FLEET_LIMIT:
        gp_msg_error("the target needs more than a billion GPUs of every selected type");
        break;
    case GP_PLAN_OVER_POWER_BUDGET:
        gp_msg_error("no fleet fits the power budget of %.1f kW", a->power_budget_kw);
        break;
    case GP_PLAN_LATENCY_UNMET:
        gp_msg_error("no GPU type meets the TTFT/TPOT targets; relax ttft_ms or tpot_ms");
        break;
    case GP_PLAN_DOES_NOT_FIT:
    case GP_PLAN_FEASIBLE:
        gp_msg_error("the workload does not fit any selected GPU type within one node");
        break;
    }
    return GP_EXIT_USAGE;
}

/* Everything one `plan` run holds; plan_run_release frees it. */
struct plan_run {
    struct plan_args args;
    const struct gp_catalog *catalog;
    struct gp_efficiency_table effs;
    struct gp_model_table models;
    struct gp_sweep sweep;
    struct gp_plan_request req; /* borrows the arrays below */
    const struct gp_gpu **gpus;
    struct gp_offer *offers;
    struct gp_quote *quotes;
    struct gp_calibration_curve *fits;
    struct gp_plan_result res;
};

static void plan_run_release(struct plan_run *run)
{
    gp_sweep_release(&run->sweep);
    gp_efficiency_table_release(&run->effs);
    gp_model_table_release(&run->models);
    gp_plan_result_release(&run->res);
    free(run->offers);
    free(run->quotes);
    free(run->fits);
    free(run->gpus);
}

/* --pricing, --max-age, and the report currency with the defaults converted into it. */
static int parse_request(struct gp_cli *cli, struct plan_run *run)
{
    const struct plan_args *a = &run->args;
    const struct gp_fx_table *fx = NULL;
    int pricing = a->pricing ? gp_pricing_parse(a->pricing) : GP_PRICING_CHEAPEST, rc;
    long max_age = GP_PLAN_DEFAULT_MAX_AGE_DAYS;

    if (pricing < 0) {
        const char *names[GP_PRICING_COUNT + 1] = {NULL};
        char list[128];
        for (int p = 0; p < GP_PRICING_COUNT; p++)
            names[p] = gp_pricing_name((enum gp_pricing)p);
        gp_text_join(list, sizeof(list), names, ", ");
        return gp_cli_usage_error(cli, "--pricing '%s' is not one of %s", a->pricing, list);
    }
    if (a->max_age && gp_text_to_int(a->max_age, 0, 36500, &max_age))
        return gp_cli_usage_error(cli, "--max-age '%s' is not a number of days", a->max_age);
    if ((rc = gp_cli_fx(cli, &fx)))
        return rc;
    if (gp_plan_request_init(&run->req, fx, cli->currency, gp_time_now()))
        return gp_cli_usage_error(cli, "--currency: %s", gp_error_last());
    run->req.pricing = (enum gp_pricing)pricing;
    run->req.max_age_days = max_age;
    return GP_EXIT_OK;
}

/* The assumptions from the flags, then every --set, then a check of every sweep value, so a bad
 * one fails before any output. */
static int build_base(struct gp_cli *cli, struct plan_run *run)
{
    const struct plan_args *a = &run->args;
    struct gp_plan_input *base = &run->req.base;
    int rc;

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
    if (gp_plan_sweep_check(base, &run->sweep))
        return gp_cli_usage_error(cli, "--sweep: %s", gp_error_last());
    run->req.sweep = &run->sweep;
    return GP_EXIT_OK;
}

/* For each GPU type, the cheapest current offer of every provider, rentable unit, tier and
 * term, appended to run->offers. */
static int load_offers(struct gp_store *store, struct plan_run *run)
{
    for (size_t g = 0; g < run->req.gpu_count; g++) {
        struct gp_offer_filter filter = {.gpu_id = run->gpus[g]->id, .tier = -1};
        struct gp_offer *offers = NULL, *grown;
        size_t n = 0, have = run->req.offer_count;
        int rc = gp_store_purchase_offers(store, &filter, 1, &offers, &n);
        if (rc)
            return rc;
        grown = n ? realloc(run->offers, (have + n) * sizeof(*grown)) : run->offers;
        if (n && !grown) {
            free(offers);
            return gp_error_set(GP_ENOMEM, "out of memory reading offers");
        }
        if (n)
            memcpy(grown + have, offers, n * sizeof(*offers));
        run->offers = grown;
        run->req.offer_count = have + n;
        free(offers);
    }
    return 0;
}

/* The GPU types, and from the store the current offers, the quotes and the calibration fits. */
static int load_data(struct gp_cli *cli, struct plan_run *run)
{
    struct gp_plan_request *req = &run->req;
    struct gp_store *store = NULL;
    int rc;

    run->gpus = calloc(run->catalog->count + 1, sizeof(*run->gpus));
    if (!run->gpus) {
        gp_error_set(GP_ENOMEM, "out of memory");
        return gp_cli_fail();
    }
    if ((rc = select_gpus(cli, &run->args, run->catalog, run->gpus, &req->gpu_count)) ||
        (rc = gp_cli_store_read(cli, &store)))
        return rc;
    if (load_offers(store, run) || gp_store_quotes_list(store, &run->quotes, &req->quote_count) ||
        gp_store_calibration_fits_for_gpu(store, NULL, &run->fits, &req->fit_count))
        return gp_cli_fail();
    req->gpus = run->gpus;
    req->offers = run->offers;
    req->quotes = run->quotes;
    req->fits = run->fits;
    req->efficiencies = &run->effs;
    return GP_EXIT_OK;
}

/* The swept key names its column, unless a row field already has that name. */
/* The rows as a table of the chosen columns: --columns, else every column (--wide, CSV and
 * JSON), else the compact set. */
static int plan_view(struct gp_cli *cli, const struct plan_run *run, struct gp_plan_view *view)
{
    const struct plan_args *a = &run->args;

    const struct gp_plan_result *res = &run->res;

    /* The planner has converted the rows' money into the report currency: rate 1. */
    gp_plan_view_init(view, res->rows, res->count, res->used.workload.kind, res->currency, 1.0);
    if (run->sweep.count)
        gp_plan_view_sweep(view, run->sweep.key, run->sweep.values[0], sizeof(run->sweep.values[0]),
                           res->per_point);
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
    const struct gp_plan_result *res = &run->res;
    struct gp_plan_view view;
    struct gp_table table;
    int rc = plan_view(cli, run, &view);

    if (rc)
        return rc;
    gp_plan_view_table(&view, &table);
    table.meta = cJSON_CreateObject();
    if (!table.meta ||
        !cJSON_AddItemToObject(table.meta, "workload",
                               gp_cli_plan_workload_json(&res->used.workload)) ||
        !cJSON_AddItemToObject(table.meta, "assumptions",
                               gp_cli_plan_assumptions_json(res, &run->sweep))) {
        gp_table_release(&table);
        gp_error_set(GP_ENOMEM, "out of memory describing the plan");
        return gp_cli_fail();
    }
    rc = gp_cli_output(cli, &table, res->best);
    if (rc == 0 && res->infeasible != GP_PLAN_FEASIBLE)
        rc = explain_infeasible(res);
    gp_table_release(&table);
    return rc;
}

/* Plan, warn about GPU types that cannot be priced as owned, and render. */
static int plan_and_render(struct gp_cli *cli, struct plan_run *run)
{
    if (gp_plan_run(&run->res, &run->req))
        return gp_cli_fail();
    for (size_t g = 0; g < run->res.per_point; g++)
        if (run->res.gpus[g].no_capex)
            gp_msg_warn("%s: no purchase price in the catalog; give --capex for owned pricing",
                        run->res.gpus[g].gpu->id);
    return render(cli, run);
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
    rc = parse_request(cli, &run);
    if (!rc)
        rc = gp_cli_catalog(cli, &run.catalog);
    if (!rc)
        rc = gp_cli_plan_inputs(cli, &run.effs, &run.models);
    if (!rc)
        rc = gp_cli_workload_load(cli, a->workload, &run.models, &run.req.base.workload);
    if (!rc)
        rc = build_base(cli, &run);
    if (!rc)
        rc = load_data(cli, &run);
    if (!rc)
        rc = plan_and_render(cli, &run);
    plan_run_release(&run);
    return rc;
}
