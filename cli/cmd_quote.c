/* `gpuplan quote add|list|rm`: negotiated prices the user types in. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "cli/cli.h"
#include "cli/prices_rows.h"
#include "pricing/normalize.h"
#include "util/error.h"
#include "util/text.h"
#include "util/timeutil.h"
#include "util/utf8.h"

static const struct gp_column quote_columns[] = {
    {"id", GP_CELL_INT, 0},
    {"provider", GP_CELL_TEXT, 0},
    {"gpu", GP_CELL_TEXT, 0},
    {"price_per_gpu_hour", GP_CELL_NUMBER, 2},
    {"currency", GP_CELL_TEXT, 0},
    {"original_amount", GP_CELL_NUMBER, 4},
    {"original_currency", GP_CELL_TEXT, 0},
    {"original_unit", GP_CELL_TEXT, 0},
    {"gpus_per_instance", GP_CELL_INT, 0},
    {"region", GP_CELL_TEXT, 0},
    {"min_term_hours", GP_CELL_INT, 0},
    {"min_gpus", GP_CELL_INT, 0},
    {"entered", GP_CELL_TEXT, 0},
    {"valid_until", GP_CELL_TEXT, 0},
    {"status", GP_CELL_TEXT, 0},
    {"note", GP_CELL_TEXT, 0},
};

static int add_quote_row(struct gp_table *t, const struct gp_quote *q, double per_usd,
                         const char *currency, int64_t now)
{
    const struct gp_offer *o = &q->offer;
    char entered[32], until[32] = "";
    int rc = gp_table_add_row(t);

    gp_time_format_date(o->observed_at, entered, sizeof(entered));
    if (o->valid_until)
        gp_time_format_date(o->valid_until, until, sizeof(until));
    if (!rc)
        rc = gp_table_set_int(t, "id", q->id);
    if (!rc)
        rc = gp_price_row_set_terms(t, o, per_usd, currency);
    if (!rc)
        rc = gp_table_set_int(t, "min_term_hours", o->min_term_hours);
    if (!rc)
        rc = gp_table_set_int(t, "min_gpus", o->min_gpus);
    if (!rc)
        rc = gp_table_set_text(t, "entered", "%s", entered);
    if (!rc)
        rc = gp_table_set_text(t, "valid_until", "%s", until);
    if (!rc)
        rc = gp_table_set_text(t, "status", "%s",
                               o->valid_until && o->valid_until < now ? "expired" : "valid");
    if (!rc)
        rc = gp_table_set_text(t, "note", "%s", q->note);
    return rc;
}

static int show_quotes(struct gp_cli *cli, const struct gp_quote *quotes, size_t n)
{
    struct gp_table table;
    double per_usd = 1;
    int64_t now = gp_time_now();
    int rc = gp_cli_currency_rate(cli, &per_usd);

    if (rc)
        return rc;
    gp_table_init(&table, quote_columns, sizeof(quote_columns) / sizeof(quote_columns[0]));
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = add_quote_row(&table, &quotes[i], per_usd, cli->currency, now);
    rc = rc ? gp_cli_fail() : gp_cli_output(cli, &table, SIZE_MAX);
    gp_table_release(&table);
    return rc;
}

struct add_args {
    const char *provider, *gpu, *price, *currency, *per, *gpus, *region, *valid_until, *note;
    const char *min_term, *min_gpus;
};

/* --per, --gpus, --min-term and --min-gpus: what the quote rents, in which unit. */
static int quote_unit(struct gp_cli *cli, const struct add_args *a, struct gp_offer *o)
{
    long gpus = 1, min_gpus = 0;
    int unit = GP_UNIT_GPU_HOUR;

    if (a->per && (unit = gp_price_unit_parse(a->per)) < 0)
        return gp_cli_usage_error(cli, "--per '%s' is not gpu-hour or instance-hour", a->per);
    if (a->gpus && gp_text_to_int(a->gpus, 1, 72, &gpus))
        return gp_cli_usage_error(cli, "--gpus '%s' is not a GPU count of 1 to 72", a->gpus);
    if (unit == GP_UNIT_INSTANCE_HOUR && !a->gpus)
        return gp_cli_usage_error(cli, "--per instance-hour needs --gpus N (GPUs per instance)");
    if (a->min_gpus && gp_text_to_int(a->min_gpus, 1, 100000, &min_gpus))
        return gp_cli_usage_error(cli, "--min-gpus '%s' is not a GPU count", a->min_gpus);
    if (a->min_term && gp_duration_parse_hours(a->min_term, &o->min_term_hours))
        return gp_cli_usage_error(
            cli, "--min-term '%s' is not a duration (N hours, or Nh, Nd, Nw, Nmo, Ny)",
            a->min_term);
    o->unit = (enum gp_price_unit)unit;
    o->gpus_per_instance = (int)gpus;
    o->min_gpus = (int)min_gpus;
    return GP_EXIT_OK;
}

