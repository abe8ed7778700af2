/* Calibration runs in SQLite: one transaction per write, fingerprints for de-duplication, and
 * the newest fitted curves per GPU id for the planner. */
#include "store/calibrations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/error.h"

void gp_calibrations_free(struct gp_calibration *runs, size_t count)
{
    if (!runs)
        return;
    for (size_t i = 0; i < count; i++)
        gp_calibration_release(&runs[i]);
    free(runs);
}

static int known(struct gp_store *store, const void *items, size_t i)
{
    return gp_store__known(store, "SELECT 1 FROM calibrations WHERE fingerprint = ?1",
                           ((const struct gp_calibration *)items)[i].fingerprint,
                           "cannot look up a calibration");
}

static int insert_points(struct gp_store *store, int64_t id, const struct gp_calibration *run)
{
    static const char sql[] =
        "INSERT INTO calibration_points (calibration_id, kernel, precision, m, n, k, bytes, "
        "median, p10, p90, cv, repetitions, impl, size, warmups, max_error, residual) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)";
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, sql);

    for (size_t i = 0; rc == 0 && i < run->point_count; i++) {
        const struct gp_calibration_point *p = &run->points[i];
        sqlite3_reset(stmt);
        sqlite3_bind_int64(stmt, 1, id);
        gp_store__bind_text(store, stmt, 2, p->kernel);
        gp_store__bind_text(store, stmt, 3, p->precision);
        sqlite3_bind_int(stmt, 4, p->m);
        sqlite3_bind_int(stmt, 5, p->n);
        sqlite3_bind_int(stmt, 6, p->k);
        sqlite3_bind_int64(stmt, 7, (sqlite3_int64)p->bytes);
        sqlite3_bind_double(stmt, 8, p->median);
        sqlite3_bind_double(stmt, 9, p->p10);
        sqlite3_bind_double(stmt, 10, p->p90);
        sqlite3_bind_double(stmt, 11, p->cv);
        sqlite3_bind_int(stmt, 12, p->repetitions);
        gp_store__bind_text(store, stmt, 13, p->impl);
        sqlite3_bind_double(stmt, 14, p->size);
        sqlite3_bind_int(stmt, 15, p->warmups);
        sqlite3_bind_double(stmt, 16, p->max_error);
        sqlite3_bind_double(stmt, 17, p->residual);
        if (gp_store__step(store, stmt) != SQLITE_DONE)
            rc = gp_store__fail(store, "cannot save a calibration point");
    }
    sqlite3_finalize(stmt);
    return rc;
}

static int insert_fits(struct gp_store *store, int64_t id, const struct gp_calibration *run)
{
    static const char sql[] =
        "INSERT INTO calibration_fits (calibration_id, kernel, precision, eff_max, s_half, rmse, "
        "r2, points, eff_max_se, s_half_se, peak) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, sql);

    for (size_t i = 0; rc == 0 && i < run->fit_count; i++) {
        const struct gp_calibration_fit *f = &run->fits[i];
        sqlite3_reset(stmt);
        sqlite3_bind_int64(stmt, 1, id);
        gp_store__bind_text(store, stmt, 2, f->kernel);
        gp_store__bind_text(store, stmt, 3, f->precision);
        sqlite3_bind_double(stmt, 4, f->eff_max);
        sqlite3_bind_double(stmt, 5, f->s_half);
        sqlite3_bind_double(stmt, 6, f->rmse);
        sqlite3_bind_double(stmt, 7, f->r2);
        sqlite3_bind_int(stmt, 8, f->points);
        sqlite3_bind_double(stmt, 9, f->eff_max_se);
        sqlite3_bind_double(stmt, 10, f->s_half_se);
        sqlite3_bind_double(stmt, 11, f->peak);
        if (gp_store__step(store, stmt) != SQLITE_DONE)
            rc = gp_store__fail(store, "cannot save a calibration fit");
    }
    sqlite3_finalize(stmt);
    return rc;
}

static int insert_run(struct gp_store *store, const struct gp_calibration *run)
{
    static const char sql[] =
        "INSERT INTO calibrations (fingerprint, gpu_id, backend, device_name, host, started_at, "
        "conditions) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, sql);

    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, run->fingerprint);
    gp_store__bind_text(store, stmt, 2, run->gpu_id[0] ? run->gpu_id : NULL);
    gp_store__bind_text(store, stmt, 3, run->backend);
    gp_store__bind_text(store, stmt, 4, run->device_name);
    gp_store__bind_text(store, stmt, 5, run->host);
    sqlite3_bind_int64(stmt, 6, run->started_at);
    gp_store__bind_text(store, stmt, 7, run->conditions ? run->conditions : "{}");
    if (gp_store__step(store, stmt) != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot save a calibration run");
    sqlite3_finalize(stmt);
    if (rc)
        return rc;
    int64_t id = sqlite3_last_insert_rowid(store->db);
    rc = insert_points(store, id, run);
    if (rc == 0)
        rc = insert_fits(store, id, run);
    return rc;
}

