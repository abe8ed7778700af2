/* Small string helpers: bounded copies, case-insensitive comparison, nearest-word suggestions. */
#ifndef GP_UTIL_TEXT_H
#define GP_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Copy `src` into dst[size], always NUL-terminated. Returns 0, or -1 if `src` was cut. */
int gp_text_copy(char *dst, size_t size, const char *src);

/* ASCII case-insensitive equality and prefix tests. */
bool gp_text_ieq(const char *a, const char *b);
bool gp_text_starts_with(const char *s, const char *prefix);

/* Levenshtein distance between two short ASCII words (longer inputs are compared on their
 * first 63 bytes). */
int gp_text_distance(const char *a, const char *b);

/* The entry of the NULL-terminated `words` that `word` begins, else the closest to `word`, or
 * NULL when none is within a distance of max(2, strlen(word) / 3). Borrowed from `words`. */
const char *gp_text_nearest(const char *word, const char *const *words);

/*
 * The same choice over candidates offered one at a time, so a caller with names inside its own
 * structs offers each in turn and needs no array (and has no limit on how many):
 *     struct gp_nearest n;
 *     gp_nearest_init(&n, word);
 *     for (...) gp_nearest_offer(&n, item->name);
 *     hint = gp_nearest_result(&n);
 * Candidates are borrowed until the result is used.
 */
struct gp_nearest {
    const char *word;   /* what the user typed */
    const char *prefix; /* the first candidate `word` begins, or NULL */
    const char *best;   /* the closest candidate so far within `limit`, or NULL */
    int best_distance;  /* its edit distance */
    int limit;          /* max(2, strlen(word) / 3) */
};
void gp_nearest_init(struct gp_nearest *n, const char *word);
void gp_nearest_offer(struct gp_nearest *n, const char *candidate);
const char *gp_nearest_result(const struct gp_nearest *n);

/* The NULL-terminated `words` joined by `sep`, the last two by `last` ("a, b or c" with ", "
 * and " or "), into out[size], cut at a word boundary when out is too small. For messages that
 * list the accepted values. */
void gp_text_join(char *out, size_t size, const char *const *words, const char *sep,
                  const char *last);

/* Parse a whole string as a finite decimal double / an int in [min, max]; 0 or GP_EINVALID (no
 * message set: the caller names the flag or field). Only decimal notation is accepted: no
 * leading space, no hexadecimal ("0x400"), no "inf" or "nan". */
int gp_text_to_double(const char *s, double *out);
int gp_text_to_int(const char *s, long min, long max, long *out);

#endif
