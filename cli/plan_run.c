/* The plan steps `plan` and `report` share: request, data and the planner's run. */
#include "cli/plan_run.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "cli/plan_input.h"
#include "store/calibrations.h"
#include "store/serving.h"
#include "util/error.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

void gp_cli_plan_options(struct gp_cli_plan_args *a, struct gp_opt *out)
{
    const struct gp_opt opts[GP_CLI_PLAN_OPTION_COUNT] = {
        {"gpus", 0, GP_OPT_STRING, &a->gpus, "ID,...", "GPU types to plan (default: all)"},
        {"vendor", 0, GP_OPT_STRING, &a->vendor, "VENDOR", "nvidia or amd"},
        {"include-announced", 0, GP_OPT_FLAG, &a->include_announced, NULL,
         "also plan systems announced but not shipping (Rubin, MI450); never best"},
        {"max-gpus", 0, GP_OPT_STRING, &a->max_gpus, "N", "largest fleet considered"},
        {"power-budget-kw", 0, GP_OPT_STRING, &a->power_budget, "KW",
         "facility power available; larger fleets say over-power-budget"},
        {"power-budget-mw", 0, GP_OPT_STRING, &a->power_budget_mw, "MW",
         "power-first: each row is the largest fleet this facility power holds (with --site)"},
        {"site", 0, GP_OPT_STRING, &a->site, "SITE",
         "host the owned fleet at this site of data/sites.json (dk1, se3, ...): its energy, "
         "PUE, racks, colocation and heat reuse"},
        {"pue", 0, GP_OPT_STRING, &a->pue, "X", "facility power / IT power (default 1.3)"},
        {"kwh-price", 0, GP_OPT_STRING, &a->kwh_price, "PRICE",
         "energy price per kWh in --currency (default 0.083 USD)"},
        {"pricing", 0, GP_OPT_STRING, &a->pricing, "MODE",
         "cheapest (default; on-demand, reserved or quote), on-demand, spot, quote, owned, "
         "reserved"},
        {"horizon-months", 0, GP_OPT_STRING, &a->horizon, "N",
         "planning horizon; committed terms must fit it (default 1)"},
        {"region", 0, GP_OPT_STRING, &a->region, "GLOB",
         "only offers in provider regions matching GLOB (e.g. 'eu-*')"},
        {"jurisdiction", 0, GP_OPT_STRING, &a->jurisdiction, "AREA",
         "only offers in this jurisdiction (eu, eea, us, ...)"},
        {"capex", 0, GP_OPT_STRING, &a->capex, "PRICE|GPU=PRICE,...",
         "purchase price per GPU in --currency, for --pricing owned (default: data/capex.json)"},
        {"years", 0, GP_OPT_STRING, &a->years, "N", "amortisation period for owned (default 3)"},
        {"max-age", 0, GP_OPT_STRING, &a->max_age, "DAYS",
         "offers older than this say stale-price (default 7)"},
        {"stack", 0, GP_OPT_STRING, &a->stack, "NAME",
         "software stack profile (data/stacks.json; default: the vendor's production profile)"},
        {"compare-stacks", 0, GP_OPT_FLAG, &a->compare_stacks, NULL,
         "rows with the default stack and --stack (or every profile) side by side"},
        {"set", 0, GP_OPT_LIST, &a->set, "KEY=VALUE", "override a workload or assumption field"},
    };
    memcpy(out, opts, sizeof(opts));
}

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
        return gp_cli_input_error(cli, "%s: %s", flag, gp_error_last());
    return GP_EXIT_OK;
}

/* Numeric flag values go through the same key table as --set. */
static int apply_flag(struct gp_cli *cli, struct gp_plan_input *in, const char *flag,
                      const char *key, const char *value)
{
    if (!value)
        return GP_EXIT_OK;
    if (gp_plan_set(in, key, value))
        return gp_cli_input_error(cli, "%s: %s", flag, gp_error_last());
    return GP_EXIT_OK;
}

static int select_gpus(struct gp_cli *cli, const struct gp_cli_plan_args *a,
                       const struct gp_catalog *cat, const struct gp_gpu **out, size_t *n)
{
    if (gp_catalog_select(cat, a->gpus, a->vendor, a->include_announced, out, n) != 0)
        return gp_cli_input_error(cli, "%s", gp_error_last());
    return GP_EXIT_OK;
}

