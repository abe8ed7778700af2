/* The refresh log, HTTP validators, the one-transaction feed write and the refresh lock. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "store/refresh.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/store_int.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/text.h"

/* The lock file of the database at `db`: named after the file's device and inode, in the folder
 * of the file itself, so every path to one database (a symlink, "./x.db") meets the same lock. */
static int lock_path(char *out, size_t size, const char *db)
{
    char real[PATH_MAX];
    struct stat st;
    char *slash;

    if (!realpath(db, real) || stat(real, &st) != 0)
        return gp_error_set(GP_EDB, "cannot find the database file %s: %s", db, strerror(errno));
    slash = strrchr(real, '/');
    *slash = '\0';
    snprintf(out, size, "%s/.gpuplan-%llx-%llx.refresh.lock", real[0] ? real : "",
             (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
    return 0;
}

/* The lock file belongs to another user, who made it first (a folder others may write lets
 * anyone do so): say whose it is and who can remove it. */
static int foreign_lock(const char *path, uid_t owner)
{
    const struct passwd *pw = getpwuid(owner);
    char who[96];

    if (pw && pw->pw_name)
        snprintf(who, sizeof(who), "user %.64s (uid %ld)", pw->pw_name, (long)owner);
    else
        snprintf(who, sizeof(who), "uid %ld", (long)owner);
    return gp_error_set(GP_EDB,
                        "refusing the refresh lock %s: it belongs to %s, not to this user, so a "
                        "refresh of theirs may hold it or they planted it; they or root can "
                        "remove it. Keep a shared database in a folder only its writers can "
                        "write (docs/fleet.md)",
                        path, who);
}

/* Open the lock file without following a symlink, and only when it is a regular file of ours
 * with no other name, so a planted link cannot make the pid write clobber another file. */
static int open_lock(const char *path, int *fd_out)
{
    struct stat st;
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

    if (fd < 0)
        return gp_error_set(GP_EDB, "cannot open the refresh lock %s: %s", path,
                            errno == ELOOP ? "it is a symbolic link" : strerror(errno));
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid != geteuid()) {
        close(fd);
        return foreign_lock(path, st.st_uid);
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
        close(fd);
        return gp_error_set(GP_EDB,
                            "refusing the refresh lock %s: not a regular file of this user with "
                            "one name; remove it",
                            path);
    }
    *fd_out = fd;
    return 0;
}

int gp_store_refresh_lock(struct gp_store *store, double wait_s, int *fd_out)
{
    char path[PATH_MAX + 64];
    struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    struct timespec pause = {0, 100 * 1000 * 1000};
    double waited = 0;
    char pid[32];
    int fd = -1, n;

    *fd_out = -1;
    if (lock_path(path, sizeof(path), store->path) || open_lock(path, &fd))
        return GP_EDB;
    while (fcntl(fd, F_SETLK, &lk) != 0) {
        if (errno != EACCES && errno != EAGAIN) {
            int err = errno;
            close(fd);
            return gp_error_set(GP_EDB, "cannot lock %s: %s", path, strerror(err));
        }
        if (waited >= wait_s) {
            struct flock who = lk;
            bool known = fcntl(fd, F_GETLK, &who) == 0 && who.l_type != F_UNLCK;
            close(fd);
            if (known)
                return gp_error_set(GP_ERROR,
                                    "another refresh of %s is running (pid %ld); try again later",
                                    store->path, (long)who.l_pid);
            return gp_error_set(GP_ERROR, "another refresh of %s is running; try again later",
                                store->path);
        }
        if (gp_interrupted()) {
            close(fd);
            return gp_error_set(GP_EINTERRUPTED, "interrupted by %s while waiting for the lock",
                                gp_interrupt_name());
        }
        nanosleep(&pause, NULL);
        waited += 0.1;
    }
    n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || write(fd, pid, (size_t)n) != n) {
        /* the pid is only a courtesy to whoever reads the file; the lock holds regardless */
    }
    *fd_out = fd;
    return 0;
}

void gp_store_refresh_unlock(int fd)
{
    if (fd >= 0)
        close(fd); /* closing drops the fcntl lock */
}

static int step_done(struct gp_store *store, sqlite3_stmt *stmt, const char *what)
{
    int rc = gp_store__step(store, stmt) == SQLITE_DONE ? 0 : gp_store__fail(store, what);
    sqlite3_finalize(stmt);
    return rc;
}

