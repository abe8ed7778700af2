/* gpuplan's entry point: global set-up, the command table and dispatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "cli/cli.h"
#include "util/error.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/text.h"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

static const struct gp_command commands[] = {
    {"gpus", gp_cmd_gpus, "Show the GPU spec catalog, one row per GPU.", ""},
    {"prices", gp_cmd_prices,
     "Show current offers per GPU-hour, cheapest first; 'prices history' shows every observed "
     "price.",
     "[history] [--gpu ID] [--provider P] [--tier TIER] [--max-age DAYS] "
     "[--changed-since DATE]"},
    {"quote", gp_cmd_quote, "Keep negotiated prices: add, list or remove quotes.",
     "add|list|rm [options]"},
    {"refresh", gp_cmd_refresh,
     "Fetch the price feeds into the database; a summary per feed on stderr.",
     "[--feed NAME ...] [--dry-run] [--timeout S] [--url NAME=URL ...]"},
    {"plan", gp_cmd_plan,
     "Plan a fleet per GPU type for a workload: GPUs, power, cost; what-if with --set/--sweep.",
     "--workload FILE|PRESET [--gpus ID,...] [--pricing MODE] [--set KEY=VALUE ...] "
     "[--sweep KEY=SPEC]"},
    {"report", gp_cmd_report,
     "Write a procurement report of one or more workloads: xlsx, HTML with charts, CSV or JSON.",
     "--workload W [--workload W2 ...] --out PATH [--format xlsx|html|csv|json|focus] [--title T] "
     "[--author A]"},
    {"energy", gp_cmd_energy,
     "Show stored day-ahead electricity prices per bidding zone: mean, p10 and p90 in EUR, DKK "
     "and USD per MWh.",
     "[--zone ZONE,...] [--days N]"},
    {"workloads", gp_cmd_workloads, "List the workload presets.", ""},
    {"backends", gp_cmd_backends,
     "List the calibration backends: loaded or rejected and why, with their devices.", ""},
    {"calibrate", gp_cmd_calibrate,
     "Measure GEMM and memory bandwidth on a backend's devices, fit and store the curves; "
     "'calibrate import FILE' merges runs exported elsewhere; 'calibrate import-serving FILE' "
     "fits serving benchmark results.",
     "[import FILE | import-serving FILE [--gpu ID] [--gpus N] [--layout L] [--stack NAME] "
     "[--model PRESET] [--precision P] | list [--threshold PCT] [--max-cv PCT]] "
     "[--backend auto|cpu|opencl|cuda|hip] [--device N|all] [--quick] [--export FILE]"},
    {"help", gp_cmd_help, "Show help for a command.", "[COMMAND]"},
};

const struct gp_command *gp_cli_find_command(const char *name)
{
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static void print_overview(FILE *out)
{
    fputs("usage: gpuplan [--version] [--help] COMMAND [options]\n\n"
          "Plans GPU fleets: how many of which GPUs a workload needs, their power and cost.\n\n"
          "commands:\n",
          out);
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\nRun 'gpuplan help COMMAND' for a command's options.\n", out);
}

int gp_cmd_help(struct gp_cli *cli, int argc, char **argv)
{
    static const struct gp_opt opts[] = {GP_OPT_END};
    const struct gp_command *cmd;
    int npos = 0, rc = gp_cli_parse(cli, gp_cli_find_command("help"), opts, argc, argv, &npos);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    if (npos == 0) {
        print_overview(stdout);
        return GP_EXIT_OK;
    }
    cmd = gp_cli_find_command(argv[1]);
    if (!cmd)
        return gp_cli_usage_error(cli, "unknown command '%s'", argv[1]);
    char *help_argv[] = {argv[1], "--help", NULL};
    return cmd->run(cli, 2, help_argv);
}

static int unknown_command(const char *name)
{
    struct gp_nearest near;

    gp_nearest_init(&near, name);
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        gp_nearest_offer(&near, commands[i].name);
    const char *hint = gp_nearest_result(&near);
    if (hint)
        gp_msg_error("unknown command '%s' (did you mean '%s'?); see 'gpuplan --help'", name, hint);
    else
        gp_msg_error("unknown command '%s'; see 'gpuplan --help'", name);
    return GP_EXIT_USAGE;
}

static int run_command(struct gp_cli *cli, const struct gp_command *cmd, int argc, char **argv)
{
    cli->command = cmd->name;
    return cmd->run(cli, argc, argv);
}

static int finish(struct gp_cli *cli, int rc)
{
    gp_store_close(cli->store);
    gp_catalog_release(&cli->catalog);
    gp_regions_release(&cli->regions);
    gp_fx_release(&cli->fx);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        gp_msg_error("cannot write to standard output");
        return rc ? rc : GP_EXIT_ERROR;
    }
    return rc;
}

/* argv[1..command) are global options: move them to just before the first "--" after the
 * command, or to the end, keeping the order of everything else. */
