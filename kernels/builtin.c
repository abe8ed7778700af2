/* The backends built into gpuplan, listed for the registry through the module ABI table. */
#include <stddef.h>

#include "gpuplan/backend.h"
#include "kernels/cpu/cpu.h"

const gp_backend_entry_fn gp_backend_builtins[] = {gp_cpu_backend, NULL};
