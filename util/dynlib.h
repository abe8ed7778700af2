/* Shared libraries loaded when first needed: one soname of a list opened with dlopen, then a
 * table of its functions resolved by name, so a command that never needs the library does not
 * pay for loading it at start-up (libcurl for the network, libxlsxwriter and its zip and crypto
 * chain for workbooks). */
#ifndef GP_UTIL_DYNLIB_H
#define GP_UTIL_DYNLIB_H

#include <stddef.h>

/* Any function, as a table of resolved functions holds them before they are called through
 * their own types. */
typedef void (*gp_dynlib_fn)(void);

/*
 * Open the first of `sonames` (NULL-terminated) that loads, and resolve `symbols[n]` into
 * `out[n]`. Returns 0, or GP_ERROR naming `what`, the library and the missing symbol (nothing
 * stays loaded then). The library stays loaded for the life of the process.
 */
int gp_dynlib_load(const char *what, const char *const *sonames, const char *const *symbols,
                   size_t n, gp_dynlib_fn *out);

#endif
