/* Fuzz target: the serving benchmark results parser behind `calibrate import-serving`. Whatever
 * it accepts holds runs with a concurrency and finite, non-negative figures. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "calibrate/serving.h"

#define require(cond)                                                                              \
    do {                                                                                           \
        if (!(cond))                                                                               \
            abort();                                                                               \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gp_serving_file f;

    if (gp_serving_file_parse(&f, (const char *)data, size, "fuzz.json") != 0)
        return 0;
    require(f.count > 0);
    for (size_t i = 0; i < f.count; i++) {
        const struct gp_serving_run *r = &f.runs[i];
        require(r->concurrency >= 1 && r->line >= 1);
        require(isfinite(r->output_tok_s) && r->output_tok_s >= 0);
        require(isfinite(r->input_tokens) && isfinite(r->output_tokens));
        require(r->format == GP_SERVING_INFERENCEX ? r->output_per_gpu > 0
                                                   : r->output_tok_s > 0 && r->output_tokens >= 1);
    }
    gp_serving_file_release(&f);
    return 0;
}
