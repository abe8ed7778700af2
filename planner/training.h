/* Training at scale, the model's training half: layouts of tensor, context, pipeline and data
 * parallelism, the step time with communication, and the fleet for a deadline. */
#ifndef GP_PLANNER_TRAINING_H
#define GP_PLANNER_TRAINING_H

#include "gpuplan/gpu.h"
#include "planner/efficiency.h"
#include "planner/model.h"
#include "planner/workload.h"

/*
 * Plan training workload `w` on `gpu` into *out (already zeroed, precision set): the fastest
 * layout that fits memory for a fixed GPU count, or the smallest fleet that meets the deadline.
 * `scale` multiplies the efficiencies; `max_gpus` (0 = none) bounds the fleet.
 */
void gp_training_plan(struct gp_perf *out, const struct gp_workload *w, const struct gp_gpu *gpu,
                      const struct gp_efficiency *eff, double scale, int max_gpus);

#endif
