/* Fuzz target: the energidata feed adapter on Energi Data Service pages (DayAheadPrices and
 * Elspotprices). */
#include "fuzz_feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_feed("energidata", data, size);
}
