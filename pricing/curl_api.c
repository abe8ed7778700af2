/* Loading libcurl at the first network call: dlopen and one dlsym per function. */
#include "pricing/curl_api.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "util/error.h"

/* The names the library exports, in the order of struct gp_curl_api's members. */
static const char *const symbols[] = {
    "curl_global_init",
    "curl_global_cleanup",
    "curl_easy_init",
    "curl_easy_cleanup",
    "curl_easy_setopt",
    "curl_easy_getinfo",
    "curl_easy_strerror",
    "curl_multi_init",
    "curl_multi_cleanup",
    "curl_multi_add_handle",
    "curl_multi_remove_handle",
    "curl_multi_perform",
    "curl_multi_poll",
    "curl_multi_info_read",
    "curl_slist_append",
    "curl_slist_free_all",
    "curl_url",
    "curl_url_cleanup",
    "curl_url_dup",
    "curl_url_get",
    "curl_url_set",
    "curl_free",
};

/* Members of struct gp_curl_api are function pointers, one per name above, in order: filled
 * through this view of them. */
typedef void (*any_function)(void);
_Static_assert(sizeof(struct gp_curl_api) ==
                   sizeof(symbols) / sizeof(symbols[0]) * sizeof(any_function),
               "one symbol name per libcurl function");

static struct gp_curl_api api;
static bool loaded;

/* libcurl's run-time names, the versioned one first (no -dev package needed to run). */
static void *open_library(void)
{
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    return lib ? lib : dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
}

const struct gp_curl_api *gp_curl_api(void)
{
    any_function table[sizeof(symbols) / sizeof(symbols[0])];
    void *lib;

    if (loaded)
        return &api;
    if (!(lib = open_library())) {
        const char *why = dlerror();
        gp_error_set(GP_ERROR, "cannot load libcurl (libcurl.so.4): %s", why ? why : "not found");
        return NULL;
    }
    for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
        void *fn = dlsym(lib, symbols[i]);
        if (!fn) {
            gp_error_set(GP_ERROR, "libcurl has no %s (too old a libcurl)", symbols[i]);
            dlclose(lib);
            return NULL;
        }
        /* POSIX: a function's address from dlsym converts to a function pointer */
        memcpy(&table[i], &fn, sizeof(fn));
    }
    memcpy(&api, table, sizeof(api));
    loaded = true;
    return &api;
}
