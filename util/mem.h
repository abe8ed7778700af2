/* Large arrays the process fills once and then reads, in memory the kernel may back with huge
 * pages so that filling them takes a few page faults instead of one per 4 KiB. */
#ifndef GP_UTIL_MEM_H
#define GP_UTIL_MEM_H

#include <stddef.h>

/*
 * Room for `n` items of `size` bytes, not zeroed. An array of 2 MiB or more is aligned to 2 MiB
 * and, where the system has transparent huge pages, advised to use them; a smaller one is
 * plain malloc memory. Returns NULL when out of memory or when n * size overflows. The caller
 * owns it and releases it with free().
 */
void *gp_mem_alloc_large(size_t n, size_t size);

#endif
