/* Negotiated quotes typed in by the user. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/error.h"

int gp_store_quote_add(struct gp_store *store, const struct gp_quote *quote, int64_t *id_out)
{
    static const char sql[] =
        "INSERT INTO quotes (provider, gpu_id, amount, currency, unit, gpus_per_instance, "
        "usd_per_gpu_hour, region, valid_until, note, created_at, min_term_hours, min_gpus) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
    const struct gp_offer *o = &quote->offer;
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, sql);

    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, o->provider);
    gp_store__bind_text(store, stmt, 2, o->gpu_id);
    sqlite3_bind_double(stmt, 3, o->amount);
    gp_store__bind_text(store, stmt, 4, o->currency);
    gp_store__bind_text(store, stmt, 5, gp_price_unit_name(o->unit));
    sqlite3_bind_int(stmt, 6, o->gpus_per_instance);
    sqlite3_bind_double(stmt, 7, o->usd_per_gpu_hour);
    gp_store__bind_text(store, stmt, 8, o->region);
    sqlite3_bind_int64(stmt, 9, o->valid_until);
    gp_store__bind_text(store, stmt, 10, quote->note);
    sqlite3_bind_int64(stmt, 11, o->observed_at);
    sqlite3_bind_int64(stmt, 12, o->min_term_hours);
    sqlite3_bind_int(stmt, 13, o->min_gpus);
    if (gp_store__step(store, stmt) != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot save the quote");
    else if (id_out)
        *id_out = sqlite3_last_insert_rowid(store->db);
    sqlite3_finalize(stmt);
    return rc;
}

static void read_quote(struct gp_store *store, sqlite3_stmt *stmt, void *row)
{
    struct gp_quote *q = row;
    struct gp_offer *o = &q->offer;
    char unit[32];

    memset(q, 0, sizeof(*q));
    q->id = sqlite3_column_int64(stmt, 0);
    snprintf(o->feed, sizeof(o->feed), "quote");
    gp_store__column_text(store, stmt, 1, o->provider, sizeof(o->provider));
    gp_store__column_text(store, stmt, 2, o->gpu_id, sizeof(o->gpu_id));
    o->amount = sqlite3_column_double(stmt, 3);
    gp_store__column_text(store, stmt, 4, o->currency, sizeof(o->currency));
    gp_store__column_text(store, stmt, 5, unit, sizeof(unit));
    o->unit = gp_price_unit_parse(unit) == GP_UNIT_INSTANCE_HOUR ? GP_UNIT_INSTANCE_HOUR
                                                                 : GP_UNIT_GPU_HOUR;
    o->gpus_per_instance = sqlite3_column_int(stmt, 6);
    o->usd_per_gpu_hour = sqlite3_column_double(stmt, 7);
    gp_store__column_text(store, stmt, 8, o->region, sizeof(o->region));
    o->valid_until = sqlite3_column_int64(stmt, 9);
    gp_store__column_text(store, stmt, 10, q->note, sizeof(q->note));
    o->observed_at = sqlite3_column_int64(stmt, 11);
    o->min_term_hours = sqlite3_column_int64(stmt, 12);
    o->min_gpus = sqlite3_column_int(stmt, 13);
    o->usd_per_instance_hour = o->usd_per_gpu_hour * o->gpus_per_instance;
    o->tier = GP_TIER_QUOTE;
    snprintf(o->source_url, sizeof(o->source_url), "quote #%lld", (long long)q->id);
}

int gp_store_quotes_list(struct gp_store *store, struct gp_quote **out, size_t *count)
{
    static const char sql[] =
        "SELECT id, provider, gpu_id, amount, currency, unit, gpus_per_instance, "
        "usd_per_gpu_hour, region, valid_until, note, created_at, min_term_hours, min_gpus "
        "FROM quotes "
        "ORDER BY created_at DESC, id DESC";
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, sql);

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    rc = gp_store__collect(store, stmt, sizeof(**out), read_quote, (void **)out, count, "quotes");
    sqlite3_finalize(stmt);
    return rc;
}

int gp_store_quote_remove(struct gp_store *store, int64_t id)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, "DELETE FROM quotes WHERE id = ?1");

    if (rc)
        return rc;
    sqlite3_bind_int64(stmt, 1, id);
    if (gp_store__step(store, stmt) != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot remove the quote");
    else if (sqlite3_changes(store->db) == 0)
        rc = gp_error_set(GP_ENOTFOUND, "no quote with id %lld", (long long)id);
    sqlite3_finalize(stmt);
    return rc;
}