/* --horizon-months, --region, --jurisdiction, and --capex (only with --pricing owned). */
static int parse_buying(struct gp_cli *cli, struct gp_cli_plan_run *run)
{
    const struct gp_cli_plan_args *a = run->args;
    long horizon = 1;
    int rc;

    if (a->horizon && gp_text_to_int(a->horizon, 1, 1200, &horizon))
        return gp_cli_usage_error(cli, "--horizon-months '%s' is not a number of months (1-1200)",
                                  a->horizon);
    run->req.horizon_months = (int)horizon;
    if (a->jurisdiction && !a->jurisdiction[0])
        return gp_cli_usage_error(cli, "--jurisdiction is empty (eu, eea, us, ...)");
    if ((rc = gp_cli_place_filter(cli, a->region, a->jurisdiction)) != GP_EXIT_OK)
        return rc;
    run->req.region = a->region;
    run->req.jurisdiction = a->jurisdiction;
    if (!a->capex)
        return GP_EXIT_OK;
    if (run->req.pricing != GP_PRICING_OWNED)
        return gp_cli_usage_error(cli, "--capex prices owned GPUs: give it with --pricing owned");
    if (!strchr(a->capex, '='))
        return GP_EXIT_OK; /* one price for all: the "capex" assumption */
    if (gp_capex_choice_parse(&run->capex_prices, a->capex))
        return gp_cli_input_error(cli, "--capex: %s", gp_error_last());
    for (size_t i = 0; i < run->capex_prices.count; i++) {
        const struct gp_gpu *gpu;
        if (gp_catalog_require(run->catalog, run->capex_prices.prices[i].gpu_id, &gpu))
            return gp_cli_input_error(cli, "--capex: %s", gp_error_last());
    }
    run->req.capex_prices = &run->capex_prices;
    return GP_EXIT_OK;
}

/* --pricing, --max-age, and the report currency with the defaults converted into it. */
static int parse_request(struct gp_cli *cli, struct gp_cli_plan_run *run)
{
    const struct gp_cli_plan_args *a = run->args;
    const struct gp_fx_table *fx = NULL;
    int pricing = a->pricing ? gp_pricing_parse(a->pricing) : GP_PRICING_CHEAPEST, rc;
    long max_age = GP_PLAN_DEFAULT_MAX_AGE_DAYS;

    if (pricing < 0) {
        const char *names[GP_PRICING_COUNT + 1] = {NULL};
        char list[128];
        for (int p = 0; p < GP_PRICING_COUNT; p++)
            names[p] = gp_pricing_name((enum gp_pricing)p);
        gp_text_join(list, sizeof(list), names, ", ", ", ");
        return gp_cli_usage_error(cli, "--pricing '%s' is not one of %s", a->pricing, list);
    }
    if (a->max_age && gp_text_to_int(a->max_age, 0, 36500, &max_age))
        return gp_cli_usage_error(cli, "--max-age '%s' is not a number of days", a->max_age);
    if ((rc = gp_cli_fx(cli, &fx)))
        return rc;
    if (gp_plan_request_init(&run->req, fx, cli->currency, gp_time_now()))
        return gp_cli_input_error(cli, "--currency: %s", gp_error_last());
    run->req.pricing = (enum gp_pricing)pricing;
    run->req.max_age_days = max_age;
    return parse_buying(cli, run);
}

/* The assumptions from the flags, then every --set, then a check of every sweep value, so a bad
 * one fails before any output. */
