/* Fuzz target: the calibration exchange parser behind `gpuplan calibrate import`. */
#include <stdint.h>
#include <stdlib.h>

#include "calibrate/exchange.h"
#include "store/calibrations.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gp_calibration *runs = NULL;
    size_t count = 0;

    if (gp_exchange_parse(&runs, &count, (const char *)data, size, "fuzz.json", NULL) == 0)
        gp_calibrations_free(runs, count);
    return 0;
}
