/* `gpuplan energy`: the stored day-ahead electricity prices of each bidding zone over a window,
 * as the mean, the 10th and the 90th percentile, in EUR, DKK and USD per MWh; exit 3 when the
 * window holds no prices. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "planner/energy.h"
#include "pricing/feed.h"
#include "pricing/feeds.h"
#include "store/store.h"
#include "util/error.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

static const struct gp_column energy_columns[] = {
    {"zone", GP_CELL_TEXT, 0},
    {"from", GP_CELL_TEXT, 0},
    {"to", GP_CELL_TEXT, 0},
    {"hours", GP_CELL_NUMBER, 0},
    {"mean_eur_mwh", GP_CELL_NUMBER, 2},
    {"p10_eur_mwh", GP_CELL_NUMBER, 2},
    {"p90_eur_mwh", GP_CELL_NUMBER, 2},
    {"mean_dkk_mwh", GP_CELL_NUMBER, 2},
    {"p10_dkk_mwh", GP_CELL_NUMBER, 2},
    {"p90_dkk_mwh", GP_CELL_NUMBER, 2},
    {"mean_usd_mwh", GP_CELL_NUMBER, 2},
    {"p10_usd_mwh", GP_CELL_NUMBER, 2},
    {"p90_usd_mwh", GP_CELL_NUMBER, 2},
};

/* Units of DKK and USD per EUR, at the rates in force now. */
struct per_eur {
    double dkk, usd;
};

/* The three figures of `s` in one currency, `rate` units per EUR, into columns "*_CUR_mwh". */
static int set_prices(struct gp_table *t, const struct gp_energy_summary *s, const char *cur,
                      double rate)
{
    const double values[3] = {s->mean, s->p10, s->p90};
    static const char *const stats[3] = {"mean", "p10", "p90"};
    char column[24];
    int rc = 0;

    for (int i = 0; !rc && i < 3; i++) {
        snprintf(column, sizeof(column), "%s_%s_mwh", stats[i], cur);
        rc = gp_table_set_number(t, column, values[i] * rate);
    }
    return rc;
}

static int add_zone(struct gp_table *t, const struct gp_energy_summary *s, const struct per_eur *fx)
{
    char from[24], to[24];
    int rc = gp_table_add_row(t);

    gp_time_format_stamp(s->from, from, sizeof(from));
    gp_time_format_stamp(s->to, to, sizeof(to));
    if (!rc)
        rc = gp_table_set_text(t, "zone", "%s", s->zone);
    if (!rc)
        rc = gp_table_set_text(t, "from", "%s", from);
    if (!rc)
        rc = gp_table_set_text(t, "to", "%s", to);
    if (!rc)
        rc = gp_table_set_number(t, "hours", s->hours);
    if (!rc)
        rc = set_prices(t, s, "eur", 1.0);
    if (!rc)
        rc = set_prices(t, s, "dkk", fx->dkk);
    if (!rc)
        rc = set_prices(t, s, "usd", fx->usd);
    return rc;
}

static int rates_per_eur(struct gp_cli *cli, struct per_eur *out)
{
    const struct gp_fx_table *fx;
    double eur, dkk;
    int rc = gp_cli_fx(cli, &fx);

    if (rc)
        return rc;
    if (gp_fx_per_usd(fx, "EUR", gp_time_now(), &eur) ||
        gp_fx_per_usd(fx, "DKK", gp_time_now(), &dkk) || !(eur > 0)) {
        gp_msg_error("no EUR or DKK exchange rate stored (fx.json, or the fx feed)");
        return GP_EXIT_ERROR;
    }
    out->usd = 1.0 / eur;
    out->dkk = dkk / eur;
    return GP_EXIT_OK;
}

/* Whether `zone` is one of the comma-separated `list` (NULL: every zone), case-insensitive. */
static bool listed(const char *list, const char *zone)
{
    size_t n = strlen(zone);

    if (!list)
        return true;
    for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        size_t len = strcspn(p, ",");
        if (len == n && strncasecmp(p, zone, n) == 0)
            return true;
    }
    return false;
}

/* Whether electricity adapter `a` fetches one of the zones asked for (`zones` NULL: any). */
static bool fetches_asked(const struct gp_feed_adapter *a, const char *zones)
{
    for (const char *const *z = a->zones; z && *z; z++)
        if (listed(zones, *z))
            return true;
    return false;
}

/* The configured feed that runs adapter `name`, or NULL. */
static const struct gp_feed_config *feed_of(const struct gp_feed_configs *cfg, const char *name)
{
    for (size_t i = 0; i < cfg->count; i++)
        if (strcmp(cfg->feeds[i].source.adapter, name) == 0)
            return &cfg->feeds[i];
    return NULL;
}

/* One feed's part of the hint: how to run it, the variable its key comes from when it needs
 * one, and, when the hint names several feeds, the zones it fetches. */
