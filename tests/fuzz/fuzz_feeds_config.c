/* Fuzz target: the feeds.json configuration parser (embedded file and user overrides). */
#include <stdint.h>
#include <stdlib.h>

#include "pricing/feeds.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gp_feed_configs cfg = {0};

    gp_feed_configs_parse(&cfg, (const char *)data, size, "fuzz.json", false);
    gp_feed_configs_release(&cfg);
    gp_feed_configs_parse(&cfg, (const char *)data, size, "fuzz.json", true);
    gp_feed_configs_release(&cfg);
    return 0;
}
