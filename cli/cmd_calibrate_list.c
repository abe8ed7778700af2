/* `gpuplan calibrate list`: the fleet view of the stored calibrations, one row per node, GPU and
 * curve, each compared with the fleet median of its GPU type and software; exit 3 when any GPU
 * is suspect. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "planner/fleetcal.h"
#include "store/calibrations.h"
#include "util/error.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

static const struct gp_column list_columns[] = {
    {"host", GP_CELL_TEXT, 0},         {"device", GP_CELL_INT, 0},
    {"gpu", GP_CELL_TEXT, 0},          {"kernel", GP_CELL_TEXT, 0},
    {"precision", GP_CELL_TEXT, 0},    {"eff_max", GP_CELL_NUMBER, 3},
    {"p10", GP_CELL_NUMBER, 3},        {"p90", GP_CELL_NUMBER, 3},
    {"unit", GP_CELL_TEXT, 0},         {"runs", GP_CELL_INT, 0},
    {"cv", GP_CELL_NUMBER, 3},         {"date", GP_CELL_TEXT, 0},
    {"driver", GP_CELL_TEXT, 0},       {"runtime", GP_CELL_TEXT, 0},
    {"clock_mhz", GP_CELL_INT, 0},     {"power_limit_w", GP_CELL_INT, 0},
    {"median", GP_CELL_NUMBER, 3},     {"deviation_pct", GP_CELL_NUMBER, 1},
    {"gpus_in_group", GP_CELL_INT, 0}, {"status", GP_CELL_TEXT, 0},
};

/* What a run's conditions record about its device and software. */
struct run_info {
    int device;           /* the backend's device index, 0 when not recorded */
    char driver[64];      /* driver version, "" when not recorded */
    char runtime[64];     /* runtime version, "" when not recorded */
    char software[130];   /* "driver/runtime", the fleet view's software key */
    double clock_mhz;     /* 0 when not recorded */
    double power_limit_w; /* 0 when not recorded */
    const char *gpu;      /* borrowed from the run: its GPU id, else its device name */
};

static void read_conditions(struct run_info *info, const struct gp_calibration *run)
{
    cJSON *cond = cJSON_Parse(run->conditions ? run->conditions : "{}");
    const cJSON *v;

    memset(info, 0, sizeof(*info));
    if ((v = cJSON_GetObjectItemCaseSensitive(cond, "device_index")) && cJSON_IsNumber(v))
        info->device = v->valueint;
    if ((v = cJSON_GetObjectItemCaseSensitive(cond, "driver_version")) && cJSON_IsString(v))
        gp_text_copy(info->driver, sizeof(info->driver), v->valuestring);
    if ((v = cJSON_GetObjectItemCaseSensitive(cond, "runtime_version")) && cJSON_IsString(v))
        gp_text_copy(info->runtime, sizeof(info->runtime), v->valuestring);
    if ((v = cJSON_GetObjectItemCaseSensitive(cond, "clock_mhz")) && cJSON_IsNumber(v))
        info->clock_mhz = v->valuedouble;
    if ((v = cJSON_GetObjectItemCaseSensitive(cond, "power_limit_w")) && cJSON_IsNumber(v))
        info->power_limit_w = v->valuedouble;
    cJSON_Delete(cond);
    snprintf(info->software, sizeof(info->software), "%s/%s", info->driver, info->runtime);
    info->gpu = run->gpu_id[0] ? run->gpu_id : run->device_name;
}

static bool point_of_fit(const struct gp_calibration_point *p, const struct gp_calibration_fit *f)
{
    if (strcmp(f->kernel, "gemm") == 0)
        return strcmp(p->kernel, "gemm") == 0 && strcmp(p->precision, f->precision) == 0;
    return strcmp(p->kernel, "gemm") != 0;
}

/* The spread of a fit's largest points: mean p10 and p90 over the median, largest CV. */
static void fit_spread(struct gp_fleet_curve *c, const struct gp_calibration *run,
                       const struct gp_calibration_fit *f)
{
    double largest = 0.0, n = 0.0;

    c->p10_ratio = c->p90_ratio = 1.0;
    c->cv = 0.0;
    for (size_t i = 0; i < run->point_count; i++)
        if (point_of_fit(&run->points[i], f) && run->points[i].size > largest)
            largest = run->points[i].size;
    for (size_t i = 0; i < run->point_count; i++) {
        const struct gp_calibration_point *p = &run->points[i];
        if (!point_of_fit(p, f) || p->size < largest * 0.999 || !(p->median > 0))
            continue;
        c->p10_ratio = (c->p10_ratio * n + p->p10 / p->median) / (n + 1.0);
        c->p90_ratio = (c->p90_ratio * n + p->p90 / p->median) / (n + 1.0);
        c->cv = p->cv > c->cv ? p->cv : c->cv;
        n += 1.0;
    }
}