static int build_base(struct gp_cli *cli, struct gp_cli_plan_run *run)
{
    const struct gp_cli_plan_args *a = run->args;
    struct gp_plan_input *base = &run->req.base;
    int rc;

    if ((rc = apply_flag(cli, base, "--pue", "pue", a->pue)) ||
        (rc = apply_flag(cli, base, "--kwh-price", "kwh_price", a->kwh_price)) ||
        (rc = apply_flag(cli, base, "--capex", "capex",
                         a->capex && !strchr(a->capex, '=') ? a->capex : NULL)) ||
        (rc = apply_flag(cli, base, "--years", "years", a->years)) ||
        (rc = apply_flag(cli, base, "--max-gpus", "max_gpus", a->max_gpus)) ||
        (rc = apply_flag(cli, base, "--power-budget-kw", "power_budget_kw", a->power_budget)) ||
        (rc = apply_flag(cli, base, "--power-budget-mw", "power_budget_mw", a->power_budget_mw)))
        return rc;
    for (size_t i = 0; i < a->set.count; i++)
        if ((rc = apply_set(cli, base, "--set", a->set.items[i])))
            return rc;
    if (!a->sweep)
        return GP_EXIT_OK;
    if (gp_sweep_parse(&run->sweep, a->sweep))
        return gp_cli_input_error(cli, "%s", gp_error_last());
    if (gp_plan_sweep_check(base, &run->sweep))
        return gp_cli_input_error(cli, "--sweep: %s", gp_error_last());
    run->req.sweep = &run->sweep;
    run->req.sweep_checked = true;
    return GP_EXIT_OK;
}

/* For each GPU type the store's purchase candidates (gp_store_purchase_candidates). */
static int load_offers(struct gp_store *store, struct gp_cli_plan_run *run)
{
    for (size_t g = 0; g < run->req.gpu_count; g++) {
        int rc = gp_store_purchase_candidates(store, run->gpus[g]->id, run->req.region,
                                              run->req.jurisdiction, run->req.now, &run->offers,
                                              &run->req.offer_count);
        if (rc)
            return rc;
    }
    return 0;
}

/* --stack names a profile of data/stacks.json that runs on a selected GPU type. */
static int check_stack(struct gp_cli *cli, const struct gp_cli_plan_run *run)
{
    const struct gp_stack *s;
    const char *names[GP_PLAN_MAX_STACKS * 4 + 1] = {NULL};
    size_t n = 0;

    if (!run->args->stack)
        return GP_EXIT_OK;
    s = gp_stack_find(&run->stacks, run->args->stack);
    if (!s) {
        for (size_t i = 0; i < run->stacks.count && n + 1 < sizeof(names) / sizeof(names[0]); i++)
            names[n++] = run->stacks.stacks[i].name;
        const char *hint = gp_text_nearest(run->args->stack, names);
        char list[512];
        gp_text_join(list, sizeof(list), names, ", ", ", ");
        return gp_cli_usage_error(cli, "--stack '%s' is not a profile%s%s%s (known: %s)",
                                  run->args->stack, hint ? " (did you mean '" : "",
                                  hint ? hint : "", hint ? "'?)" : "", list);
    }
    for (size_t g = 0; g < run->req.gpu_count; g++)
        if (s->vendors[run->req.gpus[g]->vendor])
            return GP_EXIT_OK;
    return gp_cli_usage_error(cli, "--stack '%s' runs on %s GPUs; none is selected", s->name,
                              s->vendors[GP_VENDOR_NVIDIA] ? "nvidia" : "amd");
}

/* The zone's stored electricity prices over the year before `now`, summarised; *out NULL when
 * none are stored. */
static int zone_history(struct gp_store *store, const char *zone, int64_t now,
                        struct gp_energy_summary *summary, const struct gp_energy_summary **out)
{
    struct gp_energy_price *prices = NULL;
    struct gp_energy_summary *s = NULL;
    size_t n = 0, zones = 0;
    int rc = gp_store_energy_list(store, zone, now - (int64_t)GP_ENERGY_WINDOW_DAYS * 86400, now,
                                  &prices, &n);

    *out = NULL;
    if (!rc)
        rc = gp_energy_summarize(&s, &zones, prices, n);
    if (!rc && zones == 1) {
        *summary = s[0];
        *out = summary;
    }
    free(prices);
    free(s);
    return rc;
}

/* --site: the site of data/sites.json, its zone's stored prices, its money converted at
 * today's rates. */
static int load_site(struct gp_cli *cli, struct gp_store *store, struct gp_cli_plan_run *run)
{
    const struct gp_site *site;
    const struct gp_energy_summary *history;
    struct gp_energy_summary summary;

    if (!run->args->site)
        return GP_EXIT_OK;
    if (gp_sites_load(&run->sites))
        return gp_cli_fail();
    if (gp_sites_require(&run->sites, run->args->site, &site))
        return gp_cli_usage_error(cli, "--site: %s", gp_error_last());
    if (zone_history(store, site->zone, run->req.now, &summary, &history))
        return gp_cli_fail();
    if (gp_site_terms_init(&run->site_terms, site, history, run->req.fx, run->req.now))
        return gp_cli_input_error(cli, "--site %s: %s", site->id, gp_error_last());
    run->req.base.assumptions.site = &run->site_terms;
    return GP_EXIT_OK;
}

