/* Declarative option parsing and generated help, shared by every command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "catalog/data.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

enum { GLOBAL_OPTION_COUNT = 10 };

/* Fill `out` with the options every command accepts (README.md, "Global options"), bound to
 * `cli`. */
static void global_options(struct gp_cli *cli, struct gp_opt out[GLOBAL_OPTION_COUNT])
{
    static char currency_help[96];
    if (!currency_help[0]) {
        char list[64];
        gp_fx_report_currencies_text(list, sizeof(list), ", ", " or ");
        snprintf(currency_help, sizeof(currency_help), "output currency: %s", list);
    }
    const struct gp_opt table[GLOBAL_OPTION_COUNT] = {
        {"db", 0, GP_OPT_STRING, &cli->db_flag, "PATH",
         "database file (else GPUPLAN_DB, else the XDG data folder)"},
        {"data", 0, GP_OPT_STRING, &cli->data_dir, "DIR",
         "read data files from DIR before the embedded ones"},
        {"currency", 0, GP_OPT_STRING, &cli->currency, "CUR", currency_help},
        {"format", 0, GP_OPT_STRING, &cli->format_name, "FMT", "output format: table, csv or json"},
        {"locale", 0, GP_OPT_STRING, &cli->locale_name, "NAME",
         "C (default) or da_DK: decimal comma; CSV with ';' and a BOM"},
        {"no-color", 0, GP_OPT_FLAG, &cli->no_color, NULL, "no colour (also when NO_COLOR is set)"},
        {"quiet", 'q', GP_OPT_FLAG, &cli->quiet, NULL, "only errors on stderr"},
        {"verbose", 'v', GP_OPT_FLAG, &cli->verbose, NULL, "more detail on stderr"},
        {"help", 'h', GP_OPT_FLAG, &cli->help, NULL, "show this help"},
        GP_OPT_END,
    };
    memcpy(out, table, sizeof(table));
}

static const struct gp_opt *find_long(const struct gp_opt *opts, const char *name, size_t len)
{
    for (; opts && opts->long_name; opts++)
        if (strlen(opts->long_name) == len && strncmp(opts->long_name, name, len) == 0)
            return opts;
    return NULL;
}

static const struct gp_opt *find_short(const struct gp_opt *opts, char c)
{
    for (; opts && opts->long_name; opts++)
        if (opts->short_name && opts->short_name == c)
            return opts;
    return NULL;
}

/* Suggest the nearest long option among both tables. */
static const char *nearest_option(const struct gp_opt *a, const struct gp_opt *b, const char *word)
{
    struct gp_nearest near;

    gp_nearest_init(&near, word);
    for (; a && a->long_name; a++)
        gp_nearest_offer(&near, a->long_name);
    for (; b && b->long_name; b++)
        gp_nearest_offer(&near, b->long_name);
    return gp_nearest_result(&near);
}

static int store_value(struct gp_cli *cli, const struct gp_opt *opt, const char *value)
{
    if (opt->type == GP_OPT_ONCE && *(const char **)opt->dest)
        return gp_cli_usage_error(cli, "--%s given twice ('%s', then '%s'); give it once",
                                  opt->long_name, *(const char **)opt->dest, value);
    if (opt->type == GP_OPT_STRING || opt->type == GP_OPT_ONCE) {
        *(const char **)opt->dest = value;
        return 0;
    }
    struct gp_strlist *list = opt->dest;
    if (list->count == GP_STRLIST_MAX)
        return gp_cli_usage_error(cli, "--%s given more than %d times", opt->long_name,
                                  GP_STRLIST_MAX);
    list->items[list->count++] = value;
    return 0;
}

static int unknown_option(struct gp_cli *cli, const struct gp_opt *opts, const struct gp_opt *glob,
                          const char *arg, size_t len)
{
    char name[64];
    const char *hint;

    snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), arg);
    hint = nearest_option(opts, glob, name);
    if (hint)
        return gp_cli_usage_error(cli, "unknown option '--%s' (did you mean '--%s'?)", name, hint);
    return gp_cli_usage_error(cli, "unknown option '--%s'", name);
}