int gp_store_refresh_recover(struct gp_store *store, int64_t now)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "UPDATE refresh_runs SET status = 'failed', finished_at = ?1, "
                               "error = 'interrupted before it finished' "
                               "WHERE status = 'running'");
    if (rc)
        return rc;
    sqlite3_bind_int64(stmt, 1, now);
    return step_done(store, stmt, "cannot close interrupted refresh runs");
}

int gp_store_refresh_begin(struct gp_store *store, const char *feed, int64_t started_at,
                           int64_t *id_out)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "INSERT INTO refresh_runs (feed, started_at, status) "
                               "VALUES (?1, ?2, 'running')");
    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, feed);
    sqlite3_bind_int64(stmt, 2, started_at);
    rc = step_done(store, stmt, "cannot record a refresh run");
    if (!rc)
        *id_out = sqlite3_last_insert_rowid(store->db);
    return rc;
}

static int close_run(struct gp_store *store, int64_t id, const char *status, int64_t finished_at,
                     const struct gp_refresh_counts *c, const char *error)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "UPDATE refresh_runs SET status = ?2, finished_at = ?3, "
                               "offers = ?4, changed = ?5, unmapped = ?6, rejected = ?7, "
                               "error = ?8 WHERE id = ?1");
    if (rc)
        return rc;
    sqlite3_bind_int64(stmt, 1, id);
    gp_store__bind_text(store, stmt, 2, status);
    sqlite3_bind_int64(stmt, 3, finished_at);
    sqlite3_bind_int64(stmt, 4, c ? (sqlite3_int64)c->offers : 0);
    sqlite3_bind_int64(stmt, 5, c ? (sqlite3_int64)c->changed : 0);
    sqlite3_bind_int64(stmt, 6, c ? (sqlite3_int64)c->unmapped : 0);
    sqlite3_bind_int64(stmt, 7, c ? (sqlite3_int64)c->rejected : 0);
    gp_store__bind_text(store, stmt, 8, error && *error ? error : NULL);
    return step_done(store, stmt, "cannot record the end of a refresh run");
}

static int count_offers(struct gp_store *store, const char *feed, size_t *out)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "SELECT count(*) FROM feed_offers WHERE feed = ?1 AND listed = 1");
    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, feed);
    if (gp_store__step(store, stmt) == SQLITE_ROW)
        *out = (size_t)sqlite3_column_int64(stmt, 0);
    else
        rc = gp_store__fail(store, "cannot count a feed's offers");
    sqlite3_finalize(stmt);
    return rc;
}

int gp_store_refresh_finish(struct gp_store *store, int64_t id, const char *feed,
                            const char *status, int64_t finished_at,
                            struct gp_refresh_counts *counts, const char *error)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store_begin(store);

    if (rc)
        return rc;
    if (strcmp(status, "unchanged") == 0) {
        /* A 304 confirms the offers the last fetch stamped with its own time; an offer dated by
         * the document itself keeps that date, or an old list would never go stale. */
        rc = gp_store__prepare(store, &stmt,
                               "UPDATE feed_offers SET observed_at = ?2 "
                               "WHERE feed = ?1 AND listed = 1 AND observed_at >= "
                               "(SELECT started_at - 60 FROM refresh_runs WHERE feed = ?1 AND "
                               "status IN ('ok', 'unchanged') ORDER BY id DESC LIMIT 1)");
        if (!rc) {
            gp_store__bind_text(store, stmt, 1, feed);
            sqlite3_bind_int64(stmt, 2, finished_at);
            rc = step_done(store, stmt, "cannot confirm a feed's offers");
        }
        counts->changed = 0;
    }
    /* a failed feed keeps its last good offers: report how many it still holds */
    if (!rc)
        rc = count_offers(store, feed, &counts->offers);
    if (!rc)
        rc = close_run(store, id, status, finished_at, counts, error);
    if (!rc)
        rc = gp_store_commit(store);
    if (rc)
        gp_store_rollback(store);
    return rc;
}

static int save_validator(struct gp_store *store, const char *feed,
                          const struct gp_http_validator *v)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "INSERT INTO feed_http_state (feed, url, etag, last_modified) "
                               "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (feed, url) DO UPDATE SET "
                               "etag = excluded.etag, last_modified = excluded.last_modified");
    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, feed);
    gp_store__bind_text(store, stmt, 2, v->url);
    gp_store__bind_text(store, stmt, 3, *v->etag ? v->etag : NULL);
    gp_store__bind_text(store, stmt, 4, *v->last_modified ? v->last_modified : NULL);
    return step_done(store, stmt, "cannot save HTTP validators");
}

