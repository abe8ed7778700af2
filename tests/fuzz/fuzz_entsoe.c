/* Fuzz target: the entsoe feed adapter on ENTSO-E market documents (day-ahead prices and
 * acknowledgements), and through it the XML scanner. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("entsoe", data, size);
}
