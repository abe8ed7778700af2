/* dlopen and dlsym behind one call. */
#include "util/dynlib.h"

#include <dlfcn.h>
#include <string.h>

#include "util/error.h"

int gp_dynlib_load(const char *what, const char *const *sonames, const char *const *symbols,
                   size_t n, gp_dynlib_fn *out)
{
    void *lib = NULL;

    for (const char *const *name = sonames; *name && !lib; name++)
        lib = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        return gp_error_set(GP_ERROR, "cannot load %s (%s): %s", what, sonames[0],
                            why ? why : "not found");
    }
    for (size_t i = 0; i < n; i++) {
        void *fn = dlsym(lib, symbols[i]);
        if (!fn) {
            dlclose(lib);
            return gp_error_set(GP_ERROR, "%s (%s) has no %s: too old a version", what, sonames[0],
                                symbols[i]);
        }
        /* POSIX: an address dlsym gives for a function converts to a function pointer */
        memcpy(&out[i], &fn, sizeof(fn));
    }
    return 0;
}
