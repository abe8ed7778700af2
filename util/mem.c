/* Large arrays in memory advised to use transparent huge pages, where the system has them. */
#define _DEFAULT_SOURCE /* madvise */
#include "util/mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

void *gp_mem_alloc_large(size_t n, size_t size)
{
    size_t bytes;
    void *p;

    if (size && n > SIZE_MAX / size)
        return NULL;
    bytes = n * size;
    if (bytes < HUGE_PAGE)
        return malloc(bytes ? bytes : 1);
    if (bytes > SIZE_MAX - HUGE_PAGE)
        return NULL;
    bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE; /* aligned_alloc: whole pages */
    p = aligned_alloc(HUGE_PAGE, bytes);
#ifdef MADV_HUGEPAGE
    if (p)
        (void)madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without it the pages are 4 KiB */
#endif
    return p;
}
