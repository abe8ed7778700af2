/* A preloaded SQLite VFS for fault tests: it wraps the default VFS and makes the Nth write, sync,
 * lock or shared-memory map of the process fail, as a full or failing disk would.
 *
 *   GPUPLAN_FAULT_OP    write | sync | lock | shm | any   (which operations are counted)
 *   GPUPLAN_FAULT_N     the 1-based operation that fails
 *   GPUPLAN_FAULT_STICKY=1  every counted operation from the Nth on fails (a disk that stays full)
 *   GPUPLAN_FAULT_LOG   file that gets one line when a fault was injected, so a run without one
 *                       tells the caller that N is past the last operation
 *
 * A failed operation returns SQLite's I/O error for it with errno ENOSPC, which SQLite reports
 * through sqlite3_system_errno. Loaded with LD_PRELOAD; it registers itself as the default VFS
 * on the first sqlite3_open_v2. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

enum op { OP_WRITE, OP_SYNC, OP_LOCK, OP_SHM };

struct fault_file {
    sqlite3_file base;
    sqlite3_file *real; /* follows this struct in the same allocation */
};

static sqlite3_vfs *real_vfs;
static sqlite3_vfs fault_vfs;
static sqlite3_io_methods fault_methods;
static long counted;
static int fault_errno;

/* Whether this operation is the one (or, sticky, one of those) to fail; notes it in the log. */
static int inject(enum op op)
{
    static const char *const names[] = {"write", "sync", "lock", "shm"};
    const char *which = getenv("GPUPLAN_FAULT_OP"), *n = getenv("GPUPLAN_FAULT_N");
    const char *sticky = getenv("GPUPLAN_FAULT_STICKY"), *log = getenv("GPUPLAN_FAULT_LOG");
    long target = n ? atol(n) : 0;

    if (!which || target <= 0 || (strcmp(which, "any") != 0 && strcmp(which, names[op]) != 0))
        return 0;
    counted++;
    if (counted != target && !(sticky && *sticky == '1' && counted > target))
        return 0;
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fprintf(f, "injected %s fault at operation %ld\n", names[op], counted);
        fclose(f);
    }
    fault_errno = ENOSPC;
    errno = ENOSPC;
    return 1;
}

static sqlite3_file *real(sqlite3_file *f)
{
    return ((struct fault_file *)f)->real;
}

static int f_close(sqlite3_file *f)
{
    return real(f)->pMethods->xClose(real(f));
}

static int f_read(sqlite3_file *f, void *buf, int amount, sqlite3_int64 offset)
{
    return real(f)->pMethods->xRead(real(f), buf, amount, offset);
}

static int f_write(sqlite3_file *f, const void *buf, int amount, sqlite3_int64 offset)
{
    if (inject(OP_WRITE))
        return SQLITE_FULL;
    return real(f)->pMethods->xWrite(real(f), buf, amount, offset);
}

static int f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    if (inject(OP_WRITE))
        return SQLITE_IOERR_TRUNCATE;
    return real(f)->pMethods->xTruncate(real(f), size);
}

static int f_sync(sqlite3_file *f, int flags)
{
    if (inject(OP_SYNC))
        return SQLITE_IOERR_FSYNC;
    return real(f)->pMethods->xSync(real(f), flags);
}

static int f_file_size(sqlite3_file *f, sqlite3_int64 *size)
{
    return real(f)->pMethods->xFileSize(real(f), size);
}

static int f_lock(sqlite3_file *f, int level)
{
    if (inject(OP_LOCK))
        return SQLITE_IOERR_LOCK;
    return real(f)->pMethods->xLock(real(f), level);
}

static int f_unlock(sqlite3_file *f, int level)
{
    return real(f)->pMethods->xUnlock(real(f), level);
}

static int f_check_reserved(sqlite3_file *f, int *out)
{
    return real(f)->pMethods->xCheckReservedLock(real(f), out);
}

static int f_file_control(sqlite3_file *f, int op, void *arg)
{
    return real(f)->pMethods->xFileControl(real(f), op, arg);
}

static int f_sector_size(sqlite3_file *f)
{
    return real(f)->pMethods->xSectorSize(real(f));
}

static int f_device(sqlite3_file *f)
{
    return real(f)->pMethods->xDeviceCharacteristics(real(f));
}

