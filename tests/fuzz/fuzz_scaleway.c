/* Fuzz target: the scaleway feed adapter on Scaleway Instance types pages. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("scaleway", data, size);
}
