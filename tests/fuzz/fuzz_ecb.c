/* Fuzz target: the ecb-fx feed adapter on the European Central Bank's reference-rate CSV. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("ecb-fx", data, size);
}
