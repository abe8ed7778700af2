/* Azure Retail Prices API: {Items[], NextPageLink} pages of VM meters; yields on-demand and spot
 * per VM-hour (Linux, pay-as-you-go; reservations, Windows and low-priority meters skipped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && gp_text_ieq(s + n - m, suffix);
}

/* Hours covered by `unit` ("1 Hour", "10 Hours", "100 Hours"); 0 when it is not hour-based. */
static double unit_hours(const char *unit)
{
    char *end = NULL;
    double n;

    if (strcmp(unit, "1 Hour") == 0) /* nearly every meter */
        return 1;
    n = strtod(unit, &end);
    if (end == unit || !(n >= 1))
        return 0;
    while (*end == ' ')
        end++;
    return gp_text_ieq(end, "Hour") || gp_text_ieq(end, "Hours") ? n : 0;
}

/* The members an item is read by, looked up together in one walk of the item. */
enum field {
    F_SKU,
    F_REGION,
    F_TYPE,
    F_PRODUCT,
    F_METER,
    F_SKU_NAME,
    F_UNIT,
    F_CURRENCY,
    F_PRICE,
    F_COUNT
};

static const char *const field_names[F_COUNT] = {
    [F_SKU] = "armSkuName",      [F_REGION] = "armRegionName",  [F_TYPE] = "type",
    [F_PRODUCT] = "productName", [F_METER] = "meterName",       [F_SKU_NAME] = "skuName",
    [F_UNIT] = "unitOfMeasure",  [F_CURRENCY] = "currencyCode", [F_PRICE] = "retailPrice",
};

static int parse_item(struct gp_feed_ctx *ctx, const cJSON *item, void *payload)
{
    const struct gp_feed_json_keys *keys = payload;
    const cJSON *f[F_COUNT];
    const char *sku, *region, *type, *product, *meter, *sku_name, *unit, *currency;
    struct gp_feed_row row = {0};
    double price, hours;

    gp_feed_json_members(keys, item, f);
    sku = gp_feed_json_string_of(f[F_SKU]);
    region = gp_feed_json_string_of(f[F_REGION]);
    type = gp_feed_json_string_of(f[F_TYPE]);
    product = gp_feed_json_string_of(f[F_PRODUCT]);
    meter = gp_feed_json_string_of(f[F_METER]);
    sku_name = gp_feed_json_string_of(f[F_SKU_NAME]);
    unit = gp_feed_json_string_of(f[F_UNIT]);
    currency = gp_feed_json_string_of(f[F_CURRENCY]);
    if (!cJSON_IsObject(item) || !sku || !*sku) {
        gp_feed_reject(ctx, "an item without armSkuName");
        return 0;
    }
    /* Only pay-as-you-go Linux meters are hourly prices; the rest are other products. */
    if (!type || strcmp(type, "Consumption") != 0)
        return 0;
    if (!product || strstr(product, "Windows") || ends_with(product, " Win"))
        return 0;
    if ((meter && ends_with(meter, "Low Priority")) ||
        (sku_name && ends_with(sku_name, "Low Priority")))
        return 0;

    if (gp_feed_json_price(f[F_PRICE], &price) != 0) {
        gp_feed_reject(ctx, "%s: retailPrice is not a number", sku);
        return 0;
    }
    hours = unit ? unit_hours(unit) : 0;
    if (hours == 0) {
        gp_feed_reject(ctx, "%s: unknown unit of measure '%s'", sku, unit ? unit : "");
        return 0;
    }

    row.gpu_name = sku;
    row.instance_type = sku;
    row.region = region;
    row.tier = (meter && ends_with(meter, " Spot")) || (sku_name && ends_with(sku_name, " Spot"))
                   ? GP_TIER_SPOT
                   : GP_TIER_ON_DEMAND;
    row.amount = price / hours;
    row.currency = currency;
    row.unit = GP_UNIT_INSTANCE_HOUR;
    return gp_feed_add(ctx, &row);
}

static int azure_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    struct gp_feed_json_keys keys;
    cJSON *root = NULL;
    const cJSON *next;
    size_t count = 0;
    int rc;

    ctx->next_url[0] = '\0';
    gp_feed_json_keys_init(&keys, field_names, F_COUNT);
    rc = gp_feed_json_items(&root, &count, ctx, body, len, "Items", NULL, parse_item, &keys);
    if (rc)
        goto done;
    /* An empty page ends the walk even if a link follows: $skip paging can drift. */
    next = cJSON_GetObjectItemCaseSensitive(root, "NextPageLink");
    if (cJSON_IsString(next) && count > 0)
        rc = gp_feed_set_next(ctx, next->valuestring);
    else if (next && !cJSON_IsNull(next) && !cJSON_IsString(next))
        rc = gp_error_set(GP_EINVALID, "%s: NextPageLink is neither a string nor null", ctx->url);

done:
    cJSON_Delete(root);
    return rc;
}

const struct gp_feed_adapter gp_feed_azure = {
    .name = "azure",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND) | GP_FEED_TIER(GP_TIER_SPOT),
    .auth = GP_HTTP_AUTH_NONE,
    .max_page_bytes = (size_t)32 << 20,
    .max_pages = 500, /* 100 meters a page; the GPU series filter leaves a few dozen pages */
    .parse = azure_parse,
};
