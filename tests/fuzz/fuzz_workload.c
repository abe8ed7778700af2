/* Fuzz target: the workload parser (with a fixed model table), and the model and fleet run on
 * whatever it accepts, which must never produce a non-finite number; also the efficiency and
 * model-table parsers a --data folder feeds. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/efficiency.h"
#include "planner/fleet.h"
#include "planner/model.h"
#include "planner/workload.h"

#include "fuzz_planner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct gp_model_table models;
    static int loaded;
    struct gp_workload w;
    struct gp_efficiency_table effs;
    struct gp_model_table extra;
    const char *text = (const char *)data;

    if (!loaded) {
        if (gp_model_table_parse(&models, models_json, sizeof(models_json) - 1, "models.json"))
            abort();
        loaded = 1;
    }
    if (gp_workload_parse(&w, text, size, "fuzz.json", &models) == 0) {
        struct gp_gpu gpu;
        struct gp_efficiency eff;
        struct gp_assumptions a;
        struct gp_price price = {true, false, false, 2.5, "on-demand", "fuzz", "2026-01-01", 0};
        struct gp_plan_row row;
        fixtures(&gpu, &eff);
        gp_assumptions_init(&a);
        gp_plan_evaluate(&row, &w, &a, &gpu, &eff, &price);
        check_finite(&row);
    }
    if (gp_efficiency_table_parse(&effs, text, size, "fuzz.json") == 0)
        gp_efficiency_table_release(&effs);
    if (gp_model_table_parse(&extra, text, size, "fuzz.json") == 0)
        gp_model_table_release(&extra);
    return 0;
}
