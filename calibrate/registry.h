/* The backend registry: the built-in CPU backend plus every libgpuplan-<name>.so module found
 * on the search path, each loaded, checked and probed, or rejected with the reason why. */
#ifndef GP_CALIBRATE_REGISTRY_H
#define GP_CALIBRATE_REGISTRY_H

#include <stddef.h>

#include "gpuplan/backend.h"

/* One backend candidate, usable or not. */
struct gp_backend_candidate {
    char name[32];                    /* "cpu", "cuda", ... (from the file name for modules) */
    char path[1024];                  /* the module file, or "built-in" */
    int loaded;                       /* 1: initialised and has devices; 0: rejected */
    int score;                        /* probe score; 0 when rejected */
    char reason[512];                 /* why it was rejected ("ABI 2 != 1", dlerror's text, "no
                                         devices"), or the probe's remark; "" when none */
    const struct gp_backend_ops *ops; /* the module's table; NULL when rejected */
    void *handle;                     /* dlopen handle (NULL for built-ins) */
    struct gp_device_info *devices;   /* `device_count` entries, owned; NULL when rejected */
    int device_count;
};

/* Every candidate, built-ins first, then modules in search order. Owns its array. */
struct gp_registry {
    struct gp_backend_candidate *items;
    size_t count;
    char search_path[2048]; /* the folders searched, ':'-separated, for messages */
};

/* The built-in backends' entries, in listing order, NULL-terminated: the same ABI table a module
 * exports, so the registry knows no backend's code. Defined by kernels/builtin.c. */
extern const gp_backend_entry_fn gp_backend_builtins[];

/*
 * Find, load and probe every backend. A module that is missing, broken, built for another ABI
 * or without devices becomes a rejected candidate with its reason; that is never an error.
 * Folders searched, first match of a name wins: each entry of $GPUPLAN_BACKEND_DIR
 * (':'-separated), <exe dir>/../lib/gpuplan, then the build tree's module folder when the
 * executable itself runs from the build tree. A module whose file or folder is owned by another
 * user who is not root, or is writable by group or others, is refused before it is opened. The
 * known modules (cuda, hip, opencl) are always listed, as "not found" when absent.
 * Returns 0 or GP_ENOMEM. Release with gp_registry_release, which shuts the backends down.
 */
int gp_registry_scan(struct gp_registry *out);

/* As gp_registry_scan, for a command that needs one backend: "auto" or NULL scans everything; a
 * built-in's name opens no module at all; another name opens only the module of that name. */
int gp_registry_scan_for(struct gp_registry *out, const char *wanted);

/* Shut down every backend and free the array (initialised modules stay mapped until exit, see
 * registry.c). Accepts NULL. */
void gp_registry_release(struct gp_registry *reg);

/* Every backend name there can be, built in first, then the modules, as "cpu, cuda, hip or
 * opencl" into out[size]: the list messages and help show. */
void gp_registry_names_text(char *out, size_t size);

/*
 * The candidate named `name`, or for "auto" the loaded one with the highest score.
 * GP_ENOTFOUND (with the known names) for an unknown name, GP_ENOBACKEND with the candidate's
 * reason when it is not loaded or, for "auto", when nothing is. *out is borrowed from `reg`.
 */
int gp_registry_pick(const struct gp_registry *reg, const char *name,
                     const struct gp_backend_candidate **out);

#endif