/* One curve per fit of every run; *out malloc'd (free()), borrowing from runs and infos. */
static int collect_curves(struct gp_fleet_curve **out, size_t *count,
                          const struct gp_calibration *runs, const struct run_info *infos,
                          size_t nruns)
{
    size_t total = 0, n = 0;

    for (size_t r = 0; r < nruns; r++)
        total += runs[r].fit_count;
    *out = calloc(total ? total : 1, sizeof(**out));
    if (!*out)
        return gp_error_set(GP_ENOMEM, "out of memory reading calibrations");
    for (size_t r = 0; r < nruns; r++)
        for (size_t i = 0; i < runs[r].fit_count; i++) {
            const struct gp_calibration_fit *f = &runs[r].fits[i];
            struct gp_fleet_curve *c = &(*out)[n++];
            c->host = runs[r].host;
            c->device = infos[r].device;
            c->gpu = infos[r].gpu;
            c->software = infos[r].software;
            c->kernel = f->kernel;
            c->precision = f->precision;
            c->eff_max = f->eff_max;
            c->s_half = f->s_half;
            c->peak = f->peak;
            c->started_at = runs[r].started_at;
            fit_spread(c, &runs[r], f);
        }
    *count = n;
    return 0;
}

static const char *status_of(const struct gp_fleet_row *row)
{
    if (row->low && row->unstable)
        return "suspect: low, unstable";
    if (row->low)
        return "suspect: low";
    return row->unstable ? "suspect: unstable" : "ok";
}

static int add_row(struct gp_table *t, const struct gp_fleet_row *row,
                   const struct gp_fleet_curve *c, const struct run_info *info)
{
    char date[16];
    int rc = gp_table_add_row(t);

    gp_time_format_date(c->started_at, date, sizeof(date));
    if (!rc)
        rc =
            gp_table_set_text(t, "host", "%s", c->host) ||
            gp_table_set_int(t, "device", c->device) || gp_table_set_text(t, "gpu", "%s", c->gpu) ||
            gp_table_set_text(t, "kernel", "%s", c->kernel) ||
            (c->precision[0] && gp_table_set_text(t, "precision", "%s", c->precision)) ||
            gp_table_set_number(t, "eff_max", row->eff_max) ||
            gp_table_set_number(t, "p10", row->eff_p10) ||
            gp_table_set_number(t, "p90", row->eff_p90) ||
            gp_table_set_text(t, "unit", "%s",
                              c->peak > 0                      ? "of peak"
                              : strcmp(c->kernel, "gemm") == 0 ? "TFLOP/s"
                                                               : "GB/s") ||
            gp_table_set_int(t, "runs", (long long)row->runs) ||
            gp_table_set_number(t, "cv", row->cv) || gp_table_set_text(t, "date", "%s", date) ||
            (info->driver[0] && gp_table_set_text(t, "driver", "%s", info->driver)) ||
            (info->runtime[0] && gp_table_set_text(t, "runtime", "%s", info->runtime)) ||
            (info->clock_mhz > 0 && gp_table_set_int(t, "clock_mhz", (long long)info->clock_mhz)) ||
            (info->power_limit_w > 0 &&
             gp_table_set_int(t, "power_limit_w", (long long)info->power_limit_w)) ||
            gp_table_set_number(t, "median", row->median) ||
            gp_table_set_number(t, "deviation_pct", row->deviation * 100.0) ||
            gp_table_set_int(t, "gpus_in_group", (long long)row->group) ||
            gp_table_set_text(t, "status", "%s", status_of(row));
    return rc ? GP_ENOMEM : 0;
}

/* Which run a curve came from: curves are laid out run by run, fit by fit. */
static size_t run_of(const struct gp_calibration *runs, size_t curve)
{
    size_t r = 0;
    while (curve >= runs[r].fit_count) {
        curve -= runs[r].fit_count;
        r++;
    }
    return r;
}