/* Copy the text of --FLAG into dst[size]: UTF-8, short enough, and not empty when `required`.
 * GP_EXIT_OK or GP_EXIT_USAGE after saying why. */
static int quote_text(struct gp_cli *cli, const char *flag, char *dst, size_t size,
                      const char *value, bool required)
{
    if (!value)
        value = "";
    if (required && value[strspn(value, " \t")] == '\0')
        return gp_cli_usage_error(cli, "--%s must not be empty", flag);
    if (!gp_utf8_valid(value))
        return gp_cli_usage_error(cli, "--%s is not valid UTF-8", flag);
    if (gp_text_copy(dst, size, value))
        return gp_cli_usage_error(cli, "--%s is longer than %zu characters", flag, size - 1);
    return GP_EXIT_OK;
}

/* Turn the flags of `quote add` into a quote, checking each; returns an exit code. */
static int build_quote(struct gp_cli *cli, const struct add_args *a, struct gp_quote *q)
{
    const struct gp_catalog *catalog = NULL;
    const struct gp_gpu *gpu;
    const struct gp_fx_table *fx = NULL;
    struct gp_offer *o = &q->offer;
    int rc;

    memset(q, 0, sizeof(*q));
    if (!a->provider || !a->gpu || !a->price)
        return gp_cli_usage_error(cli, "add needs --provider, --gpu and --price");
    rc = gp_cli_catalog(cli, &catalog);
    if (!rc)
        rc = gp_cli_fx(cli, &fx);
    if (rc)
        return rc;
    if (gp_catalog_require(catalog, a->gpu, &gpu))
        return gp_cli_input_error(cli, "--gpu: %s", gp_error_last());
    if (gp_text_to_double(a->price, &o->amount))
        return gp_cli_usage_error(cli, "--price '%s' is not a number", a->price);
    if ((rc = quote_unit(cli, a, o)) != GP_EXIT_OK)
        return rc;
    o->valid_until = GP_TIME_UNSET; /* open-ended */
    if (a->valid_until && gp_time_parse_price(a->valid_until, &o->valid_until))
        return gp_cli_usage_error(
            cli, "--valid-until '%s' is not a date from " GP_TIME_EARLIEST_TEXT " on (YYYY-MM-DD)",
            a->valid_until);
    if (o->valid_until != GP_TIME_UNSET && strlen(a->valid_until) == 10)
        o->valid_until += 86399; /* a date means the end of that day */
    if ((rc = quote_text(cli, "provider", o->provider, sizeof(o->provider), a->provider, true)) ||
        (rc = quote_text(cli, "region", o->region, sizeof(o->region), a->region, false)) ||
        (rc = quote_text(cli, "note", q->note, sizeof(q->note), a->note, false)))
        return rc;
    if (gp_text_copy(o->currency, sizeof(o->currency), a->currency ? a->currency : "USD") ||
        gp_fx_per_usd(fx, o->currency, gp_time_now(), &(double){0})) {
        char list[64];
        gp_fx_report_currencies_text(list, sizeof(list), ", ", ", ");
        return gp_cli_usage_error(cli, "--currency '%s' has no exchange rate (%s)", a->currency,
                                  list);
    }
    snprintf(o->feed, sizeof(o->feed), "quote");
    snprintf(o->gpu_id, sizeof(o->gpu_id), "%s", gpu->id);
    o->tier = GP_TIER_QUOTE;
    o->observed_at = gp_time_now();
    if (gp_normalize_price(o, fx))
        return gp_cli_input_error(cli, "--price: %s", gp_error_last());
    return GP_EXIT_OK;
}

