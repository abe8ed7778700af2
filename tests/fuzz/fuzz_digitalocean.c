/* Fuzz target: the digitalocean feed adapter on DigitalOcean sizes pages, and the
 * element-by-element reading of its `sizes` list checked against the plain reading of the same
 * bytes. */
#include "feed_items_check.h"
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the element callback fails at an element chosen by the input, or never */
    if (items_check_differs((const char *)data, size, "sizes", size % 5 == 0 ? size % 7 : 0))
        abort();
    return fuzz_feed("digitalocean", data, size);
}
