/* The price of one GPU type under a pricing mode, chosen from the offers and quotes passed in. */
#include <stdio.h>
#include <string.h>

#include "planner/plan.h"
#include "util/text.h"
#include "util/timeutil.h"

#define SECONDS_PER_DAY 86400

static void price_from_offer(struct gp_price *p, const struct gp_offer *o, int64_t now,
                             long max_age_days)
{
    p->known = true;
    p->usd_per_gpu_hour = o->usd_per_gpu_hour;
    gp_text_copy(p->tier, sizeof(p->tier), gp_tier_name(o->tier));
    gp_text_copy(p->source, sizeof(p->source), o->provider);
    gp_time_format_date(o->observed_at, p->date, sizeof(p->date));
    p->observed_at = o->observed_at;
    p->stale = now - o->observed_at > (int64_t)max_age_days * SECONDS_PER_DAY;
}

/* Whether `a` is the better of two offers: cheaper, or as cheap and first by provider, GPUs
 * per instance, term, region and instance type. */
static bool cheaper(const struct gp_offer *a, const struct gp_offer *b)
{
    int c;

    if (a->usd_per_gpu_hour != b->usd_per_gpu_hour)
        return a->usd_per_gpu_hour < b->usd_per_gpu_hour;
    if ((c = strcmp(a->provider, b->provider)) != 0)
        return c < 0;
    if (a->gpus_per_instance != b->gpus_per_instance)
        return a->gpus_per_instance < b->gpus_per_instance;
    if (a->term_months != b->term_months)
        return a->term_months < b->term_months;
    if ((c = strcmp(a->region, b->region)) != 0)
        return c < 0;
    return strcmp(a->instance_type, b->instance_type) < 0;
}

/* The cheapest offer for `gpu_id` on `tier`, or NULL. */
static const struct gp_offer *best_offer(const struct gp_offer *offers, size_t n,
                                         const char *gpu_id, enum gp_tier tier)
{
    const struct gp_offer *best = NULL;

    for (size_t i = 0; i < n; i++)
        if (offers[i].tier == tier && strcmp(offers[i].gpu_id, gpu_id) == 0 &&
            (!best || cheaper(&offers[i], best)))
            best = &offers[i];
    return best;
}

/* The cheapest quote for `gpu_id` still valid at `now` (the first of equals), or NULL. */
static const struct gp_quote *best_quote(const struct gp_quote *quotes, size_t n,
                                         const char *gpu_id, int64_t now)
{
    const struct gp_quote *best = NULL;

    for (size_t i = 0; i < n; i++) {
        const struct gp_quote *q = &quotes[i];
        if (strcmp(q->offer.gpu_id, gpu_id) || (q->offer.valid_until && q->offer.valid_until < now))
            continue;
        if (!best || q->offer.usd_per_gpu_hour < best->offer.usd_per_gpu_hour)
            best = q;
    }
    return best;
}

void gp_plan_price_choose(struct gp_price *out, enum gp_pricing pricing, const char *gpu_id,
                          const struct gp_offer *offers, size_t offer_count,
                          const struct gp_quote *quotes, size_t quote_count, int64_t now,
                          long max_age_days)
{
    enum gp_tier tiers[2] = {GP_TIER_ON_DEMAND, GP_TIER_RESERVED};
    int ntiers = pricing == GP_PRICING_CHEAPEST ? 2 : 1;

    memset(out, 0, sizeof(*out));
    if (pricing == GP_PRICING_OWNED) {
        out->owned = true;
        gp_text_copy(out->tier, sizeof(out->tier), "owned");
        gp_text_copy(out->source, sizeof(out->source), "capex");
        return;
    }
    const struct gp_quote *q = pricing == GP_PRICING_CHEAPEST || pricing == GP_PRICING_QUOTE
                                   ? best_quote(quotes, quote_count, gpu_id, now)
                                   : NULL;
    if (q) {
        price_from_offer(out, &q->offer, now, max_age_days);
        snprintf(out->source, sizeof(out->source), "quote:%lld", (long long)q->id);
        out->stale = false; /* a quote holds until valid_until, whatever its age */
    }
    if (pricing == GP_PRICING_QUOTE)
        return;
    if (pricing == GP_PRICING_SPOT)
        tiers[0] = GP_TIER_SPOT;
    for (int i = 0; i < ntiers; i++) {
        const struct gp_offer *o = best_offer(offers, offer_count, gpu_id, tiers[i]);
        if (o && (!out->known || o->usd_per_gpu_hour < out->usd_per_gpu_hour))
            price_from_offer(out, o, now, max_age_days);
    }
}
