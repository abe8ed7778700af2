/* Seeding the database from the embedded data: GPU catalog, snapshot prices, FX rates. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "store/store_int.h"
#include "util/error.h"
#include "util/json.h"
#include "util/timeutil.h"

int gp_store_seed_hash(struct gp_store *store, char *out, size_t size)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, "SELECT value FROM meta WHERE key = 'seed_hash'");
    int step;

    out[0] = '\0';
    if (rc)
        return rc;
    step = gp_store__step(store, stmt);
    if (step == SQLITE_ROW) {
        gp_store__column_text(store, stmt, 0, out, size);
        rc = gp_store__check(store, "cannot read the seed marker");
    } else if (step != SQLITE_DONE) {
        rc = gp_store__fail(store, "cannot read the seed marker");
    }
    sqlite3_finalize(stmt);
    return rc;
}

/* The catalog entry as JSON text (malloc'd; NULL when out of memory). */
static char *gpu_json(const struct gp_gpu *g)
{
    cJSON *obj = cJSON_CreateObject(), *peaks = cJSON_CreateObject();
    char *text = NULL;

    if (!obj || !peaks) {
        cJSON_Delete(obj);
        cJSON_Delete(peaks);
        return NULL;
    }
    cJSON_AddItemToObject(obj, "peak_tflops", peaks);
    for (int p = 0; p < GP_PRECISION_COUNT; p++) {
        const char *name = gp_precision_name((enum gp_precision)p);
        if (g->peak_tflops[p] > 0)
            cJSON_AddNumberToObject(peaks, name, g->peak_tflops[p]);
        else
            cJSON_AddNullToObject(peaks, name);
    }
    cJSON_AddNumberToObject(obj, "hbm_gb", g->hbm_gb);
    cJSON_AddNumberToObject(obj, "hbm_tbs", g->hbm_tbs);
    cJSON_AddNumberToObject(obj, "tdp_w", g->tdp_w);
    cJSON_AddNumberToObject(obj, "scaleup_gbs", g->scaleup_gbs);
    cJSON_AddNumberToObject(obj, "gpus_per_node", g->gpus_per_node);
    cJSON_AddNumberToObject(obj, "node_overhead_w", g->node_overhead_w);
    cJSON_AddNumberToObject(obj, "llc_mb", g->llc_mb);
    text = gp_json_print(obj, false);
    cJSON_Delete(obj);
    return text;
}

static int seed_gpus(struct gp_store *store, const struct gp_catalog *catalog)
{
    static const char sql[] =
        "INSERT INTO gpus (id, name, vendor, arch, hbm_gb, hbm_tbs, tdp_w, spec_json, source) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (id) DO UPDATE SET "
        "name = excluded.name, vendor = excluded.vendor, arch = excluded.arch, "
        "hbm_gb = excluded.hbm_gb, hbm_tbs = excluded.hbm_tbs, tdp_w = excluded.tdp_w, "
        "spec_json = excluded.spec_json, source = excluded.source";
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, sql);

    for (size_t i = 0; rc == 0 && i < catalog->count; i++) {
        const struct gp_gpu *g = &catalog->gpus[i];
        char *spec = gpu_json(g);
        if (!spec) {
            rc = gp_error_set(GP_ENOMEM, "out of memory seeding the catalog");
            break;
        }
        sqlite3_reset(stmt);
        gp_store__bind_text(store, stmt, 1, g->id);
        gp_store__bind_text(store, stmt, 2, g->name);
        gp_store__bind_text(store, stmt, 3, gp_vendor_name(g->vendor));
        gp_store__bind_text(store, stmt, 4, g->arch);
        sqlite3_bind_double(stmt, 5, g->hbm_gb);
        sqlite3_bind_double(stmt, 6, g->hbm_tbs);
        sqlite3_bind_double(stmt, 7, g->tdp_w);
        gp_store__bind_text(store, stmt, 8, spec);
        gp_store__bind_text(store, stmt, 9, g->source);
        if (gp_store__step(store, stmt) != SQLITE_DONE)
            rc = gp_store__fail(store, "cannot store the GPU catalog");
        cJSON_free(spec);
    }
    sqlite3_finalize(stmt);
    return rc;
}

int gp_store__fx_write(struct gp_store *store, const struct gp_fx_table *fx, size_t *changed)
{
    static const char sql[] = "INSERT INTO fx_rates (currency, date, per_usd, source) "
                              "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (currency, date) DO UPDATE "
                              "SET per_usd = excluded.per_usd, source = excluded.source "
                              "WHERE per_usd <> excluded.per_usd OR source <> excluded.source";
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, sql);

    if (changed)
        *changed = 0;
    for (size_t i = 0; rc == 0 && i < fx->count; i++) {
        sqlite3_reset(stmt);
        gp_store__bind_text(store, stmt, 1, fx->rates[i].currency);
        sqlite3_bind_int64(stmt, 2, fx->rates[i].date);
        sqlite3_bind_double(stmt, 3, fx->rates[i].per_usd);
        gp_store__bind_text(store, stmt, 4, fx->rates[i].source);
        if (gp_store__step(store, stmt) != SQLITE_DONE)
            rc = gp_store__fail(store, "cannot store exchange rates");
        else if (changed)
            *changed += (size_t)sqlite3_changes(store->db);
    }
    sqlite3_finalize(stmt);
    return rc;
}

static int set_seed_hash(struct gp_store *store, const char *hash)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "INSERT OR REPLACE INTO meta (key, value) VALUES ('seed_hash', ?1)");

    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, hash);
    if (gp_store__step(store, stmt) != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot record the seed marker");
    sqlite3_finalize(stmt);
    return rc;
}

int gp_store_seed(struct gp_store *store, const char *hash, const struct gp_catalog *catalog,
                  const struct gp_offer *offers, size_t offer_count, const struct gp_fx_table *fx)
{
    struct gp_feed_write_stats stats;
    int rc = gp_store_begin(store);

    if (rc)
        return rc;
    rc = seed_gpus(store, catalog);
    if (!rc)
        rc = gp_store__fx_write(store, fx, NULL);
    if (!rc)
        rc = gp_store__feed_write(store, "snapshot", offers, offer_count, &stats);
    if (!rc)
        rc = set_seed_hash(store, hash);
    if (!rc)
        rc = gp_store_commit(store);
    if (rc) {
        gp_store_rollback(store);
        return gp_error_wrap("cannot seed the database");
    }
    return 0;
}

static void read_rate(struct gp_store *store, sqlite3_stmt *stmt, void *row)
{
    struct gp_fx_rate *r = row;

    memset(r, 0, sizeof(*r));
    gp_store__column_text(store, stmt, 0, r->currency, sizeof(r->currency));
    r->date = sqlite3_column_int64(stmt, 1);
    r->per_usd = sqlite3_column_double(stmt, 2);
    gp_store__column_text(store, stmt, 3, r->source, sizeof(r->source));
}

int gp_store_fx_load(struct gp_store *store, struct gp_fx_table *out)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "SELECT currency, date, per_usd, source FROM fx_rates "
                               "ORDER BY currency, date");

    out->rates = NULL;
    out->count = 0;
    if (rc)
        return rc;
    rc = gp_store__collect(store, stmt, sizeof(*out->rates), read_rate, (void **)&out->rates,
                           &out->count, "exchange rates");
    sqlite3_finalize(stmt);
    return rc;
}
