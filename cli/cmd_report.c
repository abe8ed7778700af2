/* `gpuplan report`: the plans of one or more workloads with their offers, quotes, price history
 * and assumptions, written as a workbook, a page with charts, CSV files or JSON. This file
 * parses, loads and hands the report to report/, which renders it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/plan_frontier.h"
#include "cli/plan_input.h"
#include "cli/plan_meta.h"
#include "cli/plan_run.h"
#include "report/report.h"
#include "report/sections.h"
#include "store/store.h"
#include "util/error.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

enum { DEFAULT_HORIZON_DAYS = 90 };

struct report_args {
    struct gp_cli_plan_args plan;
    struct gp_strlist workloads;
    const char *out, *title, *author, *horizon;
};

/* Everything one report holds; report_run_release frees it. */
struct report_run {
    struct report_args args;
    enum gp_report_format format;
    long horizon_days;
    struct gp_cli_plan_run runs[GP_STRLIST_MAX];
    struct gp_frontier frontiers[GP_STRLIST_MAX]; /* inference runs' frontiers, else empty */
    size_t nruns;
    struct gp_report report;
    char database[4096];
};

static void report_run_release(struct report_run *run)
{
    gp_report_release(&run->report);
    for (size_t i = 0; i < run->nruns; i++) {
        gp_cli_plan_run_release(&run->runs[i]);
        gp_frontier_release(&run->frontiers[i]);
    }
}

/* --out, --format (or the extension), --horizon. */
static int check_args(struct gp_cli *cli, struct report_run *run)
{
    const struct report_args *a = &run->args;
    int format;

    if (a->workloads.count == 0)
        return gp_cli_usage_error(cli, "--workload is required (a file or a preset; see "
                                       "'gpuplan workloads'), once per workload");
    if (a->workloads.count > GP_REPORT_PLANS_MAX)
        return gp_cli_usage_error(cli, "at most %d workloads make one report", GP_REPORT_PLANS_MAX);
    if (!a->out || !a->out[0])
        return gp_cli_usage_error(cli, "--out PATH is required");
    format = cli->format_name ? gp_report_format_parse(cli->format_name)
                              : gp_report_format_from_path(a->out);
    if (format < 0 && cli->format_name)
        return gp_cli_usage_error(cli, "--format '%s' is not one of xlsx, html, csv, json, focus",
                                  cli->format_name);
    if (format < 0)
        return gp_cli_usage_error(cli,
                                  "--out '%s': give --format, or end the name in .xlsx, "
                                  ".html, .json or / (a CSV folder)",
                                  a->out);
    run->format = (enum gp_report_format)format;
    run->horizon_days = DEFAULT_HORIZON_DAYS;
    if (a->horizon && gp_text_to_int(a->horizon, 0, 36500, &run->horizon_days))
        return gp_cli_usage_error(cli, "--horizon '%s' is not a number of days", a->horizon);
    return GP_EXIT_OK;
}

