/* A calibration run over several devices of one backend: one thread per device, all at once,
 * and the decision which devices' records to keep. */
#ifndef GP_CALIBRATE_SESSION_H
#define GP_CALIBRATE_SESSION_H

#include <stddef.h>

#include "calibrate/calibrate.h"

/* Called from the device threads (concurrently) before each step of device number `slot`
 * (0-based among the session's devices). */
typedef void (*gp_calibrate_session_progress_fn)(void *payload, int slot, int device,
                                                 double fraction, const char *what);

/* One device's outcome. */
struct gp_calibrate_outcome {
    int device;                        /* the backend's device index */
    int rc;                            /* gp_calibrate_device's result */
    char error[1024];                  /* its message when rc != 0 */
    struct gp_calibrate_failed failed; /* steps that failed in a kept record */
};

struct gp_calibrate_session {
    struct gp_calibrate_outcome *outcomes; /* owned, `count` entries, in device order */
    size_t count;
    struct gp_calibration *runs; /* owned: the records kept (every device that produced one,
                                    even with failed steps), `run_count` entries */
    int *devices;                /* owned: the device index of each kept record */
    size_t run_count;
    size_t devices_failed; /* outcomes without a record */
    size_t steps_failed;   /* failed steps over the kept records */
};

/*
 * Calibrate devices first..last of `backend`, each on its own thread (a node's GPUs run
 * together in production: the neighbours' heat and power are part of what a device delivers;
 * a thread that cannot start runs its device afterwards on the calling thread). `progress`
 * may be NULL. Returns 0 (look at devices_failed and steps_failed) or GP_ENOMEM. Release with
 * gp_calibrate_session_release.
 */
int gp_calibrate_session_run(struct gp_calibrate_session *out,
                             const struct gp_backend_candidate *backend, int first, int last,
                             const struct gp_catalog *catalog, int quick,
                             gp_calibrate_session_progress_fn progress, void *payload);

/* Free what the session holds. Accepts NULL. */
void gp_calibrate_session_release(struct gp_calibrate_session *s);

#endif
