/* `gpuplan refresh`: fetch the price feeds into the store and say, per feed, what happened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "pricing/feed.h"
#include "pricing/feeds.h"
#include "pricing/http.h"
#include "pricing/refresh.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/msg.h"
#include "util/sanitize.h"
#include "util/text.h"
#include "util/timeutil.h"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

struct refresh_args {
    struct gp_strlist feeds;
    struct gp_strlist urls;
    bool dry_run;
    bool insecure;
    bool list;
    bool status;
    const char *timeout;
    const char *deadline;
    const char *lock_wait;
};

static int parse_seconds(struct gp_cli *cli, const char *flag, const char *text, long max,
                         long *out)
{
    if (gp_text_to_int(text, 1, max, out) != 0)
        return gp_cli_usage_error(cli, "--%s '%s': expected whole seconds from 1 to %ld", flag,
                                  text, max);
    return 0;
}

/* One summary line per feed, then detail lines under -v. */
static void print_summary(const struct gp_refresh_report *report, bool dry_run)
{
    gp_msg_info("%-14s %-9s %7s %8s %9s %9s %8s", "feed", "status", "offers", "changed", "unmapped",
                "rejected", "time");
    for (size_t i = 0; i < report->count; i++) {
        const struct gp_refresh_result *f = &report->feeds[i];
        char changed[24];

        if (f->status == GP_REFRESH_SKIPPED) {
            gp_msg_info("%-14s %-9s %s", f->feed, "skipped", f->reason);
            continue;
        }
        if (dry_run)
            gp_text_copy(changed, sizeof(changed), "-");
        else
            snprintf(changed, sizeof(changed), "%zu", f->counts.changed);
        gp_msg_info("%-14s %-9s %7zu %8s %9zu %9zu %7.1fs", f->feed,
                    gp_refresh_status_name(f->status), f->counts.offers, changed,
                    f->counts.unmapped, f->counts.rejected, f->seconds);
    }
    for (size_t i = 0; i < report->count; i++) {
        const struct gp_refresh_result *f = &report->feeds[i];
        char tiers[64];

        if (f->status == GP_REFRESH_FAILED)
            gp_msg_error("feed %s failed, its last good offers are kept: %s", f->feed, f->reason);
        if (f->status == GP_REFRESH_SKIPPED)
            continue;
        gp_feed_yield_describe(tiers, sizeof(tiers), gp_feed_adapter_find(f->adapter));
        gp_msg_note("%s: adapter %s (%s), %zu responses, %llu bytes, %zu rows out of "
                    "scope",
                    f->feed, f->adapter, tiers, f->pages, (unsigned long long)f->bytes,
                    f->out_of_scope);
        if (f->unmapped_name_count) {
            char names[GP_FEED_MAX_NAMES * 66] = "";
            size_t used = 0;
            for (size_t k = 0; k < f->unmapped_name_count; k++) {
                int n = snprintf(names + used, sizeof(names) - used, "%s'%s'", k ? ", " : "",
                                 f->unmapped_names[k]);
                if (n < 0 || (size_t)n >= sizeof(names) - used)
                    break;
                used += (size_t)n;
            }
            gp_msg_note("%s: unmapped GPU names (%zu rows)%s: %s", f->feed, f->counts.unmapped,
                        f->unmapped_name_count == GP_FEED_MAX_NAMES ? ", the first ones" : "",
                        names);
        }
        if (f->counts.rejected)
            gp_msg_note("%s: first rejected row: %s", f->feed, f->first_rejection);
    }
    if (dry_run)
        gp_msg_info("dry run: nothing was written to the database");
}

