/* Where offers are: data/regions.json maps each provider's region codes to a country and the
 * country to a jurisdiction ("eu", "eea", "us", ...), so plans and price lists can keep to one. */
#ifndef GP_CATALOG_REGIONS_H
#define GP_CATALOG_REGIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "gpuplan/offer.h"

/* One provider's region code, or a shell glob over its codes ("EU-RO-*"), and its country. */
struct gp_region_rule {
    char provider[32]; /* as offers name it: "aws", "azure", ... */
    char pattern[48];  /* the region code, or a glob when `glob` */
    bool glob;         /* pattern holds * ? or [ */
    char country[3];   /* ISO 3166-1 alpha-2; "*": the region code is the country itself */
};

/* A country and the jurisdiction its data-protection law belongs to. */
struct gp_country_rule {
    char country[3];      /* ISO 3166-1 alpha-2 */
    char jurisdiction[8]; /* "eu" (EU member), "eea" (EEA, not EU), else e.g. "us", "uk", "ch" */
};

struct gp_region_table {
    struct gp_region_rule *rules; /* owned, file order: exact codes are tried before globs */
    size_t count;
    struct gp_country_rule *countries; /* owned */
    size_t country_count;
};

/* Load regions.json through gp_data_read (embedded, or --data). Returns 0 or GP_EINVALID naming
 * file, field, line and column. Release with gp_regions_release. */
int gp_regions_load(struct gp_region_table *out);
/* Parse regions text; `origin` names it in messages. Every country a region names must be in
 * "countries". */
int gp_regions_parse(struct gp_region_table *out, const char *text, size_t len, const char *origin);
void gp_regions_release(struct gp_region_table *table);

/* The jurisdiction of a country code, or NULL when the table does not know it. Borrowed. */
const char *gp_regions_jurisdiction(const struct gp_region_table *table, const char *country);

/* Whether some country of the table is in jurisdiction `j` ("eea" also when one is "eu"). */
bool gp_regions_knows_jurisdiction(const struct gp_region_table *table, const char *j);

/* Every jurisdiction of the table, each once, sorted, "eea" among them when "eu" is, joined by
 * ", " into out[size] (cut at a name when it does not fit), for messages. Returns `out`. */
char *gp_regions_jurisdictions_text(const struct gp_region_table *table, char *out, size_t size);

/* Fill offer->country and offer->jurisdiction from its provider and region: an exact code first,
 * then the provider's globs in file order; both "" when nothing matches. */
void gp_regions_resolve(const struct gp_region_table *table, struct gp_offer *offer);

/* gp_regions_resolve on each of `count` offers. */
void gp_regions_apply(const struct gp_region_table *table, struct gp_offer *offers, size_t count);

#endif
