/* Opening the database: path resolution, safety checks, pragmas, migrations, transactions. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/embedded.h"
#include "store/store_int.h"
#include "util/error.h"
#include "util/text.h"

/* The numbered migrations, sorted by file name (generated from store/migrations/). */
extern const struct gp_embedded_file gp_store_migrations[];

enum { BUSY_TIMEOUT_MS = 15000 };

int gp_store_schema_version(void)
{
    int n = 0;
    while (gp_store_migrations[n].path)
        n++;
    return n;
}

int gp_store_resolve_path(char *out, size_t size, const char *flag_path)
{
    const char *env = getenv("GPUPLAN_DB");
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");

    if (flag_path && *flag_path)
        snprintf(out, size, "%s", flag_path);
    else if (env && *env)
        snprintf(out, size, "%s", env);
    else if (xdg && *xdg)
        snprintf(out, size, "%s/gpuplan/gpuplan.db", xdg);
    else if (home && *home)
        snprintf(out, size, "%s/.local/share/gpuplan/gpuplan.db", home);
    else
        return gp_error_set(GP_EINVALID,
                            "no database path: set --db, GPUPLAN_DB, XDG_DATA_HOME or HOME");
    return 0;
}

/* mkdir -p for the folder holding `path`. */
static int make_parent_dirs(const char *path)
{
    char dir[4096];
    char *slash;

    snprintf(dir, sizeof(dir), "%s", path);
    slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return gp_error_set(GP_EDB, "cannot create folder %s: %s", dir, strerror(errno));
        *p = '/';
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return gp_error_set(GP_EDB, "cannot create folder %s: %s", dir, strerror(errno));
    return 0;
}

/* GP_ENOMEM when SQLite ran out of memory (a failed allocation is not a database problem),
 * else GP_EDB. */
static int db_error(struct gp_store *store)
{
    if (store->failed)
        return store->failed == SQLITE_NOMEM ? GP_ENOMEM : GP_EDB;
    return store->db && sqlite3_errcode(store->db) == SQLITE_NOMEM ? GP_ENOMEM : GP_EDB;
}

int gp_store__fail(struct gp_store *store, const char *what)
{
    int code = db_error(store);

    gp_error_set(code, "database %s: %s: %s", store->path, what,
                 store->failed ? sqlite3_errstr(store->failed)
                 : store->db   ? sqlite3_errmsg(store->db)
                               : "not open");
    store->failed = 0;
    return code;
}

int gp_store__check(struct gp_store *store, const char *what)
{
    return store->failed ? gp_store__fail(store, what) : 0;
}

int gp_store__step(struct gp_store *store, sqlite3_stmt *stmt)
{
    return store->failed ? store->failed : sqlite3_step(stmt);
}

int gp_store__prepare(struct gp_store *store, sqlite3_stmt **out, const char *sql)
{
    if (sqlite3_prepare_v2(store->db, sql, -1, out, NULL) != SQLITE_OK)
        return gp_store__fail(store, "cannot prepare a query");
    return 0;
}

int gp_store__cached(struct gp_store *store, enum gp_store_statement which, const char *sql,
                     sqlite3_stmt **out)
{
    if (!store->cached[which] && sqlite3_prepare_v3(store->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                                    &store->cached[which], NULL) != SQLITE_OK)
        return gp_store__fail(store, "cannot prepare a query");
    *out = store->cached[which];
    return 0;
}

void gp_store__release(sqlite3_stmt *stmt)
{
    if (!stmt)
        return;
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
}

/* Finalize the statements kept for the connection, before it closes. */
static void finalize_cached(struct gp_store *store)
{
    for (int i = 0; i < GP_STMT_COUNT; i++) {
        sqlite3_finalize(store->cached[i]);
        store->cached[i] = NULL;
    }
}

int gp_store__exec(struct gp_store *store, const char *sql)
{
    char *message = NULL;
    int code = gp_store__check(store, "a statement before this one failed");

    if (code)
        return code;
    if (sqlite3_exec(store->db, sql, NULL, NULL, &message) != SQLITE_OK) {
        code = db_error(store);
        gp_error_set(code, "database %s: %s", store->path,
                     message ? message : sqlite3_errmsg(store->db));
        sqlite3_free(message);
        return code;
    }
    return 0;
}

