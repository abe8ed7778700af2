/* Shared body of the price-feed fuzz targets: run one adapter over arbitrary bytes exactly as
 * the refresh would (whole page, or streamed in two pieces), then its finish step. */
#ifndef GP_TESTS_FUZZ_FEED_H
#define GP_TESTS_FUZZ_FEED_H

#include <stdint.h>
#include <stdlib.h>

#include "catalog/catalog.h"
#include "catalog/fx.h"
#include "pricing/feed.h"

static int fuzz_feed(const char *adapter_name, const uint8_t *data, size_t size)
{
    static struct gp_catalog catalog;
    static struct gp_fx_table fx;
    static int loaded;
    const struct gp_feed_adapter *a = gp_feed_adapter_find(adapter_name);
    struct gp_feed_ctx ctx;
    int rc;

    if (!loaded) {
        if (!a || gp_catalog_load(&catalog) || gp_fx_load(&fx))
            abort();
        loaded = 1;
    }
    gp_feed_ctx_init(&ctx, adapter_name, adapter_name, 1790000000, &fx, &catalog);
    ctx.url = "http://127.0.0.1:9/fuzz/page?x=1";
    ctx.base_url = "http://127.0.0.1:9/fuzz";
    if (a->parse) {
        rc = a->parse(&ctx, (const char *)data, size);
    } else {
        struct gp_feed_stream *s = NULL;
        rc = a->stream_open(&s, &ctx);
        if (!rc)
            rc = a->stream_push(s, (const char *)data, size / 2);
        if (!rc)
            rc = a->stream_push(s, (const char *)data + size / 2, size - size / 2);
        if (!rc)
            rc = a->stream_end(s);
        a->stream_free(s);
    }
    if (!rc && a->finish)
        a->finish(&ctx);
    /* every offer that came out must be sane, whatever went in */
    for (size_t i = 0; i < ctx.count; i++)
        if (!(ctx.offers[i].usd_per_gpu_hour > 0) || ctx.offers[i].gpus_per_instance < 1)
            abort();
    /* and every electricity price: a zone, a period, a finite price */
    for (size_t i = 0; i < ctx.nenergy; i++)
        if (!ctx.energy[i].zone[0] || ctx.energy[i].minutes <= 0 ||
            !(ctx.energy[i].eur_mwh > -1e9 && ctx.energy[i].eur_mwh < 1e9))
            abort();
    gp_feed_ctx_release(&ctx);
    return 0;
}

#endif