/* Handle argv[*i], a "--name[=value]" argument. */
static int parse_long(struct gp_cli *cli, const struct gp_opt *opts, const struct gp_opt *glob,
                      int argc, char **argv, int *i)
{
    const char *arg = argv[*i] + 2, *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const struct gp_opt *opt = find_long(opts, arg, len);

    if (!opt)
        opt = find_long(glob, arg, len);
    if (!opt)
        return unknown_option(cli, opts, glob, arg, len);
    if (opt->type == GP_OPT_FLAG) {
        if (eq)
            return gp_cli_usage_error(cli, "option '--%s' takes no value", opt->long_name);
        *(bool *)opt->dest = true;
        return 0;
    }
    if (eq)
        return store_value(cli, opt, eq + 1);
    if (*i + 1 >= argc)
        return gp_cli_usage_error(cli, "option '--%s' needs a value (%s)", opt->long_name,
                                  opt->value_name);
    return store_value(cli, opt, argv[++*i]);
}

/* Handle argv[*i], a "-x" argument (one short option, value attached or next). */
static int parse_short(struct gp_cli *cli, const struct gp_opt *opts, const struct gp_opt *glob,
                       int argc, char **argv, int *i)
{
    char c = argv[*i][1];
    const struct gp_opt *opt = find_short(opts, c);

    if (!opt)
        opt = find_short(glob, c);
    if (!opt)
        return gp_cli_usage_error(cli, "unknown option '-%c'", c);
    if (opt->type == GP_OPT_FLAG) {
        if (argv[*i][2])
            return gp_cli_usage_error(cli, "option '-%c' takes no value", c);
        *(bool *)opt->dest = true;
        return 0;
    }
    if (argv[*i][2])
        return store_value(cli, opt, argv[*i] + 2);
    if (*i + 1 >= argc)
        return gp_cli_usage_error(cli, "option '-%c' needs a value (%s)", c, opt->value_name);
    return store_value(cli, opt, argv[++*i]);
}

/* Refuse an empty --db, a --data that is not a folder and a GPUPLAN_NOW that is not a date,
 * which would otherwise fall back to a default without a word. */
