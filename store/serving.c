/* Serving calibrations in SQLite: one transaction per import, fingerprints against repeats. */
#include "store/serving.h"

#include <string.h>

#include "store/store_int.h"
#include "util/error.h"
#include "util/text.h"

#define COLUMNS                                                                                    \
    "fingerprint, gpu_id, stack, model, model_class, format, origin, line, layout, gpus, "        \
    "concurrency, precision, input_tokens, output_tokens, measured_per_gpu, predicted_per_gpu, "  \
    "factor, measured_on, imported_at"

/* 1 if a record with this fingerprint is stored, 0 if not, or a negative code. */
static int known(struct gp_store *store, const char *fingerprint)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "SELECT 1 FROM serving_calibrations WHERE fingerprint = ?1");

    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, fingerprint);
    int step = gp_store__step(store, stmt);
    if (step == SQLITE_ROW)
        rc = 1;
    else if (step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot look up a serving calibration");
    sqlite3_finalize(stmt);
    return rc;
}

static int insert(struct gp_store *store, const struct gp_serving_record *r)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "INSERT INTO serving_calibrations (" COLUMNS ") VALUES (?1, ?2, "
                               "?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
                               "?17, ?18, ?19)");
    const char *texts[] = {r->fingerprint, r->gpu_id, r->stack, r->model, r->model_class,
                           r->format, r->origin};

    if (rc)
        return rc;
    for (int i = 0; i < 7; i++)
        gp_store__bind_text(store, stmt, i + 1, texts[i]);
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
    size_t n_added = 0, n_skipped = 0;
    int rc;

    for (size_t i = 0; i < count; i++)
        if (!recs[i].fingerprint[0])
            return gp_error_set(GP_EINVALID, "serving run %zu has no fingerprint", i + 1);
    if ((rc = gp_store_begin(store)))
        return rc;
    for (size_t i = 0; i < count && rc == 0; i++) {
        rc = known(store, recs[i].fingerprint);
        if (inserted)
            inserted[i] = rc == 0;
        if (rc == 1) {
            n_skipped++;
            rc = 0;
            continue;
        }
        if (rc == 0 && (rc = insert(store, &recs[i])) == 0)
            n_added++;
    }
    if (rc == 0)
        rc = gp_store_commit(store);
    if (rc) {
        gp_store_rollback(store);
        return rc;
    }
    if (added)
        *added = n_added;
    if (skipped)
        *skipped = n_skipped;
    return 0;
}

static void copy_text(sqlite3_stmt *stmt, int col, char *out, size_t size)
{
    const unsigned char *t = sqlite3_column_text(stmt, col);
    gp_text_copy(out, size, t ? (const char *)t : "");
}

static void read_record(struct gp_store *store, sqlite3_stmt *stmt, void *row)
{
    struct gp_serving_record *r = row;

    (void)store;
    copy_text(stmt, 0, r->fingerprint, sizeof(r->fingerprint));
    copy_text(stmt, 1, r->gpu_id, sizeof(r->gpu_id));
    copy_text(stmt, 2, r->stack, sizeof(r->stack));
    copy_text(stmt, 3, r->model, sizeof(r->model));
    copy_text(stmt, 4, r->model_class, sizeof(r->model_class));
    copy_text(stmt, 5, r->format, sizeof(r->format));
    copy_text(stmt, 6, r->origin, sizeof(r->origin));
    r->line = sqlite3_column_int(stmt, 7);
    copy_text(stmt, 8, r->layout, sizeof(r->layout));
    r->gpus = sqlite3_column_int(stmt, 9);
    r->concurrency = sqlite3_column_int(stmt, 10);
    copy_text(stmt, 11, r->precision, sizeof(r->precision));
    r->input_tokens = sqlite3_column_double(stmt, 12);
    r->output_tokens = sqlite3_column_double(stmt, 13);
    r->measured_per_gpu = sqlite3_column_double(stmt, 14);
    r->predicted_per_gpu = sqlite3_column_double(stmt, 15);
    r->factor = sqlite3_column_double(stmt, 16);
    copy_text(stmt, 17, r->measured_on, sizeof(r->measured_on));
    r->imported_at = sqlite3_column_int64(stmt, 18);
}

int gp_store_serving_list(struct gp_store *store, struct gp_serving_record **out, size_t *count)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "SELECT " COLUMNS " FROM serving_calibrations ORDER BY id");

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    rc = gp_store__collect(store, stmt, sizeof(**out), read_record, (void **)out, count,
                           "serving calibrations");
    sqlite3_finalize(stmt);
    return rc;
}
