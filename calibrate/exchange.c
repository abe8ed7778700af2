/* Calibration exchange files: the strict, located-error import parser (the export is written
 * by exchange_write.c). */
#include "calibrate/exchange.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "catalog/catalog.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"
#include "util/timeutil.h"

static const char *const kernels[] = {"copy", "scale", "add", "triad", "read", "gemm", NULL};
static const char *const precisions[] = {"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", NULL};
static const char *const fit_kernels[] = {"bandwidth", "gemm", NULL};

/* ---- import ---------------------------------------------------------------------------- */

static int one_of(const struct gp_json_reader *r, const char *key, const char *value,
                  const char *const *allowed, int empty_ok)
{
    if (empty_ok && !value[0])
        return 0;
    for (size_t i = 0; allowed[i]; i++)
        if (strcmp(value, allowed[i]) == 0)
            return 0;
    const char *near = gp_text_nearest(value, allowed);
    return gp_json_fail(r, key, "unknown value \"%s\"%s%s%s", value,
                        near ? "; did you mean \"" : "", near ? near : "", near ? "\"?" : "");
}

/* The believable range of every number of an export, in the units of struct
 * gp_calibration_point and gp_calibration_fit: an import is refused before any value is converted
 * or stored, so no out-of-range double reaches an integer cast. */
static const struct field_range {
    const char *key;
    double min, max;
} field_ranges[] = {
    {"m", 0, 1 << 24},       {"n", 0, 1 << 24},
    {"k", 0, 1 << 24},       {"bytes", 0, 0x1p53},
    {"size", 0, 1e21},       {"median", 0, 1e7},
    {"p10", 0, 1e7},         {"p90", 0, 1e7},
    {"cv", 0, 100},          {"repetitions", 0, 1 << 24},
    {"warmups", 0, 1 << 24}, {"max_error", 0, 1e6},
    {"residual", -1e7, 1e7}, {"eff_max", 0, 1e7},
    {"s_half", 0, 1e21},     {"eff_max_se", 0, 1e7},
    {"s_half_se", 0, 1e21},  {"rmse", 0, 1e7},
    {"r2", -1e6, 1},         {"peak", 0, 1e7},
    {"points", 0, 1 << 24},
};

/* Refuse `v` for `key` when it is outside the field's range. */
static int in_range(const struct gp_json_reader *r, const char *key, double v)
{
    for (size_t i = 0; i < sizeof(field_ranges) / sizeof(field_ranges[0]); i++) {
        const struct field_range *f = &field_ranges[i];
        if (strcmp(f->key, key) == 0 && (v < f->min || v > f->max))
            return gp_json_fail(r, key, "%g is outside [%g, %g]", v, f->min, f->max);
    }
    return 0;
}

/* A finite number >= 0 (or any finite number when `signed_ok`) in the field's range. */
static int number(const struct gp_json_reader *r, const cJSON *obj, const char *key, double *out,
                  int signed_ok)
{
    int rc = gp_json_number(r, obj, key, out, GP_JSON_REQUIRED);
    if (rc == 0 && !signed_ok && *out < 0)
        return gp_json_fail(r, key, "must not be negative");
    return rc ? rc : in_range(r, key, *out);
}

static int count_field(const struct gp_json_reader *r, const cJSON *obj, const char *key, int *out)
{
    int rc = gp_json_int(r, obj, key, out, GP_JSON_REQUIRED);
    if (rc == 0 && *out < 0)
        return gp_json_fail(r, key, "must not be negative");
    return rc ? rc : in_range(r, key, *out);
}

/* How far ahead of the clock a run's start may be: clocks of the nodes differ a little. */
#define GP_STARTED_AHEAD_MAX_S 86400

