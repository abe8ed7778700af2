/* Mapping a device, as a driver names it, to the canonical GPU id of the catalog. */
#ifndef GP_CALIBRATE_DEVICE_MAP_H
#define GP_CALIBRATE_DEVICE_MAP_H

#include <stdint.h>

/*
 * The canonical id ("h200-sxm", "mi300x", ...) for a device named `name` with `memory_bytes`
 * of memory, or NULL for CPUs, unknown devices, and partitioned or cut-down parts whose memory
 * does not match the full chip (their peaks differ from the catalog's). Static storage.
 */
const char *gp_calibrate_map_device(const char *name, uint64_t memory_bytes);

#endif