/* Keep the first failure of a bind or column read until it is reported. */
static void record_failure(struct gp_store *store, int code)
{
    if (!store->failed)
        store->failed = code;
}

int gp_store__bind_text(struct gp_store *store, sqlite3_stmt *stmt, int index, const char *text)
{
    int rc = text ? sqlite3_bind_text(stmt, index, text, -1, SQLITE_TRANSIENT)
                  : sqlite3_bind_null(stmt, index);

    if (rc != SQLITE_OK)
        record_failure(store, rc);
    return rc;
}

const char *gp_store__column_str(struct gp_store *store, sqlite3_stmt *stmt, int col)
{
    const char *text = (const char *)sqlite3_column_text(stmt, col);

    if (!text && (sqlite3_errcode(store->db) == SQLITE_NOMEM ||
                  sqlite3_column_type(stmt, col) != SQLITE_NULL))
        record_failure(store, SQLITE_NOMEM);
    return text;
}

void gp_store__column_text(struct gp_store *store, sqlite3_stmt *stmt, int col, char *out,
                           size_t size)
{
    const char *text = gp_store__column_str(store, stmt, col);
    gp_text_copy(out, size, text ? text : ""); /* cut to fit; no printf per cell */
}

static int user_version(struct gp_store *store, int *out)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, "PRAGMA user_version");

    if (rc == 0) {
        if (gp_store__step(store, stmt) == SQLITE_ROW)
            *out = sqlite3_column_int(stmt, 0);
        else
            rc = gp_store__fail(store, "cannot read the schema version");
    }
    sqlite3_finalize(stmt);
    return rc;
}

/* GP_EDB when some row refers to a row that is not there (a migration that rebuilt a table). */
static int check_references(struct gp_store *store)
{
    sqlite3_stmt *stmt = NULL;
    int rc = gp_store__prepare(store, &stmt, "PRAGMA foreign_key_check"), step;

    if (rc)
        return rc;
    step = gp_store__step(store, stmt);
    if (step == SQLITE_ROW) {
        const char *table = gp_store__column_str(store, stmt, 0);
        rc = gp_store__check(store, "cannot check references");
        if (!rc)
            rc = gp_error_set(GP_EDB,
                              "database %s: table %s refers to a missing row after migrating",
                              store->path, table ? table : "?");
    } else if (step != SQLITE_DONE)
        rc = gp_store__fail(store, "cannot check references");
    sqlite3_finalize(stmt);
    return rc;
}

/* Apply the migrations after `from`, all in one transaction. Foreign keys are off meanwhile
 * (a migration may rebuild a table others refer to) and checked as a whole before the commit. */
static int migrate(struct gp_store *store)
{
    int version = 0, target = gp_store_schema_version(), rc;
    char pragma[64];

    rc = gp_store__exec(store, "PRAGMA foreign_keys = OFF");
    if (!rc)
        rc = gp_store_begin(store);
    if (rc)
        return rc;
    rc = user_version(store, &version);
    for (int i = version; rc == 0 && i < target; i++) {
        rc = gp_store__exec(store, (const char *)gp_store_migrations[i].bytes);
        if (rc)
            gp_error_wrap("migration %s", gp_store_migrations[i].path);
    }
    if (rc == 0 && version < target) {
        snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", target);
        rc = gp_store__exec(store, pragma);
    }
    if (rc == 0)
        rc = check_references(store);
    if (rc == 0)
        rc = gp_store_commit(store);
    if (rc)
        gp_store_rollback(store);
    if (gp_store__exec(store, "PRAGMA foreign_keys = ON") && rc == 0)
        rc = GP_EDB;
    return rc;
}

/* A full file system said as such, with the file that could not be written (SQLite reports a
 * -shm file it cannot create on a full disk as a disk I/O error). Returns 0 when not the case. */
