/* `gpuplan prices`: current offers per GPU-hour, cheapest first; `prices history`: every
 * observed price. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "cli/cli.h"
#include "cli/prices_rows.h"
#include "store/refresh.h"
#include "util/error.h"
#include "util/text.h"
#include "util/timeutil.h"

enum { DEFAULT_MAX_AGE_DAYS = 7 };

struct price_args {
    const char *gpu, *provider, *tier, *max_age, *since, *changed_since;
    int64_t changed_at; /* --changed-since, Unix seconds UTC */
    struct gp_offer_filter filter;
    struct gp_price_row_context rows;
};

/* An offer with the note it is shown with (quotes: "expired"). */
struct listed_offer {
    struct gp_offer offer;
    const char *note;
    double previous_usd; /* --changed-since: the price before, USD per GPU-hour; 0 = new */
};

static int compare_listed(const void *a, const void *b)
{
    const struct listed_offer *x = a, *y = b;
    if (x->offer.usd_per_gpu_hour != y->offer.usd_per_gpu_hour)
        return x->offer.usd_per_gpu_hour < y->offer.usd_per_gpu_hour ? -1 : 1;
    return strcmp(x->offer.provider, y->offer.provider);
}

/* Check --gpu, --tier, --max-age and --since and fill the filter and row context. */
static int check_args(struct gp_cli *cli, struct price_args *a)
{
    const struct gp_catalog *catalog = NULL;
    const struct gp_gpu *gpu;
    long max_age = DEFAULT_MAX_AGE_DAYS;
    int rc;

    if (a->provider && !a->provider[0])
        return gp_cli_usage_error(cli, "--provider is empty; give a provider name");
    a->filter.gpu_id = a->gpu;
    a->filter.provider = a->provider;
    a->filter.tier = -1;
    if (a->gpu) {
        rc = gp_cli_catalog(cli, &catalog);
        if (rc)
            return rc;
        if (gp_catalog_require(catalog, a->gpu, &gpu))
            return gp_cli_usage_error(cli, "--gpu: %s", gp_error_last());
    }
    if (a->tier && strcmp(a->tier, "all") != 0) {
        a->filter.tier = gp_tier_parse(a->tier);
        if (a->filter.tier < 0)
            return gp_cli_usage_error(
                cli, "--tier '%s' is not one of on-demand, spot, reserved, quote, all", a->tier);
    }
    if (a->max_age && gp_text_to_int(a->max_age, 0, 36500, &max_age))
        return gp_cli_usage_error(cli, "--max-age '%s' is not a number of days", a->max_age);
    if (a->since && gp_time_parse(a->since, &a->filter.since))
        return gp_cli_usage_error(cli, "--since '%s' is not a date (YYYY-MM-DD)", a->since);
    if (a->changed_since && gp_time_parse(a->changed_since, &a->changed_at))
        return gp_cli_usage_error(cli, "--changed-since '%s' is not a date (YYYY-MM-DD)",
                                  a->changed_since);
    a->rows.max_age_days = max_age;
    a->rows.now = gp_time_now();
    a->rows.currency = cli->currency;
    return gp_cli_currency_rate(cli, &a->rows.per_usd);
}

/* Quotes matching the filter, as offers; expired ones carry the note "expired". */
static int add_quotes(struct gp_store *store, const struct price_args *a,
                      struct listed_offer **list, size_t *n)
{
    struct gp_quote *quotes = NULL;
    size_t count = 0;
    int rc = gp_store_quotes_list(store, &quotes, &count);

    if (rc)
        return rc;
    struct listed_offer *grown = realloc(*list, (*n + count + 1) * sizeof(**list));
    if (!grown) {
        free(quotes);
        return gp_error_set(GP_ENOMEM, "out of memory listing quotes");
    }
    *list = grown;
    for (size_t i = 0; i < count; i++) {
        const struct gp_offer *o = &quotes[i].offer;
        if ((a->gpu && strcmp(o->gpu_id, a->gpu)) ||
            (a->provider && strcmp(o->provider, a->provider)))
            continue;
        bool expired = o->valid_until && o->valid_until < a->rows.now;
        (*list)[(*n)++] = (struct listed_offer){*o, expired ? "expired" : NULL, 0};
    }
    free(quotes);
    return 0;
}

/* Offers whose price is new or changed since --changed-since, with the price before. */
static int collect_changes(struct gp_store *store, const struct price_args *a,
                           struct listed_offer **out, size_t *n)
{
    struct gp_offer_change *changes = NULL;
    size_t count = 0;
    int rc = gp_store_offers_changed_since(store, &a->filter, a->changed_at, &changes, &count);

    *out = NULL;
    *n = 0;
    if (rc)
        return rc;
    *out = calloc(count + 1, sizeof(**out));
    if (!*out) {
        free(changes);
        return gp_error_set(GP_ENOMEM, "out of memory listing offers");
    }
    for (size_t i = 0; i < count; i++)
        (*out)[(*n)++] = (struct listed_offer){changes[i].offer, NULL, changes[i].previous_usd};
    free(changes);
    return 0;
}

static int collect(struct gp_store *store, const struct price_args *a, struct listed_offer **out,
                   size_t *n)
{
    struct gp_offer *offers = NULL;
    size_t count = 0;
    int rc = 0;

    *out = NULL;
    *n = 0;
    if (a->filter.tier != GP_TIER_QUOTE) {
        rc = gp_store_offers_query(store, &a->filter, &offers, &count);
        if (rc)
            return rc;
        *out = calloc(count + 1, sizeof(**out));
        if (!*out) {
            free(offers);
            return gp_error_set(GP_ENOMEM, "out of memory listing offers");
        }
        for (size_t i = 0; i < count; i++)
            (*out)[(*n)++] = (struct listed_offer){offers[i], NULL, 0};
        free(offers);
    }
    if (a->filter.tier == -1 || a->filter.tier == GP_TIER_QUOTE)
        rc = add_quotes(store, a, out, n);
    if (rc == 0 && *n > 1)
        qsort(*out, *n, sizeof(**out), compare_listed);
    return rc;
}

