/* cJSON's number text from the digits themselves. printf's "%.Pg" rounds the exact binary value
 * to P significant digits: a = m * 2^q times 10^k is m * 5^k * 2^(q + k), an exact 128-bit
 * integer for k <= 27, so the digits and the rounding (to nearest, a tie to even) are exact.
 * cJSON's read-back test is decided exactly in the same integers. What falls outside that
 * range, and the rare case these cannot tell, takes printf and strtod as cJSON does. */
#include "report/json_number.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SIZEOF_INT128__)
#define FAST_DIGITS 1
__extension__ typedef unsigned __int128 u128; /* GCC and Clang on 64-bit targets */
#else
#define FAST_DIGITS 0 /* no 128-bit integers: printf for every fraction */
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

/* 5^0 .. 5^27: each below 2^63. */
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

/* floor(a * 10^k) for 0 <= k <= 27, exactly, and how the rest compares with a half (-1, 0, 1),
 * in 128-bit integers: a = m * 2^q with m < 2^53, 10^k = 5^k * 2^k and m * 5^k < 2^116. False
 * when the product does not fit 64 bits. */
static bool scale_exact(double a, int k, uint64_t *whole, int *rest_vs_half)
{
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

/* v's last `count` decimal digits into out[count], two a division. */
static void put_digits(char *out, uint32_t v, int count)
{
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
                                   "25262728293031323334353637383940414243444546474849"
                                   "50515253545556575859606162636465666768697071727374"
                                   "75767778798081828384858687888990919293949596979899";

    for (; count >= 2; count -= 2, v /= 100)
        memcpy(out + count - 2, pairs + 2 * (v % 100), 2);
    if (count)
        out[0] = (char)('0' + v % 10);
}

/* The text of digits[prec] (exponent `x`) as "%.Pg" lays it out: fixed for -4 <= x < prec,
 * else with an exponent of at least two digits; trailing zeros of the fraction dropped. */
static size_t layout(char *out, bool negative, uint64_t digits, int prec, int x)
{
    char d[20], *p = out;
    int kept = prec;

    /* the low 8 digits and the rest, each in 32-bit arithmetic */
    put_digits(d + prec - 8, (uint32_t)(digits % 100000000), 8);
    put_digits(d, (uint32_t)(digits / 100000000), prec - 8);
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
        for (int z = 0; z < -x - 1; z++)
            *p++ = '0';
        memcpy(p, d, (size_t)kept);
        p += kept;
    }
    *p = '\0';
    return (size_t)(p - out);
}

/* a's 53-bit significand m and exponent q: a = m * 2^q, for a normal a > 0. */
static uint64_t split_double(double a, int *q)
{
    uint64_t bits;

    memcpy(&bits, &a, sizeof(bits));
    *q = (int)((bits >> 52) & 0x7ff) - 1075;
    return (bits & ((1ull << 52) - 1)) | (1ull << 52);
}

/*
 * cJSON's test on digits15 (exponent x) of a = |d|: does back, the double nearest to that
 * decimal D, lie within max(|back|, a) * DBL_EPSILON of a? For an `a` at least 3 units in the
 * last place (u) below its binade's top and 2 above its bottom, that holds exactly when back
 * is a - u, a or a + u, that is when |D - a| < 1.5 u. With a = m * 2^q (u = 2^q) and
 * D = digits15 / 10^j, 2 |D - a| / u < 3 is 2 |digits15 * 2^s - m * 5^j| < 3 * 5^j with
 * s = -q - j, in 128-bit integers. 1 yes, 0 no, -1 when this cannot tell (an exact tie at
 * 1.5 u, the binade's edges, or out of range).
 */
static int reads_back(double a, uint64_t digits15, int x)
{
    int q, j = 14 - x, s;
    uint64_t m = split_double(a, &q);
    u128 left, right, diff, bound;

    if (m - (1ull << 52) < 2 || (1ull << 53) - m <= 3 || j < 0 || j > MAX_POW)
        return -1;
    s = -q - j;
    if (s < 0 || s > 70) /* digits15 < 2^50: digits15 * 2^s fits */
        return -1;
    left = (u128)digits15 << s;
    right = (u128)m * pow5[j];
    diff = left > right ? left - right : right - left;
    bound = 3 * (u128)pow5[j];
    if (2 * diff == bound)
        return -1;
    return 2 * diff < bound;
}

/* A whole number below 10^15 in magnitude: its digits, as "%1.15g" writes them. */
static size_t whole_number(char out[GP_JSON_NUMBER_MAX], double d)
{
    uint64_t n = (uint64_t)fabs(d);
    int count = 1;
    char *p = out;

    while (count < 15 && n >= pow10_int[count])
        count++;
    if (d < 0)
        *p++ = '-';
    put_digits(p + (count > 8 ? count - 8 : 0), (uint32_t)(n % 100000000), count < 8 ? count : 8);
    if (count > 8)
        put_digits(p, (uint32_t)(n / 100000000), count - 8);
    p[count] = '\0';
    return (size_t)(p + count - out);
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
