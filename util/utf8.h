/* UTF-8 as outside text arrives: one character decoded strictly, whole strings checked, bad
 * bytes repaired, and the invisible characters that reorder or hide text named. */
#ifndef GP_UTIL_UTF8_H
#define GP_UTIL_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The length in bytes (1 to 4) of the well-formed UTF-8 character at `s` (NUL-terminated), with
 * its code point in *cp; 0 when the bytes there are not one (a stray continuation byte, a
 * truncated, overlong or surrogate sequence, or a value past U+10FFFF). */
size_t gp_utf8_decode(const char *s, uint32_t *cp);

/* Whether every byte of `s` belongs to a well-formed UTF-8 character. */
bool gp_utf8_valid(const char *s);

/* Copy `in` into out[size] (always NUL-terminated, cut at a character when it does not fit)
 * with every byte that is not part of a well-formed character replaced by U+FFFD. Returns the
 * number of bytes replaced. out needs at most 3 * strlen(in) + 1 bytes. */
size_t gp_utf8_repair(char *out, size_t size, const char *in);

/* Whether code point `cp` is one that reorders or hides the text around it on a terminal or a
 * page: the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069). */
bool gp_utf8_is_bidi_control(uint32_t cp);

#endif