static int quote_add(struct gp_cli *cli, int argc, char **argv)
{
    struct add_args a;
    struct gp_quote quote;
    struct gp_store *store;
    memset(&a, 0, sizeof(a));
    const struct gp_opt opts[] = {
        {"provider", 0, GP_OPT_STRING, &a.provider, "P", "who quoted the price (required)"},
        {"gpu", 0, GP_OPT_STRING, &a.gpu, "ID", "GPU id (required)"},
        {"price", 0, GP_OPT_STRING, &a.price, "AMOUNT", "quoted amount (required)"},
        {"currency", 0, GP_OPT_STRING, &a.currency, "CUR", "currency of the amount (default USD)"},
        {"per", 0, GP_OPT_STRING, &a.per, "UNIT", "gpu-hour (default) or instance-hour"},
        {"gpus", 0, GP_OPT_STRING, &a.gpus, "N",
         "GPUs per rented unit (required with --per instance-hour; default 1)"},
        {"min-term", 0, GP_OPT_STRING, &a.min_term, "DURATION",
         "shortest rental the quote allows: hours, or Nh, Nd, Nw, Nmo, Ny"},
        {"min-gpus", 0, GP_OPT_STRING, &a.min_gpus, "N", "fewest GPUs the quote rents"},
        {"region", 0, GP_OPT_STRING, &a.region, "R", "region or site"},
        {"valid-until", 0, GP_OPT_STRING, &a.valid_until, "DATE", "last day the quote holds"},
        {"note", 0, GP_OPT_STRING, &a.note, "TEXT", "free text (contract, contact)"},
        GP_OPT_END,
    };
    int rc = gp_cli_parse_options(cli, "quote", opts, argc, argv);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    rc = gp_cli_store(cli, &store);
    if (!rc)
        rc = build_quote(cli, &a, &quote);
    if (rc)
        return rc;
    if (gp_store_quote_add(store, &quote, &quote.id))
        return gp_cli_fail();
    snprintf(quote.offer.source_url, sizeof(quote.offer.source_url), "quote #%lld",
             (long long)quote.id);
    return show_quotes(cli, &quote, 1);
}

static int quote_list(struct gp_cli *cli, int argc, char **argv)
{
    static const struct gp_opt opts[] = {GP_OPT_END};
    struct gp_store *store;
    struct gp_quote *quotes = NULL;
    size_t n = 0;
    int rc = gp_cli_parse_options(cli, "quote", opts, argc, argv);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    rc = gp_cli_store_read(cli, &store);
    if (rc)
        return rc;
    if (gp_store_quotes_list(store, &quotes, &n))
        return gp_cli_fail();
    rc = show_quotes(cli, quotes, n);
    free(quotes);
    return rc;
}

static int quote_rm(struct gp_cli *cli, int argc, char **argv)
{
    static const struct gp_opt opts[] = {GP_OPT_END};
    struct gp_store *store;
    long id = 0;
    int npos = 0, rc = gp_cli_parse(cli, gp_cli_find_command("quote"), opts, argc, argv, &npos);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    if (npos != 1 || gp_text_to_int(argv[1], 1, 2147483647L, &id))
        return gp_cli_usage_error(cli, "rm needs one quote id, as 'quote list' shows them");
    rc = gp_cli_store(cli, &store);
    if (rc)
        return rc;
    if (gp_store_quote_remove(store, id))
        return gp_cli_fail();
    return GP_EXIT_OK;
}

int gp_cmd_quote(struct gp_cli *cli, int argc, char **argv)
{
    static const struct gp_opt opts[] = {GP_OPT_END};
    int npos = 0, rc;

    if (argc >= 2 && strcmp(argv[1], "add") == 0)
        return quote_add(cli, argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "list") == 0)
        return quote_list(cli, argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "rm") == 0)
        return quote_rm(cli, argc - 1, argv + 1);
    rc = gp_cli_parse(cli, gp_cli_find_command("quote"), opts, argc, argv, &npos);
    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    if (npos == 0)
        return gp_cli_usage_error(cli, "expected add, list or rm");
    return gp_cli_usage_error(cli, "unknown subcommand '%s' (expected add, list or rm)", argv[1]);
}
