/* The command-line layer: global state, the command table, declarative options, exit codes.
 * Only cli/ prints errors and decides exit codes.
 *
 * Adding a command:
 *   1. write cli/cmd_<name>.c with `int gp_cmd_<name>(struct gp_cli *cli, int argc, char **argv)`
 *      that declares a `struct gp_opt` table and calls gp_cli_parse();
 *   2. declare it below and add a row to the command table in cli/main.c;
 *   3. add the file to cli/CMakeLists.txt, a docs/cmd/<name>.md page and CLI golden tests.
 */
#ifndef GP_CLI_CLI_H
#define GP_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog/fx.h"
#include "catalog/regions.h"
#include "gpuplan/gpu.h"
#include "report/table.h"
#include "store/store.h"
#include "util/format.h"

/* Exit codes (docs/exit-codes.md). */
enum gp_exit {
    GP_EXIT_OK = 0,
    GP_EXIT_ERROR = 1,
    GP_EXIT_USAGE = 2,         /* bad flag, command or input file */
    GP_EXIT_NO_DATA = 3,       /* nothing matched, or only stale data */
    GP_EXIT_NETWORK = 4,       /* some feeds failed */
    GP_EXIT_DB = 5,            /* database cannot be opened, migrated or written */
    GP_EXIT_INTERRUPTED = 130, /* stopped by SIGINT or SIGTERM (GP_INTERRUPT_EXIT) */
};

/* Global options and lazily opened resources, shared by every command. */
struct gp_cli {
    const char *db_flag;     /* --db, or NULL */
    const char *data_dir;    /* --data, or NULL for the embedded data */
    const char *currency;    /* --currency: output currency, "USD" by default */
    const char *format_name; /* --format, or NULL for the default (table) */
    enum gp_format format;
    bool own_format;                /* the command reads --format itself (report) */
    const char *locale_name;        /* --locale, or NULL for "C" */
    const struct gp_locale *locale; /* resolved --locale (borrowed static) */
    bool no_color;                  /* --no-color */
    bool quiet, verbose;            /* -q, -v */
    bool help;                      /* -h/--help was given */
    bool color;                     /* resolved: colour allowed on stdout */
    const char *command;            /* name of the running command */
    struct gp_store *store;         /* owned; opened by gp_cli_store */
    struct gp_catalog catalog;
    bool catalog_loaded;
    struct gp_region_table regions; /* owned; loaded by gp_cli_regions */
    bool regions_loaded;
    struct gp_fx_table fx; /* owned; loaded by gp_cli_fx */
    bool fx_loaded;
};

/* ---- options ---------------------------------------------------------------------------- */

enum gp_opt_type {
    GP_OPT_FLAG,   /* bool; takes no value */
    GP_OPT_STRING, /* const char *; the last occurrence wins */
    GP_OPT_ONCE,   /* const char *; given at most once (a second one is a usage error) */
    GP_OPT_LIST,   /* struct gp_strlist; repeatable */
};

#define GP_STRLIST_MAX 64
struct gp_strlist {
    const char *items[GP_STRLIST_MAX]; /* borrowed from argv */
    size_t count;
};

struct gp_opt {
    const char *long_name; /* without the dashes */
    char short_name;       /* 0 for none */
    enum gp_opt_type type;
    void *dest;             /* bool *, const char ** or struct gp_strlist * */
    const char *value_name; /* shown in help, e.g. "ID"; NULL for flags */
    const char *help;
};
#define GP_OPT_END                                                                                 \
    {                                                                                              \
        NULL, 0, GP_OPT_FLAG, NULL, NULL, NULL                                                     \
    }

struct gp_command {
    const char *name;
    int (*run)(struct gp_cli *cli, int argc, char **argv);
    const char *summary; /* one line for the command list */
    const char *usage;   /* synopsis after "gpuplan NAME", e.g. "[--gpu ID] [--tier TIER]" */
};

/*
 * Parse argv (argv[0] is the command name) against the command's options and the global ones.
 * Positional arguments are moved to the front of argv+1 in order and counted in *npos.
 * Returns GP_EXIT_OK, GP_EXIT_USAGE after printing the problem, or -1 when --help was given and
 * help was printed (the command then returns GP_EXIT_OK).
 */