static int disk_full(struct gp_store *store)
{
    int ext = sqlite3_extended_errcode(store->db);
    bool shm =
        ext == SQLITE_IOERR_SHMOPEN || ext == SQLITE_IOERR_SHMSIZE || ext == SQLITE_IOERR_SHMMAP;

    if (sqlite3_system_errno(store->db) != ENOSPC && (ext & 0xff) != SQLITE_FULL)
        return 0;
    return gp_error_set(GP_EDB, "disk full: cannot write %s%s (%s); free some space there",
                        store->path, shm ? "-shm" : "", sqlite3_errmsg(store->db));
}

/* Refuse what this build must not touch: not a database, or a newer schema. */
static int check_version(struct gp_store *store, int *version)
{
    int rc = user_version(store, version);

    if (rc == GP_ENOMEM)
        return rc;
    if (rc && (sqlite3_errcode(store->db) & 0xff) == SQLITE_READONLY)
        return gp_error_set(GP_EDB, "database %s is read-only (check the file's permissions)",
                            store->path);
    if (rc && (sqlite3_errcode(store->db) & 0xff) == SQLITE_CANTOPEN)
        return gp_error_set(GP_EDB, "cannot open database %s: %s", store->path,
                            sqlite3_errmsg(store->db));
    if (rc && disk_full(store))
        return GP_EDB;
    if (rc)
        return gp_error_set(GP_EDB, "%s is not a gpuplan database or is damaged (%s)", store->path,
                            sqlite3_errmsg(store->db));
    if (*version > gp_store_schema_version())
        return gp_error_set(GP_EDB,
                            "%s was written by a newer gpuplan (schema %d; this one knows up to "
                            "%d); upgrade gpuplan or use another --db",
                            store->path, *version, gp_store_schema_version());
    return 0;
}

/* file:PATH?immutable=1 with PATH percent-encoded where a URI needs it. */
static int immutable_uri(char *out, size_t size, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = (size_t)snprintf(out, size, "file:");

    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        int plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || strchr("/-._~", *p);
        if (n + 4 >= size)
            return gp_error_set(GP_EDB, "database path %s is too long", path);
        if (plain) {
            out[n++] = (char)*p;
        } else {
            out[n++] = '%';
            out[n++] = hex[*p >> 4];
            out[n++] = hex[*p & 15];
        }
    }
    snprintf(out + n, size - n, "?immutable=1");
    return 0;
}

/* Before SQLite starts: no memory statistics, which gpuplan never reads and which take a global
 * mutex on every allocation SQLite makes (about 7,600 in a plain plan). A program that started
 * SQLite itself first keeps its own configuration. */
