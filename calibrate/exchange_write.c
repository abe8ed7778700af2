/* Calibration exchange files: the JSON export of runs, written without a JSON library so that
 * the fallback calibration driver writes the same file as gpuplan. */
#include "calibrate/exchange.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/jsonw.h"
#include "util/outfile.h"
#include "util/timeutil.h"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "unknown"
#endif

static void point_json(struct gp_jsonw *w, const struct gp_calibration_point *p)
{
    gp_jsonw_open(w, NULL, '{');
    gp_jsonw_string(w, "kernel", p->kernel);
    gp_jsonw_string(w, "precision", p->precision);
    gp_jsonw_string(w, "impl", p->impl);
    gp_jsonw_number(w, "m", p->m);
    gp_jsonw_number(w, "n", p->n);
    gp_jsonw_number(w, "k", p->k);
    gp_jsonw_number(w, "bytes", (double)p->bytes);
    gp_jsonw_number(w, "size", p->size);
    gp_jsonw_number(w, "median", p->median);
    gp_jsonw_number(w, "p10", p->p10);
    gp_jsonw_number(w, "p90", p->p90);
    gp_jsonw_number(w, "cv", p->cv);
    gp_jsonw_number(w, "repetitions", p->repetitions);
    gp_jsonw_number(w, "warmups", p->warmups);
    gp_jsonw_number(w, "max_error", p->max_error);
    gp_jsonw_number(w, "residual", p->residual);
    gp_jsonw_close(w, '}');
}

static void fit_json(struct gp_jsonw *w, const struct gp_calibration_fit *f)
{
    gp_jsonw_open(w, NULL, '{');
    gp_jsonw_string(w, "kernel", f->kernel);
    gp_jsonw_string(w, "precision", f->precision);
    gp_jsonw_number(w, "eff_max", f->eff_max);
    gp_jsonw_number(w, "s_half", f->s_half);
    gp_jsonw_number(w, "eff_max_se", f->eff_max_se);
    gp_jsonw_number(w, "s_half_se", f->s_half_se);
    gp_jsonw_number(w, "rmse", f->rmse);
    gp_jsonw_number(w, "r2", f->r2);
    gp_jsonw_number(w, "peak", f->peak);
    gp_jsonw_number(w, "points", f->points);
    gp_jsonw_close(w, '}');
}

static void run_json(struct gp_jsonw *w, const struct gp_calibration *c)
{
    char stamp[32];

    gp_time_format_stamp(c->started_at, stamp, sizeof(stamp));
    gp_jsonw_open(w, NULL, '{');
    gp_jsonw_string(w, "fingerprint", c->fingerprint);
    if (c->gpu_id[0])
        gp_jsonw_string(w, "gpu_id", c->gpu_id);
    else
        gp_jsonw_null(w, "gpu_id");
    gp_jsonw_string(w, "backend", c->backend);
    gp_jsonw_string(w, "device_name", c->device_name);
    gp_jsonw_string(w, "host", c->host);
    gp_jsonw_string(w, "started_at", stamp);
    /* Stored as JSON object text (by the runner or an import): copied as it is. */
    gp_jsonw_raw(w, "conditions", c->conditions && c->conditions[0] == '{' ? c->conditions : "{}");
    gp_jsonw_open(w, "points", '[');
    for (size_t i = 0; i < c->point_count; i++)
        point_json(w, &c->points[i]);
    gp_jsonw_close(w, ']');
    gp_jsonw_open(w, "fits", '[');
    for (size_t i = 0; i < c->fit_count; i++)
        fit_json(w, &c->fits[i]);
    gp_jsonw_close(w, ']');
    gp_jsonw_close(w, '}');
}

int gp_exchange_format(char **out, const struct gp_calibration *runs, size_t count)
{
    struct gp_jsonw w;

    gp_jsonw_init(&w, 1);
    gp_jsonw_open(&w, NULL, '{');
    gp_jsonw_string(&w, "format", GP_EXCHANGE_FORMAT);
    gp_jsonw_number(&w, "schema_version", GP_EXCHANGE_VERSION);
    gp_jsonw_string(&w, "exported_by", "gpuplan " GPUPLAN_VERSION);
    gp_jsonw_open(&w, "calibrations", '[');
    for (size_t i = 0; i < count; i++)
        run_json(&w, &runs[i]);
    gp_jsonw_close(&w, ']');
    gp_jsonw_close(&w, '}');
    *out = gp_jsonw_finish(&w);
    return *out ? 0 : gp_error_set(GP_ENOMEM, "out of memory formatting calibrations");
}

int gp_exchange_write(const char *path, const struct gp_calibration *runs, size_t count)
{
    struct gp_outfile out;
    char *text = NULL;
    FILE *stream;
    int rc = gp_exchange_format(&text, runs, count);

    if (rc == 0 && (rc = gp_outfile_open(&out, path)) == 0) {
        if (!(stream = gp_outfile_stream(&out)))
            rc = GP_ERROR;
        else if (fputs(text, stream) == EOF || fputc('\n', stream) == EOF)
            rc = gp_error_set(GP_ERROR, "cannot write %s", path);
        if (rc)
            gp_outfile_abort(&out);
        else
            rc = gp_outfile_commit(&out);
    }
    free(text);
    return rc;
}
