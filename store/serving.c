/* Serving calibrations in SQLite: one transaction per import, fingerprints against repeats. */
#include "store/serving.h"

#include <string.h>

#include "store/store_int.h"
#include "util/error.h"

#define COLUMNS                                                                                    \
    "fingerprint, gpu_id, stack, model, model_class, format, origin, line, layout, gpus, "         \
    "concurrency, precision, input_tokens, output_tokens, measured_per_gpu, predicted_per_gpu, "   \
    "factor, measured_on, imported_at"

static int known(struct gp_store *store, const void *items, size_t i)
{
    return gp_store__known(store, "SELECT 1 FROM serving_calibrations WHERE fingerprint = ?1",
                           ((const struct gp_serving_record *)items)[i].fingerprint,
                           "cannot look up a serving calibration");
}

static int insert(struct gp_store *store, const void *items, size_t i)
{
    const struct gp_serving_record *r = (const struct gp_serving_record *)items + i;
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "INSERT INTO serving_calibrations (" COLUMNS ") VALUES (?1, ?2, "
                               "?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
                               "?17, ?18, ?19)");
    const char *texts[] = {r->fingerprint, r->gpu_id, r->stack, r->model,
                           r->model_class, r->format, r->origin};

    if (rc)
        return rc;
    for (int t = 0; t < 7; t++)
        gp_store__bind_text(store, stmt, t + 1, texts[t]);
    sqlite3_bind_int(stmt, 8, r->line);
    gp_store__bind_text(store, stmt, 9, r->layout);
    sqlite3_bind_int(stmt, 10, r->gpus);
    sqlite3_bind_int(stmt, 11, r->concurrency);
    gp_store__bind_text(store, stmt, 12, r->precision);
    sqlite3_bind_double(stmt, 13, r->input_tokens);
    sqlite3_bind_double(stmt, 14, r->output_tokens);
    sqlite3_bind_double(stmt, 15, r->measured_per_gpu);
    sqlite3_bind_double(stmt, 16, r->predicted_per_gpu);
    sqlite3_bind_double(stmt, 17, r->factor);
    gp_store__bind_text(store, stmt, 18, r->measured_on);
    sqlite3_bind_int64(stmt, 19, r->imported_at);
    if (gp_store__step(store, stmt) != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot store a serving calibration");
    sqlite3_finalize(stmt);
    return rc;
}

int gp_store_serving_insert(struct gp_store *store, const struct gp_serving_record *recs,
                            size_t count, int *inserted, size_t *added, size_t *skipped)
{
    const struct gp_store_unique u = {recs, known, insert};

    for (size_t i = 0; i < count; i++)
        if (!recs[i].fingerprint[0])
            return gp_error_set(GP_EINVALID, "serving run %zu has no fingerprint", i + 1);
    return gp_store__insert_new(store, &u, count, inserted, added, skipped);
}

static void read_record(struct gp_store *store, sqlite3_stmt *stmt, void *row)
{
    struct gp_serving_record *r = row;

    gp_store__column_text(store, stmt, 0, r->fingerprint, sizeof(r->fingerprint));
    gp_store__column_text(store, stmt, 1, r->gpu_id, sizeof(r->gpu_id));
    gp_store__column_text(store, stmt, 2, r->stack, sizeof(r->stack));
    gp_store__column_text(store, stmt, 3, r->model, sizeof(r->model));
    gp_store__column_text(store, stmt, 4, r->model_class, sizeof(r->model_class));
    gp_store__column_text(store, stmt, 5, r->format, sizeof(r->format));
    gp_store__column_text(store, stmt, 6, r->origin, sizeof(r->origin));
    r->line = sqlite3_column_int(stmt, 7);
    gp_store__column_text(store, stmt, 8, r->layout, sizeof(r->layout));
    r->gpus = sqlite3_column_int(stmt, 9);
    r->concurrency = sqlite3_column_int(stmt, 10);
    gp_store__column_text(store, stmt, 11, r->precision, sizeof(r->precision));
    r->input_tokens = sqlite3_column_double(stmt, 12);
    r->output_tokens = sqlite3_column_double(stmt, 13);
    r->measured_per_gpu = sqlite3_column_double(stmt, 14);
    r->predicted_per_gpu = sqlite3_column_double(stmt, 15);
    r->factor = sqlite3_column_double(stmt, 16);
    gp_store__column_text(store, stmt, 17, r->measured_on, sizeof(r->measured_on));
    r->imported_at = sqlite3_column_int64(stmt, 18);
}

int gp_store_serving_list(struct gp_store *store, struct gp_serving_record **out, size_t *count)
{
    sqlite3_stmt *stmt = NULL;
    int rc =
        gp_store__prepare(store, &stmt, "SELECT " COLUMNS " FROM serving_calibrations ORDER BY id");

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    rc = gp_store__collect(store, stmt, sizeof(**out), read_record, (void **)out, count,
                           "serving calibrations");
    sqlite3_finalize(stmt);
    return rc;
}
