/* The adapters the registry in pricing/feed.c knows, one per provider API or list format. */
#ifndef GP_PRICING_FEEDS_ADAPTERS_H
#define GP_PRICING_FEEDS_ADAPTERS_H

#include "pricing/feed.h"

extern const struct gp_feed_adapter gp_feed_azure;          /* feeds/azure.c */
extern const struct gp_feed_adapter gp_feed_aws;            /* feeds/aws.c: bulk CSV, streamed */
extern const struct gp_feed_adapter gp_feed_aws_query;      /* feeds/aws.c: GetProducts, SigV4 */
extern const struct gp_feed_adapter gp_feed_lambda;         /* feeds/lambda.c */
extern const struct gp_feed_adapter gp_feed_runpod;         /* feeds/runpod.c */
extern const struct gp_feed_adapter gp_feed_oci;            /* feeds/oci.c */
extern const struct gp_feed_adapter gp_feed_vultr;          /* feeds/vultr.c */
extern const struct gp_feed_adapter gp_feed_digitalocean;   /* feeds/digitalocean.c */
extern const struct gp_feed_adapter gp_feed_vast;           /* feeds/vast.c */
extern const struct gp_feed_adapter gp_feed_scaleway;       /* feeds/scaleway.c */
extern const struct gp_feed_adapter gp_feed_ovh;            /* feeds/ovh.c */
extern const struct gp_feed_adapter gp_feed_verda;          /* feeds/verda.c */
extern const struct gp_feed_adapter gp_feed_pricelist_json; /* feeds/pricelist.c */
extern const struct gp_feed_adapter gp_feed_pricelist_csv;  /* feeds/pricelist.c */
extern const struct gp_feed_adapter gp_feed_ecb_fx;         /* feeds/ecb.c: exchange rates */
extern const struct gp_feed_adapter gp_feed_energidata;     /* feeds/energidata.c: DK electricity */
extern const struct gp_feed_adapter gp_feed_entsoe;         /* feeds/entsoe.c: Nordic electricity */

#endif