/* Inside the caller's transaction: renew the feed's validators and close its run as "ok". */
static int finish_commit(struct gp_store *store, int64_t id, const char *feed,
                         const struct gp_http_validator *validators, size_t nvalidators,
                         int64_t finished_at, struct gp_refresh_counts *counts)
{
    sqlite3_stmt *clear = NULL;
    /* validators from an earlier run that this one did not renew are stale */
    int rc = gp_store__prepare(store, &clear, "DELETE FROM feed_http_state WHERE feed = ?1");

    if (!rc) {
        gp_store__bind_text(store, clear, 1, feed);
        rc = step_done(store, clear, "cannot clear HTTP validators");
    }
    for (size_t i = 0; !rc && i < nvalidators; i++)
        rc = save_validator(store, feed, &validators[i]);
    if (!rc)
        rc = close_run(store, id, "ok", finished_at, counts, NULL);
    return rc;
}

/* What a successful run writes: a price feed's offers, an exchange-rate feed's rates, or an
 * electricity feed's prices. */
struct run_data {
    const struct gp_offer *offers;
    size_t count;
    const struct gp_fx_table *rates;      /* non-NULL: an exchange-rate feed */
    const struct gp_energy_price *energy; /* non-NULL: an electricity feed, `count` prices */
};

/* In one transaction: the run's data, its validators, and its record closed as "ok". */
static int commit_run(struct gp_store *store, int64_t id, const char *feed,
                      const struct run_data *data, const struct gp_http_validator *validators,
                      size_t nvalidators, int64_t finished_at, struct gp_refresh_counts *counts)
{
    struct gp_feed_write_stats stats = {0, 0};
    int rc = gp_store_begin(store);

    if (rc)
        return rc;
    if (data->rates) {
        stats.offers = data->rates->count;
        rc = gp_store__fx_write(store, data->rates, &stats.new_prices);
    } else if (data->energy) {
        stats.offers = data->count;
        rc = gp_store__energy_write(store, feed, data->energy, data->count, &stats.new_prices);
    } else {
        rc = gp_store__feed_write(store, feed, data->offers, data->count, &stats);
    }
    if (!rc) {
        counts->offers = stats.offers;
        counts->changed = stats.new_prices;
        rc = finish_commit(store, id, feed, validators, nvalidators, finished_at, counts);
    }
    if (!rc)
        rc = gp_store_commit(store);
    if (rc)
        gp_store_rollback(store);
    return rc;
}

int gp_store_refresh_commit(struct gp_store *store, int64_t id, const char *feed,
                            const struct gp_offer *offers, size_t count,
                            const struct gp_http_validator *validators, size_t nvalidators,
                            int64_t finished_at, struct gp_refresh_counts *counts)
{
    struct run_data data = {offers, count, NULL, NULL};
    return commit_run(store, id, feed, &data, validators, nvalidators, finished_at, counts);
}

int gp_store_refresh_commit_rates(struct gp_store *store, int64_t id, const char *feed,
                                  const struct gp_fx_table *rates,
                                  const struct gp_http_validator *validators, size_t nvalidators,
                                  int64_t finished_at, struct gp_refresh_counts *counts)
{
    struct run_data data = {NULL, 0, rates, NULL};
    return commit_run(store, id, feed, &data, validators, nvalidators, finished_at, counts);
}

int gp_store_refresh_commit_energy(struct gp_store *store, int64_t id, const char *feed,
                                   const struct gp_energy_price *prices, size_t count,
                                   const struct gp_http_validator *validators, size_t nvalidators,
                                   int64_t finished_at, struct gp_refresh_counts *counts)
{
    struct run_data data = {NULL, count, NULL, prices};
    return commit_run(store, id, feed, &data, validators, nvalidators, finished_at, counts);
}

