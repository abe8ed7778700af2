/* Energinet's Energi Data Service (api.energidataservice.dk, public, no key): day-ahead
 * electricity prices for DK1, DK2 and the neighbouring zones it publishes. The response is
 * {"total": N, "filters": ..., "limit": L, "dataset": NAME, "records": [...]}; a record of the
 * current dataset, DayAheadPrices (quarter-hourly since 2025-10-01), is
 *   {"TimeUTC": "2025-10-01T00:00:00", "TimeDK": ..., "PriceArea": "DK1",
 *    "DayAheadPriceDKK": 1043.2, "DayAheadPriceEUR": 139.8}
 * and one of the former dataset, Elspotprices (hourly, up to 2025-09-30),
 *   {"HourUTC": "2025-09-30T21:00:00", "HourDK": ..., "PriceArea": "DK1",
 *    "SpotPriceDKK": 512.3, "SpotPriceEUR": 68.7}.
 * Prices are per MWh; the EUR price is kept. A page whose URL sets `limit` and that returned
 * that many records of a larger `total` continues at the next `offset`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"
#include "util/timeutil.h"

/* The two record shapes: the names of the period's start, and of its EUR price. */
struct record_shape {
    const char *time_key, *price_key;
    int minutes;
};

static const struct record_shape shapes[] = {
    {"TimeUTC", "DayAheadPriceEUR", 15}, /* DayAheadPrices */
    {"HourUTC", "SpotPriceEUR", 60},     /* Elspotprices */
};

/* "2025-10-01T00:00:00" in UTC (the dataset's *UTC field carries no zone). */
static int parse_utc(const char *text, int64_t *out)
{
    char stamp[32];

    if (strlen(text) != 19 || text[10] != 'T')
        return -1;
    snprintf(stamp, sizeof(stamp), "%sZ", text);
    return gp_time_parse(stamp, out) ? -1 : 0;
}

static bool is_zone(const char *s)
{
    size_t n = strlen(s);

    if (n < 2 || n >= GP_ZONE_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
            return false;
    return true;
}

/* One record: its price, or a rejection saying why not. */
static int read_record(struct gp_feed_ctx *ctx, const cJSON *rec)
{
    const cJSON *area = cJSON_GetObjectItemCaseSensitive(rec, "PriceArea");
    struct gp_energy_price p;

    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(rec, shapes[i].time_key);
        const cJSON *price = cJSON_GetObjectItemCaseSensitive(rec, shapes[i].price_key);
        if (!t)
            continue;
        ctx->rows++;
        memset(&p, 0, sizeof(p));
        if (!cJSON_IsString(area) || !is_zone(area->valuestring))
            gp_feed_reject(ctx, "a record without a price area");
        else if (!cJSON_IsString(t) || parse_utc(t->valuestring, &p.start))
            gp_feed_reject(ctx, "a record whose %s is not a UTC time", shapes[i].time_key);
        else if (!cJSON_IsNumber(price) || price->valuedouble < -1e4 || price->valuedouble > 1e5)
            gp_feed_reject(ctx, "a record without a %s in -10000 to 100000", shapes[i].price_key);
        else {
            memcpy(p.zone, area->valuestring, strlen(area->valuestring) + 1);
            p.minutes = shapes[i].minutes;
            p.eur_mwh = price->valuedouble;
            return gp_feed_add_energy(ctx, &p);
        }
        return 0;
    }
    ctx->rows++;
    gp_feed_reject(ctx, "a record of neither DayAheadPrices nor Elspotprices");
    return 0;
}

/* The next page when this one was cut at `limit`: offset + limit, while below `total`. */
static int next_page(struct gp_feed_ctx *ctx, const cJSON *root, size_t got)
{
    const cJSON *total = cJSON_GetObjectItemCaseSensitive(root, "total");
    long limit = gp_feed_query_number(ctx->url, "limit", 0);
    long offset = gp_feed_query_number(ctx->url, "offset", 0);
    char value[24];

    ctx->next_url[0] = '\0';
    if (limit <= 0 || (long)got < limit || !cJSON_IsNumber(total) ||
        (double)offset + (double)limit >= total->valuedouble)
        return 0;
    snprintf(value, sizeof(value), "%ld", offset + limit);
    return gp_feed_set_next_param(ctx, "offset", value);
}

static int energidata_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *records, *rec;
    size_t got = 0;
    int rc = gp_json_parse(&root, body, len, ctx->url);

    ctx->next_url[0] = '\0';
    if (rc)
        return rc;
    records = cJSON_GetObjectItemCaseSensitive(root, "records");
    if (!cJSON_IsObject(root) || !cJSON_IsArray(records)) {
        cJSON_Delete(root);
        return gp_error_set(GP_EINVALID, "%s: not an Energi Data Service response (no records)",
                            ctx->url);
    }
    cJSON_ArrayForEach(rec, records)
    {
        got++;
        if (!cJSON_IsObject(rec)) {
            ctx->rows++;
            gp_feed_reject(ctx, "a record that is not an object");
        } else if ((rc = read_record(ctx, rec))) {
            break;
        }
    }
    if (!rc)
        rc = next_page(ctx, root, got);
    cJSON_Delete(root);
    return rc;
}

static const char *const default_zones[] = {"DK1", "DK2", NULL};

const struct gp_feed_adapter gp_feed_energidata = {
    .name = "energidata",
    .tiers = 0,
    .auth = GP_HTTP_AUTH_NONE,
    .max_page_bytes = (size_t)64 << 20, /* a year of quarter-hours for two zones is ~15 MB */
    .max_pages = 64,
    .parse = energidata_parse,
    .yields_energy = true,
    .zones = default_zones,
};
