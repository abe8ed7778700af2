/* Fuzz target: the runpod feed adapter on the RunPod REST v2 GPU catalog. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("runpod", data, size);
}
