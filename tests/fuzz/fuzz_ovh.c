/* Fuzz target: the ovh feed adapter on OVHcloud Public Cloud catalogues. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("ovh", data, size);
}