/* `refresh --list`: the configured feeds, to stdout. */
static int list_feeds(struct gp_cli *cli, const struct gp_feed_configs *cfg)
{
    static const struct gp_column columns[] = {
        {"feed", GP_CELL_TEXT, 0},  {"enabled", GP_CELL_TEXT, 0}, {"adapter", GP_CELL_TEXT, 0},
        {"tiers", GP_CELL_TEXT, 0}, {"key", GP_CELL_TEXT, 0},     {"base_url", GP_CELL_TEXT, 0},
    };
    struct gp_table t;
    int rc = 0;

    gp_table_init(&t, columns, sizeof(columns) / sizeof(columns[0]));

    for (size_t i = 0; i < cfg->count && !rc; i++) {
        const struct gp_feed_config *f = &cfg->feeds[i];
        const struct gp_feed_adapter *a = gp_feed_adapter_find(f->source.adapter);
        char tiers[64], key[1200], url[sizeof(f->source.base_url) + 8];
        gp_feed_yield_describe(tiers, sizeof(tiers), a);
        if (!*f->key_env && !*f->key_file)
            gp_text_copy(key, sizeof(key), "none");
        else
            snprintf(key, sizeof(key), "%s%s%s%s%s%s", f->key_env, *f->secret_env ? " + " : "",
                     f->secret_env, *f->key_env && *f->key_file ? " or " : "", f->key_file,
                     a && a->key_required ? " (required)" : " (optional)");
        rc = gp_table_add_row(&t);
        if (!rc)
            rc = gp_table_set_text(&t, "feed", "%s", f->name);
        if (!rc)
            rc = gp_table_set_text(&t, "enabled", "%s", f->enabled ? "yes" : "no");
        if (!rc)
            rc = gp_table_set_text(&t, "adapter", "%s", f->source.adapter);
        if (!rc)
            rc = gp_table_set_text(&t, "tiers", "%s", tiers);
        if (!rc)
            rc = gp_table_set_text(&t, "key", "%s", key);
        if (!rc)
            rc = gp_table_set_text(&t, "base_url", "%s",
                                   gp_sanitize_urls(url, sizeof(url), f->source.base_url));
    }
    rc = rc ? gp_cli_fail() : gp_cli_output(cli, &t, SIZE_MAX);
    gp_table_release(&t);
    return rc;
}

/* `refresh --status`: the latest run of each feed, from the database, to stdout. */
static int show_status(struct gp_cli *cli)
{
    static const struct gp_column columns[] = {
        {"feed", GP_CELL_TEXT, 0},    {"status", GP_CELL_TEXT, 0},  {"started", GP_CELL_TEXT, 0},
        {"seconds", GP_CELL_INT, 0},  {"offers", GP_CELL_INT, 0},   {"changed", GP_CELL_INT, 0},
        {"unmapped", GP_CELL_INT, 0}, {"rejected", GP_CELL_INT, 0}, {"error", GP_CELL_TEXT, 0},
    };
    struct gp_refresh_run *runs = NULL;
    struct gp_store *store = NULL;
    struct gp_table t;
    size_t n = 0;
    int rc = gp_cli_store(cli, &store);

    if (rc)
        return rc;
    if (gp_store_refresh_latest(store, &runs, &n) != 0)
        return gp_cli_fail();
    gp_table_init(&t, columns, sizeof(columns) / sizeof(columns[0]));
    for (size_t i = 0; i < n && !rc; i++) {
        const struct gp_refresh_run *r = &runs[i];
        char started[32];
        gp_time_format_stamp(r->started_at, started, sizeof(started));
        rc = gp_table_add_row(&t);
        if (!rc)
            rc = gp_table_set_text(&t, "feed", "%s", r->feed);
        if (!rc)
            rc = gp_table_set_text(&t, "status", "%s", r->status);
        if (!rc)
            rc = gp_table_set_text(&t, "started", "%s", started);
        if (!rc && r->finished_at)
            rc = gp_table_set_int(&t, "seconds", r->finished_at - r->started_at);
        if (!rc)
            rc = gp_table_set_int(&t, "offers", (long long)r->counts.offers);
        if (!rc)
            rc = gp_table_set_int(&t, "changed", (long long)r->counts.changed);
        if (!rc)
            rc = gp_table_set_int(&t, "unmapped", (long long)r->counts.unmapped);
        if (!rc)
            rc = gp_table_set_int(&t, "rejected", (long long)r->counts.rejected);
        if (!rc)
            rc = gp_table_set_text(&t, "error", "%s", r->error);
    }
    rc = rc ? gp_cli_fail() : gp_cli_output(cli, &t, SIZE_MAX);
    if (rc == 0 && n == 0) {
        gp_error_set(GP_ESTALE, "no refresh has run on this database yet");
        rc = gp_cli_fail();
    }
    gp_table_release(&t);
    free(runs);
    return rc;
}

/* The refresh's options from the flags; timeouts and waits in seconds. */
static void refresh_options(struct gp_refresh_options *o, const struct refresh_args *a,
                            long timeout, long lock_wait, long deadline)
{
    memset(o, 0, sizeof(*o));
    o->only = a->feeds.items;
    o->only_count = a->feeds.count;
    o->dry_run = a->dry_run;
    o->lock_wait_s = (double)lock_wait;
    o->feed_deadline_s = (double)deadline;
    gp_http_options_init(&o->http, "gpuplan/" GPUPLAN_VERSION);
    o->http.timeout_s = timeout;
    /* the AWS offer file is gigabytes: unless told otherwise, give it time; the low-speed
     * limit still ends a stalled transfer within 30 s */
    o->stream_timeout_s = a->timeout ? timeout : 1800;
    o->http.connect_timeout_s = timeout < 10 ? timeout : 10;
    o->http.allow_insecure_http = a->insecure;
}

