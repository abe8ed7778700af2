/* `gpuplan calibrate`: run the calibration kernels on a backend's devices, store the results and
 * fitted curves, optionally export them; `gpuplan calibrate import FILE` merges exported runs. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate/calibrate.h"
#include "calibrate/exchange.h"
#include "calibrate/registry.h"
#include "calibrate/session.h"
#include "cli/cli.h"
#include "store/calibrations.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

static const struct gp_column point_columns[] = {
    {"device", GP_CELL_INT, 0},    {"gpu", GP_CELL_TEXT, 0},
    {"kernel", GP_CELL_TEXT, 0},   {"precision", GP_CELL_TEXT, 0},
    {"m", GP_CELL_INT, 0},         {"n", GP_CELL_INT, 0},
    {"k", GP_CELL_INT, 0},         {"mib", GP_CELL_NUMBER, 2},
    {"median", GP_CELL_NUMBER, 3}, {"p10", GP_CELL_NUMBER, 3},
    {"p90", GP_CELL_NUMBER, 3},    {"unit", GP_CELL_TEXT, 0},
    {"cv", GP_CELL_NUMBER, 3},     {"efficiency", GP_CELL_NUMBER, 3},
    {"runs", GP_CELL_INT, 0},      {"impl", GP_CELL_TEXT, 0},
};

static const struct gp_column import_columns[] = {
    {"fingerprint", GP_CELL_TEXT, 0}, {"host", GP_CELL_TEXT, 0}, {"backend", GP_CELL_TEXT, 0},
    {"device_name", GP_CELL_TEXT, 0}, {"gpu", GP_CELL_TEXT, 0},  {"started_at", GP_CELL_TEXT, 0},
    {"points", GP_CELL_INT, 0},       {"fits", GP_CELL_INT, 0},  {"status", GP_CELL_TEXT, 0},
};

/* ---- progress bar and device threads -------------------------------------------------- */

/* Progress of every device of a run; the bar shows their mean, the text the latest step. */
struct progress {
    pthread_mutex_t lock;
    int enabled;      /* stderr is a terminal and not --quiet */
    int devices;      /* devices calibrated together */
    double *fraction; /* per device, 0..1 */
};

