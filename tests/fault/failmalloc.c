/* A preloaded allocator for fault tests: the Nth allocation after main starts (malloc, calloc,
 * realloc, strdup, strndup; counted across every library of the process) returns NULL with
 * errno ENOMEM, once; every other allocation goes to the C library. It also counts the blocks
 * still allocated when the process exits, so a run whose error path forgets a block leaves more
 * of them than a run without a failure (the sanitizer runtimes do not mix with a preload).
 *
 *   GPUPLAN_FAIL_ALLOC  N, the 1-based allocation that fails
 *   GPUPLAN_FAULT_PROGRAM  only a program of this name is armed (default "gpuplan"), so a
 *                       wrapper such as timeout(1) that inherits LD_PRELOAD is left alone
 *   GPUPLAN_FAULT_LOG   file that gets one line when the failure was injected, so a run without
 *                       one tells the caller that N is past the process's last allocation, and
 *                       the call stack of the failed allocation
 *   GPUPLAN_FAULT_COUNT  file that gets "allocations A live L" at exit: A allocations were
 *                       counted (the last N that can fail), L blocks from them were not freed
 *
 * Counting starts when main is entered (through __libc_start_main), so the dynamic loader and
 * library constructors are left alone. Loaded with LD_PRELOAD. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*main_fn)(int, char **, char **);
typedef int (*start_fn)(main_fn, int, char **, void (*)(void), void (*)(void), void (*)(void),
                        void *);

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static main_fn real_main;
static bool armed;
static long counted, target = -1;
static long live; /* blocks allocated after main started and not freed since, by this process */
static char bootstrap[4096]; /* calloc's answers while dlsym looks the real one up */
static size_t bootstrap_used;

static void *lookup(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

static void resolve(void)
{
    static bool busy;
    void *sym;

    if (real_malloc || busy)
        return;
    busy = true;
    sym = lookup("calloc");
    memcpy(&real_calloc, &sym, sizeof(sym));
    sym = lookup("malloc");
    memcpy(&real_malloc, &sym, sizeof(sym));
    sym = lookup("realloc");
    memcpy(&real_realloc, &sym, sizeof(sym));
    sym = lookup("posix_memalign");
    memcpy(&real_posix_memalign, &sym, sizeof(sym));
    sym = lookup("aligned_alloc");
    memcpy(&real_aligned_alloc, &sym, sizeof(sym));
    busy = false;
}

/* Whether this allocation is the one to fail. */
static bool fail_now(void)
{
    if (!armed || ++counted != target)
        return false;
    const char *log = getenv("GPUPLAN_FAULT_LOG");
    if (log) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
        static const char line[] = "injected an allocation failure\n";
        if (fd >= 0) {
            void *stack[32];
            ssize_t written = write(fd, line, sizeof(line) - 1);
            (void)written;
            backtrace_symbols_fd(stack, backtrace(stack, 32), fd);
            close(fd);
        }
    }
    errno = ENOMEM;
    return true;
}

/* Count a block handed out while armed. */
static void *track(void *p)
{
    if (p && armed)
        live++;
    return p;
}

void *malloc(size_t size)
{
    resolve();
    return fail_now() ? NULL : track(real_malloc(size));
}

void *calloc(size_t n, size_t size)
{
    if (!real_calloc) {
        resolve();
        if (!real_calloc) { /* dlsym itself asked: a zeroed static block will do */
            size_t need = (n * size + 15) & ~(size_t)15;
            if (need > sizeof(bootstrap) - bootstrap_used)
                return NULL;
            bootstrap_used += need;
            return bootstrap + bootstrap_used - need;
        }
    }
    return fail_now() ? NULL : track(real_calloc(n, size));
}

void *realloc(void *p, size_t size)
{
    void *q;

    resolve();
    if (fail_now())
        return NULL;
    q = real_realloc(p, size);
    if (!p)
        return track(q);
    if (!q && size == 0 && armed) /* freed */
        live--;
    return q;
}

int posix_memalign(void **out, size_t align, size_t size)
{
    int rc;

    resolve();
    if (fail_now())
        return ENOMEM;
    rc = real_posix_memalign(out, align, size);
    if (rc == 0)
        track(*out);
    return rc;
}

void *aligned_alloc(size_t align, size_t size)
{
    resolve();
    return fail_now() ? NULL : track(real_aligned_alloc(align, size));
}

void free(void *p)
{
    static void (*real_free)(void *);
    char *c = p;

    if (!p || (c >= bootstrap && c < bootstrap + sizeof(bootstrap)))
        return;
    if (armed)
        live--;
    if (!real_free) {
        void *sym = lookup("free");
        memcpy(&real_free, &sym, sizeof(sym));
    }
    real_free(p);
}

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

char *strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* At exit, after the program's own handlers and the libraries' destructors (a preloaded library
 * is finalized last): how many allocations were counted and how many blocks are still live. */
__attribute__((destructor)) static void report_count(void)
{
    const char *path = getenv("GPUPLAN_FAULT_COUNT");
    char line[96];
    int fd, len;

    if (!armed || !path)
        return;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return;
    len = snprintf(line, sizeof(line), "allocations %ld live %ld\n", counted, live);
    if (len > 0) {
        ssize_t written = write(fd, line, (size_t)len);
        (void)written;
    }
    close(fd);
}

static int armed_main(int argc, char **argv, char **envp)
{
    const char *n = getenv("GPUPLAN_FAIL_ALLOC");
    void *warm[2];

    backtrace(warm, 2); /* loads the unwinder now, not inside a failing allocation */
    const char *program = getenv("GPUPLAN_FAULT_PROGRAM"), *base = strrchr(argv[0], '/');

    /* stdout's buffer, allocated now rather than at the first write, so that a run which fails
     * before it prints does not hide a leaked block behind the buffer it never allocated */
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, NULL, _IOFBF, BUFSIZ);
    target = n ? atol(n) : -1;
    armed = target > 0 && strcmp(base ? base + 1 : argv[0], program ? program : "gpuplan") == 0;
    return real_main(argc, argv, envp);
}

int __libc_start_main(main_fn main, int argc, char **argv, void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void *stack_end)
{
    start_fn real_start;
    void *sym = lookup("__libc_start_main");

    memcpy(&real_start, &sym, sizeof(sym));
    real_main = main;
    return real_start(armed_main, argc, argv, init, fini, rtld_fini, stack_end);
}