static bool gpu_listed(const struct listed_offer *list, size_t n, const char *gpu_id)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i].offer.gpu_id, gpu_id) == 0)
            return true;
    return false;
}

static int list_prices(struct gp_cli *cli, struct price_args *a)
{
    const struct gp_catalog *catalog = NULL;
    struct gp_store *store;
    struct listed_offer *list = NULL;
    struct gp_table table;
    size_t n = 0;
    int rc = gp_cli_store_read(cli, &store);

    if (!rc)
        rc = gp_cli_catalog(cli, &catalog);
    if (!rc)
        rc = check_args(cli, a);
    if (rc)
        return rc;
    if (a->changed_since ? collect_changes(store, a, &list, &n) : collect(store, a, &list, &n))
        return gp_cli_fail();
    gp_table_init(&table, gp_price_columns, gp_price_column_count);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        char change[64];
        const char *note = list[i].note;
        if (a->changed_since) {
            if (list[i].previous_usd > 0)
                snprintf(change, sizeof(change), "was %.2f (%+.1f%%)",
                         list[i].previous_usd * a->rows.per_usd,
                         (list[i].offer.usd_per_gpu_hour / list[i].previous_usd - 1.0) * 100.0);
            else
                snprintf(change, sizeof(change), "new");
            note = change;
        }
        rc = gp_price_row_add(&table, &a->rows, &list[i].offer, note);
    }
    /* Say which GPUs have no price at all, unless the listing is narrowed to a provider, to
     * one tier without naming a GPU, or to what changed. */
    bool show_unpriced = !a->provider && !a->changed_since && (a->gpu || a->filter.tier == -1);
    for (size_t i = 0; rc == 0 && show_unpriced && i < catalog->count; i++) {
        const char *id = catalog->gpus[i].id;
        if ((!a->gpu || strcmp(a->gpu, id) == 0) && !gpu_listed(list, n, id))
            rc = gp_price_row_add_unpriced(&table, id);
    }
    rc = rc ? gp_cli_fail() : gp_cli_output(cli, &table, n ? 0 : SIZE_MAX);
    if (rc == 0 && n == 0) {
        gp_error_set(GP_ESTALE, "no offers match");
        rc = gp_cli_fail();
    }
    gp_table_release(&table);
    free(list);
    return rc;
}

static int list_history(struct gp_cli *cli, struct price_args *a)
{
    struct gp_store *store;
    struct gp_offer *offers = NULL;
    struct gp_table table;
    size_t n = 0;
    int rc;

    if (!a->gpu)
        return gp_cli_usage_error(cli, "history needs --gpu ID");
    rc = gp_cli_store_read(cli, &store);
    if (!rc)
        rc = check_args(cli, a);
    if (rc)
        return rc;
    a->rows.max_age_days = 36500; /* history rows are old by nature */
    if (gp_store_history_query(store, &a->filter, &offers, &n))
        return gp_cli_fail();
    gp_table_init(&table, gp_price_columns, gp_price_column_count);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const struct gp_offer *prev = i ? &offers[i - 1] : NULL;
        bool same_key = prev && strcmp(prev->feed, offers[i].feed) == 0 &&
                        strcmp(prev->provider, offers[i].provider) == 0 &&
                        strcmp(prev->region, offers[i].region) == 0 &&
                        strcmp(prev->instance_type, offers[i].instance_type) == 0 &&
                        prev->tier == offers[i].tier;
        char change[48] = "first-seen";
        if (same_key)
            snprintf(change, sizeof(change), "changed %+.1f%%",
                     (offers[i].usd_per_gpu_hour / prev->usd_per_gpu_hour - 1.0) * 100.0);
        rc = gp_price_row_add(&table, &a->rows, &offers[i], change);
    }
    rc = rc ? gp_cli_fail() : gp_cli_output(cli, &table, SIZE_MAX);
    if (rc == 0 && n == 0) {
        gp_error_set(GP_ESTALE, "no price history for %s", a->gpu);
        rc = gp_cli_fail();
    }
    gp_table_release(&table);
    free(offers);
    return rc;
}

int gp_cmd_prices(struct gp_cli *cli, int argc, char **argv)
{
    struct price_args a;
    memset(&a, 0, sizeof(a));
    const struct gp_opt opts[] = {
        {"gpu", 0, GP_OPT_STRING, &a.gpu, "ID", "only this GPU"},
        {"provider", 0, GP_OPT_STRING, &a.provider, "P", "only this provider"},
        {"tier", 0, GP_OPT_STRING, &a.tier, "TIER",
         "on-demand, spot, reserved, quote or all (default all)"},
        {"max-age", 0, GP_OPT_STRING, &a.max_age, "DAYS",
         "mark offers older than this stale-price (default 7)"},
        {"since", 0, GP_OPT_STRING, &a.since, "DATE", "only prices observed on or after DATE"},
        {"changed-since", 0, GP_OPT_STRING, &a.changed_since, "DATE",
         "only offers whose price is new or changed since DATE"},
        GP_OPT_END,
    };
    int npos = 0, rc = gp_cli_parse(cli, gp_cli_find_command("prices"), opts, argc, argv, &npos);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    if (npos == 0)
        return list_prices(cli, &a);
    if (npos == 1 && strcmp(argv[1], "history") == 0)
        return list_history(cli, &a);
    return gp_cli_usage_error(cli, "unexpected argument '%s'", argv[npos == 1 ? 1 : 2]);
}
