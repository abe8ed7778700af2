/* cJSON's number text from the digits themselves. printf's "%.Pg" rounds the exact binary value
 * to P significant digits; with a 64-bit long double mantissa, |d| * 10^k (10^k exact up to
 * k = 27) is known to within 1/128 of a unit of the last digit, so the rounding is decided
 * here unless the rest lies near a half, and then, as for anything out of range, the digits
 * come from printf after all. cJSON's read-back test is decided the same way. */
#include "report/json_number.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if LDBL_MANT_DIG >= 64 && defined(__SIZEOF_INT128__)
#define FAST_DIGITS 1
__extension__ typedef unsigned __int128 u128; /* GCC and Clang on 64-bit targets */
#else
#define FAST_DIGITS 0 /* no 128-bit integers or wide long double: printf for every fraction */
#endif

size_t gp_json_number_text_printf(char out[GP_JSON_NUMBER_MAX], double d)
{
    double back;
    int n;

    if (!isfinite(d))
        return (size_t)snprintf(out, GP_JSON_NUMBER_MAX, "null");
    n = snprintf(out, GP_JSON_NUMBER_MAX, "%1.15g", d);
    back = strtod(out, NULL);
    if (!(fabs(back - d) <= fmax(fabs(back), fabs(d)) * DBL_EPSILON))
        n = snprintf(out, GP_JSON_NUMBER_MAX, "%1.17g", d);
    return n > 0 ? (size_t)n : 0;
}

#if FAST_DIGITS

enum { MAX_POW = 27 };

/* 10^0 .. 10^27: exact in a 64-bit mantissa (5^27 < 2^64). */
static const long double pow10_exact[MAX_POW + 1] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};

static const uint64_t pow10_int[] = {1ull,
                                     10ull,
                                     100ull,
                                     1000ull,
                                     10000ull,
                                     100000ull,
                                     1000000ull,
                                     10000000ull,
                                     100000000ull,
                                     1000000000ull,
                                     10000000000ull,
                                     100000000000ull,
                                     1000000000000ull,
                                     10000000000000ull,
                                     100000000000000ull,
                                     1000000000000000ull,
                                     10000000000000000ull,
                                     100000000000000000ull};

/* The exponent frexp gives a normal a > 0 (a = m * 2^e, m in [0.5, 1)), from its bits. */
static int binary_exponent(double a)
{
    uint64_t bits;

    memcpy(&bits, &a, sizeof(bits));
    return (int)((bits >> 52) & 0x7ff) - 1022;
}

/* 2^e for a normal result, from its bits. */
static double power_of_two(int e)
{
    uint64_t bits = (uint64_t)(e + 1023) << 52;
    double d;

    memcpy(&d, &bits, sizeof(d));
    return d;
}

/* n * 10^j, or |a| * 10^j, in long double; false when 10^|j| is not exact. */
static bool scale(long double x, int j, long double *out)
{
    if (j < -MAX_POW || j > MAX_POW)
        return false;
    *out = j >= 0 ? x * pow10_exact[j] : x / pow10_exact[-j];
    return true;
}

/* The first `prec` (15 or 17) significant digits of a > 0 as printf rounds them, and the
 * decimal exponent of the first; false when that cannot be told here. */
/* floor(a * 10^k) for 0 <= k <= 27, exactly, and how the rest compares with a half (-1, 0, 1),
 * in 128-bit integers: a = m * 2^q with m < 2^53, 10^k = 5^k * 2^k and m * 5^k < 2^116. False
 * when the product does not fit 64 bits. */
static bool scale_exact(double a, int k, uint64_t *whole, int *rest_vs_half)
{
    static const uint64_t pow5[MAX_POW + 1] = {1ull,
                                               5ull,
                                               25ull,
                                               125ull,
                                               625ull,
                                               3125ull,
                                               15625ull,
                                               78125ull,
                                               390625ull,
                                               1953125ull,
                                               9765625ull,
                                               48828125ull,
                                               244140625ull,
                                               1220703125ull,
                                               6103515625ull,
                                               30517578125ull,
                                               152587890625ull,
                                               762939453125ull,
                                               3814697265625ull,
                                               19073486328125ull,
                                               95367431640625ull,
                                               476837158203125ull,
                                               2384185791015625ull,
                                               11920928955078125ull,
                                               59604644775390625ull,
                                               298023223876953125ull,
                                               1490116119384765625ull,
                                               7450580596923828125ull};
    uint64_t bits, m;
    u128 p;
    int shift;

    memcpy(&bits, &a, sizeof(bits));
    m = (bits & ((1ull << 52) - 1)) | (1ull << 52);
    shift = (int)((bits >> 52) & 0x7ff) - 1075 + k; /* a * 10^k = m * 5^k * 2^shift */
    p = (u128)m * pow5[k];
    if (shift >= 0) {
        if (shift > 10 || (p << shift) >> 64)
            return false;
        *whole = (uint64_t)(p << shift);
        *rest_vs_half = -1;
        return true;
    }
    if (-shift >= 128)
        return false;
    u128 rest = p & (((u128)1 << -shift) - 1);
    u128 half = (u128)1 << (-shift - 1);
    if ((p >> -shift) >> 64)
        return false;
    *whole = (uint64_t)(p >> -shift);
    *rest_vs_half = rest < half ? -1 : rest > half;
    return true;
}

/* The first `prec` (15 or 17) significant digits of a normal a > 0 as printf rounds them (to
 * nearest, a tie to even), and the decimal exponent of the first; false when `a` is out of
 * the range this reckons in. */
