/* Reading a feed fixture of tests/fixtures for the adapter tests (needs cmocka.h first). */
#ifndef GP_TESTS_FEED_FIXTURE_H
#define GP_TESTS_FEED_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "pricing/feed.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/timeutil.h"

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

/* Parse tests/fixtures/<rel> with adapter `a` into ctx, which the caller has initialised. */
static inline int parse_fixture_with(struct gp_feed_ctx *ctx, const struct gp_feed_adapter *a,
                                     const char *rel)
{
    struct gp_buf body;
    int rc;

    read_fixture(&body, rel);
    rc = a->parse(ctx, body.data, body.len);
    gp_buf_release(&body);
    return rc;
}

/* Unix seconds of an ISO 8601 stamp; fails the test when it is not one. */
static inline int64_t at(const char *stamp)
{
    int64_t t;

    assert_int_equal(gp_time_parse(stamp, &t), 0);
    return t;
}

#endif