/* Fetch the chosen feeds with the shared resources and print the summary. Returns an exit
 * code. */
static int run_refresh(struct gp_cli *cli, const struct refresh_args *a,
                       struct gp_feed_configs *cfg, long timeout, long lock_wait, long deadline)
{
    struct gp_refresh_report report = {0};
    struct gp_refresh_options ropts;
    const struct gp_region_table *regions = NULL;
    const struct gp_catalog *catalog = NULL;
    const struct gp_fx_table *fx = NULL;
    struct gp_store *store = NULL;
    int rc = gp_cli_catalog(cli, &catalog);

    if (!rc && !a->dry_run)
        rc = gp_cli_store(cli, &store);
    if (!rc)
        rc = gp_cli_fx(cli, &fx);
    if (!rc)
        rc = gp_cli_regions(cli, &regions);
    if (rc)
        return rc;
    if (gp_http_global_init() != 0 || gp_interrupt_install() != 0)
        return gp_cli_fail();
    refresh_options(&ropts, a, timeout, lock_wait, deadline);
    ropts.regions = regions;
    if (gp_refresh_run(&report, store, cfg, catalog, fx, &ropts) != 0) {
        rc = gp_error_code() == GP_EINVALID ? gp_cli_usage_error(cli, "%s", gp_error_last())
                                            : gp_cli_fail();
    } else {
        print_summary(&report, a->dry_run);
        rc = report.failed ? GP_EXIT_NETWORK : GP_EXIT_OK;
    }
    gp_http_global_cleanup();
    gp_refresh_report_release(&report);
    return rc;
}

int gp_cmd_refresh(struct gp_cli *cli, int argc, char **argv)
{
    struct refresh_args a;
    struct gp_feed_configs cfg = {0};
    long timeout = 120, lock_wait = 300, deadline = 600;
    int rc;

    memset(&a, 0, sizeof(a));
    const struct gp_opt opts[] = {
        {"feed", 0, GP_OPT_LIST, &a.feeds, "NAME", "fetch only this feed (even if disabled)"},
        {"dry-run", 0, GP_OPT_FLAG, &a.dry_run, NULL, "fetch and parse, write nothing"},
        {"timeout", 0, GP_OPT_STRING, &a.timeout, "S",
         "give up on a transfer after S seconds (default 120, 1800 for streamed files)"},
        {"deadline", 0, GP_OPT_STRING, &a.deadline, "S",
         "give up on a feed, all its pages and retries, after S seconds (default 600; a "
         "streamed file gets at least its --timeout)"},
        {"url", 0, GP_OPT_LIST, &a.urls, "NAME=URL", "use another base URL for feed NAME"},
        {"allow-insecure-http", 0, GP_OPT_FLAG, &a.insecure, NULL,
         "allow plain http to hosts other than loopback"},
        {"lock-wait", 0, GP_OPT_STRING, &a.lock_wait, "S",
         "wait up to S seconds for another refresh to finish (default 300)"},
        {"list", 0, GP_OPT_FLAG, &a.list, NULL, "list the configured feeds and exit"},
        {"status", 0, GP_OPT_FLAG, &a.status, NULL,
         "show the latest run of each feed recorded in the database and exit"},
        GP_OPT_END,
    };

    rc = gp_cli_parse_options(cli, "refresh", opts, argc, argv);
    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    if (a.timeout && (rc = parse_seconds(cli, "timeout", a.timeout, 86400, &timeout)))
        return rc;
    if (a.lock_wait && (rc = parse_seconds(cli, "lock-wait", a.lock_wait, 86400, &lock_wait)))
        return rc;
    if (a.deadline && (rc = parse_seconds(cli, "deadline", a.deadline, 86400, &deadline)))
        return rc;
    if (a.status)
        return show_status(cli);

    if (gp_feed_configs_load(&cfg, NULL) != 0)
        return gp_cli_fail();
    for (size_t i = 0; i < a.urls.count; i++) {
        if (gp_feed_configs_override(&cfg, a.urls.items[i]) != 0) {
            rc = gp_cli_input_error(cli, "%s", gp_error_last());
            goto done;
        }
    }
    rc = a.list ? list_feeds(cli, &cfg) : run_refresh(cli, &a, &cfg, timeout, lock_wait, deadline);

done:
    gp_feed_configs_release(&cfg);
    return rc;
}