static int parse_point(struct gp_json_reader *r, const cJSON *o, struct gp_calibration_point *p)
{
    static const char *const keys[] = {
        "kernel",      "precision", "impl",      "m",        "n",   "k",
        "bytes",       "size",      "median",    "p10",      "p90", "cv",
        "repetitions", "warmups",   "max_error", "residual", NULL};
    double bytes = 0;
    int rc;

    memset(p, 0, sizeof(*p));
    if (!cJSON_IsObject(o))
        return gp_json_fail(r, NULL, "must be an object");
    if ((rc = gp_json_check_keys(r, o, keys)) ||
        (rc = gp_json_string(r, o, "kernel", p->kernel, sizeof(p->kernel), 0)) ||
        (rc = one_of(r, "kernel", p->kernel, kernels, 0)) ||
        (rc = gp_json_string(r, o, "precision", p->precision, sizeof(p->precision), 0)) ||
        (rc = one_of(r, "precision", p->precision, precisions, 1)) ||
        (rc = gp_json_string(r, o, "impl", p->impl, sizeof(p->impl), 0)) ||
        (rc = count_field(r, o, "m", &p->m)) || (rc = count_field(r, o, "n", &p->n)) ||
        (rc = count_field(r, o, "k", &p->k)) || (rc = number(r, o, "bytes", &bytes, 0)) ||
        (rc = number(r, o, "size", &p->size, 0)) || (rc = number(r, o, "median", &p->median, 0)) ||
        (rc = number(r, o, "p10", &p->p10, 0)) || (rc = number(r, o, "p90", &p->p90, 0)) ||
        (rc = number(r, o, "cv", &p->cv, 0)) ||
        (rc = count_field(r, o, "repetitions", &p->repetitions)) ||
        (rc = count_field(r, o, "warmups", &p->warmups)) ||
        (rc = number(r, o, "max_error", &p->max_error, 0)) ||
        (rc = number(r, o, "residual", &p->residual, 1)))
        return rc;
    if (bytes != floor(bytes))
        return gp_json_fail(r, "bytes", "%g is not a whole number of bytes", bytes);
    p->bytes = (uint64_t)bytes;
    if ((strcmp(p->kernel, "gemm") == 0) != (p->precision[0] != '\0'))
        return gp_json_fail(r, "precision", "gemm points need a precision, bandwidth points none");
    if (p->repetitions < 1)
        return gp_json_fail(r, "repetitions", "must be at least 1");
    if (p->max_error > 1.0)
        return gp_json_fail(r, "max_error", "%g: the point failed verification", p->max_error);
    if (p->p10 > p->p90)
        return gp_json_fail(r, "p10", "%g is above p90 (%g)", p->p10, p->p90);
    if (p->median < p->p10 || p->median > p->p90)
        return gp_json_fail(r, "median", "%g is outside [p10, p90] = [%g, %g]", p->median, p->p10,
                            p->p90);
    return 0;
}

static int parse_fit(struct gp_json_reader *r, const cJSON *o, struct gp_calibration_fit *f)
{
    static const char *const keys[] = {"kernel",     "precision", "eff_max", "s_half",
                                       "eff_max_se", "s_half_se", "rmse",    "r2",
                                       "peak",       "points",    NULL};
    int rc;

    memset(f, 0, sizeof(*f));
    if (!cJSON_IsObject(o))
        return gp_json_fail(r, NULL, "must be an object");
    if ((rc = gp_json_check_keys(r, o, keys)) ||
        (rc = gp_json_string(r, o, "kernel", f->kernel, sizeof(f->kernel), 0)) ||
        (rc = one_of(r, "kernel", f->kernel, fit_kernels, 0)) ||
        (rc = gp_json_string(r, o, "precision", f->precision, sizeof(f->precision), 0)) ||
        (rc = one_of(r, "precision", f->precision, precisions, 1)) ||
        (rc = number(r, o, "eff_max", &f->eff_max, 0)) ||
        (rc = number(r, o, "s_half", &f->s_half, 0)) ||
        (rc = number(r, o, "eff_max_se", &f->eff_max_se, 0)) ||
        (rc = number(r, o, "s_half_se", &f->s_half_se, 0)) ||
        (rc = number(r, o, "rmse", &f->rmse, 0)) || (rc = number(r, o, "r2", &f->r2, 1)) ||
        (rc = number(r, o, "peak", &f->peak, 0)) || (rc = count_field(r, o, "points", &f->points)))
        return rc;
    if (f->peak > 0 && f->eff_max > 1.0)
        return gp_json_fail(r, "eff_max", "%g is above 100%% of the datasheet peak", f->eff_max);
    return 0;
}

