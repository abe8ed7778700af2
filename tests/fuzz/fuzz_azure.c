/* Fuzz target: the azure feed adapter on Azure Retail Prices pages. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("azure", data, size);
}
