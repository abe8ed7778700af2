/* Strict UTF-8 decoding, checking and repair, and the bidirectional controls (util/utf8.h). */
#include "util/utf8.h"

#include <string.h>

static bool continuation(unsigned char c)
{
    return (c & 0xc0) == 0x80;
}

size_t gp_utf8_decode(const char *s, uint32_t *cp)
{
    const unsigned char *b = (const unsigned char *)s;
    size_t len;
    uint32_t v, min;

    if (b[0] < 0x80) {
        *cp = b[0];
        return 1;
    }
    if (b[0] >= 0xc2 && b[0] <= 0xdf) {
        len = 2, v = b[0] & 0x1f, min = 0x80;
    } else if ((b[0] & 0xf0) == 0xe0) {
        len = 3, v = b[0] & 0x0f, min = 0x800;
    } else if (b[0] >= 0xf0 && b[0] <= 0xf4) {
        len = 4, v = b[0] & 0x07, min = 0x10000;
    } else {
        return 0; /* a continuation byte, C0/C1 (overlong two-byte) or F5..FF */
    }
    for (size_t i = 1; i < len; i++) {
        if (!continuation(b[i])) /* also stops at the terminator */
            return 0;
        v = v << 6 | (b[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

bool gp_utf8_valid(const char *s)
{
    uint32_t cp;

    while (*s) {
        if ((unsigned char)*s < 0x80) {
            s++;
            continue;
        }
        size_t n = gp_utf8_decode(s, &cp);
        if (n == 0)
            return false;
        s += n;
    }
    return true;
}

size_t gp_utf8_repair(char *out, size_t size, const char *in)
{
    static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
    size_t used = 0, replaced = 0;
    uint32_t cp;

    if (!size)
        return 0;
    while (*in) {
        size_t n = gp_utf8_decode(in, &cp);
        const char *piece = n ? in : replacement;
        size_t len = n ? n : 3;
        if (used + len >= size)
            break;
        memcpy(out + used, piece, len);
        used += len;
        replaced += n == 0;
        in += n ? n : 1;
    }
    out[used] = '\0';
    return replaced;
}

bool gp_utf8_is_bidi_control(uint32_t cp)
{
    return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}
