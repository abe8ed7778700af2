/* Numbers as text for the renderers: printf's fixed-point result without printf in the common
 * case, and the locales that say which decimal mark and CSV separator to use. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/table.h"

enum { MAX_FAST_DECIMALS = 9 };

static const struct gp_locale locales[] = {
    {"C", '.', ',', false},
    {"da_DK", ',', ';', true},
};

const struct gp_locale *gp_locale_default(void)
{
    return &locales[0];
}

const struct gp_locale *gp_locale_find(const char *name)
{
    for (size_t i = 0; i < sizeof(locales) / sizeof(locales[0]); i++)
        if (strcmp(locales[i].name, name) == 0)
            return &locales[i];
    return NULL;
}

/* snprintf's answer, with the decimal mark swapped in. */
static size_t slow_format(char *out, size_t size, double value, int decimals, char decimal)
{
    int n = snprintf(out, size, "%.*f", decimals, value);
    char *point = strchr(out, '.');

    if (point)
        *point = decimal;
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* units (the number times 10^decimals) written out the plain way: digits into a buffer lowest
 * first, then copied in reverse. */
static size_t put_reversed(char *out, uint64_t units, int decimals, char decimal, bool negative)
{
    char digits[32];
    size_t n = 0, len = 0;

    for (int d = 0; d < decimals; d++) {
        digits[n++] = (char)('0' + units % 10);
        units /= 10;
    }
    if (decimals > 0)
        digits[n++] = decimal;
    do {
        digits[n++] = (char)('0' + units % 10);
        units /= 10;
    } while (units > 0);
    if (negative)
        out[len++] = '-';
    while (n > 0)
        out[len++] = digits[--n];
    out[len] = '\0';
    return len;
}

/*
 * The same, built in two 64-bit words and stored a word at a time: the sign and whole digits,
 * then the decimal mark, then the decimals. Each digit, lowest first, goes in front of the ones
 * before it, which on a little-endian machine is the low byte, the first in memory. Bytes are
 * never stored one by one and read back wider, which stalls the processor. Returns 0 (out[32]
 * scribbled on) when a part needs more than eight bytes, or on a big-endian machine.
 */
static size_t put_words(char *out, uint64_t units, int decimals, char decimal, bool negative)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t fraction = 0, whole = 0;
    size_t len = 0;

    if (decimals > 8)
        return 0;
    for (int d = 0; d < decimals; d++) {
        fraction = fraction << 8 | (uint64_t)('0' + units % 10);
        units /= 10;
    }
    do {
        whole = whole << 8 | (uint64_t)('0' + units % 10);
        units /= 10;
        len++;
    } while (units > 0 && len < 8);
    if (units > 0 || len + negative > 8)
        return 0;
    if (negative) {
        whole = whole << 8 | '-';
        len++;
    }
    memcpy(out, &whole, 8);
    if (decimals > 0) {
        out[len++] = decimal;
        memcpy(out + len, &fraction, 8);
        len += (size_t)decimals;
    }
    out[len] = '\0';
    return len;
#else
    (void)out, (void)units, (void)decimals, (void)decimal, (void)negative;
    return 0;
#endif
}

/*
 * The scaled value |v| * 10^d is one correctly rounded multiplication away from the exact one,
 * so its distance from a rounding tie tells whether rounding it gives printf's (exactly rounded)
 * digits; values too close to a tie, too large or with many decimals go to snprintf.
 */
size_t gp_number_format(char *out, size_t size, double value, int decimals, char decimal)
{
    static const double scale[MAX_FAST_DECIMALS + 1] = {1e0, 1e1, 1e2, 1e3, 1e4,
                                                        1e5, 1e6, 1e7, 1e8, 1e9};

    if (decimals < 0 || decimals > MAX_FAST_DECIMALS || !isfinite(value) || size < 32)
        return slow_format(out, size, value, decimals, decimal);
    double scaled = fabs(value) * scale[decimals];
    if (!(scaled < 9e15))
        return slow_format(out, size, value, decimals, decimal);
    double frac = scaled - (double)(int64_t)scaled; /* exact: scaled < 2^53 */
    if (fabs(frac - 0.5) <= scaled * 1e-15 + 1e-300)
        return slow_format(out, size, value, decimals, decimal);
    /* Rounded to the nearest: adding 0.5 errs by at most half an ulp of scaled + 0.5, less than
     * the distance from the tie that was just checked, so it cannot cross a whole number; and the
     * digits need not wait for the check. */
    uint64_t units = (uint64_t)(int64_t)(scaled + 0.5);
    bool negative = signbit(value);
    size_t len = put_words(out, units, decimals, decimal, negative);
    return len ? len : put_reversed(out, units, decimals, decimal, negative);
}

size_t gp_number_grouped(char *out, size_t size, double value, int decimals, char decimal)
{
    char plain[352];
    size_t len = gp_number_format(plain, sizeof(plain), value, decimals, decimal), used = 0;
    size_t sign = plain[0] == '-', whole = sign;
    char group = decimal == ',' ? '.' : ',';

    while (whole < len && plain[whole] >= '0' && plain[whole] <= '9')
        whole++;
    for (size_t i = 0; i < len && used + 1 < size; i++) {
        /* a mark before each run of three digits that ends the whole part */
        if (i > sign && i < whole && (whole - i) % 3 == 0 && used + 2 < size)
            out[used++] = group;
        out[used++] = plain[i];
    }
    if (size)
        out[used < size ? used : size - 1] = '\0';
    return used;
}

int gp_number_display_decimals(double value, enum gp_column_style style, int column_decimals)
{
    double v = fabs(value);

    if (!isfinite(v) || style == GP_STYLE_COUNT || v == floor(v))
        return 0;
    if (style != GP_STYLE_CURRENCY)
        return column_decimals;
    if (v >= 100)
        return 0;
    if (v >= 1)
        return 2;
    int d = 3 - (int)floor(log10(v)); /* four significant digits */
    return d > 9 ? 9 : d;
}
