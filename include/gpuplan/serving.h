/* Serving calibrations: one measured serving benchmark run compared with the model, as the
 * store keeps it and the planner applies it. */
#ifndef GPUPLAN_SERVING_H
#define GPUPLAN_SERVING_H

#include <stdint.h>

#include "gpuplan/gpu.h"

#define GP_SERVING_FINGERPRINT_MAX 17 /* 16 hex digits */

struct gp_serving_record {
    char fingerprint[GP_SERVING_FINGERPRINT_MAX]; /* of the run and its fit conditions */
    char gpu_id[GP_GPU_ID_MAX];                   /* catalog GPU it ran on */
    char stack[32];                               /* profile it calibrates */
    char model[64];                               /* preset served */
    char model_class[8];                /* "dense" or "moe": the fits a plan of this class uses */
    char format[16];                    /* "vllm", "sglang" or "inferencex" */
    char origin[128];                   /* the file's name as given */
    int line;                           /* its run's line in the file */
    char layout[8];                     /* "tep8" */
    int gpus;                           /* GPUs measured over */
    int concurrency;                    /* requests in flight */
    char precision[8];                  /* weights' precision */
    double input_tokens, output_tokens; /* mean per request */
    double measured_per_gpu;            /* output tokens/s per GPU */
    double predicted_per_gpu;           /* the model's, same deployment */
    double factor;                      /* measured / predicted */
    char measured_on[32];               /* the run's date as its tool wrote it, "" unknown */
    int64_t imported_at;                /* Unix seconds UTC */
};

#endif
