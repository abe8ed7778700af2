/* The resources commands share: catalog, FX rates, the database; error reporting and output. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "catalog/citations.h"
#include "cli/cli.h"
#include "cli/seed.h"
#include "util/error.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

int gp_cli_exit_code(int error_code)
{
    switch (error_code) {
    case GP_OK:
        return GP_EXIT_OK;
    case GP_EINVALID:
    case GP_ENOTFOUND:
        return GP_EXIT_USAGE;
    case GP_ESTALE:
    case GP_ENOBACKEND:
        return GP_EXIT_NO_DATA;
    case GP_ENET:
        return GP_EXIT_NETWORK;
    case GP_EDB:
        return GP_EXIT_DB;
    case GP_EINTERRUPTED:
        return GP_EXIT_INTERRUPTED;
    default:
        return GP_EXIT_ERROR;
    }
}

int gp_cli_fail(void)
{
    gp_msg_error("%s", gp_error_last()[0] ? gp_error_last() : "unknown error");
    return gp_cli_exit_code(gp_error_code());
}

static int usage_errorv(struct gp_cli *cli, const char *fmt, va_list ap)
{
    char message[1024];

    vsnprintf(message, sizeof(message), fmt, ap);
    if (cli->command)
        gp_msg_error("%s: %s (see 'gpuplan %s --help')", cli->command, message, cli->command);
    else
        gp_msg_error("%s (see 'gpuplan --help')", message);
    return GP_EXIT_USAGE;
}

int gp_cli_usage_error(struct gp_cli *cli, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = usage_errorv(cli, fmt, ap);
    va_end(ap);
    return rc;
}

int gp_cli_input_error(struct gp_cli *cli, const char *fmt, ...)
{
    va_list ap;
    int rc;

    if (gp_error_code() == GP_ENOMEM)
        return gp_cli_fail();
    va_start(ap, fmt);
    rc = usage_errorv(cli, fmt, ap);
    va_end(ap);
    return rc;
}

int gp_cli_catalog(struct gp_cli *cli, const struct gp_catalog **out)
{
    if (!cli->catalog_loaded) {
        if (gp_catalog_load(&cli->catalog))
            return gp_cli_fail();
        cli->catalog_loaded = true;
    }
    *out = &cli->catalog;
    return GP_EXIT_OK;
}

int gp_cli_catalog_cited(struct gp_cli *cli, const struct gp_catalog **out)
{
    int rc = gp_cli_catalog(cli, out);

    if (rc == GP_EXIT_OK && !cli->catalog.citations && gp_catalog_load_citations(&cli->catalog))
        return gp_cli_fail();
    return rc;
}

/* Open the writer's connection: create, migrate and seed. Prints errors; returns an exit code. */
static int open_writer(struct gp_cli *cli, const char *path, const struct gp_catalog *catalog)
{
    int rc;

    if (gp_store_open(&cli->store, path, 0))
        return gp_cli_fail();
    if (gp_cli_seed(cli->store, catalog)) {
        rc = gp_cli_fail();
        gp_store_close(cli->store);
        cli->store = NULL;
        return rc;
    }
    return GP_EXIT_OK;
}

/* Whether this user could write the database file and create files beside it. */
static bool can_write(const char *path)
{
    char dir[4096];
    char *slash;

    snprintf(dir, sizeof(dir), "%s", path);
    slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof(dir), ".");
    return access(path, W_OK) == 0 && access(dir, W_OK | X_OK) == 0;
}

/* A reader's connection: read-only when the database exists, is current and holds the data in
 * use; otherwise the writer's connection when this user may write, else read-only as it is. */
static int open_reader(struct gp_cli *cli, const char *path, const struct gp_catalog *catalog)
{
    bool current = false, writable = can_write(path);
    struct stat link, st;

    /* A reader makes a database only where there is nothing: not through a link to nothing (to
     * wherever it points) and not out of an empty file someone else may mean for other data. */
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode) && stat(path, &st) != 0) {
        gp_error_set(GP_EDB,
                     "database %s is a symbolic link to nothing; a command that only reads does "
                     "not create a database through it (run `gpuplan refresh` to make one)",
                     path);
        return gp_cli_fail();
    }
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
        gp_error_set(GP_EDB,
                     "database %s is an empty file, not a gpuplan database; a command that only "
                     "reads does not make it one (remove it, or run `gpuplan refresh`)",
                     path);
        return gp_cli_fail();
    }
    if (access(path, F_OK) != 0)
        return open_writer(cli, path, catalog);
    if (gp_store_open(&cli->store, path, GP_STORE_READ_ONLY) != 0)
        return writable && gp_error_code() != GP_ENOMEM ? open_writer(cli, path, catalog)
                                                        : gp_cli_fail();
    /* A writer may remake a store it cannot read the mark of (an older schema), never one
     * it ran out of memory reading. */
    if (gp_cli_seed_current(cli->store, &current) != 0 &&
        (!writable || gp_error_code() == GP_ENOMEM))
        return gp_cli_fail();
    if (current)
        return GP_EXIT_OK;
    if (writable) {
        gp_store_close(cli->store);
        cli->store = NULL;
        return open_writer(cli, path, catalog);
    }
    gp_msg_warn("database %s was seeded from other data than this gpuplan's; reading it as it "
                "is (its writer updates it)",
                path);
    return GP_EXIT_OK;
}

