/* A preloaded allocator for fault tests: the Nth allocation after main starts (malloc, calloc,
 * realloc, strdup, strndup; counted across every library of the process) returns NULL with
 * errno ENOMEM, once; every other allocation goes to the C library.
 *
 *   GPUPLAN_FAIL_ALLOC  N, the 1-based allocation that fails
 *   GPUPLAN_FAULT_PROGRAM  only a program of this name is armed (default "gpuplan"), so a
 *                       wrapper such as timeout(1) that inherits LD_PRELOAD is left alone
 *   GPUPLAN_FAULT_LOG   file that gets one line when the failure was injected, so a run without
 *                       one tells the caller that N is past the process's last allocation, and
 *                       the call stack of the failed allocation
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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*main_fn)(int, char **, char **);
typedef int (*start_fn)(main_fn, int, char **, void (*)(void), void (*)(void), void (*)(void),
                        void *);

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static main_fn real_main;
static bool armed;
static long counted, target = -1;
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

void *malloc(size_t size)
{
    resolve();
    return fail_now() ? NULL : real_malloc(size);
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
    return fail_now() ? NULL : real_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    resolve();
    return fail_now() ? NULL : real_realloc(p, size);
}

void free(void *p)
{
    static void (*real_free)(void *);
    char *c = p;

    if (c >= bootstrap && c < bootstrap + sizeof(bootstrap))
        return;
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

static int armed_main(int argc, char **argv, char **envp)
{
    const char *n = getenv("GPUPLAN_FAIL_ALLOC");
    void *warm[2];

    backtrace(warm, 2); /* loads the unwinder now, not inside a failing allocation */
    const char *program = getenv("GPUPLAN_FAULT_PROGRAM"), *base = strrchr(argv[0], '/');

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
