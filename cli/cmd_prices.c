/* `gpuplan prices`: current offers per GPU-hour, cheapest first; `prices history`: every
 * observed price. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/regions.h"
#include "cli/cli.h"
#include "cli/prices_rows.h"
#include "store/refresh.h"
#include "util/error.h"
#include "util/text.h"
#include "util/timeutil.h"

enum { DEFAULT_MAX_AGE_DAYS = 7 };

struct price_args {
    const char *gpu, *provider, *tier, *max_age, *since, *changed_since, *region, *jurisdiction;
    int64_t changed_at; /* --changed-since, Unix seconds UTC */
    struct gp_offer_filter filter;
    struct gp_price_row_context rows;
};

/* A changed offer with the price it had before. */
struct listed_offer {
    struct gp_offer offer;
    double previous_usd; /* --changed-since: the price before, USD per GPU-hour; 0 = new */
};

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
    if ((rc = gp_cli_place_filter(cli, a->region, a->jurisdiction)) != GP_EXIT_OK)
        return rc;
    a->filter.region = a->region;
    a->filter.jurisdiction = a->jurisdiction;
    if (a->gpu) {
        rc = gp_cli_catalog(cli, &catalog);
        if (rc)
            return rc;
        if (gp_catalog_require(catalog, a->gpu, &gpu))
            return gp_cli_input_error(cli, "--gpu: %s", gp_error_last());
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
        (*out)[(*n)++] = (struct listed_offer){changes[i].offer, changes[i].previous_usd};
    free(changes);
    return 0;
}

/* The note a row is shown with: "expired" for a price past its valid_until. */
static const char *validity_note(const struct gp_offer *o, int64_t now)
{
    return o->valid_until && o->valid_until < now ? "expired" : NULL;
}

/*
 * The rows of `prices` as a renderer asks for them, one at a time: the store's cursor stepped
 * forward (and rewound when a renderer starts a second pass), one row's cells held, then the
 * GPUs that have no price. Memory does not grow with the number of offers.
 */
struct price_stream {
    struct gp_offer_cursor *cursor;
    const struct price_args *a;
    size_t offers;         /* rows the cursor walks */
    size_t pos;            /* rows stepped since the last rewind */
    size_t cached;         /* the row `row` holds; SIZE_MAX: none */
    struct gp_table row;   /* one row's cells */
    const char **unpriced; /* GPU ids with no price at all, listed after the offers */
    size_t nunpriced;
    int rc; /* the first error met while streaming */
};

static int stream_row(struct price_stream *s, size_t r)
{
    struct gp_offer offer;
    int more = 1;

    gp_table_clear(&s->row);
    if (r >= s->offers)
        return gp_price_row_add_unpriced(&s->row, s->unpriced[r - s->offers]);
    if (r < s->pos) {
        gp_store_offer_cursor_rewind(s->cursor);
        s->pos = 0;
    }
    while (s->pos <= r && (more = gp_store_offer_cursor_next(s->cursor, &offer)) == 1)
        s->pos++;
    if (more != 1)
        return more < 0 ? more : gp_error_set(GP_EDB, "the offers changed while being listed");
    return gp_price_row_add(&s->row, &s->a->rows, &offer, validity_note(&offer, s->a->rows.now));
}

static void read_price(const void *source, size_t r, size_t c, struct gp_value *out, char *scratch,
                       size_t size)
{
    struct price_stream *s = (struct price_stream *)source;

    if (s->cached != r && s->rc == 0) {
        s->rc = stream_row(s, r);
        s->cached = s->rc ? SIZE_MAX : r;
    }
    if (s->rc) {
        out->kind = GP_CELL_EMPTY;
        return;
    }
    gp_table_value(&s->row, 0, c, out, scratch, size);
}

/* Count the rows, open the cursor, and list the GPUs of the catalog with no price when the
 * listing is not narrowed to a provider, a place, or one tier without naming a GPU. */