/* gp_store_unique's writer: one run with its points and fits. */
static int insert_item(struct gp_store *store, const void *items, size_t i)
{
    return insert_run(store, (const struct gp_calibration *)items + i);
}

int gp_store_calibrations_insert(struct gp_store *store, const struct gp_calibration *runs,
                                 size_t count, int *inserted, size_t *added, size_t *skipped)
{
    const struct gp_store_unique u = {runs, known, insert_item};

    for (size_t i = 0; i < count; i++)
        if (!runs[i].fingerprint[0])
            return gp_error_set(GP_EINVALID, "calibration run %zu has no fingerprint", i + 1);
    return gp_store__insert_new(store, &u, count, inserted, added, skipped);
}

static int load_points(struct gp_store *store, int64_t id, struct gp_calibration *run)
{
    static const char sql[] =
        "SELECT kernel, precision, m, n, k, bytes, median, p10, p90, cv, repetitions, impl, "
        "size, warmups, max_error, residual FROM calibration_points WHERE calibration_id = ?1 "
        "ORDER BY rowid";
    sqlite3_stmt *stmt = NULL;
    size_t cap = 0;
    int rc = gp_store__prepare(store, &stmt, sql), step;

    if (rc)
        return rc;
    sqlite3_bind_int64(stmt, 1, id);
    while ((step = gp_store__step(store, stmt)) == SQLITE_ROW) {
        struct gp_calibration_point *p =
            gp_store__grow((void **)&run->points, &cap, run->point_count, sizeof(*p));
        if (!p) {
            rc = gp_error_set(GP_ENOMEM, "out of memory reading calibrations");
            break;
        }
        memset(p, 0, sizeof(*p));
        gp_store__column_text(store, stmt, 0, p->kernel, sizeof(p->kernel));
        gp_store__column_text(store, stmt, 1, p->precision, sizeof(p->precision));
        p->m = sqlite3_column_int(stmt, 2);
        p->n = sqlite3_column_int(stmt, 3);
        p->k = sqlite3_column_int(stmt, 4);
        p->bytes = (uint64_t)sqlite3_column_int64(stmt, 5);
        p->median = sqlite3_column_double(stmt, 6);
        p->p10 = sqlite3_column_double(stmt, 7);
        p->p90 = sqlite3_column_double(stmt, 8);
        p->cv = sqlite3_column_double(stmt, 9);
        p->repetitions = sqlite3_column_int(stmt, 10);
        gp_store__column_text(store, stmt, 11, p->impl, sizeof(p->impl));
        p->size = sqlite3_column_double(stmt, 12);
        p->warmups = sqlite3_column_int(stmt, 13);
        p->max_error = sqlite3_column_double(stmt, 14);
        p->residual = sqlite3_column_double(stmt, 15);
        run->point_count++;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot read calibration points");
    sqlite3_finalize(stmt);
    return rc;
}

static int load_fits(struct gp_store *store, int64_t id, struct gp_calibration *run)
{
    static const char sql[] =
        "SELECT kernel, precision, eff_max, s_half, rmse, r2, points, eff_max_se, s_half_se, "
        "peak FROM calibration_fits WHERE calibration_id = ?1 ORDER BY kernel, precision";
    sqlite3_stmt *stmt = NULL;
    size_t cap = 0;
    int rc = gp_store__prepare(store, &stmt, sql), step;

    if (rc)
        return rc;
    sqlite3_bind_int64(stmt, 1, id);
    while ((step = gp_store__step(store, stmt)) == SQLITE_ROW) {
        struct gp_calibration_fit *f =
            gp_store__grow((void **)&run->fits, &cap, run->fit_count, sizeof(*f));
        if (!f) {
            rc = gp_error_set(GP_ENOMEM, "out of memory reading calibrations");
            break;
        }
        memset(f, 0, sizeof(*f));
        gp_store__column_text(store, stmt, 0, f->kernel, sizeof(f->kernel));
        gp_store__column_text(store, stmt, 1, f->precision, sizeof(f->precision));
        f->eff_max = sqlite3_column_double(stmt, 2);
        f->s_half = sqlite3_column_double(stmt, 3);
        f->rmse = sqlite3_column_double(stmt, 4);
        f->r2 = sqlite3_column_double(stmt, 5);
        f->points = sqlite3_column_int(stmt, 6);
        f->eff_max_se = sqlite3_column_double(stmt, 7);
        f->s_half_se = sqlite3_column_double(stmt, 8);
        f->peak = sqlite3_column_double(stmt, 9);
        run->fit_count++;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot read calibration fits");
    sqlite3_finalize(stmt);
    return rc;
}

int gp_store_calibrations_list(struct gp_store *store, struct gp_calibration **out, size_t *count)
{
    static const char sql[] = "SELECT id, fingerprint, gpu_id, backend, device_name, host, "
                              "started_at, conditions FROM calibrations ORDER BY started_at, id";
    sqlite3_stmt *stmt = NULL;
    struct gp_calibration *runs = NULL;
    size_t n = 0, cap = 0;
    int rc = gp_store__prepare(store, &stmt, sql), step;

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    while ((step = gp_store__step(store, stmt)) == SQLITE_ROW) {
        struct gp_calibration *r = gp_store__grow((void **)&runs, &cap, n, sizeof(*r));
        if (!r) {
            rc = gp_error_set(GP_ENOMEM, "out of memory reading calibrations");
            break;
        }
        memset(r, 0, sizeof(*r));
        n++;
        int64_t id = sqlite3_column_int64(stmt, 0);
        gp_store__column_text(store, stmt, 1, r->fingerprint, sizeof(r->fingerprint));
        gp_store__column_text(store, stmt, 2, r->gpu_id, sizeof(r->gpu_id));
        gp_store__column_text(store, stmt, 3, r->backend, sizeof(r->backend));
        gp_store__column_text(store, stmt, 4, r->device_name, sizeof(r->device_name));
        gp_store__column_text(store, stmt, 5, r->host, sizeof(r->host));
        r->started_at = sqlite3_column_int64(stmt, 6);
        const char *cond = gp_store__column_str(store, stmt, 7);
        r->conditions = strdup(cond ? (const char *)cond : "{}");
        if (!r->conditions) {
            rc = gp_error_set(GP_ENOMEM, "out of memory reading calibrations");
            break;
        }
        rc = load_points(store, id, r);
        if (rc == 0)
            rc = load_fits(store, id, r);
        if (rc)
            break;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot read calibrations");
    sqlite3_finalize(stmt);
    if (rc) {
        gp_calibrations_free(runs, n);
        return rc;
    }
    *out = runs;
    *count = n;
    return 0;
}

int gp_store_calibration_fits_for_gpu(struct gp_store *store, const char *gpu_id,
                                      struct gp_calibration_curve **out, size_t *count)
{
    static const char sql[] =
        "SELECT f.kernel, f.precision, f.eff_max, f.s_half, f.peak, f.r2, f.points, c.host,"
        " c.started_at, c.fingerprint, c.gpu_id,"
        " CASE WHEN json_valid(c.conditions) THEN"
        "  COALESCE(json_extract(c.conditions, '$.device_index'), 0) ELSE 0 END"
        " FROM calibration_fits f JOIN calibrations c ON c.id = f.calibration_id"
        " WHERE (?1 IS NULL OR c.gpu_id = ?1) AND c.gpu_id <> '' AND f.peak > 0"
        " ORDER BY c.started_at, c.id, f.kernel, f.precision";
    sqlite3_stmt *stmt = NULL;
    struct gp_calibration_curve *list = NULL;
    size_t n = 0, cap = 0;
    int rc = gp_store__prepare(store, &stmt, sql), step;

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, gpu_id);
    while ((step = gp_store__step(store, stmt)) == SQLITE_ROW) {
        struct gp_calibration_curve *c = gp_store__grow((void **)&list, &cap, n, sizeof(*c));
        if (!c) {
            rc = gp_error_set(GP_ENOMEM, "out of memory reading calibrations");
            break;
        }
        memset(c, 0, sizeof(*c));
        gp_store__column_text(store, stmt, 0, c->kernel, sizeof(c->kernel));
        gp_store__column_text(store, stmt, 1, c->precision, sizeof(c->precision));
        c->eff_max = sqlite3_column_double(stmt, 2);
        c->s_half = sqlite3_column_double(stmt, 3);
        c->peak = sqlite3_column_double(stmt, 4);
        c->r2 = sqlite3_column_double(stmt, 5);
        c->points = sqlite3_column_int(stmt, 6);
        gp_store__column_text(store, stmt, 7, c->host, sizeof(c->host));
        c->started_at = sqlite3_column_int64(stmt, 8);
        gp_store__column_text(store, stmt, 9, c->fingerprint, sizeof(c->fingerprint));
        gp_store__column_text(store, stmt, 10, c->gpu_id, sizeof(c->gpu_id));
        c->device = sqlite3_column_int(stmt, 11);
        n++;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot read calibration fits");
    sqlite3_finalize(stmt);
    if (rc) {
        free(list);
        return rc;
    }
    *out = list;
    *count = n;
    return 0;
}
