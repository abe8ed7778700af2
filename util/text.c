/* Small string helpers shared by the parsers and the command line. */
#include "util/text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

int gp_text_copy(char *dst, size_t size, const char *src)
{
    size_t i = 0;

    if (size == 0)
        return -1;
    /* one pass and no call: what is copied is mostly names of a few bytes */
    for (; i + 1 < size && src[i] != '\0'; i++)
        dst[i] = src[i];
    dst[i] = '\0';
    return src[i] != '\0' ? -1 : 0;
}

bool gp_text_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

bool gp_text_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int gp_text_distance(const char *a, const char *b)
{
    enum { MAX = 64 };
    int row[MAX + 1];
    size_t la = strnlen(a, MAX - 1), lb = strnlen(b, MAX - 1);

    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

void gp_nearest_init(struct gp_nearest *n, const char *word)
{
    n->word = word;
    n->prefix = NULL;
    n->best = NULL;
    n->best_distance = 0;
    n->limit = (int)strlen(word) / 3;
    if (n->limit < 2)
        n->limit = 2;
}

void gp_nearest_offer(struct gp_nearest *n, const char *candidate)
{
    /* A word that starts a candidate ("h100" of "h100-sxm") is the likelier slip. */
    if (!candidate || n->prefix)
        return;
    if (*n->word && gp_text_starts_with(candidate, n->word)) {
        n->prefix = candidate;
        return;
    }
    int d = gp_text_distance(n->word, candidate);
    if (d <= n->limit && (!n->best || d < n->best_distance)) {
        n->best = candidate;
        n->best_distance = d;
    }
}

const char *gp_nearest_result(const struct gp_nearest *n)
{
    return n->prefix ? n->prefix : n->best;
}

const char *gp_text_nearest(const char *word, const char *const *words)
{
    struct gp_nearest n;

    gp_nearest_init(&n, word);
    for (; *words; words++)
        gp_nearest_offer(&n, *words);
    return gp_nearest_result(&n);
}

/* Whether `s` is written in decimal: an optional sign, then a digit or a point, and no 'x'. */
static bool is_decimal(const char *s)
{
    const char *p = s + (*s == '+' || *s == '-');

    return (isdigit((unsigned char)*p) || *p == '.') && !strpbrk(s, "xX");
}

int gp_text_to_double(const char *s, double *out)
{
    char *end;
    double v;

    if (!is_decimal(s))
        return GP_EINVALID;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return GP_EINVALID;
    *out = v;
    return 0;
}

int gp_text_to_int(const char *s, long min, long max, long *out)
{
    char *end;
    long v;

    if (!is_decimal(s))
        return GP_EINVALID;
    errno = 0;
    v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || v < min || v > max)
        return GP_EINVALID;
    *out = v;
    return 0;
}

void gp_text_join(char *out, size_t size, const char *const *words, const char *sep,
                  const char *last)
{
    size_t used = 0;

    if (size == 0)
        return;
    out[0] = '\0';
    for (size_t i = 0; words[i]; i++) {
        int n = snprintf(out + used, size - used, "%s%s",
                         i == 0         ? ""
                         : words[i + 1] ? sep
                                        : last,
                         words[i]);
        if (n < 0 || (size_t)n >= size - used) {
            out[used] = '\0';
            return;
        }
        used += (size_t)n;
    }
}
