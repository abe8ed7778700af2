/* Calibrating a backend's devices together, one thread each, and keeping every record made. */
#include "calibrate/session.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store/calibrations.h"
#include "util/error.h"
#include "util/text.h"

/* One device's calibration, run on its own thread. */
struct job {
    const struct gp_backend_candidate *backend;
    const struct gp_catalog *catalog;
    gp_calibrate_session_progress_fn progress;
    void *payload;
    int slot;
    int quick;
    struct gp_calibrate_outcome *outcome;
    struct gp_calibration run; /* the record when outcome->rc == 0 */
};

static void job_progress(void *arg, double fraction, const char *what)
{
    struct job *job = arg;
    if (job->progress)
        job->progress(job->payload, job->slot, job->outcome->device, fraction, what);
}

static void *job_main(void *arg)
{
    struct job *job = arg;
    struct gp_calibrate_options options = {job->quick, 0, job_progress, job};
    struct gp_calibrate_outcome *o = job->outcome;

    o->rc =
        gp_calibrate_device(&job->run, &o->failed, job->backend, o->device, job->catalog, &options);
    if (o->rc)
        gp_text_copy(o->error, sizeof(o->error), gp_error_last());
    return NULL;
}

static void run_jobs(struct job *jobs, int count)
{
    pthread_t *threads = calloc((size_t)count, sizeof(*threads));
    int *started = calloc((size_t)count, sizeof(*started));

    for (int i = 0; i < count; i++)
        started[i] = threads && started && count > 1 &&
                     pthread_create(&threads[i], NULL, job_main, &jobs[i]) == 0;
    for (int i = 0; i < count; i++) {
        if (started && started[i])
            pthread_join(threads[i], NULL);
        else
            job_main(&jobs[i]);
    }
    free(threads);
    free(started);
}

/* Keep every record a device produced, complete or with failed steps; count the rest. */
static void keep(struct gp_calibrate_session *s, struct job *jobs)
{
    for (size_t i = 0; i < s->count; i++) {
        if (s->outcomes[i].rc != 0) {
            s->devices_failed++;
            continue;
        }
        s->runs[s->run_count] = jobs[i].run;
        memset(&jobs[i].run, 0, sizeof(jobs[i].run));
        s->devices[s->run_count++] = s->outcomes[i].device;
        s->steps_failed += (size_t)s->outcomes[i].failed.count;
    }
}

int gp_calibrate_session_run(struct gp_calibrate_session *out,
                             const struct gp_backend_candidate *backend, int first, int last,
                             const struct gp_catalog *catalog, int quick,
                             gp_calibrate_session_progress_fn progress, void *payload)
{
    int count = last - first + 1;
    struct job *jobs = calloc((size_t)(count > 0 ? count : 1), sizeof(*jobs));
    int rc = 0;

    memset(out, 0, sizeof(*out));
    out->outcomes = calloc((size_t)(count > 0 ? count : 1), sizeof(*out->outcomes));
    out->runs = calloc((size_t)(count > 0 ? count : 1), sizeof(*out->runs));
    out->devices = calloc((size_t)(count > 0 ? count : 1), sizeof(*out->devices));
    if (!jobs || !out->outcomes || !out->runs || !out->devices) {
        rc = gp_error_set(GP_ENOMEM, "out of memory starting the calibration");
        goto done;
    }
    out->count = (size_t)count;
    for (int i = 0; i < count; i++) {
        jobs[i].backend = backend;
        jobs[i].catalog = catalog;
        jobs[i].progress = progress;
        jobs[i].payload = payload;
        jobs[i].slot = i;
        jobs[i].quick = quick;
        jobs[i].outcome = &out->outcomes[i];
        out->outcomes[i].device = first + i;
    }
    run_jobs(jobs, count);
    keep(out, jobs);

done:
    for (int i = 0; jobs && i < count; i++)
        gp_calibration_release(&jobs[i].run);
    free(jobs);
    if (rc < 0) {
        gp_calibrate_session_release(out);
        memset(out, 0, sizeof(*out));
    }
    return rc;
}

void gp_calibrate_session_release(struct gp_calibrate_session *s)
{
    if (!s)
        return;
    gp_calibrations_free(s->runs, s->run_count);
    free(s->outcomes);
    free(s->devices);
    memset(s, 0, sizeof(*s));
}
