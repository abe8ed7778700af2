/* The generic JSON price-list format: the embedded September 2026 snapshot, --data overrides
 * and in-house or reseller price lists all use it (docs/price-list-format.md). */
#ifndef GP_PRICING_PRICELIST_H
#define GP_PRICING_PRICELIST_H

#include <stddef.h>

#include "catalog/fx.h"
#include "gpuplan/gpu.h"
#include "gpuplan/offer.h"

struct gp_pricelist {
    struct gp_offer *offers; /* owned; `count` accepted offers */
    size_t count;
    size_t rejected;     /* rows dropped as nonsensical (lenient mode only) */
    size_t unmapped;     /* rows whose GPU name matched nothing (lenient mode only) */
    size_t out_of_scope; /* rows for accelerators outside the catalog */
};

enum gp_pricelist_mode {
    GP_PRICELIST_STRICT,  /* any bad row is an error naming file, line, column and path */
    GP_PRICELIST_LENIENT, /* bad rows are counted and skipped (feeds) */
};

/*
 * Parse a price list into `out` (appending to what it holds). Every offer gets feed `feed`; its
 * GPU must be in `catalog` (provider spellings are normalised first); prices are normalised with
 * `fx`. Malformed JSON or a wrong document shape is always an error (GP_EINVALID).
 */
int gp_pricelist_parse(struct gp_pricelist *out, const char *text, size_t len, const char *origin,
                       const char *feed, const struct gp_catalog *catalog,
                       const struct gp_fx_table *fx, enum gp_pricelist_mode mode);

/* Parse every data file under prices/ (embedded or --data) in strict mode as feed "snapshot". */
int gp_pricelist_load_snapshot(struct gp_pricelist *out, const struct gp_catalog *catalog,
                               const struct gp_fx_table *fx);

void gp_pricelist_release(struct gp_pricelist *list);

#endif