int gp_store_http_state_get(struct gp_store *store, const char *feed, const char *url,
                            struct gp_http_validator *out)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "SELECT etag, last_modified FROM feed_http_state "
                               "WHERE feed = ?1 AND url = ?2");

    gp_text_copy(out->url, sizeof(out->url), url);
    out->etag[0] = out->last_modified[0] = '\0';
    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, feed);
    gp_store__bind_text(store, stmt, 2, url);
    switch (gp_store__step(store, stmt)) {
    case SQLITE_ROW:
        gp_store__column_text(store, stmt, 0, out->etag, sizeof(out->etag));
        gp_store__column_text(store, stmt, 1, out->last_modified, sizeof(out->last_modified));
        rc = gp_store__check(store, "cannot read HTTP validators");
        break;
    case SQLITE_DONE:
        break;
    default:
        rc = gp_store__fail(store, "cannot read HTTP validators");
    }
    sqlite3_finalize(stmt);
    return rc;
}

/* ?1 gpu, ?2 provider, ?3 tier (NULL = any), ?4 since; the offers view's columns, then the
 * last price before ?4. */
static const char changed_sql[] =
    "SELECT " GP_STORE_OFFER_COLUMNS ", "
    "coalesce((SELECT p.usd_per_gpu_hour FROM price_history p WHERE p.offer_id = o.offer_id "
    "AND p.observed_at < ?4 ORDER BY p.observed_at DESC, p.id DESC LIMIT 1), 0) "
    "FROM offers o "
    "WHERE (?1 IS NULL OR gpu_id = ?1) AND (?2 IS NULL OR provider = ?2) "
    "AND (?3 IS NULL OR tier = ?3) AND EXISTS (SELECT 1 FROM price_history p "
    "WHERE p.offer_id = o.offer_id AND p.observed_at >= ?4) "
    "ORDER BY usd_per_gpu_hour, provider, feed";

static void read_change(struct gp_store *store, sqlite3_stmt *stmt, void *row)
{
    struct gp_offer_change *c = row;

    memset(c, 0, sizeof(*c));
    gp_store__read_offer(store, stmt, &c->offer);
    c->previous_usd = sqlite3_column_double(stmt, GP_STORE_OFFER_COLUMN_COUNT);
}

int gp_store_offers_changed_since(struct gp_store *store, const struct gp_offer_filter *filter,
                                  int64_t since, struct gp_offer_change **out, size_t *count)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, changed_sql);

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    gp_store__bind_text(store, stmt, 1, filter ? filter->gpu_id : NULL);
    gp_store__bind_text(store, stmt, 2, filter ? filter->provider : NULL);
    gp_store__bind_text(store, stmt, 3,
                        filter && filter->tier >= 0 ? gp_tier_name((enum gp_tier)filter->tier)
                                                    : NULL);
    sqlite3_bind_int64(stmt, 4, since);
    rc = gp_store__collect(store, stmt, sizeof(**out), read_change, (void **)out, count,
                           "changed offers");
    sqlite3_finalize(stmt);
    return rc;
}

static void read_run(struct gp_store *store, sqlite3_stmt *stmt, void *row)
{
    struct gp_refresh_run *r = row;

    memset(r, 0, sizeof(*r));
    r->id = sqlite3_column_int64(stmt, 0);
    gp_store__column_text(store, stmt, 1, r->feed, sizeof(r->feed));
    r->started_at = sqlite3_column_int64(stmt, 2);
    r->finished_at = sqlite3_column_int64(stmt, 3);
    gp_store__column_text(store, stmt, 4, r->status, sizeof(r->status));
    r->counts.offers = (size_t)sqlite3_column_int64(stmt, 5);
    r->counts.changed = (size_t)sqlite3_column_int64(stmt, 6);
    r->counts.unmapped = (size_t)sqlite3_column_int64(stmt, 7);
    r->counts.rejected = (size_t)sqlite3_column_int64(stmt, 8);
    gp_store__column_text(store, stmt, 9, r->error, sizeof(r->error));
}

int gp_store_refresh_latest(struct gp_store *store, struct gp_refresh_run **out, size_t *count)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt,
                               "SELECT id, feed, started_at, coalesce(finished_at, 0), status, "
                               "offers, changed, unmapped, rejected, coalesce(error, '') "
                               "FROM refresh_runs r WHERE id = (SELECT max(id) FROM "
                               "refresh_runs WHERE feed = r.feed) ORDER BY feed");

    *out = NULL;
    *count = 0;
    if (rc)
        return rc;
    rc = gp_store__collect(store, stmt, sizeof(**out), read_run, (void **)out, count,
                           "refresh runs");
    sqlite3_finalize(stmt);
    return rc;
}