static int f_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **out)
{
    if (inject(OP_SHM))
        return SQLITE_IOERR_SHMSIZE;
    return real(f)->pMethods->xShmMap(real(f), region, size, extend, out);
}

static int f_shm_lock(sqlite3_file *f, int offset, int n, int flags)
{
    return real(f)->pMethods->xShmLock(real(f), offset, n, flags);
}

static void f_shm_barrier(sqlite3_file *f)
{
    real(f)->pMethods->xShmBarrier(real(f));
}

static int f_shm_unmap(sqlite3_file *f, int delete_flag)
{
    return real(f)->pMethods->xShmUnmap(real(f), delete_flag);
}

static int f_fetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **out)
{
    return real(f)->pMethods->xFetch(real(f), offset, amount, out);
}

static int f_unfetch(sqlite3_file *f, sqlite3_int64 offset, void *p)
{
    return real(f)->pMethods->xUnfetch(real(f), offset, p);
}

static int v_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out)
{
    struct fault_file *ff = (struct fault_file *)file;
    int rc;

    (void)vfs;
    ff->real = (sqlite3_file *)(ff + 1);
    ff->base.pMethods = NULL;
    rc = real_vfs->xOpen(real_vfs, name, ff->real, flags, out);
    if (ff->real->pMethods) {
        fault_methods.iVersion = ff->real->pMethods->iVersion;
        ff->base.pMethods = &fault_methods;
    }
    return rc;
}

static int v_delete(sqlite3_vfs *vfs, const char *name, int sync_dir)
{
    (void)vfs;
    return real_vfs->xDelete(real_vfs, name, sync_dir);
}

static int v_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
    (void)vfs;
    return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int v_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out)
{
    (void)vfs;
    return real_vfs->xFullPathname(real_vfs, name, size, out);
}

static int v_randomness(sqlite3_vfs *vfs, int size, char *out)
{
    (void)vfs;
    return real_vfs->xRandomness(real_vfs, size, out);
}

static int v_sleep(sqlite3_vfs *vfs, int us)
{
    (void)vfs;
    return real_vfs->xSleep(real_vfs, us);
}

static int v_current_time(sqlite3_vfs *vfs, double *out)
{
    (void)vfs;
    return real_vfs->xCurrentTime(real_vfs, out);
}

static int v_last_error(sqlite3_vfs *vfs, int size, char *out)
{
    (void)vfs;
    if (fault_errno)
        return fault_errno;
    return real_vfs->xGetLastError(real_vfs, size, out);
}

static int v_current_time64(sqlite3_vfs *vfs, sqlite3_int64 *out)
{
    (void)vfs;
    return real_vfs->xCurrentTimeInt64(real_vfs, out);
}

static void install(void)
{
    static const sqlite3_io_methods methods = {
        3,           f_close,   f_read,     f_write,          f_truncate,     f_sync,
        f_file_size, f_lock,    f_unlock,   f_check_reserved, f_file_control, f_sector_size,
        f_device,    f_shm_map, f_shm_lock, f_shm_barrier,    f_shm_unmap,    f_fetch,
        f_unfetch,
    };

    if (real_vfs || !(real_vfs = sqlite3_vfs_find(NULL)))
        return;
    fault_methods = methods;
    fault_vfs = *real_vfs;
    fault_vfs.iVersion = 2;
    fault_vfs.szOsFile = (int)sizeof(struct fault_file) + real_vfs->szOsFile;
    fault_vfs.zName = "gpuplan-fault";
    fault_vfs.pNext = NULL;
    fault_vfs.xOpen = v_open;
    fault_vfs.xDelete = v_delete;
    fault_vfs.xAccess = v_access;
    fault_vfs.xFullPathname = v_full_pathname;
    fault_vfs.xRandomness = v_randomness;
    fault_vfs.xSleep = v_sleep;
    fault_vfs.xCurrentTime = v_current_time;
    fault_vfs.xGetLastError = v_last_error;
    fault_vfs.xCurrentTimeInt64 = v_current_time64;
    sqlite3_vfs_register(&fault_vfs, 1);
}

int sqlite3_open_v2(const char *name, sqlite3 **db, int flags, const char *vfs)
{
    int (*open)(const char *, sqlite3 **, int, const char *);
    void *sym = dlsym(RTLD_NEXT, "sqlite3_open_v2");

    memcpy(&open, &sym, sizeof(open));
    install();
    return open(name, db, flags, vfs);
}
