/* gpuplan-calibrate: the fallback calibration driver for a machine that can build gpuplan's
 * backend modules but not gpuplan (no cmake, libcurl, SQLite, cJSON or GSL): the same registry,
 * plan, benchmarks and checks, one device after the other, and the same JSON export, whose
 * curves `gpuplan calibrate import` fits on a machine with the full build.
 * Usage: gpuplan-calibrate --export FILE [--backend NAME] [--device N|all] [--quick]
 * Exit codes as `gpuplan calibrate`: 0, 1 when a step or device failed (the rest is exported),
 * 2 for bad usage, 3 when the backend is not usable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "calibrate/device_map.h"
#include "calibrate/exchange.h"
#include "calibrate/registry.h"
#include "util/error.h"
#include "util/text.h"

struct args {
    const char *backend, *device, *export_path;
    int quick;
};

static int usage(const char *why)
{
    fprintf(stderr,
            "gpuplan-calibrate: %s\nusage: gpuplan-calibrate --export FILE "
            "[--backend NAME] [--device N|all] [--quick]\n",
            why);
    return 2;
}

static int parse(struct args *a, int argc, char **argv)
{
    memset(a, 0, sizeof(*a));
    a->backend = "auto";
    a->device = "all";
    for (int i = 1; i < argc; i++) {
        int more = i + 1 < argc;
        if (strcmp(argv[i], "--quick") == 0)
            a->quick = 1;
        else if (strcmp(argv[i], "--backend") == 0 && more)
            a->backend = argv[++i];
        else if (strcmp(argv[i], "--device") == 0 && more)
            a->device = argv[++i];
        else if (strcmp(argv[i], "--export") == 0 && more)
            a->export_path = argv[++i];
        else
            return usage(argv[i]);
    }
    return a->export_path ? 0 : usage("--export FILE is required");
}

/* Print the failures of one device; the count of failed steps. */
static int report(const struct gp_backend_candidate *b, int dev,
                  const struct gp_calibrate_failed *f)
{
    for (int i = 0; i < f->count && i < GP_CALIBRATE_FAILED_MAX; i++)
        fprintf(stderr, "gpuplan-calibrate: %s device %d: step failed: %s\n", b->name, dev,
                f->steps[i]);
    return f->count;
}

int main(int argc, char **argv)
{
    struct gp_registry reg;
    const struct gp_backend_candidate *b = NULL;
    struct gp_calibration *runs = NULL;
    struct gp_calibrate_failed *failed = NULL;
    struct args a;
    size_t nruns = 0;
    long first = 0, last = 0;
    int rc = parse(&a, argc, argv), bad = 0;

    if (rc)
        return rc;
    if (gp_registry_scan(&reg) != 0 || gp_registry_pick(&reg, a.backend, &b) != 0) {
        fprintf(stderr, "gpuplan-calibrate: %s\n", gp_error_last());
        gp_registry_release(&reg);
        return gp_error_code() == GP_ENOBACKEND ? 3 : 2;
    }
    last = b->device_count - 1;
    if (strcmp(a.device, "all") != 0) {
        if (gp_text_to_int(a.device, 0, last, &first) != 0) {
            gp_registry_release(&reg);
            return usage("--device: not all or a device index of the backend");
        }
        last = first;
    }
    runs = calloc((size_t)(last - first + 1), sizeof(*runs));
    failed = malloc(sizeof(*failed));
    for (long d = first; runs && failed && d <= last; d++) {
        struct gp_calibrate_options options = {a.quick, 0, NULL, NULL};
        const char *id = gp_calibrate_map_device(b->devices[d].name, b->devices[d].memory_bytes);
        fprintf(stderr, "gpuplan-calibrate: %s device %ld: %s (%s)\n", b->name, d,
                b->devices[d].name, id ? id : "no catalog id");
        if (gp_calibrate_measure(&runs[nruns], failed, b, (int)d, NULL, &options) != 0) {
            fprintf(stderr, "gpuplan-calibrate: %s device %ld: %s\n", b->name, d, gp_error_last());
            bad++;
            continue;
        }
        bad += report(b, (int)d, failed);
        nruns++;
    }
    if (!runs || !failed) {
        fprintf(stderr, "gpuplan-calibrate: out of memory\n");
        rc = 1;
    } else if (nruns > 0 && gp_exchange_write(a.export_path, runs, nruns) != 0) {
        fprintf(stderr, "gpuplan-calibrate: %s\n", gp_error_last());
        rc = 1;
    } else {
        fprintf(stderr,
                "gpuplan-calibrate: wrote %zu run(s) to %s (no curves: `gpuplan calibrate "
                "import` fits them)\n",
                nruns, a.export_path);
        rc = bad > 0 || nruns == 0 ? 1 : 0;
    }
    for (size_t r = 0; runs && r < nruns; r++)
        gp_calibration_release(&runs[r]);
    free(runs);
    free(failed);
    gp_registry_release(&reg);
    return rc;
}