static void progress_draw(void *payload, int slot, int device, double fraction, const char *what)
{
    struct progress *p = payload;
    char bar[31];
    double mean = 0.0;

    if (!p->enabled)
        return;
    pthread_mutex_lock(&p->lock);
    p->fraction[slot] = fraction;
    for (int i = 0; i < p->devices; i++)
        mean += p->fraction[i] / p->devices;
    int filled = (int)(mean * 30.0 + 0.5);
    for (int i = 0; i < 30; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r\033[K%d device%s [%s] %3d%%  device %d: %s", p->devices,
            p->devices == 1 ? "" : "s", bar, (int)(mean * 100.0 + 0.5), device, what);
    fflush(stderr);
    pthread_mutex_unlock(&p->lock);
}

/* Report every device and step that failed; the first failure becomes the command's error, so
 * the exit code says the run is incomplete (what was measured is kept). 0 when none failed. */
static int report_failures(const struct gp_calibrate_session *s, const char *backend)
{
    const struct gp_calibrate_outcome *first = NULL;

    for (size_t i = 0; i < s->count; i++) {
        const struct gp_calibrate_outcome *o = &s->outcomes[i];
        if (o->rc != 0 && !first) {
            first = o;
            continue;
        }
        if (o->rc != 0)
            gp_msg_error("%s device %d: %s", backend, o->device, o->error);
        for (int f = 0; f < o->failed.count && f < GP_CALIBRATE_FAILED_MAX; f++)
            gp_msg_error("%s device %d: step failed: %s", backend, o->device, o->failed.steps[f]);
        if (o->failed.count > GP_CALIBRATE_FAILED_MAX)
            gp_msg_error("%s device %d: %d more steps failed", backend, o->device,
                         o->failed.count - GP_CALIBRATE_FAILED_MAX);
    }
    if (first) {
        gp_error_set(first->rc, "%s device %d: %s", backend, first->device, first->error);
        return gp_cli_fail();
    }
    if (s->steps_failed) {
        gp_error_set(GP_ERROR,
                     "%zu calibration step(s) failed (listed above); the steps that "
                     "ran are stored",
                     s->steps_failed);
        return gp_cli_fail();
    }
    return 0;
}

/* ---- output ----------------------------------------------------------------------------- */

static int add_point_row(struct gp_table *t, int device, const struct gp_calibration *c,
                         const struct gp_calibration_point *p)
{
    int gemm = strcmp(p->kernel, "gemm") == 0;
    double peak = 0.0;
    int rc = gp_table_add_row(t);

    for (size_t i = 0; i < c->fit_count; i++)
        if (strcmp(c->fits[i].kernel, gemm ? "gemm" : "bandwidth") == 0 &&
            strcmp(c->fits[i].precision, p->precision) == 0)
            peak = c->fits[i].peak;
    if (!rc)
        rc = gp_table_set_int(t, "device", device);
    if (!rc && c->gpu_id[0])
        rc = gp_table_set_text(t, "gpu", "%s", c->gpu_id);
    if (!rc)
        rc = gp_table_set_text(t, "kernel", "%s", p->kernel);
    if (!rc && gemm)
        rc = gp_table_set_text(t, "precision", "%s", p->precision);
    if (!rc && gemm)
        rc = gp_table_set_int(t, "m", p->m);
    if (!rc && gemm)
        rc = gp_table_set_int(t, "n", p->n);
    if (!rc && gemm)
        rc = gp_table_set_int(t, "k", p->k);
    if (!rc && !gemm)
        rc = gp_table_set_number(t, "mib", (double)p->bytes / (1024.0 * 1024.0));
    if (!rc)
        rc = gp_table_set_number(t, "median", p->median);
    if (!rc)
        rc = gp_table_set_number(t, "p10", p->p10);
    if (!rc)
        rc = gp_table_set_number(t, "p90", p->p90);
    if (!rc)
        rc = gp_table_set_text(t, "unit", "%s", gemm ? "TFLOP/s" : "GB/s");
    if (!rc)
        rc = gp_table_set_number(t, "cv", p->cv);
    if (!rc && peak > 0)
        rc = gp_table_set_number(t, "efficiency", p->median / peak);
    if (!rc)
        rc = gp_table_set_int(t, "runs", p->repetitions);
    if (!rc)
        rc = gp_table_set_text(t, "impl", "%s", p->impl);
    return rc;
}

/* With several devices, the spread of each curve's asymptote across them: a node's GPUs differ
 * by cooling position and silicon, and a slow one shows here first. */
static void report_spread(const struct gp_calibration *runs, size_t count)
{
    if (count < 2)
        return;
    for (size_t i = 0; i < runs[0].fit_count; i++) {
        const struct gp_calibration_fit *f = &runs[0].fits[i];
        double lo = f->eff_max, hi = f->eff_max;
        size_t n = 1;
        for (size_t r = 1; r < count; r++)
            for (size_t j = 0; j < runs[r].fit_count; j++) {
                const struct gp_calibration_fit *g = &runs[r].fits[j];
                if (strcmp(g->kernel, f->kernel) != 0 || strcmp(g->precision, f->precision) != 0)
                    continue;
                lo = g->eff_max < lo ? g->eff_max : lo;
                hi = g->eff_max > hi ? g->eff_max : hi;
                n++;
            }
        if (n > 1 && hi > 0)
            gp_msg_info("spread %-9s %-4s over %zu devices: eff_max %.4g .. %.4g (%.1f%%)",
                        f->kernel, f->precision, n, lo, hi, 100.0 * (hi - lo) / hi);
    }
}

/* The fits as JSON (for --format json) and as lines on stderr (for people). */
static int report_fits(struct gp_table *t, const struct gp_calibration *runs, const int *devices,
                       size_t count)
{
    cJSON *list = cJSON_CreateArray();

    if (!list)
        return GP_ENOMEM;
    for (size_t r = 0; r < count; r++) {
        const struct gp_calibration *c = &runs[r];
        cJSON *o = cJSON_CreateObject();
        cJSON *fits = o ? cJSON_AddArrayToObject(o, "fits") : NULL;
        if (!fits) {
            cJSON_Delete(o);
            cJSON_Delete(list);
            return GP_ENOMEM;
        }
        cJSON_AddItemToArray(list, o);
        cJSON_AddNumberToObject(o, "device", devices[r]);
        cJSON_AddStringToObject(o, "device_name", c->device_name);
        cJSON_AddStringToObject(o, "fingerprint", c->fingerprint);
        if (c->gpu_id[0])
            cJSON_AddStringToObject(o, "gpu", c->gpu_id);
        else
            cJSON_AddNullToObject(o, "gpu");
        gp_msg_info("device %d: %s%s%s%s", devices[r], c->device_name, c->gpu_id[0] ? " (" : "",
                    c->gpu_id, c->gpu_id[0] ? ")" : "");
        for (size_t i = 0; i < c->fit_count; i++) {
            const struct gp_calibration_fit *f = &c->fits[i];
            cJSON *fo = cJSON_CreateObject();
            if (!fo) {
                cJSON_Delete(list);
                return GP_ENOMEM;
            }
            cJSON_AddItemToArray(fits, fo);
            cJSON_AddStringToObject(fo, "kernel", f->kernel);
            if (f->precision[0])
                cJSON_AddStringToObject(fo, "precision", f->precision);
            else
                cJSON_AddNullToObject(fo, "precision");
            cJSON_AddNumberToObject(fo, "eff_max", f->eff_max);
            cJSON_AddNumberToObject(fo, "s_half", f->s_half);
            cJSON_AddNumberToObject(fo, "r2", f->r2);
            cJSON_AddNumberToObject(fo, "peak", f->peak);
            cJSON_AddNumberToObject(fo, "points", f->points);
            if (f->peak > 0)
                gp_msg_info("  fit %-9s %-4s eff_max %.3f of %.0f %s (+-%.3f), s_half %.3g %s, "
                            "R^2 %.3f, %d points",
                            f->kernel, f->precision, f->eff_max, f->peak,
                            f->precision[0] ? "TFLOP/s" : "GB/s", f->eff_max_se, f->s_half,
                            f->precision[0] ? "FLOP" : "bytes", f->r2 + 0.0, f->points);
            else
                gp_msg_info("  fit %-9s %-4s max %.4g %s (+-%.3g), s_half %.3g %s, R^2 %.3f, "
                            "%d points",
                            f->kernel, f->precision, f->eff_max,
                            f->precision[0] ? "TFLOP/s" : "GB/s", f->eff_max_se, f->s_half,
                            f->precision[0] ? "FLOP" : "bytes", f->r2 + 0.0, f->points);
        }
    }
    report_spread(runs, count);
    if (!t->meta)
        t->meta = cJSON_CreateObject();
    if (!t->meta) {
        cJSON_Delete(list);
        return GP_ENOMEM;
    }
    cJSON_AddItemToObject(t->meta, "calibrations", list);
    return 0;
}

/* ---- import ----------------------------------------------------------------------------- */

static int run_import(struct gp_cli *cli, const char *path)
{
    const struct gp_catalog *catalog = NULL;
    struct gp_calibration *runs = NULL;
    struct gp_store *store = NULL;
    struct gp_table table;
    size_t count = 0, added = 0, skipped = 0;
    int *inserted = NULL;
    int rc = gp_cli_catalog(cli, &catalog);

    gp_table_init(&table, import_columns, sizeof(import_columns) / sizeof(import_columns[0]));
    if (rc)
        goto done;
    if (gp_exchange_read(&runs, &count, path, catalog) != 0 ||
        gp_calibrate_fit_missing(runs, count, catalog) != 0) {
        rc = gp_cli_fail();
        goto done;
    }
    rc = gp_cli_store(cli, &store);
    if (rc)
        goto done;
    inserted = calloc(count + 1, sizeof(*inserted));
    if (!inserted) {
        gp_error_set(GP_ENOMEM, "out of memory");
        rc = gp_cli_fail();
        goto done;
    }
    if (gp_store_calibrations_insert(store, runs, count, inserted, &added, &skipped) != 0) {
        rc = gp_cli_fail();
        goto done;
    }
    for (size_t i = 0; rc == 0 && i < count; i++) {
        char when[32];
        gp_time_format_stamp(runs[i].started_at, when, sizeof(when));
        if (gp_table_add_row(&table) ||
            gp_table_set_text(&table, "fingerprint", "%s", runs[i].fingerprint) ||
            gp_table_set_text(&table, "host", "%s", runs[i].host) ||
            gp_table_set_text(&table, "backend", "%s", runs[i].backend) ||
            gp_table_set_text(&table, "device_name", "%s", runs[i].device_name) ||
            (runs[i].gpu_id[0] && gp_table_set_text(&table, "gpu", "%s", runs[i].gpu_id)) ||
            gp_table_set_text(&table, "started_at", "%s", when) ||
            gp_table_set_int(&table, "points", (long long)runs[i].point_count) ||
            gp_table_set_int(&table, "fits", (long long)runs[i].fit_count) ||
            gp_table_set_text(&table, "status", "%s", inserted[i] ? "added" : "already present"))
            rc = gp_cli_fail();
    }
    if (rc == 0) {
        gp_msg_info("%s: %zu run(s) added, %zu already present", path, added, skipped);
        rc = gp_cli_output(cli, &table, SIZE_MAX);
    }

done:
    gp_table_release(&table);
    gp_calibrations_free(runs, count);
    free(inserted);
    return rc;
}

/* ---- calibrate -------------------------------------------------------------------------- */

/* Store, export and tabulate the kept records. 0 or the exit code of the first failure. */
static int keep_runs(struct gp_store *store, struct gp_table *table,
                     const struct gp_calibrate_session *s, const char *export_path)
{
    if (gp_store_calibrations_insert(store, s->runs, s->run_count, NULL, NULL, NULL) != 0)
        return gp_cli_fail();
    if (export_path && gp_exchange_write(export_path, s->runs, s->run_count) != 0)
        return gp_cli_fail();
    for (size_t r = 0; r < s->run_count; r++)
        for (size_t i = 0; i < s->runs[r].point_count; i++)
            if (add_point_row(table, s->devices[r], &s->runs[r], &s->runs[r].points[i]))
                return gp_cli_fail();
    if (report_fits(table, s->runs, s->devices, s->run_count) != 0) {
        gp_error_set(GP_ENOMEM, "out of memory");
        return gp_cli_fail();
    }
    if (export_path)
        gp_msg_info("wrote %zu run(s) to %s", s->run_count, export_path);
    return 0;
}

static int run_calibrate(struct gp_cli *cli, const char *backend_name, const char *device_arg,
                         bool quick, const char *export_path)
{
    const struct gp_catalog *catalog = NULL;
    const struct gp_backend_candidate *backend = NULL;
    struct gp_registry reg;
    struct gp_store *store = NULL;
    struct gp_calibrate_session session;
    struct progress progress = {PTHREAD_MUTEX_INITIALIZER, 0, 0, NULL};
    struct gp_table table;
    int first = 0, last = 0, rc;
    long dev = 0;

    gp_table_init(&table, point_columns, sizeof(point_columns) / sizeof(point_columns[0]));
    memset(&reg, 0, sizeof(reg));
    memset(&session, 0, sizeof(session));
    rc = gp_cli_catalog(cli, &catalog);
    if (rc)
        goto done;
    if (gp_interrupt_install() != 0) {
        rc = gp_cli_fail();
        goto done;
    }
    rc = gp_cli_store(cli, &store); /* open before measuring: a bad --db fails fast */
    if (rc)
        goto done;
    if (gp_registry_scan_for(&reg, backend_name) != 0 ||
        gp_registry_pick(&reg, backend_name, &backend) != 0) {
        rc = gp_error_code() == GP_ENOTFOUND ? gp_cli_usage_error(cli, "%s", gp_error_last())
                                             : gp_cli_fail();
        goto done;
    }
    last = backend->device_count - 1;
    if (strcmp(device_arg, "all") != 0) {
        if (gp_text_to_int(device_arg, 0, backend->device_count - 1, &dev) != 0) {
            rc = gp_cli_usage_error(cli, "--device: \"%s\" is not all or a device of %s (0..%d)",
                                    device_arg, backend->name, backend->device_count - 1);
            goto done;
        }
        first = last = (int)dev;
    }
    progress.enabled = isatty(STDERR_FILENO) && gp_msg_level() >= GP_MSG_NORMAL;
    progress.devices = last - first + 1;
    progress.fraction = calloc((size_t)progress.devices, sizeof(double));
    if (!progress.fraction || gp_calibrate_session_run(&session, backend, first, last, catalog,
                                                       quick, progress_draw, &progress) != 0) {
        rc = gp_cli_fail();
        goto done;
    }
    if (progress.enabled)
        fputs("\r\033[K", stderr);
    if (gp_interrupted()) { /* what was measured is partial: keep none of it */
        gp_error_set(GP_EINTERRUPTED, "interrupted by %s: nothing stored%s", gp_interrupt_name(),
                     export_path ? " or exported" : "");
        rc = gp_cli_fail();
        goto done;
    }
    if (session.run_count > 0) {
        rc = keep_runs(store, &table, &session, export_path);
        if (rc == 0)
            rc = gp_cli_output(cli, &table, SIZE_MAX);
    }
    if (rc == 0)
        rc = report_failures(&session, backend->name);

done:
    gp_table_release(&table);
    free(progress.fraction);
    gp_calibrate_session_release(&session);
    gp_registry_release(&reg);
    return rc;
}

int gp_cmd_calibrate(struct gp_cli *cli, int argc, char **argv)
{
    const char *backend = "auto", *device = "all", *export_path = NULL;
    char names[96], backend_help[128];
    bool quick = false;

    gp_registry_names_text(names, sizeof(names));
    snprintf(backend_help, sizeof(backend_help), "auto (the best loaded), %s", names);
    const struct gp_opt opts[] = {
        {"backend", 0, GP_OPT_STRING, &backend, "NAME", backend_help},
        {"device", 0, GP_OPT_STRING, &device, "N|all", "which device of the backend (default all)"},
        {"quick", 0, GP_OPT_FLAG, &quick, NULL,
         "short plan: the core kinds only, about 10 s per device"},
        {"export", 0, GP_OPT_STRING, &export_path, "FILE",
         "also write the runs to FILE for `calibrate import` elsewhere"},
        GP_OPT_END,
    };
    int npos = 0, rc;

    if (argc >= 2 && strcmp(argv[1], "list") == 0)
        return gp_cmd_calibrate_list(cli, argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "import-serving") == 0)
        return gp_cmd_calibrate_serving(cli, argc - 1, argv + 1);
    rc = gp_cli_parse(cli, gp_cli_find_command("calibrate"), opts, argc, argv, &npos);
    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    if (npos >= 1 && strcmp(argv[1], "list") == 0)
        return gp_cli_usage_error(cli, "give calibrate list's options after list");
    if (npos >= 1 && strcmp(argv[1], "import") == 0) {
        if (npos != 2)
            return gp_cli_usage_error(cli, "calibrate import takes exactly one FILE");
        return run_import(cli, argv[2]);
    }
    if (npos)
        return gp_cli_usage_error(cli, "unexpected argument '%s' (did you mean import or list?)",
                                  argv[1]);
    return run_calibrate(cli, backend, device, quick, export_path);
}
