/* Fuzz target: the lambda feed adapter on Lambda instance types. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("lambda", data, size);
}
