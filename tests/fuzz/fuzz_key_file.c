/* Fuzz target: reading an API key from a feed's key file (mode 0600): whatever the file holds,
 * the key is terminated inside its field, has no line end left on it, and is present only when
 * it is not empty. The input is written to a private temporary file for each run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pricing/feeds.h"

/* Stop on a broken invariant, whatever NDEBUG says (the replay build has it). */
#define require(cond) ((cond) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64]; /* the key file, made on the first input */

static void remove_key_file(void)
{
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gp_feed_config feed;
    struct gp_feed_key key;
    FILE *f;

    if (!path[0]) {
        int fd;
        snprintf(path, sizeof(path), "/tmp/gpuplan-fuzz-key-XXXXXX");
        if ((fd = mkstemp(path)) < 0)
            abort();
        close(fd);
        atexit(remove_key_file);
    }
    if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    chmod(path, 0600);
    memset(&feed, 0, sizeof(feed));
    memcpy(feed.name, "fuzz", 5);
    memcpy(feed.key_env, "GPUPLAN_FUZZ_NO_SUCH_KEY", 25);
    snprintf(feed.key_file, sizeof(feed.key_file), "%s", path);
    if (gp_feed_key_load(&key, &feed) == 0) {
        size_t len = strnlen(key.token, sizeof(key.token));
        require(len < sizeof(key.token));
        require(key.present == (len > 0));
        require(len == 0 || (key.token[len - 1] != '\n' && key.token[len - 1] != '\r'));
    }
    gp_feed_key_wipe(&key);
    return 0;
}
