/* Fuzz target: the aws feed adapter on the streamed AWS bulk CSV offer file. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("aws", data, size);
}