static int read_point(struct gp_json_reader *r, const cJSON *item, void *points, size_t index,
                      const void *unused)
{
    (void)unused;
    return parse_point(r, item, (struct gp_calibration_point *)points + index);
}

static int read_fit(struct gp_json_reader *r, const cJSON *item, void *fits, size_t index,
                    const void *unused)
{
    (void)unused;
    return parse_fit(r, item, (struct gp_calibration_fit *)fits + index);
}

static int parse_run(struct gp_json_reader *r, const cJSON *o, struct gp_calibration *c,
                     const struct gp_catalog *catalog)
{
    static const char *const keys[] = {"fingerprint", "gpu_id",     "backend",    "device_name",
                                       "host",        "started_at", "conditions", "points",
                                       "fits",        NULL};
    char stamp[40];
    const cJSON *cond;
    int rc;

    if (!cJSON_IsObject(o))
        return gp_json_fail(r, NULL, "must be an object");
    if ((rc = gp_json_check_keys(r, o, keys)) ||
        (rc = gp_json_string(r, o, "fingerprint", c->fingerprint, sizeof(c->fingerprint), 0)) ||
        (rc = gp_json_string(r, o, "gpu_id", c->gpu_id, sizeof(c->gpu_id), GP_JSON_NULLABLE)) ||
        (rc = gp_json_string(r, o, "backend", c->backend, sizeof(c->backend), 0)) ||
        (rc = gp_json_string(r, o, "device_name", c->device_name, sizeof(c->device_name), 0)) ||
        (rc = gp_json_string(r, o, "host", c->host, sizeof(c->host), 0)) ||
        (rc = gp_json_string(r, o, "started_at", stamp, sizeof(stamp), 0)) ||
        (rc = gp_json_child(r, o, "conditions", false, &cond, GP_JSON_REQUIRED)))
        return rc;
    if (strlen(c->fingerprint) < 16 ||
        strspn(c->fingerprint, "0123456789abcdef") != strlen(c->fingerprint))
        return gp_json_fail(r, "fingerprint", "must be 16 to 32 lowercase hex digits");
    if (gp_time_parse(stamp, &c->started_at) != 0)
        return gp_json_fail(r, "started_at", "\"%s\" is not a date-time like 2026-09-01T12:00:00Z",
                            stamp);
    /* a run dated ahead would stay the fleet's newest for good (calibrate list) */
    if (c->started_at > gp_time_now() + GP_STARTED_AHEAD_MAX_S)
        return gp_json_fail(r, "started_at", "%s is more than a day ahead of the clock", stamp);
    if (c->started_at < GP_TIME_EARLIEST)
        return gp_json_fail(
            r, "started_at",
            "%s is before " GP_TIME_EARLIEST_TEXT ", older than any GPU gpuplan plans", stamp);
    if (c->gpu_id[0] && catalog) {
        const struct gp_gpu *unused;
        if (gp_catalog_require(catalog, c->gpu_id, &unused) != 0) {
            char why[512];
            gp_text_copy(why, sizeof(why), gp_error_last());
            return gp_json_fail(r, "gpu_id", "%s", why);
        }
    }
    c->conditions = gp_json_print(cond, false);
    if (!c->conditions)
        return gp_error_set(GP_ENOMEM, "out of memory reading %s", r->file);
    rc = gp_json_read_list((void **)&c->points, &c->point_count, r, o, "points", sizeof(*c->points),
                           read_point, NULL);
    if (rc == 0)
        rc = gp_json_read_list((void **)&c->fits, &c->fit_count, r, o, "fits", sizeof(*c->fits),
                               read_fit, NULL);
    if (rc == 0 && c->point_count == 0)
        return gp_json_fail(r, "points", "a calibration needs at least one point");
    return rc;
}

