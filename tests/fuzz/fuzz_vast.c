/* Fuzz target: the vast feed adapter on Vast.ai offer searches and the median step. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("vast", data, size);
}