/* The GPU types, and from the store the current offers, the quotes and the calibration fits. */
static int load_data(struct gp_cli *cli, struct gp_cli_plan_run *run)
{
    struct gp_plan_request *req = &run->req;
    struct gp_store *store = NULL;
    int rc;

    run->gpus = calloc(run->catalog->count + 1, sizeof(*run->gpus));
    if (!run->gpus) {
        gp_error_set(GP_ENOMEM, "out of memory");
        return gp_cli_fail();
    }
    if ((rc = select_gpus(cli, run->args, run->catalog, run->gpus, &req->gpu_count)) ||
        (rc = gp_cli_store_read(cli, &store)))
        return rc;
    if (gp_clusters_load(&run->clusters) || load_offers(store, run) ||
        gp_store_quotes_list(store, &run->quotes, &req->quote_count) ||
        gp_store_calibration_fits_for_gpu(store, NULL, &run->fits, &req->fit_count) ||
        gp_store_serving_list(store, &run->serving, &req->serving_count))
        return gp_cli_fail();
    req->serving = run->serving;
    req->gpus = run->gpus;
    req->offers = run->offers;
    req->quotes = run->quotes;
    req->clusters = &run->clusters;
    req->fits = run->fits;
    req->efficiencies = &run->effs;
    req->stacks = &run->stacks;
    req->bands = &run->bands;
    req->stack = run->args->stack;
    req->compare_stacks = run->args->compare_stacks;
    if ((rc = check_stack(cli, run)) || (rc = load_site(cli, store, run)))
        return rc;
    if (req->pricing == GP_PRICING_OWNED) {
        if (gp_capex_load(&run->capex))
            return gp_cli_fail();
        req->capex = &run->capex;
    }
    return GP_EXIT_OK;
}

void gp_cli_plan_run_release(struct gp_cli_plan_run *run)
{
    gp_sweep_release(&run->sweep);
    gp_efficiency_table_release(&run->effs);
    gp_model_table_release(&run->models);
    gp_stack_table_release(&run->stacks);
    gp_plan_result_release(&run->res);
    free(run->offers);
    free(run->quotes);
    free(run->fits);
    free(run->serving);
    free(run->gpus);
    gp_capex_release(&run->capex);
    gp_clusters_release(&run->clusters);
    gp_sites_release(&run->sites);
}

int gp_cli_plan_prepare(struct gp_cli *cli, struct gp_cli_plan_run *run,
                        const struct gp_cli_plan_args *args, const char *workload)
{
    int rc;

    run->args = args;
    rc = gp_cli_catalog(cli, &run->catalog);
    if (!rc)
        rc = parse_request(cli, run);
    if (!rc)
        rc = gp_cli_plan_inputs(cli, &run->effs, &run->models);
    if (!rc)
        rc = gp_cli_plan_stacks(cli, &run->stacks, &run->bands);
    if (!rc)
        rc = gp_cli_workload_load(cli, workload, &run->models, &run->req.base.workload);
    if (!rc)
        rc = build_base(cli, run);
    if (!rc)
        rc = load_data(cli, run);
    return rc;
}

void gp_cli_plan_warn_capex(const struct gp_plan_result *res)
{
    for (size_t g = 0; g < res->per_point; g++)
        if (res->gpus[g].no_capex)
            gp_msg_warn("%s: no purchase price in data/capex.json; give --capex for owned pricing",
                        res->gpus[g].gpu->id);
}

int gp_cli_plan_execute(struct gp_cli *cli, struct gp_cli_plan_run *run,
                        const struct gp_cli_plan_args *args, const char *workload)
{
    int rc = gp_cli_plan_prepare(cli, run, args, workload);

    if (rc)
        return rc;
    if (gp_plan_run(&run->res, &run->req))
        return gp_cli_fail();
    gp_cli_plan_warn_capex(&run->res);
    return GP_EXIT_OK;
}
