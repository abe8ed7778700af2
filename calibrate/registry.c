/* The backend registry: built-in backends first, then libgpuplan-<name>.so modules loaded with
 * dlopen from the search path, each checked (entry symbol, ABI version, probe, devices). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "calibrate/registry.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/text.h"

#define MODULE_PREFIX "libgpuplan-"
#define MODULE_SUFFIX ".so"
#define MAX_DIRS      16
#define FIRST_LOAD_FD 256 /* module loads use descriptors from here up (load_descriptor) */

/* Modules listed even when no file is found, so `gpuplan backends` says why they are absent. */
static const char *const known_modules[] = {"cuda", "hip", "opencl", NULL};

static struct gp_backend_candidate *append(struct gp_registry *reg)
{
    struct gp_backend_candidate *items =
        realloc(reg->items, (reg->count + 1) * sizeof(*reg->items));
    if (!items)
        return NULL;
    reg->items = items;
    memset(&items[reg->count], 0, sizeof(items[0]));
    return &items[reg->count++];
}

static struct gp_backend_candidate *find(struct gp_registry *reg, const char *name)
{
    for (size_t i = 0; i < reg->count; i++)
        if (strcmp(reg->items[i].name, name) == 0)
            return &reg->items[i];
    return NULL;
}

/* Probe, initialise and enumerate an ABI-checked table; on failure leave the reason. */
static void activate(struct gp_backend_candidate *c, const struct gp_backend_ops *ops)
{
    char note[sizeof(c->reason)] = "";

    c->score = ops->probe(note, sizeof(note));
    gp_text_copy(c->reason, sizeof(c->reason), note);
    if (c->score <= 0) {
        c->score = 0;
        if (!c->reason[0])
            gp_text_copy(c->reason, sizeof(c->reason), "probe says unusable here");
        return;
    }
    if (ops->init() != GP_BACKEND_OK) {
        snprintf(c->reason, sizeof(c->reason), "init failed: %s", ops->last_error());
        ops->shutdown();
        c->score = 0;
        return;
    }
    int n = ops->device_count();
    if (n <= 0) {
        gp_text_copy(c->reason, sizeof(c->reason), "no devices");
        ops->shutdown();
        c->score = 0;
        return;
    }
    c->devices = calloc((size_t)n, sizeof(*c->devices));
    if (!c->devices) {
        gp_text_copy(c->reason, sizeof(c->reason), "out of memory");
        ops->shutdown();
        c->score = 0;
        return;
    }
    for (int i = 0; i < n; i++)
        if (ops->device_info(i, &c->devices[i]) != GP_BACKEND_OK)
            snprintf(c->devices[i].name, sizeof(c->devices[i].name), "(device %d: %s)", i,
                     ops->last_error());
    c->device_count = n;
    c->ops = ops;
    c->loaded = 1;
}

/* Why a file or folder with status `st` could hold code someone else wrote: owned by a user who
 * is neither this one nor root, or writable by group or others. Returns false when it is safe. */
static bool unsafe_status(const struct stat *st, const char *path, const char *what, char *why,
                          size_t size)
{
    if (st->st_uid != 0 && st->st_uid != geteuid()) {
        snprintf(why, size, "refused: the %s %.400s is owned by uid %ld, neither you nor root",
                 what, path, (long)st->st_uid);
        return true;
    }
    if (st->st_mode & (S_IWGRP | S_IWOTH)) {
        snprintf(why, size, "refused: the %s %.400s is writable by group or others (mode %04o)",
                 what, path, (unsigned)(st->st_mode & 07777));
        return true;
    }
    return false;
}

/* The same check for the folder holding `path` (the folder part of it, as written). */
static bool folder_unsafe(const char *path, char *why, size_t size)
{
    char folder[PATH_MAX];
    struct stat st;
    char *slash;

    gp_text_copy(folder, sizeof(folder), path);
    slash = strrchr(folder, '/');
    if (!slash)
        gp_text_copy(folder, sizeof(folder), ".");
    else if (slash == folder)
        slash[1] = '\0';
    else
        *slash = '\0';
    if (stat(folder, &st) != 0) {
        snprintf(why, size, "refused: cannot check the folder %.400s", folder);
        return true;
    }
    return unsafe_status(&st, folder, "folder", why, size);
}