static void rotate_globals(char **argv, int command, int argc)
{
    int end = command;
    char *globals[64];
    int n = command - 1;

    while (end < argc && strcmp(argv[end], "--") != 0)
        end++;
    for (int done = 0; done < n;) { /* in blocks, so any count of options fits */
        int block = n - done < 64 ? n - done : 64;
        memcpy(globals, &argv[1], (size_t)block * sizeof(argv[0]));
        memmove(&argv[1], &argv[1 + block], (size_t)(end - 1 - block) * sizeof(argv[0]));
        memcpy(&argv[end - block], globals, (size_t)block * sizeof(argv[0]));
        done += block;
    }
}

/* Move the global options written before the command behind the command's own arguments (and
 * before a "--", which ends the options), as git accepts them: "gpuplan --db x quote add ..."
 * runs as "gpuplan quote add ... --db x", so a subcommand is still the command's first word.
 * Returns GP_EXIT_OK with argv[1] the command, or prints the problem and returns
 * GP_EXIT_USAGE. */
static int hoist_global_options(int argc, char **argv)
{
    int i = 1;

    while (i < argc && argv[i][0] == '-') {
        int arity = gp_cli_global_arity(argv[i]);
        if (arity < 0) {
            gp_msg_error("'%s' is not a global option; global options are listed under "
                         "'gpuplan help COMMAND'",
                         argv[i]);
            return GP_EXIT_USAGE;
        }
        if (i + arity >= argc && arity) {
            gp_msg_error("option '%s' needs a value; see 'gpuplan --help'", argv[i]);
            return GP_EXIT_USAGE;
        }
        i += 1 + arity;
    }
    if (i >= argc) {
        gp_msg_error("expected a command after the global options; see 'gpuplan --help'");
        return GP_EXIT_USAGE;
    }
    rotate_globals(argv, i, argc);
    return GP_EXIT_OK;
}

int main(int argc, char **argv)
{
    /* Output to a file or a pipe goes out in 64 KiB blocks, not the C library's 4 KiB: a sweep's
     * CSV is megabytes. A terminal keeps its line buffering. */
    static char stdout_block[1 << 16];
    struct gp_cli cli;
    const struct gp_command *cmd;

    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, stdout_block, _IOFBF, sizeof(stdout_block));
    memset(&cli, 0, sizeof(cli));
    cli.currency = "USD";
    gp_json_init();
    if (argc < 2) {
        print_overview(stderr);
        return GP_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("gpuplan %s\n", GPUPLAN_VERSION);
        return finish(&cli, GP_EXIT_OK);
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_overview(stdout);
        return finish(&cli, GP_EXIT_OK);
    }
    if (argv[1][0] == '-' && hoist_global_options(argc, argv))
        return GP_EXIT_USAGE;
    cmd = gp_cli_find_command(argv[1]);
    if (!cmd)
        return unknown_command(argv[1]);
    return finish(&cli, run_command(&cli, cmd, argc - 1, argv + 1));
}
