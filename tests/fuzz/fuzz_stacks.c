/* Fuzz target: the stack-profile parser (data/stacks.json) and the band parser
 * (data/bands.json); whatever the first accepts is applied to a set of efficiencies, which must
 * stay finite, and every vendor's default must be a measured profile. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "planner/bands.h"
#include "planner/efficiency.h"
#include "planner/stack.h"

static void check_stacks(const struct gp_stack_table *t)
{
    for (size_t i = 0; i < t->count; i++) {
        struct gp_efficiency eff;
        memset(&eff, 0, sizeof(eff));
        eff.mfu = 0.4;
        gp_stack_apply(&eff, t, &t->stacks[i]);
        if (!isfinite(eff.serve_compute) || !isfinite(eff.mfu) || !(eff.claim_inference >= 1) ||
            !(eff.claim_training >= 1) || eff.vendor_claim != t->stacks[i].claim)
            abort();
    }
    for (int v = 0; v < 2; v++)
        for (int kind = 0; kind < 2; kind++) {
            const struct gp_stack *d = gp_stack_default(t, (enum gp_vendor)v, kind);
            if (d && (d->claim || !d->vendors[v]))
                abort();
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct gp_stack_table stacks;
    struct gp_bands bands;

    if (gp_stack_table_parse(&stacks, text, size, "fuzz.json") == 0) {
        check_stacks(&stacks);
        gp_stack_table_release(&stacks);
    }
    if (gp_bands_parse(&bands, text, size, "fuzz.json") == 0)
        for (int c = 0; c < GP_BAND_COUNT; c++)
            if (bands.band[c].cases > 0 && !(bands.band[c].high >= bands.band[c].low))
                abort();
    return 0;
}
