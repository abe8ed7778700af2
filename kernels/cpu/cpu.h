/* The built-in CPU calibration backend: threaded STREAM kernels and GEMM via the system BLAS. */
#ifndef GP_KERNELS_CPU_H
#define GP_KERNELS_CPU_H

#include "gpuplan/backend.h"

/* The CPU backend's table (static storage; never NULL). */
const struct gp_backend_ops *gp_cpu_backend(void);

#endif
