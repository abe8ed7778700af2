/* Electricity prices: the history an electricity feed writes, and the periods read back per
 * zone. */
#include <string.h>

#include "store/store.h"
#include "store/store_int.h"
#include "util/error.h"

int gp_store__energy_write(struct gp_store *store, const char *feed,
                           const struct gp_energy_price *prices, size_t count, size_t *changed)
{
    static const char sql[] =
        "INSERT INTO energy_prices (zone, start, minutes, eur_mwh, feed) "
        "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (zone, start, minutes) DO UPDATE "
        "SET eur_mwh = excluded.eur_mwh, feed = excluded.feed WHERE eur_mwh <> excluded.eur_mwh";
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, sql);

    *changed = 0;
    for (size_t i = 0; rc == 0 && i < count; i++) {
        sqlite3_reset(stmt);
        gp_store__bind_text(store, stmt, 1, prices[i].zone);
        sqlite3_bind_int64(stmt, 2, prices[i].start);
        sqlite3_bind_int(stmt, 3, prices[i].minutes);
        sqlite3_bind_double(stmt, 4, prices[i].eur_mwh);
        gp_store__bind_text(store, stmt, 5, feed);
        if (gp_store__step(store, stmt) != SQLITE_DONE)
            rc = gp_store__fail(store, "cannot store electricity prices");
        else
            *changed += (size_t)sqlite3_changes(store->db);
    }
    sqlite3_finalize(stmt);
    return rc;
}

static void read_price(struct gp_store *store, sqlite3_stmt *stmt, void *row)
{
    struct gp_energy_price *p = row;

    memset(p, 0, sizeof(*p));
    gp_store__column_text(store, stmt, 0, p->zone, sizeof(p->zone));
    p->start = sqlite3_column_int64(stmt, 1);
    p->minutes = sqlite3_column_int(stmt, 2);
    p->eur_mwh = sqlite3_column_double(stmt, 3);
}

int gp_store_energy_list(struct gp_store *store, const char *zone, int64_t from, int64_t to,
                         struct gp_energy_price **out, size_t *count)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "SELECT zone, start, minutes, eur_mwh FROM energy_prices "
                               "WHERE (?1 IS NULL OR zone = ?1) AND start >= ?2 AND start < ?3 "
                               "ORDER BY zone, start");

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    if (zone)
        gp_store__bind_text(store, stmt, 1, zone);
    sqlite3_bind_int64(stmt, 2, from);
    sqlite3_bind_int64(stmt, 3, to);
    rc = gp_store__collect(store, stmt, sizeof(**out), read_price, (void **)out, count,
                           "electricity prices");
    sqlite3_finalize(stmt);
    return rc;
}
