/* A device's calibration as gpuplan records it: the measurement (calibrate/runner.c) with the
 * datasheet of the GPU the device maps to, then the fitted curves (calibrate/fit.c, GSL). */
#include "calibrate/calibrate.h"

#include <stdlib.h>
#include <string.h>

#include "calibrate/device_map.h"
#include "calibrate/fit.h"
#include "catalog/catalog.h"
#include "util/error.h"
#include "util/text.h"

#define precision_names   gp_calibrate__precision_names
#define catalog_precision gp_calibrate__catalog_precision

int gp_calibrate_fit_all(struct gp_calibration *cal, const struct gp_gpu *peaks)
{
    double *sizes = NULL, *eff = NULL, *resid = NULL;
    size_t *index = NULL;
    struct gp_calibration_fit *fits = NULL;
    size_t nfits = 0;
    int rc = 0;

    free(cal->fits);
    cal->fits = NULL;
    cal->fit_count = 0;
    if (cal->point_count == 0)
        return 0;
    sizes = malloc(cal->point_count * sizeof(*sizes));
    eff = malloc(cal->point_count * sizeof(*eff));
    resid = malloc(cal->point_count * sizeof(*resid));
    index = malloc(cal->point_count * sizeof(*index));
    fits = calloc(GP_BENCH_PRECISION_COUNT + 1, sizeof(*fits));
    if (!sizes || !eff || !resid || !index || !fits) {
        rc = gp_error_set(GP_ENOMEM, "out of memory fitting curves");
        goto done;
    }
    for (size_t i = 0; i < cal->point_count; i++)
        cal->points[i].residual = 0.0;

    /* Set -1 is bandwidth (the triad points); 0.. are GEMM precisions (square shapes from the
     * library, the compute-bound family the curve describes). */
    for (int set = -1; set < GP_BENCH_PRECISION_COUNT; set++) {
        double peak = 0.0;
        size_t n = 0;
        if (peaks)
            peak = set < 0 ? peaks->hbm_tbs * 1000.0 : peaks->peak_tflops[catalog_precision[set]];
        for (size_t i = 0; i < cal->point_count; i++) {
            const struct gp_calibration_point *pt = &cal->points[i];
            int take = set < 0 ? strcmp(pt->kernel, "triad") == 0
                               : strcmp(pt->kernel, "gemm") == 0 &&
                                     strcmp(pt->precision, precision_names[set]) == 0 &&
                                     pt->m == pt->n && pt->n == pt->k &&
                                     strncmp(pt->impl, "own", 3) != 0 && pt->m >= 128 &&
                                     !strstr(pt->impl, "fast-accum");
            if (!take || pt->size <= 0)
                continue;
            sizes[n] = pt->size;
            eff[n] = peak > 0 ? pt->median / peak : pt->median;
            index[n++] = i;
        }
        if (n < 3)
            continue;
        struct gp_fit_result fr;
        if (gp_fit_saturating(&fr, sizes, eff, n, resid) != 0)
            continue; /* a degenerate set keeps its raw points and gets no curve */
        struct gp_calibration_fit *f = &fits[nfits++];
        gp_text_copy(f->kernel, sizeof(f->kernel), set < 0 ? "bandwidth" : "gemm");
        gp_text_copy(f->precision, sizeof(f->precision), set < 0 ? "" : precision_names[set]);
        f->eff_max = fr.eff_max;
        f->s_half = fr.s_half;
        f->eff_max_se = fr.eff_max_se;
        f->s_half_se = fr.s_half_se;
        f->rmse = fr.rmse;
        f->r2 = fr.r2;
        f->peak = peak;
        f->points = (int)n;
        for (size_t i = 0; i < n; i++)
            cal->points[index[i]].residual = resid[i];
    }
    cal->fits = fits;
    cal->fit_count = nfits;
    fits = NULL;

done:
    free(sizes);
    free(eff);
    free(resid);
    free(index);
    free(fits);
    return rc;
}

int gp_calibrate_device(struct gp_calibration *out, struct gp_calibrate_failed *failed,
                        const struct gp_backend_candidate *backend, int device,
                        const struct gp_catalog *catalog,
                        const struct gp_calibrate_options *options)
{
    const struct gp_gpu *gpu = NULL;

    if (backend->loaded && device >= 0 && device < backend->device_count && catalog &&
        strcmp(backend->devices[device].vendor, "cpu") != 0) {
        const char *id = gp_calibrate_map_device(backend->devices[device].name,
                                                 backend->devices[device].memory_bytes);
        if (id)
            gpu = gp_catalog_find(catalog, id);
    }
    int rc = gp_calibrate_measure(out, failed, backend, device, gpu, options);
    if (rc == 0)
        rc = gp_calibrate_fit_all(out, gpu);
    if (rc < 0)
        gp_calibration_release(out);
    return rc;
}

int gp_calibrate_fit_missing(struct gp_calibration *runs, size_t count,
                             const struct gp_catalog *catalog)
{
    for (size_t i = 0; i < count; i++) {
        if (runs[i].fit_count > 0 || runs[i].point_count == 0)
            continue;
        const struct gp_gpu *gpu =
            runs[i].gpu_id[0] && catalog ? gp_catalog_find(catalog, runs[i].gpu_id) : NULL;
        int rc = gp_calibrate_fit_all(&runs[i], gpu);
        if (rc)
            return rc;
    }
    return 0;
}