int gp_cli_parse(struct gp_cli *cli, const struct gp_command *cmd, const struct gp_opt *opts,
                 int argc, char **argv, int *npos);

/* gp_cli_parse for the command named `command` when it takes no positional arguments: one is a
 * usage problem. Returns as gp_cli_parse does. */
int gp_cli_parse_options(struct gp_cli *cli, const char *command, const struct gp_opt *opts,
                         int argc, char **argv);

/* How a global option written before the command consumes argv: 0 when `arg` is complete
 * ("--quiet", "--db=PATH"), 1 when the next argument is its value ("--db PATH"), -1 when `arg` is
 * not a global option or misuses one ("--quiet=1"). */
int gp_cli_global_arity(const char *arg);

/* Print a command's help (synopsis, summary, options) to `out`. */
void gp_cli_print_help(struct gp_cli *cli, const struct gp_command *cmd, const struct gp_opt *opts,
                       FILE *out);

/* The command table (cli/main.c) and lookup by name. */
const struct gp_command *gp_cli_find_command(const char *name);

/* ---- shared resources -------------------------------------------------------------------- */

/* Open (creating and seeding on first use) the database. Prints the error and returns an exit
 * code when it fails. */
int gp_cli_store(struct gp_cli *cli, struct gp_store **out);
/* The database for a command that only reads: opened read-only when it exists and needs no
 * migration or seeding, so a user who may read but not write it (or its folder) can use it;
 * opened as gp_cli_store does otherwise. Prints errors; returns an exit code. */
int gp_cli_store_read(struct gp_cli *cli, struct gp_store **out);
/* Load the GPU catalog (embedded or --data). Prints errors; returns an exit code. */
int gp_cli_catalog(struct gp_cli *cli, const struct gp_catalog **out);
/* The catalog with its figures' citations (data/citations.json), each checked against its
 * figure; only what lists them pays for reading them. */
int gp_cli_catalog_cited(struct gp_cli *cli, const struct gp_catalog **out);
/* Exchange rates: from the store when it is open, else from data/fx.json. */
int gp_cli_fx(struct gp_cli *cli, const struct gp_fx_table **out);
/* Load the region table (embedded or --data). Prints errors; returns an exit code. */
int gp_cli_regions(struct gp_cli *cli, const struct gp_region_table **out);
/* Check --region GLOB and --jurisdiction J (either may be NULL): a glob must not be empty, a
 * jurisdiction must be one the region table knows. Returns an exit code (2 with a message). */
int gp_cli_place_filter(struct gp_cli *cli, const char *region, const char *jurisdiction);

/* Units of the output currency per USD, for converting prices; prints errors. */
int gp_cli_currency_rate(struct gp_cli *cli, double *per_usd);

/* Print the last error (gp_error_last) and return the exit code its class maps to. */
int gp_cli_fail(void);
/* Map a GP_E* code to an exit code. */
int gp_cli_exit_code(int error_code);
/* Print a usage problem for the running command with a hint to --help; returns GP_EXIT_USAGE. */
int gp_cli_usage_error(struct gp_cli *cli, const char *fmt, ...) GP_PRINTF(2, 3);
/* The same for a refusal that the last gp_error explains, unless that error is running out of
 * memory, which is no fault of the input: then it is reported as gp_cli_fail() does (exit 1). */
int gp_cli_input_error(struct gp_cli *cli, const char *fmt, ...) GP_PRINTF(2, 3);

/* Render a table to stdout in the chosen format and locale; a text table on a terminal fits its
 * width. Returns an exit code. */
int gp_cli_output(struct gp_cli *cli, const struct gp_table *t, size_t highlight_row);

/* ---- commands ---------------------------------------------------------------------------- */

int gp_cmd_gpus(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_prices(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_quote(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_refresh(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_plan(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_report(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_energy(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_workloads(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_backends(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_calibrate(struct gp_cli *cli, int argc, char **argv);
/* `calibrate list`, argv[0] being "list". */
int gp_cmd_calibrate_list(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_calibrate_serving(struct gp_cli *cli, int argc, char **argv);
int gp_cmd_help(struct gp_cli *cli, int argc, char **argv);

#endif
