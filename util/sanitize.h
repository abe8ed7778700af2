/* Making outside text safe to show: control characters escaped for terminals, and credentials
 * in URLs (user:password@, keys in the query string) redacted for listings, logs and errors. */
#ifndef GP_UTIL_SANITIZE_H
#define GP_UTIL_SANITIZE_H

#include <stddef.h>

/*
 * Copy `in` into out[size] (always NUL-terminated, cut when it does not fit) with every control
 * character written as a visible escape: C0 characters and DEL as "\xHH" (ESC is "\x1b"), a
 * C1 character encoded in UTF-8 (U+0080..U+009F) as "\u00HH". Printable text, including other
 * UTF-8, is copied unchanged. Returns `out`.
 */
char *gp_sanitize_controls(char *out, size_t size, const char *in);

/*
 * Copy `in` into out[size] (always NUL-terminated, cut when it does not fit) with the
 * credentials of every URL in it replaced by "***": the password of "user:password@" (or the
 * whole user part when it has no password), and the value of each query parameter whose name
 * holds key, token, secret, pass, auth, sig or credential (any case). Returns `out`.
 */
char *gp_sanitize_urls(char *out, size_t size, const char *in);

#endif
