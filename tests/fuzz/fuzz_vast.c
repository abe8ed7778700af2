/* Fuzz target: the vast feed adapter on Vast.ai offer searches and the median step, and the
 * element-by-element reading of its `offers` list checked against the plain reading of the same
 * bytes. */
#include "feed_items_check.h"
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the element callback fails at an element chosen by the input, or never */
    if (items_check_differs((const char *)data, size, "offers", size % 5 == 0 ? size % 7 : 0))
        abort();
    return fuzz_feed("vast", data, size);
}