/* Plan's JSON document for one run: workload, assumptions and every row. */
static cJSON *plan_document(const struct gp_cli_plan_run *run, const struct gp_report_plan *p)
{
    cJSON *doc = cJSON_CreateObject();
    struct gp_table table;
    struct gp_plan_view *view = malloc(sizeof(*view));
    cJSON *rows = NULL;

    if (view) {
        gp_plan_view_init(view, p->rows, p->nrows, p->kind, run->res.currency, 1.0);
        gp_plan_view_table(view, &table);
        rows = gp_table_json_rows(&table);
    }
    free(view);
    bool ok =
        gp_json_add_owned(doc, "workload", gp_cli_plan_workload_json(&run->res.used.workload)) &&
        gp_json_add_owned(doc, "assumptions", gp_cli_plan_assumptions_json(&run->res, &run->sweep));
    if (!ok)
        cJSON_Delete(rows); /* not handed over */
    if (!ok || !gp_json_add_owned(doc, "rows", rows)) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

/* An inference workload's frontier, drawn beside its plan and listed as section
 * "frontier-<n>" after "plan-<n>". */
static int add_frontier(struct report_run *run, size_t i)
{
    struct gp_report *r = &run->report;
    struct gp_frontier *f = &run->frontiers[i];
    struct gp_report_section *s;
    char key[32], title[96];

    if (run->runs[i].req.base.workload.kind != GP_WORKLOAD_INFERENCE)
        return 0;
    if (gp_plan_frontier(f, &run->runs[i].req))
        return GP_ENOMEM;
    r->plans[r->nplans - 1].frontier = f;
    snprintf(key, sizeof(key), "frontier-%zu", r->nplans);
    snprintf(title, sizeof(title), "Frontier: %.64s", r->plans[r->nplans - 1].workload);
    if (!(s = gp_report_add_section(r, key, title)))
        return GP_EINVALID;
    s->note = "Throughput per GPU against the tokens per second each user sees, over every "
              "layout and batch: the points no other beats on both.";
    return gp_report_frontier_table(&s->table, f);
}

/* Plan every workload and add its section. */
static int plan_all(struct gp_cli *cli, struct report_run *run)
{
    struct gp_report *r = &run->report;
    int rc;

    for (size_t i = 0; i < run->args.workloads.count; i++) {
        struct gp_cli_plan_run *p = &run->runs[run->nruns++];
        const char *name = run->args.workloads.items[i];
        if ((rc = gp_cli_plan_execute(cli, p, &run->args.plan, name)))
            return rc;
        struct gp_report_inputs inputs = {p->offers, p->req.offer_count, p->quotes,
                                          p->req.quote_count};
        r->currency = p->res.currency;
        if (gp_report_add_plan(r, &p->res, &inputs, NULL))
            return gp_cli_fail();
        r->plans[r->nplans - 1].document = plan_document(p, &r->plans[r->nplans - 1]);
        if (!r->plans[r->nplans - 1].document) {
            gp_error_set(GP_ENOMEM, "out of memory describing the plan");
            return gp_cli_fail();
        }
        if (add_frontier(run, i))
            return gp_cli_fail();
    }
    return GP_EXIT_OK;
}

/* Whether GPU `id` comes before run i, GPU g among the runs (each GPU's history once). */
static bool seen_before(const struct report_run *run, size_t i, size_t g, const char *id)
{
    for (size_t a = 0; a <= i; a++)
        for (size_t b = 0; b < run->runs[a].res.per_point && (a < i || b < g); b++)
            if (strcmp(run->runs[a].res.gpus[b].gpu->id, id) == 0)
                return true;
    return false;
}

/* Per GPU type of the plans, its on-demand and spot price observations from the store, for the
 * report's price history. */
static int load_history(struct gp_store *store, struct report_run *run)
{
    static const enum gp_tier tiers[] = {GP_TIER_ON_DEMAND, GP_TIER_SPOT};
    int rc = gp_report_begin_history(&run->report);

    for (size_t i = 0; rc == 0 && i < run->nruns; i++)
        for (size_t g = 0; rc == 0 && g < run->runs[i].res.per_point; g++) {
            const char *id = run->runs[i].res.gpus[g].gpu->id;
            for (size_t t = 0; rc == 0 && t < 2 && !seen_before(run, i, g, id); t++) {
                struct gp_offer_filter filter = {.gpu_id = id, .tier = (int)tiers[t]};
                struct gp_offer *obs = NULL;
                size_t n = 0;
                rc = gp_store_history_query(store, &filter, &obs, &n);
                if (rc == 0 && n > 0)
                    rc = gp_report_add_history(&run->report, id, tiers[t], obs, n,
                                               run->runs[i].res.fx_per_usd);
                free(obs);
            }
        }
    return rc;
}

/* The sections from the store and the run: summary, offers, quotes, history, assumptions. */
static int add_sections(struct gp_cli *cli, struct report_run *run)
{
    struct gp_report *r = &run->report;
    const struct gp_cli_plan_run *first = &run->runs[0];
    const struct gp_fx_table *fx = NULL;
    struct gp_store *store = NULL;
    int64_t expiry[GP_STRLIST_MAX * 8];
    size_t nexpiry = 0;
    int rc;

    for (size_t i = 0; i < first->req.quote_count && nexpiry < sizeof(expiry) / sizeof(*expiry);
         i++)
        expiry[nexpiry++] = first->quotes[i].offer.valid_until;
    if ((rc = gp_cli_store_read(cli, &store)) || (rc = gp_cli_fx(cli, &fx)))
        return rc;
    if (gp_report_add_summary(r, expiry, nexpiry, run->horizon_days) || gp_report_add_offers(r) ||
        gp_report_add_quotes(r, first->quotes, first->req.quote_count, first->res.fx_per_usd,
                             run->horizon_days) ||
        load_history(store, run) ||
        gp_report_add_announced(r, first->req.gpus, first->req.gpu_count) ||
        gp_report_add_assumptions(r, fx))
        return gp_cli_fail();
    return GP_EXIT_OK;
}

static int build_and_write(struct gp_cli *cli, struct report_run *run)
{
    struct gp_report *r = &run->report;
    int rc;

    gp_report_init(r);
    r->title = run->args.title ? run->args.title : "GPU fleet plan";
    r->author = run->args.author ? run->args.author : "";
    r->generated_at = gp_time_now();
    r->version = GPUPLAN_VERSION;
    r->locale = cli->locale;
    if (gp_store_resolve_path(run->database, sizeof(run->database), cli->db_flag) == 0)
        r->database = run->database;
    if ((rc = plan_all(cli, run)) || (rc = add_sections(cli, run)))
        return rc;
    if (gp_report_write(r, run->format, run->args.out))
        return gp_cli_fail();
    gp_msg_info("wrote %s", run->args.out);
    return GP_EXIT_OK;
}

int gp_cmd_report(struct gp_cli *cli, int argc, char **argv)
{
    struct report_run *run = calloc(1, sizeof(*run));
    struct gp_opt opts[GP_CLI_PLAN_OPTION_COUNT + 6];
    int rc;

    if (!run) {
        gp_error_set(GP_ENOMEM, "out of memory");
        return gp_cli_fail();
    }
    struct report_args *a = &run->args;
    const struct gp_opt own[] = {
        {"workload", 'w', GP_OPT_LIST, &a->workloads, "FILE|PRESET",
         "a workload file or preset; one section each"},
        {"out", 'o', GP_OPT_STRING, &a->out, "PATH",
         "where to write (.xlsx, .html, .json, .focus.csv, or a folder for CSV)"},
        {"title", 0, GP_OPT_STRING, &a->title, "TEXT", "the cover's title"},
        {"author", 0, GP_OPT_STRING, &a->author, "TEXT", "the cover's author"},
        {"horizon", 0, GP_OPT_STRING, &a->horizon, "DAYS",
         "quotes expiring within this many days are a risk (default 90)"},
    };
    memcpy(opts, own, sizeof(own));
    gp_cli_plan_options(&a->plan, &opts[5]);
    opts[5 + GP_CLI_PLAN_OPTION_COUNT] = (struct gp_opt)GP_OPT_END;
    cli->own_format = true;
    rc = gp_cli_parse_options(cli, "report", opts, argc, argv);
    if (rc) {
        free(run);
        return rc < 0 ? GP_EXIT_OK : rc;
    }
    rc = check_args(cli, run);
    if (!rc)
        rc = build_and_write(cli, run);
    report_run_release(run);
    free(run);
    return rc;
}
