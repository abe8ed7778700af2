/* Rows of the price tables: normalised price in the output currency, original terms, age. */
#include "cli/prices_rows.h"

#include <stdio.h>
#include <string.h>

#include "util/timeutil.h"

const struct gp_column gp_price_columns[] = {
    {"gpu", GP_CELL_TEXT, 0},
    {"provider", GP_CELL_TEXT, 0},
    {"tier", GP_CELL_TEXT, 0},
    {"term", GP_CELL_TEXT, 0},
    {"price_per_gpu_hour", GP_CELL_NUMBER, 2},
    {"price_per_instance_hour", GP_CELL_NUMBER, 2},
    {"currency", GP_CELL_TEXT, 0},
    {"original_amount", GP_CELL_NUMBER, 4},
    {"original_currency", GP_CELL_TEXT, 0},
    {"original_unit", GP_CELL_TEXT, 0},
    {"gpus_per_instance", GP_CELL_INT, 0},
    {"region", GP_CELL_TEXT, 0},
    {"country", GP_CELL_TEXT, 0},
    {"jurisdiction", GP_CELL_TEXT, 0},
    {"instance_type", GP_CELL_TEXT, 0},
    {"observed", GP_CELL_TEXT, 0},
    {"age_days", GP_CELL_INT, 0},
    {"source", GP_CELL_TEXT, 0},
    {"notes", GP_CELL_TEXT, 0},
};
const size_t gp_price_column_count = sizeof(gp_price_columns) / sizeof(gp_price_columns[0]);

int gp_price_row_set_terms(struct gp_table *t, const struct gp_offer *o, double per_usd,
                           const char *currency)
{
    int rc = gp_table_set_text(t, "provider", "%s", o->provider);

    if (!rc)
        rc = gp_table_set_text(t, "gpu", "%s", o->gpu_id);
    if (!rc)
        rc = gp_table_set_number(t, "price_per_gpu_hour", o->usd_per_gpu_hour * per_usd);
    if (!rc)
        rc = gp_table_set_text(t, "currency", "%s", currency);
    if (!rc)
        rc = gp_table_set_number(t, "original_amount", o->amount);
    if (!rc)
        rc = gp_table_set_text(t, "original_currency", "%s", o->currency);
    if (!rc)
        rc = gp_table_set_text(t, "original_unit", "%s", gp_price_unit_name(o->unit));
    if (!rc)
        rc = gp_table_set_int(t, "gpus_per_instance", o->gpus_per_instance);
    if (!rc)
        rc = gp_table_set_text(t, "region", "%s", o->region);
    return rc;
}

/* The rentable unit's price, the commitment ("12mo" reserved, "7d" a capacity block) and the
 * region's country and jurisdiction. */
static int set_place_and_term(struct gp_table *t, const struct gp_offer *o, double per_usd)
{
    char term[GP_OFFER_TERM_TEXT_MAX];
    int rc = gp_table_set_number(t, "price_per_instance_hour", o->usd_per_instance_hour * per_usd);

    if (!rc)
        rc = gp_table_set_text(t, "term", "%s", gp_offer_term_text(o, term, sizeof(term)));
    if (!rc)
        rc = gp_table_set_text(t, "country", "%s", o->country);
    if (!rc)
        rc = gp_table_set_text(t, "jurisdiction", "%s", o->jurisdiction);
    return rc;
}

int gp_price_row_add(struct gp_table *t, const struct gp_price_row_context *ctx,
                     const struct gp_offer *o, const char *extra_note)
{
    char observed[32], notes[128] = "";
    long age = gp_time_age_days(o->observed_at, ctx->now);
    int rc = gp_table_add_row(t);

    if (age > ctx->max_age_days)
        snprintf(notes, sizeof(notes), "stale-price");
    if (extra_note && *extra_note)
        snprintf(notes + strlen(notes), sizeof(notes) - strlen(notes), "%s%s", notes[0] ? " " : "",
                 extra_note);
    gp_time_format_date(o->observed_at, observed, sizeof(observed));
    if (!rc)
        rc = gp_price_row_set_terms(t, o, ctx->per_usd, ctx->currency);
    if (!rc)
        rc = gp_table_set_text(t, "tier", "%s", gp_tier_name(o->tier));
    if (!rc)
        rc = set_place_and_term(t, o, ctx->per_usd);
    if (!rc)
        rc = gp_table_set_text(t, "instance_type", "%s", o->instance_type);
    if (!rc)
        rc = gp_table_set_text(t, "observed", "%s", observed);
    if (!rc)
        rc = gp_table_set_int(t, "age_days", age);
    if (!rc)
        rc = gp_table_set_text(t, "source", "%s", o->source_url);
    if (!rc)
        rc = gp_table_set_text(t, "notes", "%s", notes);
    return rc;
}

int gp_price_row_add_unpriced(struct gp_table *t, const char *gpu_id)
{
    int rc = gp_table_add_row(t);

    if (!rc)
        rc = gp_table_set_text(t, "gpu", "%s", gpu_id);
    if (!rc)
        rc = gp_table_set_text(t, "notes", "no-public-price");
    return rc;
}