static int read_run(struct gp_json_reader *r, const cJSON *item, void *runs, size_t index,
                    const void *catalog)
{
    struct gp_calibration *run = (struct gp_calibration *)runs + index;
    int rc = parse_run(r, item, run, catalog);

    if (rc)
        gp_calibration_release(run); /* what the run had read before it failed */
    return rc;
}

static void free_runs(struct gp_calibration *runs, size_t count)
{
    for (size_t i = 0; runs && i < count; i++)
        gp_calibration_release(&runs[i]);
    free(runs);
}

int gp_exchange_parse(struct gp_calibration **out, size_t *count, const char *text, size_t len,
                      const char *file, const struct gp_catalog *catalog)
{
    static const char *const keys[] = {"format", "schema_version", "exported_by", "calibrations",
                                       NULL};
    struct gp_json_reader r;
    struct gp_calibration *runs = NULL;
    cJSON *root = NULL;
    char format[64], exported_by[64];
    int version, rc;
    size_t n = 0;

    *out = NULL;
    *count = 0;
    rc = gp_json_parse(&root, text, len, file);
    if (rc)
        return rc;
    gp_json_reader_init(&r, file, text, len);
    if (!cJSON_IsObject(root)) {
        rc = gp_json_fail(&r, NULL, "must be an object");
        goto done;
    }
    if ((rc = gp_json_check_keys(&r, root, keys)) ||
        (rc = gp_json_string(&r, root, "format", format, sizeof(format), 0)))
        goto done;
    if (strcmp(format, GP_EXCHANGE_FORMAT) != 0) {
        rc = gp_json_fail(&r, "format", "is \"%s\", expected \"%s\"", format, GP_EXCHANGE_FORMAT);
        goto done;
    }
    if ((rc = gp_json_int(&r, root, "schema_version", &version, 0)))
        goto done;
    if (version > GP_EXCHANGE_VERSION) {
        rc = gp_json_fail(&r, "schema_version",
                          "%d: the file was written by a newer gpuplan (this one reads schema 1 "
                          "to %d); upgrade gpuplan where you import",
                          version, GP_EXCHANGE_VERSION);
        goto done;
    }
    if (version < 1) {
        rc = gp_json_fail(&r, "schema_version", "%d is not a schema version (1 to %d)", version,
                          GP_EXCHANGE_VERSION);
        goto done;
    }
    /* Schema 1 had no exported_by; from 2 on it is required. */
    if (version >= 2 &&
        (rc = gp_json_string(&r, root, "exported_by", exported_by, sizeof(exported_by), 0)))
        goto done;
    rc = gp_json_read_list((void **)&runs, &n, &r, root, "calibrations", sizeof(*runs), read_run,
                           catalog);

done:
    cJSON_Delete(root);
    if (rc) {
        free_runs(runs, n);
        return rc;
    }
    *out = runs;
    *count = n;
    return 0;
}

int gp_exchange_read(struct gp_calibration **out, size_t *count, const char *path,
                     const struct gp_catalog *catalog)
{
    struct gp_buf buf;
    int rc;

    *out = NULL;
    *count = 0;
    gp_buf_init(&buf, GP_EXCHANGE_MAX_BYTES);
    rc = gp_buf_read_file(&buf, path);
    if (rc == 0)
        rc = gp_exchange_parse(out, count, gp_buf_str(&buf), buf.len, path, catalog);
    gp_buf_release(&buf);
    return rc;
}