static bool significant(double a, int prec, uint64_t *digits, int *exp10)
{
    /* the decimal exponent from the binary one (a >= 2^(e2 - 1)): at most one off, mended
     * below; a subnormal `a` comes out of range */
    int e = (int)floor((binary_exponent(a) - 1) * 0.30102999566398120); /* log10(2) */

    for (int tries = 0; tries < 3; tries++) {
        int k = prec - 1 - e, rest;
        uint64_t whole;
        if (k < 0 || k > MAX_POW || !scale_exact(a, k, &whole, &rest))
            return false;
        if (whole >= pow10_int[prec]) {
            e++;
            continue;
        }
        if (whole < pow10_int[prec - 1]) {
            e--;
            continue;
        }
        *digits = whole + (rest > 0 || (rest == 0 && (whole & 1)));
        if (*digits == pow10_int[prec]) { /* 9.99...95 rounds up to 10.0...0 */
            *digits /= 10;
            e++;
        }
        *exp10 = e;
        return true;
    }
    return false;
}

/* The text of digits[prec] (exponent `x`) as "%.Pg" lays it out: fixed for -4 <= x < prec,
 * else with an exponent of at least two digits; trailing zeros of the fraction dropped. */
static size_t layout(char *out, bool negative, uint64_t digits, int prec, int x)
{
    char d[20], *p = out;
    int kept = prec;

    for (int i = prec - 1; i >= 0; i--, digits /= 10)
        d[i] = (char)('0' + digits % 10);
    while (kept > 1 && d[kept - 1] == '0')
        kept--;
    if (negative)
        *p++ = '-';
    if (x < -4 || x >= prec) {
        int ax = abs(x);
        *p++ = d[0];
        if (kept > 1) {
            *p++ = '.';
            memcpy(p, d + 1, (size_t)kept - 1);
            p += kept - 1;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        if (ax >= 100)
            *p++ = (char)('0' + ax / 100);
        *p++ = (char)('0' + ax / 10 % 10);
        *p++ = (char)('0' + ax % 10);
    } else if (x >= 0) {
        memcpy(p, d, (size_t)x + 1);
        p += x + 1;
        if (kept > x + 1) {
            *p++ = '.';
            memcpy(p, d + x + 1, (size_t)(kept - x - 1));
            p += kept - x - 1;
        }
    } else {
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -x - 1; i++)
            *p++ = '0';
        memcpy(p, d, (size_t)kept);
        p += kept;
    }
    *p = '\0';
    return (size_t)(p - out);
}

/* cJSON's test on digits15 (exponent x) of a = |d|: does the double nearest to that decimal lie
 * within max(|back|, a) * DBL_EPSILON of a? Within one binade that is: the decimal lies less
 * than 1.5 units in the last place from a. 1 yes, 0 no, -1 too near to tell (or near the
 * binade's edges, where the units differ on each side). */
static int reads_back(double a, uint64_t digits15, int x)
{
    int binade = binary_exponent(a); /* a = m * 2^binade, m in [0.5, 1) */
    long double v, ulp, off, top;

    if (binade - DBL_MANT_DIG < -1021 || binade > 1023 || !scale((long double)digits15, x - 14, &v))
        return -1;
    ulp = power_of_two(binade - DBL_MANT_DIG);
    top = power_of_two(binade); /* the binade is [top / 2, top) */
    /* the decimal, or a, within two units of the binade's edge: the units differ there */
    if (v >= top - 2 * ulp || v < top / 2 + 2 * ulp || a >= top - 2 * ulp || a < top / 2 + 2 * ulp)
        return -1;
    off = fabsl(v - (long double)a) / ulp;
    if (fabsl(off - 1.5L) < 0.01L)
        return -1;
    return off < 1.5L;
}

/* A whole number below 10^15 in magnitude: its digits, as "%1.15g" writes them. */
static size_t whole_number(char out[GP_JSON_NUMBER_MAX], double d)
{
    char digits[24], *p = digits + sizeof(digits);
    uint64_t n = (uint64_t)fabs(d);
    size_t len;

    do
        *--p = (char)('0' + n % 10);
    while ((n /= 10) != 0);
    if (d < 0)
        *--p = '-';
    len = (size_t)(digits + sizeof(digits) - p);
    memcpy(out, p, len);
    out[len] = '\0';
    return len;
}

/* The 15 significant digits from the 17 (exponent *x): rounding the exact value and the 17
 * digits agree unless the two digits dropped are exactly 50. False then. */
static bool fifteen_of(uint64_t digits17, uint64_t *digits15, int *x)
{
    uint64_t dropped = digits17 % 100;

    if (dropped == 50)
        return false;
    *digits15 = digits17 / 100 + (dropped > 50);
    if (*digits15 == pow10_int[15]) {
        *digits15 /= 10;
        ++*x;
    }
    return true;
}

#endif /* FAST_DIGITS */

size_t gp_json_number_text(char out[GP_JSON_NUMBER_MAX], double d)
{
#if !FAST_DIGITS
    return gp_json_number_text_printf(out, d);
#else
    uint64_t digits17, digits15;
    int x17, x15, back;
    double a = fabs(d);

    if (!isfinite(d) || d == 0) /* zero keeps its sign: "%1.15g" writes -0 */
        return gp_json_number_text_printf(out, d);
    if (d == floor(d) && a < 1e15)
        return whole_number(out, d);
    if (!significant(a, 17, &digits17, &x17))
        return gp_json_number_text_printf(out, d);
    x15 = x17;
    if (!fifteen_of(digits17, &digits15, &x15) && !significant(a, 15, &digits15, &x15))
        return gp_json_number_text_printf(out, d);
    back = reads_back(a, digits15, x15);
    if (back < 0)
        return gp_json_number_text_printf(out, d);
    return back ? layout(out, d < 0, digits15, 15, x15) : layout(out, d < 0, digits17, 17, x17);
#endif
}
