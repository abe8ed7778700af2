/* Fuzz target: the aws-query feed adapter on AWS GetProducts pages (PriceList entries parsed
 * twice). */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("aws-query", data, size);
}
