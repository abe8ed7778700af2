/* Runs one backend for real at small sizes: every bandwidth kernel, a rotated triad window, and
 * GEMM in every precision the device reports, with the library and with the own kernel; each
 * result must verify against the host reference. Usage: test_backend_run NAME. Exits 77 (skip)
 * when the backend is not usable on this machine (no module, no platform, no device). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/registry.h"

#define REPS 8

static int failures;

static void check(const struct gp_backend_candidate *b, int dev, struct gp_bench_params *p,
                  const char *what, int allow_unsupported)
{
    double times[REPS];
    struct gp_bench_result r;

    memset(&r, 0, sizeof(r));
    r.times_s = times;
    p->repetitions = REPS;
    p->min_repetitions = 2;
    p->warmup_max = 4;
    p->warmup_seconds = 0.2;
    p->settle_tolerance = 0.1;
    p->time_budget_s = 0.1;
    p->seed = 20260901;
    int rc = b->ops->bench(dev, p, &r);
    if (rc == GP_BACKEND_EUNSUPPORTED && allow_unsupported) {
        printf("skip %-28s %s\n", what, b->ops->last_error());
        return;
    }
    int ok = rc == GP_BACKEND_OK && r.samples >= p->min_repetitions && r.checked > 0 &&
             r.max_error <= 1.0 && r.work > 0;
    for (int i = 0; ok && i < r.samples; i++)
        ok = times[i] > 0;
    printf("%s %-28s rc %d samples %d checked %d max_error %.3g impl %s %s\n", ok ? "ok  " : "FAIL",
           what, rc, r.samples, r.checked, r.max_error, r.impl, rc ? b->ops->last_error() : "");
    failures += !ok;
}

int main(int argc, char **argv)
{
    static const char *const kinds[] = {"copy", "scale", "add", "triad", "read"};
    static const char *const precisions[] = {"fp64", "fp32", "tf32", "bf16", "fp16", "fp8"};
    struct gp_registry reg;
    const struct gp_backend_candidate *b = NULL;
    char what[64];

    if (argc != 2) {
        fprintf(stderr, "usage: %s BACKEND\n", argv[0]);
        return 2;
    }
    if (gp_registry_scan(&reg) != 0)
        return 1;
    for (size_t i = 0; i < reg.count; i++)
        if (strcmp(reg.items[i].name, argv[1]) == 0)
            b = &reg.items[i];
    if (!b || !b->loaded) {
        printf("skip: no usable %s device here: %s\n", argv[1], b ? b->reason : "not listed");
        gp_registry_release(&reg);
        return 77;
    }
    for (int dev = 0; dev < b->device_count; dev++) {
        const struct gp_device_info *info = &b->devices[dev];
        struct gp_bench_params p;
        printf("device %d: %s (%s)\n", dev, info->name, info->library_version);
        for (int k = GP_BENCH_COPY; k <= GP_BENCH_READ; k++) {
            memset(&p, 0, sizeof(p));
            p.kind = (enum gp_bench_kind)k;
            p.array_bytes = 2u << 20;
            check(b, dev, &p, kinds[k], 0);
        }
        memset(&p, 0, sizeof(p));
        p.kind = GP_BENCH_TRIAD;
        p.array_bytes = 256u << 10;
        p.rotate_bytes = 3u * (4u << 20);
        check(b, dev, &p, "triad rotating windows", 0);

        for (int prec = 0; prec < GP_BENCH_PRECISION_COUNT; prec++) {
            if (!(info->precisions & GP_BENCH_PRECISION_BIT(prec)))
                continue;
            /* Odd shapes exercise the edges of every tiling; the skinny one is a decode GEMM. */
            static const int shapes[][3] = {{67, 45, 131}, {1, 96, 512}, {128, 128, 128}};
            for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
                for (int impl = GP_BENCH_IMPL_AUTO; impl <= GP_BENCH_IMPL_OWN; impl += 2) {
                    memset(&p, 0, sizeof(p));
                    p.kind = GP_BENCH_GEMM;
                    p.precision = (enum gp_bench_precision)prec;
                    p.impl = (enum gp_bench_impl)impl;
                    p.m = shapes[s][0];
                    p.n = shapes[s][1];
                    p.k = shapes[s][2];
                    p.rotate_bytes = 1u << 20;
                    snprintf(what, sizeof(what), "gemm %s %dx%dx%d %s", precisions[prec], p.m, p.n,
                             p.k, impl == GP_BENCH_IMPL_OWN ? "own" : "auto");
                    /* A library may lack a shape (fp8 wants multiples of 16); the own kernel
                     * must run everything but tf32, whose math it does not have. */
                    check(b, dev, &p, what, impl == GP_BENCH_IMPL_AUTO || prec == GP_BENCH_TF32);
                }
            if (prec == GP_BENCH_FP8) { /* the library's fast accumulation, where it has one */
                memset(&p, 0, sizeof(p));
                p.kind = GP_BENCH_GEMM;
                p.precision = GP_BENCH_FP8;
                p.impl = GP_BENCH_IMPL_VENDOR;
                p.fast_accum = 1;
                p.m = 1;
                p.n = p.k = 512;
                p.rotate_bytes = 1u << 20;
                check(b, dev, &p, "gemm fp8 1x512x512 fast-accum", 1);
            }
        }
    }
    gp_registry_release(&reg);
    printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
