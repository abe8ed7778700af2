/* GP_PRINTF: lets the compiler check the arguments of a function that takes a printf format. */
#ifndef GP_UTIL_FORMAT_H
#define GP_UTIL_FORMAT_H

/* Put after the declaration: format is parameter `fmt_index`, its arguments start at `first`. */
#if defined(__GNUC__)
#define GP_PRINTF(fmt_index, first) __attribute__((format(printf, fmt_index, first)))
#else
#define GP_PRINTF(fmt_index, first)
#endif

#endif
