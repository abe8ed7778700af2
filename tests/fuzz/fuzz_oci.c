/* Fuzz target: the oci feed adapter on the OCI price list, and the element-by-element reading of
 * its `items` list checked against the plain reading of the same bytes. */
#include "feed_items_check.h"
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the element callback fails at an element chosen by the input, or never */
    if (items_check_differs((const char *)data, size, "items", size % 5 == 0 ? size % 7 : 0))
        abort();
    return fuzz_feed("oci", data, size);
}