/* Open the module exactly once for loading: the folder its entry sits in and the folder of the
 * file it resolves to must be safe, and the file itself is checked through the open descriptor,
 * so a link swapped after the check cannot change what is loaded. Returns the descriptor (the
 * caller closes it) or -1 with `why` filled. */
static int open_checked_module(const char *path, char *why, size_t size)
{
    char real[PATH_MAX];
    struct stat st;
    int fd;

    if (folder_unsafe(path, why, size))
        return -1;
    if (!realpath(path, real)) {
        snprintf(why, size, "refused: cannot resolve %.400s", path);
        return -1;
    }
    if (folder_unsafe(real, why, size))
        return -1;
    fd = open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, size, "refused: cannot open the module %.400s: %s", real, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, size, "refused: the module %.400s is not a regular file", real);
        close(fd);
        return -1;
    }
    if (unsafe_status(&st, real, "module", why, size)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The descriptor a module is loaded through, a number no earlier load of this process used:
 * the dynamic loader knows a loaded object by the name it was opened with, so a reused
 * /proc/self/fd/N would hand back whichever module was loaded under that name before. */
static int load_descriptor(int fd, char *why, size_t size)
{
    static int loads; /* modules loaded by this process so far */
    int named = fcntl(fd, F_DUPFD_CLOEXEC, FIRST_LOAD_FD + loads++);

    close(fd);
    if (named < 0)
        snprintf(why, size, "cannot load another module: %s", strerror(errno));
    return named;
}

static void load_module(struct gp_backend_candidate *c)
{
    char opened[64];
    void *sym;
    gp_backend_entry_fn entry;
    int fd = open_checked_module(c->path, c->reason, sizeof(c->reason));

    if (fd < 0 || (fd = load_descriptor(fd, c->reason, sizeof(c->reason))) < 0)
        return;
    /* The loader opens the descriptor's file, the one checked, whatever the path holds now. */
    snprintf(opened, sizeof(opened), "/proc/self/fd/%d", fd);
    dlerror();
    c->handle = dlopen(opened, RTLD_NOW | RTLD_LOCAL);
    close(fd);
    if (!c->handle) {
        const char *why = dlerror();
        size_t skip = why && strncmp(why, opened, strlen(opened)) == 0 ? strlen(opened) : 0;
        snprintf(c->reason, sizeof(c->reason), "%.400s%s", skip ? c->path : "",
                 why ? why + skip : "dlopen failed");
        return;
    }
    sym = dlsym(c->handle, GP_BACKEND_ENTRY_SYMBOL);
    if (!sym) {
        snprintf(c->reason, sizeof(c->reason), "no entry symbol %s", GP_BACKEND_ENTRY_SYMBOL);
        goto reject;
    }
    memcpy(&entry, &sym, sizeof(entry)); /* ISO C has no object-to-function pointer cast */
    const struct gp_backend_ops *ops = entry();
    if (!ops) {
        gp_text_copy(c->reason, sizeof(c->reason), "entry returned no table");
        goto reject;
    }
    if (ops->abi_version != GP_BACKEND_ABI_VERSION) {
        snprintf(c->reason, sizeof(c->reason), "ABI %d != %d", ops->abi_version,
                 GP_BACKEND_ABI_VERSION);
        goto reject;
    }
    if (!ops->name || strcmp(ops->name, c->name) != 0) {
        snprintf(c->reason, sizeof(c->reason), "module calls itself \"%s\", file says \"%s\"",
                 ops->name ? ops->name : "", c->name);
        goto reject;
    }
    activate(c, ops);
    if (c->loaded)
        return;
reject:
    dlclose(c->handle);
    c->handle = NULL;
}

/* "cuda" from "libgpuplan-cuda.so", or 0 when the file name is not a module's. */
static int module_name(const char *file, char *out, size_t size)
{
    size_t len = strlen(file), pre = strlen(MODULE_PREFIX), suf = strlen(MODULE_SUFFIX);
    if (len <= pre + suf || strncmp(file, MODULE_PREFIX, pre) != 0 ||
        strcmp(file + len - suf, MODULE_SUFFIX) != 0 || len - pre - suf >= size)
        return 0;
    memcpy(out, file + pre, len - pre - suf);
    out[len - pre - suf] = '\0';
    return 1;
}

/* Add every module in `dir` whose name is not taken yet (only `wanted` when it is not NULL),
 * sorted by file name. */
static int scan_dir(struct gp_registry *reg, const char *dir, const char *wanted)
{
    struct dirent **list = NULL;
    int n = scandir(dir, &list, NULL, alphasort);
    int rc = 0;

    for (int i = 0; i < n; i++) {
        char name[32];
        if (rc == 0 && module_name(list[i]->d_name, name, sizeof(name)) && !find(reg, name) &&
            (!wanted || strcmp(name, wanted) == 0)) {
            struct gp_backend_candidate *c = append(reg);
            if (!c) {
                rc = gp_error_set(GP_ENOMEM, "out of memory listing backends");
            } else {
                gp_text_copy(c->name, sizeof(c->name), name);
                int len = snprintf(c->path, sizeof(c->path), "%s/%s", dir, list[i]->d_name);
                if (len < 0 || (size_t)len >= sizeof(c->path))
                    gp_text_copy(c->reason, sizeof(c->reason), "path too long");
                else
                    load_module(c);
            }
        }
        free(list[i]);
    }
    free(list);
    return rc;
}

/* Fill dirs[] with the search folders, in order; returns how many. */
static int search_dirs(char dirs[MAX_DIRS][1024])
{
    int n = 0;
    const char *env = getenv("GPUPLAN_BACKEND_DIR");

    while (env && *env && n < MAX_DIRS - 2) {
        size_t len = strcspn(env, ":");
        if (len > 0 && len < 1024) {
            memcpy(dirs[n], env, len);
            dirs[n++][len] = '\0';
        }
        env += len + (env[len] == ':');
    }
    char exe[PATH_MAX];
    if (!realpath("/proc/self/exe", exe))
        return n;
    char *slash = strrchr(exe, '/');
    *slash = '\0';
    snprintf(dirs[n++], 1024, "%.1000s/../lib/gpuplan", exe);
#if defined(GPUPLAN_BUILD_DIR) && defined(GPUPLAN_BUILD_BACKEND_DIR)
    /* The build tree's modules, only for a binary that runs from that tree: an installed one
     * must not trust a folder that may since have been removed and made again by anyone. */
    char build[PATH_MAX];
    size_t blen;
    *slash = '/';
    if (realpath(GPUPLAN_BUILD_DIR, build) && (blen = strlen(build)) > 1 &&
        strncmp(exe, build, blen) == 0 && exe[blen] == '/')
        snprintf(dirs[n++], 1024, "%s", GPUPLAN_BUILD_BACKEND_DIR);
#endif
    return n;
}

/* Whether `name` is a built-in backend's. */
static bool builtin(const char *name)
{
    for (size_t i = 0; name && gp_backend_builtins[i]; i++)
        if (strcmp(gp_backend_builtins[i]()->name, name) == 0)
            return true;
    return false;
}

int gp_registry_scan(struct gp_registry *out)
{
    return gp_registry_scan_for(out, NULL);
}

int gp_registry_scan_for(struct gp_registry *out, const char *wanted)
{
    char dirs[MAX_DIRS][1024];
    int ndirs = 0, rc = 0;

    memset(out, 0, sizeof(*out));
    for (size_t i = 0; gp_backend_builtins[i]; i++) {
        const struct gp_backend_ops *ops = gp_backend_builtins[i]();
        struct gp_backend_candidate *c = append(out);
        if (!c) {
            rc = gp_error_set(GP_ENOMEM, "out of memory listing backends");
            goto done;
        }
        gp_text_copy(c->name, sizeof(c->name), ops->name);
        gp_text_copy(c->path, sizeof(c->path), "built-in");
        if (ops->abi_version != GP_BACKEND_ABI_VERSION)
            snprintf(c->reason, sizeof(c->reason), "ABI %d != %d", ops->abi_version,
                     GP_BACKEND_ABI_VERSION);
        else
            activate(c, ops);
    }

    if (wanted && strcmp(wanted, "auto") == 0)
        wanted = NULL;
    if (!builtin(wanted))
        ndirs = search_dirs(dirs);
    for (int d = 0; d < ndirs; d++) {
        size_t used = strlen(out->search_path);
        snprintf(out->search_path + used, sizeof(out->search_path) - used, "%s%s", used ? ":" : "",
                 dirs[d]);
        rc = scan_dir(out, dirs[d], wanted);
        if (rc < 0)
            goto done;
    }
    for (size_t i = 0; known_modules[i]; i++) {
        if (find(out, known_modules[i]) || (wanted && strcmp(wanted, known_modules[i]) != 0))
            continue;
        struct gp_backend_candidate *c = append(out);
        if (!c) {
            rc = gp_error_set(GP_ENOMEM, "out of memory listing backends");
            goto done;
        }
        gp_text_copy(c->name, sizeof(c->name), known_modules[i]);
        snprintf(c->reason, sizeof(c->reason), "%s%s%s not found (not built or not installed)",
                 MODULE_PREFIX, known_modules[i], MODULE_SUFFIX);
    }

done:
    if (rc < 0) {
        gp_registry_release(out);
        memset(out, 0, sizeof(*out));
    }
    return rc;
}

void gp_registry_release(struct gp_registry *reg)
{
    if (!reg)
        return;
    for (size_t i = 0; i < reg->count; i++) {
        struct gp_backend_candidate *c = &reg->items[i];
        if (c->loaded)
            c->ops->shutdown();
        /* A module that was initialised stays mapped until the process exits: the runtimes it
         * pulled in (CUDA, HIP, OpenCL drivers) keep threads and exit handlers that must not
         * outlive their code. Rejected modules were closed when they were rejected. */
        free(c->devices);
    }
    free(reg->items);
    reg->items = NULL;
    reg->count = 0;
}

int gp_registry_pick(const struct gp_registry *reg, const char *name,
                     const struct gp_backend_candidate **out)
{
    const struct gp_backend_candidate *best = NULL;

    *out = NULL;
    if (strcmp(name, "auto") == 0) {
        for (size_t i = 0; i < reg->count; i++)
            if (reg->items[i].loaded && (!best || reg->items[i].score > best->score))
                best = &reg->items[i];
        if (!best)
            return gp_error_set(GP_ENOBACKEND, "no usable calibration backend (see gpuplan "
                                               "backends)");
        *out = best;
        return 0;
    }
    for (size_t i = 0; i < reg->count; i++) {
        if (strcmp(reg->items[i].name, name) != 0)
            continue;
        if (!reg->items[i].loaded)
            return gp_error_set(GP_ENOBACKEND, "backend %s is not available: %s", name,
                                reg->items[i].reason);
        *out = &reg->items[i];
        return 0;
    }
    struct gp_nearest nearest;
    char known[256] = "auto";
    gp_nearest_init(&nearest, name);
    for (size_t i = 0; i < reg->count; i++) {
        size_t used = strlen(known);
        gp_nearest_offer(&nearest, reg->items[i].name);
        snprintf(known + used, sizeof(known) - used, ", %s", reg->items[i].name);
    }
    const char *near = gp_nearest_result(&nearest);
    return gp_error_set(GP_ENOTFOUND, "unknown backend \"%s\"%s%s%s (%s)", name,
                        near ? "; did you mean \"" : "", near ? near : "", near ? "\"?" : "",
                        known);
}

void gp_registry_names_text(char *out, size_t size)
{
    const char *names[16 + sizeof(known_modules) / sizeof(known_modules[0])];
    size_t n = 0;

    for (size_t i = 0; gp_backend_builtins[i] && n < 16; i++)
        names[n++] = gp_backend_builtins[i]()->name;
    for (size_t i = 0; known_modules[i]; i++)
        names[n++] = known_modules[i];
    names[n] = NULL;
    gp_text_join(out, size, names, ", ", " or ");
}