static void hint_part(struct gp_buf *out, const struct gp_feed_adapter *a,
                      const struct gp_feed_configs *cfg, bool several)
{
    const struct gp_feed_config *f = feed_of(cfg, a->name);
    const char *feed = f ? f->name : a->name;
    const char *key = f && a->key_required && *f->key_env ? f->key_env : NULL;

    if (out->len == 0 && key)
        gp_buf_printf(out, "set %s and run 'gpuplan refresh --feed %s'", key, feed);
    else if (out->len == 0)
        gp_buf_printf(out, "run 'gpuplan refresh --feed %s'", feed);
    else if (key)
        gp_buf_printf(out, " and, with a token in %s, 'gpuplan refresh --feed %s'", key, feed);
    else
        gp_buf_printf(out, " and 'gpuplan refresh --feed %s'", feed);
    for (const char *const *z = a->zones; several && z && *z; z++)
        gp_buf_printf(out, "%s%s%s", z == a->zones ? " (" : ", ", *z, z[1] ? "" : ")");
}

/* What to run for the zones asked for (every zone when NULL), into out[size]: each electricity
 * feed that fetches one of them, by its adapter's own zones and the feed's configured name and
 * key. */
static void how_to_fetch(char *out, size_t size, const char *zones)
{
    const struct gp_feed_adapter *needed[8];
    struct gp_feed_configs cfg = {0};
    struct gp_buf hint = GP_BUF_INIT;
    size_t count = 0;

    for (const char *const *name = gp_feed_adapter_names(); *name && count < 8; name++) {
        const struct gp_feed_adapter *a = gp_feed_adapter_find(*name);
        if (a && a->yields_energy && fetches_asked(a, zones))
            needed[count++] = a;
    }
    if (gp_feed_configs_load(&cfg, NULL) != 0)
        gp_error_clear(); /* a broken user feeds.json: the hint names the adapters instead */
    for (size_t i = 0; i < count; i++)
        hint_part(&hint, needed[i], &cfg, count > 1);
    gp_text_copy(out, size,
                 count ? (hint.data ? hint.data : "")
                       : "no feed of gpuplan fetches that zone (plan --kwh-price prices energy "
                         "without one)");
    gp_buf_release(&hint);
    gp_feed_configs_release(&cfg);
}

/* The summaries of the zones asked for, as a table; GP_EXIT_NO_DATA naming the window when
 * none has prices in it. */
static int show(struct gp_cli *cli, const struct gp_energy_summary *s, size_t n, const char *zones,
                long days)
{
    struct gp_table t;
    struct per_eur fx;
    size_t shown = 0;
    int rc = rates_per_eur(cli, &fx);

    if (rc)
        return rc;
    gp_table_init(&t, energy_columns, sizeof(energy_columns) / sizeof(energy_columns[0]));
    for (size_t i = 0; rc == GP_EXIT_OK && i < n; i++) {
        if (!listed(zones, s[i].zone))
            continue;
        shown++;
        if (add_zone(&t, &s[i], &fx))
            rc = gp_cli_fail();
    }
    if (rc == GP_EXIT_OK && shown == 0) {
        char hint[512];
        how_to_fetch(hint, sizeof(hint), zones);
        gp_msg_error("no electricity prices stored for %s in the last %ld days; %s",
                     zones ? zones : "any zone", days, hint);
        rc = GP_EXIT_NO_DATA;
    }
    if (rc == GP_EXIT_OK)
        rc = gp_cli_output(cli, &t, SIZE_MAX);
    gp_table_release(&t);
    return rc;
}

int gp_cmd_energy(struct gp_cli *cli, int argc, char **argv)
{
    const char *zones = NULL, *days_text = NULL;
    const struct gp_opt opts[] = {
        {"zone", 0, GP_OPT_STRING, &zones, "ZONE,...", "only these bidding zones (DK1,SE3,...)"},
        {"days", 0, GP_OPT_STRING, &days_text, "N", "the window, days back from now (default 365)"},
        GP_OPT_END,
    };
    struct gp_store *store = NULL;
    struct gp_energy_price *prices = NULL;
    struct gp_energy_summary *summaries = NULL;
    size_t n = 0, zones_found = 0;
    long days = GP_ENERGY_WINDOW_DAYS;
    int64_t now = gp_time_now();
    int rc = gp_cli_parse_options(cli, "energy", opts, argc, argv);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    if (days_text && gp_text_to_int(days_text, 1, 36500, &days))
        return gp_cli_usage_error(cli, "--days '%s' is not a number of days (1-36500)", days_text);
    if (zones && (!zones[0] || strstr(zones, ",,") || zones[strlen(zones) - 1] == ','))
        return gp_cli_usage_error(cli, "--zone '%s': expected ZONE,ZONE (DK1,SE3)", zones);
    if ((rc = gp_cli_store_read(cli, &store)))
        return rc;
    if (gp_store_energy_list(store, NULL, now - (int64_t)days * 86400, now, &prices, &n) ||
        gp_energy_summarize(&summaries, &zones_found, prices, n))
        rc = gp_cli_fail();
    else
        rc = show(cli, summaries, zones_found, zones, days);
    free(prices);
    free(summaries);
    return rc;
}