static void configure_sqlite(void)
{
    (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

static int open_connection(struct gp_store *store, const char *name, int sqlite_flags)
{
    static pthread_once_t configured = PTHREAD_ONCE_INIT;

    pthread_once(&configured, configure_sqlite);
    finalize_cached(store);
    sqlite3_close(store->db);
    store->db = NULL;
    if (sqlite3_open_v2(name, &store->db, sqlite_flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        return gp_error_set(store->db ? db_error(store) : GP_ENOMEM, "cannot open database %s: %s",
                            store->path, store->db ? sqlite3_errmsg(store->db) : "out of memory");
    sqlite3_busy_timeout(store->db, BUSY_TIMEOUT_MS);
    sqlite3_extended_result_codes(store->db, 1);
    /* No checkpoint when the connection closes: a write that fails in it (a full disk) left the
     * main file half copied for the next reader (tests/fault/run_write_faults.sh); the writer
     * checkpoints after each commit instead (checkpoint_after_commit). */
    sqlite3_db_config(store->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
    return 0;
}

/*
 * A reader opens the file read-only. A database in WAL mode needs its -shm file: the writer
 * keeps it (SQLITE_FCNTL_PERSIST_WAL), but where it is gone and the reader cannot create it in
 * the folder, and no -wal file holds commits the main file lacks, the file is read as immutable.
 */
static int open_reader(struct gp_store *store, int *version)
{
    char wal[4200], uri[16384];
    struct stat st;
    int rc = open_connection(store, store->path, SQLITE_OPEN_READONLY);

    if (rc == 0)
        rc = check_version(store, version);
    if (rc == 0 || (sqlite3_errcode(store->db) & 0xff) != SQLITE_READONLY)
        return rc;
    snprintf(wal, sizeof(wal), "%s-wal", store->path);
    if (stat(wal, &st) == 0 && st.st_size > 0)
        return gp_error_set(GP_EDB,
                            "database %s: its -wal file has no readable -shm beside it and this "
                            "user cannot create one in the folder (run any gpuplan command as "
                            "the database's writer once)",
                            store->path);
    rc = immutable_uri(uri, sizeof(uri), store->path);
    if (rc == 0)
        rc = open_connection(store, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    if (rc == 0)
        rc = check_version(store, version);
    return rc;
}

/*
 * After each commit of the writer, copy the log into the main file and truncate it: every
 * process that opens the database first rebuilds its index of the log from every frame in it,
 * so a log left by a bulk write (a feed of a million offers) would cost each later command a
 * read of all of it. No waiting for readers (busy timeout 0): while one reads, the copy stops
 * where it must and the log stays, committed, for a later commit to finish. A copy that fails (a
 * full disk) leaves the log whole, so readers still find every page there; its error is not the
 * commit's (tests/fault/run_write_faults.sh fails every write, sync and lock of it in turn).
 */
static int checkpoint_after_commit(void *arg, sqlite3 *db, const char *name, int pages)
{
    (void)arg;
    (void)pages;
    sqlite3_busy_timeout(db, 0);
    sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
    sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    return SQLITE_OK;
}

/* The writer: create, keep the WAL files for readers, check the version, migrate. */
static int open_writer(struct gp_store *store)
{
    int version = 0, persist = 1;
    int rc = make_parent_dirs(store->path);

    if (rc == 0)
        rc = open_connection(store, store->path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (rc)
        return rc;
    sqlite3_file_control(store->db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
    sqlite3_wal_hook(store->db, checkpoint_after_commit, NULL);
    rc = check_version(store, &version);
    if (rc)
        return rc;
    if (sqlite3_db_readonly(store->db, "main") == 1)
        return gp_error_set(GP_EDB, "database %s is read-only (check the file's permissions)",
                            store->path);
    rc = gp_store__exec(store, "PRAGMA foreign_keys = ON");
    if (!rc)
        rc = gp_store__exec(store, "PRAGMA journal_mode = WAL");
    if (!rc)
        rc = gp_store__exec(store, "PRAGMA synchronous = NORMAL");
    if (!rc)
        rc = migrate(store);
    if (rc)
        gp_error_wrap("cannot prepare database %s", store->path);
    return rc;
}

int gp_store_open(struct gp_store **out, const char *path, int flags)
{
    struct gp_store *store = NULL;
    int version = 0, rc;

    *out = NULL;
    store = calloc(1, sizeof(*store));
    if (!store)
        return gp_error_set(GP_ENOMEM, "out of memory opening the database");
    snprintf(store->path, sizeof(store->path), "%s", path);
    if (flags & GP_STORE_READ_ONLY) {
        rc = open_reader(store, &version);
        if (rc == 0 && version < gp_store_schema_version())
            rc = gp_error_set(GP_EDB,
                              "database %s needs an upgrade to schema %d, which only an account "
                              "that can write it can do (run `gpuplan refresh` as its writer)",
                              path, gp_store_schema_version());
        if (rc == 0)
            rc = gp_store__exec(store, "PRAGMA foreign_keys = ON");
    } else {
        rc = open_writer(store);
    }
    if (rc) {
        gp_store_close(store);
        return rc == GP_ENOMEM ? rc : GP_EDB;
    }
    *out = store;
    return 0;
}

void gp_store_close(struct gp_store *store)
{
    if (!store)
        return;
    finalize_cached(store);
    sqlite3_close(store->db);
    free(store);
}

int gp_store_begin(struct gp_store *store)
{
    return gp_store__exec(store, "BEGIN IMMEDIATE");
}

int gp_store_commit(struct gp_store *store)
{
    return gp_store__exec(store, "COMMIT");
}

void gp_store_rollback(struct gp_store *store)
{
    if (!store)
        return;
    store->failed = 0; /* what failed inside the transaction goes with it */
    if (store->db && !sqlite3_get_autocommit(store->db))
        sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
}
