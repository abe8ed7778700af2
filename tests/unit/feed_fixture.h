/* Reading a feed fixture of tests/fixtures for the adapter tests (needs cmocka.h first). */
#ifndef GP_TESTS_FEED_FIXTURE_H
#define GP_TESTS_FEED_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "util/buf.h"
#include "util/error.h"

/* tests/fixtures/<rel> under $GPUPLAN_SOURCE_DIR (else .) into *out, initialised here; fails
 * the test when it cannot be read. */
static inline void read_fixture(struct gp_buf *out, const char *rel)
{
    const char *root = getenv("GPUPLAN_SOURCE_DIR");
    char path[1024];

    snprintf(path, sizeof(path), "%s/tests/fixtures/%s", root ? root : ".", rel);
    gp_buf_init(out, 0);
    if (gp_buf_read_file(out, path) != 0)
        fail_msg("cannot read %s: %s", path, gp_error_last());
}

#endif