/* Open the store for writing, or for reading when `read_only`. */
static int open_store(struct gp_cli *cli, struct gp_store **out, bool read_only)
{
    char path[4096];
    const struct gp_catalog *catalog = NULL;
    int rc;

    if (cli->store) {
        *out = cli->store;
        return GP_EXIT_OK;
    }
    rc = gp_cli_catalog(cli, &catalog);
    if (rc)
        return rc;
    if (gp_store_resolve_path(path, sizeof(path), cli->db_flag))
        return gp_cli_fail();
    rc = read_only ? open_reader(cli, path, catalog) : open_writer(cli, path, catalog);
    if (rc) {
        gp_store_close(cli->store);
        cli->store = NULL;
        return rc;
    }
    *out = cli->store;
    return GP_EXIT_OK;
}

int gp_cli_store(struct gp_cli *cli, struct gp_store **out)
{
    return open_store(cli, out, false);
}

int gp_cli_store_read(struct gp_cli *cli, struct gp_store **out)
{
    return open_store(cli, out, true);
}

int gp_cli_regions(struct gp_cli *cli, const struct gp_region_table **out)
{
    if (!cli->regions_loaded) {
        if (gp_regions_load(&cli->regions))
            return gp_cli_fail();
        cli->regions_loaded = true;
    }
    *out = &cli->regions;
    return GP_EXIT_OK;
}

int gp_cli_place_filter(struct gp_cli *cli, const char *region, const char *jurisdiction)
{
    const struct gp_region_table *regions = NULL;
    int rc;

    if (region && !region[0])
        return gp_cli_usage_error(cli, "--region is empty; give a region code or a glob (eu-*)");
    if (!jurisdiction)
        return GP_EXIT_OK;
    if ((rc = gp_cli_regions(cli, &regions)) != GP_EXIT_OK)
        return rc;
    if (!gp_regions_knows_jurisdiction(regions, jurisdiction)) {
        char list[512], hint[64] = "", country[3] = {0};
        const char *area = NULL;
        if (strlen(jurisdiction) == 2) { /* "dk" names a country, which has an area */
            country[0] = (char)toupper((unsigned char)jurisdiction[0]);
            country[1] = (char)toupper((unsigned char)jurisdiction[1]);
            area = gp_regions_jurisdiction(regions, country);
        }
        if (area)
            snprintf(hint, sizeof(hint), " (%s is a country, in '%s')", country, area);
        return gp_cli_usage_error(cli,
                                  "--jurisdiction '%s' is not an area of regions.json%s; the "
                                  "areas are %s",
                                  jurisdiction, hint,
                                  gp_regions_jurisdictions_text(regions, list, sizeof(list)));
    }
    return GP_EXIT_OK;
}

int gp_cli_fx(struct gp_cli *cli, const struct gp_fx_table **out)
{
    if (!cli->fx_loaded) {
        int rc = cli->store ? gp_store_fx_load(cli->store, &cli->fx) : gp_fx_load(&cli->fx);
        if (rc)
            return gp_cli_fail();
        cli->fx_loaded = true;
    }
    *out = &cli->fx;
    return GP_EXIT_OK;
}

int gp_cli_currency_rate(struct gp_cli *cli, double *per_usd)
{
    const struct gp_fx_table *fx = NULL;
    int rc = gp_cli_fx(cli, &fx);

    if (rc)
        return rc;
    if (gp_fx_per_usd(fx, cli->currency, gp_time_now(), per_usd)) {
        char list[64];
        gp_fx_report_currencies_text(list, sizeof(list), ", ", ", ");
        return gp_cli_usage_error(cli, "--currency %s: no exchange rate known (%s)", cli->currency,
                                  list);
    }
    return GP_EXIT_OK;
}

/* Columns of the terminal on stdout; 0 when stdout is no terminal. */
static size_t terminal_width(void)
{
    struct winsize size;
    long columns = 0;
    const char *env = getenv("COLUMNS");

    if (!isatty(STDOUT_FILENO))
        return 0;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
        return size.ws_col;
    if (env && gp_text_to_int(env, 20, 10000, &columns) == 0)
        return (size_t)columns;
    return 80;
}

int gp_cli_output(struct gp_cli *cli, const struct gp_table *t, size_t highlight_row)
{
    struct gp_render_options options = {cli->color,       1,    highlight_row, cli->locale,
                                        terminal_width(), false};

    if (gp_table_render(t, cli->format, &options, stdout))
        return gp_cli_fail();
    return GP_EXIT_OK;
}
