/* Loading libcurl at the first network call. */
#include "pricing/curl_api.h"

#include <stdbool.h>

#include "util/dynlib.h"

#define GP_CURL_NAME(ret, name, params) "curl_" #name,
static const char *const symbols[] = {GP_CURL_FUNCTIONS(GP_CURL_NAME)};
#undef GP_CURL_NAME

/* The table is filled as an array of functions: one member per name, nothing else in it. */
_Static_assert(sizeof(struct gp_curl_api) ==
                   sizeof(symbols) / sizeof(symbols[0]) * sizeof(gp_dynlib_fn),
               "one symbol name per libcurl function");

static union {
    struct gp_curl_api api;
    gp_dynlib_fn fns[sizeof(symbols) / sizeof(symbols[0])];
} loaded;
static bool ready;

const struct gp_curl_api *gp_curl_api(void)
{
    static const char *const sonames[] = {"libcurl.so.4", "libcurl.so", NULL};

    if (!ready && gp_dynlib_load("libcurl", sonames, symbols, sizeof(symbols) / sizeof(symbols[0]),
                                 loaded.fns) == 0)
        ready = true;
    return ready ? &loaded.api : NULL;
}
