/* Making outside text safe to show: control characters escaped for terminals, and credentials
 * in URLs (user:password@, keys in the query string) redacted for listings, logs and errors. */
#ifndef GP_UTIL_SANITIZE_H
#define GP_UTIL_SANITIZE_H

#include <stddef.h>

/*
 * Copy `in` into out[size] (always NUL-terminated, cut when it does not fit) with every control
 * character written as a visible escape: C0 characters and DEL as "\xHH" (ESC is "\x1b"), a
 * C1 character encoded in UTF-8 (U+0080..U+009F) as "\u00HH", a bidirectional control that
 * would reorder the text around it (U+202E, U+2066, ...: gp_utf8_is_bidi_control) as "\uHHHH",
 * and each byte that is not part of well-formed UTF-8 as "\xHH". Printable text, including
 * other UTF-8, is copied unchanged. Returns `out`.
 */
char *gp_sanitize_controls(char *out, size_t size, const char *in);

/*
 * Copy `in` into out[size] (always NUL-terminated, cut when it does not fit) with the
 * credentials of every URL in it replaced by "***": the password of "user:password@" (or the
 * whole user part when it has no password), and the value of each query parameter whose name
 * holds key, token, secret, pass, auth, sig or credential (any case). Returns `out`.
 */
char *gp_sanitize_urls(char *out, size_t size, const char *in);

/*
 * A short quotation of outside text for a message, into out[size]: at most GP_QUOTE_CHARS
 * characters (cut at a character, "..." after), or, for text that could be a secret, a note
 * that it is not shown: anything that looks like a setting (NAME=value, as in an environment
 * file), and anything holding the value of an environment variable whose name says it is a
 * credential (KEY, TOKEN, SECRET, PASS). Control characters are escaped as by
 * gp_sanitize_controls. Returns `out`.
 */
#define GP_QUOTE_CHARS 24
char *gp_sanitize_quote(char *out, size_t size, const char *in);

#endif
