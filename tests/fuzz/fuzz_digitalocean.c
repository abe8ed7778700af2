/* Fuzz target: the digitalocean feed adapter on DigitalOcean sizes pages. */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("digitalocean", data, size);
}
