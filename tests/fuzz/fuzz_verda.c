/* Fuzz target: the verda feed adapter on Verda's instance-types and instance-availability
 * pages (each page alone, then the step that drops offers located elsewhere). */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("verda", data, size);
}