static int check_paths_and_clock(struct gp_cli *cli)
{
    const char *now = getenv("GPUPLAN_NOW");
    struct stat st;
    int64_t t;

    if (cli->db_flag && !cli->db_flag[0])
        return gp_cli_usage_error(cli, "--db is empty; give the database file's path");
    if (cli->data_dir && (stat(cli->data_dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        return gp_cli_usage_error(cli, "--data '%s' is not a folder", cli->data_dir);
    if (now && now[0] && gp_time_parse(now, &t))
        return gp_cli_usage_error(cli,
                                  "GPUPLAN_NOW '%s' is not a date (YYYY-MM-DD, "
                                  "YYYY-MM-DDTHH:MMZ or YYYY-MM-DDTHH:MM:SSZ)",
                                  now);
    return GP_EXIT_OK;
}

/* Settle what the global options mean once they are parsed. */
static int resolve_globals(struct gp_cli *cli)
{
    int format = GP_FORMAT_TABLE;
    const char *no_color = getenv("NO_COLOR");

    if (cli->format_name && !cli->own_format) {
        format = gp_format_parse(cli->format_name);
        if (format < 0)
            return gp_cli_usage_error(cli, "--format '%s' is not one of table, csv, json",
                                      cli->format_name);
    }
    cli->format = (enum gp_format)format;
    cli->locale = gp_locale_find(cli->locale_name ? cli->locale_name : "C");
    if (!cli->locale)
        return gp_cli_usage_error(cli, "--locale '%s' is not one of C, da_DK", cli->locale_name);
    if (!gp_fx_is_report_currency(cli->currency)) {
        char list[64];
        gp_fx_report_currencies_text(list, sizeof(list), ", ", ", ");
        return gp_cli_usage_error(cli, "--currency '%s' is not one of %s", cli->currency, list);
    }
    cli->color = !cli->no_color && !(no_color && *no_color) && isatty(STDOUT_FILENO);
    gp_msg_set_level(cli->quiet ? GP_MSG_QUIET : cli->verbose ? GP_MSG_VERBOSE : GP_MSG_NORMAL);
    gp_data_set_dir(cli->data_dir);
    return check_paths_and_clock(cli);
}

int gp_cli_global_arity(const char *arg)
{
    struct gp_cli scratch = {0};
    struct gp_opt glob[GLOBAL_OPTION_COUNT];
    const struct gp_opt *opt = NULL;

    global_options(&scratch, glob);
    if (arg[0] == '-' && arg[1] == '-' && arg[2]) {
        const char *eq = strchr(arg + 2, '=');
        opt = find_long(glob, arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
        if (opt && eq)
            return opt->type == GP_OPT_FLAG ? -1 : 0;
    } else if (arg[0] == '-' && arg[1] && arg[1] != '-') {
        opt = find_short(glob, arg[1]);
        if (opt && arg[2])
            return opt->type == GP_OPT_FLAG ? -1 : 0;
    }
    if (!opt)
        return -1;
    return opt->type == GP_OPT_FLAG ? 0 : 1;
}

int gp_cli_parse(struct gp_cli *cli, const struct gp_command *cmd, const struct gp_opt *opts,
                 int argc, char **argv, int *npos)
{
    struct gp_opt glob[GLOBAL_OPTION_COUNT];
    bool only_positional = false;
    int rc = 0;

    global_options(cli, glob);
    cli->help = false;
    *npos = 0;
    for (int i = 1; i < argc && rc == 0; i++) {
        const char *arg = argv[i];
        if (only_positional || arg[0] != '-' || arg[1] == '\0') {
            argv[1 + (*npos)++] = argv[i];
            continue;
        }
        if (strcmp(arg, "--") == 0)
            only_positional = true;
        else if (arg[1] == '-')
            rc = parse_long(cli, opts, glob, argc, argv, &i);
        else
            rc = parse_short(cli, opts, glob, argc, argv, &i);
    }
    if (rc || resolve_globals(cli))
        return GP_EXIT_USAGE;
    if (cli->help) {
        gp_cli_print_help(cli, cmd, opts, stdout);
        return -1;
    }
    return GP_EXIT_OK;
}

static void print_options(const struct gp_opt *opts, FILE *out)
{
    for (; opts && opts->long_name; opts++) {
        char left[64];
        snprintf(left, sizeof(left), "%s%c%s--%s%s%s", opts->short_name ? "-" : "",
                 opts->short_name ? opts->short_name : ' ', opts->short_name ? ", " : "  ",
                 opts->long_name, opts->value_name ? " " : "",
                 opts->value_name ? opts->value_name : "");
        fprintf(out, "  %-28s %s%s\n", opts->short_name ? left : left + 1, opts->help,
                opts->type == GP_OPT_LIST ? " (repeatable)" : "");
    }
}

void gp_cli_print_help(struct gp_cli *cli, const struct gp_command *cmd, const struct gp_opt *opts,
                       FILE *out)
{
    struct gp_opt glob[GLOBAL_OPTION_COUNT];

    global_options(cli, glob);
    fprintf(out, "usage: gpuplan %s%s%s\n\n%s\n", cmd->name, cmd->usage[0] ? " " : "", cmd->usage,
            cmd->summary);
    if (opts && opts->long_name) {
        fputs("\noptions:\n", out);
        print_options(opts, out);
    }
    fputs("\nglobal options:\n", out);
    print_options(glob, out);
    fprintf(out, "\nexit codes: 0 ok, 1 error, 2 usage or invalid input, 3 no or stale data, "
                 "4 network, 5 database (docs/exit-codes.md)\n");
}

int gp_cli_parse_options(struct gp_cli *cli, const char *command, const struct gp_opt *opts,
                         int argc, char **argv)
{
    int npos = 0, rc = gp_cli_parse(cli, gp_cli_find_command(command), opts, argc, argv, &npos);

    if (!rc && npos)
        return gp_cli_usage_error(cli, "unexpected argument '%s'", argv[1]);
    return rc;
}