static int stream_open(struct price_stream *s, struct gp_store *store,
                       const struct gp_catalog *catalog, const struct price_args *a)
{
    bool quotes = a->filter.tier == -1 || a->filter.tier == GP_TIER_QUOTE;
    bool show_unpriced = !a->provider && !a->filter.region && !a->filter.jurisdiction &&
                         (a->gpu || a->filter.tier == -1);
    struct gp_offer_count *counts = NULL;
    size_t n = 0;
    int rc = gp_store_offer_counts(store, &a->filter, quotes, &counts, &n);

    memset(s, 0, sizeof(*s));
    s->a = a;
    s->cached = SIZE_MAX;
    gp_table_init(&s->row, gp_price_columns, gp_price_column_count);
    for (size_t i = 0; i < n; i++)
        s->offers += counts[i].offers;
    if (!rc)
        rc = gp_store_offer_cursor_open(store, &a->filter, quotes, &s->cursor);
    if (!rc && !(s->unpriced = calloc(catalog->count + 1, sizeof(*s->unpriced))))
        rc = gp_error_set(GP_ENOMEM, "out of memory listing offers");
    for (size_t g = 0; rc == 0 && show_unpriced && g < catalog->count; g++) {
        const char *id = catalog->gpus[g].id;
        bool priced = false;
        for (size_t i = 0; i < n && !priced; i++)
            priced = strcmp(counts[i].gpu_id, id) == 0;
        if ((!a->gpu || strcmp(a->gpu, id) == 0) && !priced)
            s->unpriced[s->nunpriced++] = id;
    }
    free(counts);
    return rc;
}

static void stream_close(struct price_stream *s)
{
    gp_store_offer_cursor_close(s->cursor);
    gp_table_release(&s->row);
    free(s->unpriced);
}

/* printf's "%+.1f" of the change from `before` to `now` in percent, with the decimal mark
 * `decimal`, into a 32-byte `buf`; returns buf. */
static const char *signed_change(char buf[32], double now, double before, char decimal)
{
    double pct = (now / before - 1.0) * 100.0;

    buf[0] = signbit(pct) ? '-' : '+';
    gp_number_format(buf + 1, 31, fabs(pct), 1, decimal);
    return buf;
}

/* --changed-since: the changed offers, with what each cost before. */
static int list_changes(struct gp_cli *cli, struct gp_store *store, const struct price_args *a)
{
    struct listed_offer *list = NULL;
    struct gp_table table;
    size_t n = 0;
    int rc = 0;

    if (collect_changes(store, a, &list, &n))
        return gp_cli_fail();
    gp_table_init(&table, gp_price_columns, gp_price_column_count);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        char change[96], was[32], by[32];
        if (list[i].previous_usd > 0) {
            gp_number_format(was, sizeof(was), list[i].previous_usd * a->rows.per_usd, 2,
                             cli->locale->decimal);
            snprintf(change, sizeof(change), "was %s (%s%%)", was,
                     signed_change(by, list[i].offer.usd_per_gpu_hour, list[i].previous_usd,
                                   cli->locale->decimal));
        } else
            snprintf(change, sizeof(change), "new");
        rc = gp_price_row_add(&table, &a->rows, &list[i].offer, change);
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

static int list_prices(struct gp_cli *cli, struct price_args *a)
{
    const struct gp_catalog *catalog = NULL;
    struct gp_store *store;
    struct price_stream s;
    struct gp_table table;
    int rc = gp_cli_store_read(cli, &store);

    if (!rc)
        rc = gp_cli_catalog(cli, &catalog);
    if (!rc)
        rc = check_args(cli, a);
    if (rc)
        return rc;
    if (a->changed_since)
        return list_changes(cli, store, a);
    rc = stream_open(&s, store, catalog, a);
    if (rc) {
        stream_close(&s);
        return gp_cli_fail();
    }
    gp_table_init_source(&table, gp_price_columns, gp_price_column_count, s.offers + s.nunpriced,
                         read_price, &s);
    rc = gp_cli_output(cli, &table, s.offers ? 0 : SIZE_MAX);
    if (rc == 0 && s.rc) {
        gp_error_set(s.rc, "%s", gp_error_last());
        rc = gp_cli_fail();
    }
    if (rc == 0 && s.offers == 0) {
        gp_error_set(GP_ESTALE, "no offers match");
        rc = gp_cli_fail();
    }
    gp_table_release(&table);
    stream_close(&s);
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
        char change[48] = "first-seen", by[32];
        if (same_key)
            snprintf(change, sizeof(change), "changed %s%%",
                     signed_change(by, offers[i].usd_per_gpu_hour, prev->usd_per_gpu_hour,
                                   cli->locale->decimal));
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
        {"region", 0, GP_OPT_STRING, &a.region, "GLOB",
         "only offers in regions matching the shell glob (eu-*, westeurope)"},
        {"jurisdiction", 0, GP_OPT_STRING, &a.jurisdiction, "J",
         "only offers in regions of this jurisdiction (eu, eea, us, ...; eea takes eu)"},
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