/* Render the rows; *suspects receives how many are suspect. */
static int show_rows(struct gp_cli *cli, const struct gp_fleet_row *rows, size_t nrows,
                     const struct gp_fleet_curve *curves, const struct gp_calibration *runs,
                     const struct run_info *infos, size_t *suspects)
{
    struct gp_table table;
    int rc = 0;

    *suspects = 0;
    gp_table_init(&table, list_columns, sizeof(list_columns) / sizeof(list_columns[0]));
    for (size_t i = 0; rc == 0 && i < nrows; i++) {
        rc = add_row(&table, &rows[i], &curves[rows[i].newest],
                     &infos[run_of(runs, rows[i].newest)]);
        *suspects += rows[i].low || rows[i].unstable;
    }
    rc = rc ? gp_cli_fail() : gp_cli_output(cli, &table, SIZE_MAX);
    gp_table_release(&table);
    return rc;
}

/* A percentage flag into a fraction. */
static int percent_flag(struct gp_cli *cli, const char *flag, const char *text, double *out)
{
    if (gp_text_to_double(text, out) != 0 || *out < 0 || *out > 100)
        return gp_cli_usage_error(cli, "--%s: \"%s\" is not a percentage from 0 to 100", flag,
                                  text);
    *out /= 100.0;
    return GP_EXIT_OK;
}

static int fleet_list(struct gp_cli *cli, const struct gp_fleet_options *options)
{
    struct gp_store *store = NULL;
    struct gp_calibration *runs = NULL;
    struct run_info *infos = NULL;
    struct gp_fleet_curve *curves = NULL;
    struct gp_fleet_row *rows = NULL;
    size_t nruns = 0, ncurves = 0, nrows = 0, suspects = 0;
    int rc = gp_cli_store_read(cli, &store);

    if (rc)
        return rc;
    if (gp_store_calibrations_list(store, &runs, &nruns))
        return gp_cli_fail();
    infos = calloc(nruns ? nruns : 1, sizeof(*infos));
    if (!infos) {
        rc = gp_error_set(GP_ENOMEM, "out of memory reading calibrations");
        goto done;
    }
    for (size_t r = 0; r < nruns; r++)
        read_conditions(&infos[r], &runs[r]);
    rc = collect_curves(&curves, &ncurves, runs, infos, nruns);
    if (!rc)
        rc = gp_fleet_view(&rows, &nrows, curves, ncurves, options);
    if (!rc && nrows == 0 && nruns == 0)
        rc = gp_error_set(GP_ESTALE, "no calibrations stored: run `gpuplan calibrate` or "
                                     "`gpuplan calibrate import FILE`");
    else if (!rc && nrows == 0)
        rc = gp_error_set(GP_ESTALE,
                          "%zu calibration run(s) stored, none with a fitted curve (too few "
                          "points measured: run a calibration without --quick)",
                          nruns);
    if (rc)
        goto done;
    rc = show_rows(cli, rows, nrows, curves, runs, infos, &suspects);
    if (!rc && suspects) {
        gp_msg_warn("%zu of %zu GPU curve(s) suspect: more than %.1f%% below their fleet median "
                    "or with a CV over %.1f%%",
                    suspects, nrows, options->max_below * 100.0, options->max_cv * 100.0);
        rc = GP_EXIT_NO_DATA;
    } else if (!rc) {
        gp_msg_info("%zu GPU curve(s) from %zu run(s), none suspect", nrows, nruns);
    }

done:
    if (rc < 0)
        rc = gp_cli_fail();
    free(rows);
    free(curves);
    free(infos);
    gp_calibrations_free(runs, nruns);
    return rc;
}

int gp_cmd_calibrate_list(struct gp_cli *cli, int argc, char **argv)
{
    const char *threshold = "7", *max_cv = "5";
    const struct gp_opt opts[] = {
        {"threshold", 0, GP_OPT_STRING, &threshold, "PCT",
         "suspect when more than PCT% below the fleet median (default 7)"},
        {"max-cv", 0, GP_OPT_STRING, &max_cv, "PCT",
         "suspect when the runs vary by a CV over PCT% (default 5)"},
        GP_OPT_END,
    };
    struct gp_fleet_options options = {GP_FLEET_MAX_BELOW, GP_FLEET_MAX_CV};
    int rc = gp_cli_parse_options(cli, "calibrate", opts, argc, argv);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    if ((rc = percent_flag(cli, "threshold", threshold, &options.max_below)) ||
        (rc = percent_flag(cli, "max-cv", max_cv, &options.max_cv)))
        return rc;
    return fleet_list(cli, &options);
}
