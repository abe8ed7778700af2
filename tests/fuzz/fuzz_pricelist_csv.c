/* Fuzz target: the pricelist-csv feed adapter on generic CSV price lists. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("pricelist-csv", data, size);
}
