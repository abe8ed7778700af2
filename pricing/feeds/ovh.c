/* OVHcloud Public Cloud catalogue, GET /v1/order/catalog/public/cloud?ovhSubsidiary=FR (the
 * order API's order.catalog.publik.Catalog, described in https://eu.api.ovh.com/1.0/order.json):
 * {locale{currencyCode}, plans[{planCode "project", addonFamilies[{name "instance", addons[]}]}],
 * addons[{planCode, invoiceName, pricings[{intervalUnit, interval, price}], configurations[{name
 * "region", values[]}], blobs{technical{gpu{model, number, memory{size}}, os{family}}}}]}, each
 * price in 1e-8 of the catalogue's currency. Yields on-demand per instance-hour from the hourly
 * (".consumption") plans of the GPU flavours, one offer per region the flavour is ordered in. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"

#define PRICE_UNITS_PER_CURRENCY_UNIT 1e8 /* catalogue prices are in 1e-8 of the currency */

/* What every addon is read against. */
struct ovh_catalog {
    const cJSON *addons;    /* the catalogue's addons[] */
    const cJSON *instances; /* planCodes of the instance flavours (strings), borrowed */
    const char *currency;   /* ISO 4217, locale.currencyCode */
};

/* The planCodes the "project" plan sells as instances: its addon family named "instance". */
static const cJSON *instance_family(const cJSON *plans)
{
    const cJSON *plan, *family;

    cJSON_ArrayForEach(plan, plans)
    {
        const char *code = gp_feed_json_str(plan, "planCode");
        if (!code || strcmp(code, "project") != 0)
            continue;
        cJSON_ArrayForEach(family, cJSON_GetObjectItemCaseSensitive(plan, "addonFamilies"))
        {
            const char *name = gp_feed_json_str(family, "name");
            const cJSON *addons = cJSON_GetObjectItemCaseSensitive(family, "addons");
            if (name && strcmp(name, "instance") == 0 && cJSON_IsArray(addons))
                return addons;
        }
    }
    return NULL;
}

static bool listed_in(const cJSON *codes, const char *code)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, codes)
    {
        if (cJSON_IsString(c) && strcmp(c->valuestring, code) == 0)
            return true;
    }
    return false;
}

/* The hourly price of a plan in currency units per hour: 1 with *out set, 0 when the plan is
 * not billed by the hour (a monthly plan), -1 when its hourly price is not a number. */
static int hourly_price(const cJSON *pricings, double *out)
{
    const cJSON *p;

    cJSON_ArrayForEach(p, pricings)
    {
        const char *unit = gp_feed_json_str(p, "intervalUnit");
        const cJSON *interval = cJSON_GetObjectItemCaseSensitive(p, "interval");
        int hours = interval ? gp_feed_json_count(interval, 8784 /* a leap year */) : 1;
        double price;
        if (!unit || strcmp(unit, "hour") != 0)
            continue;
        if (hours < 1 || gp_feed_json_price(cJSON_GetObjectItemCaseSensitive(p, "price"), &price))
            return -1;
        *out = price / PRICE_UNITS_PER_CURRENCY_UNIT / hours;
        return 1;
    }
    return 0;
}

/* The region codes of a plan: configurations[name "region"].values; NULL when it lists none. */
static const cJSON *plan_regions(const cJSON *plan)
{
    const cJSON *config;

    cJSON_ArrayForEach(config, cJSON_GetObjectItemCaseSensitive(plan, "configurations"))
    {
        const char *name = gp_feed_json_str(config, "name");
        const cJSON *values = cJSON_GetObjectItemCaseSensitive(config, "values");
        if (name && strcmp(name, "region") == 0 && cJSON_GetArraySize(values) > 0)
            return values;
    }
    return NULL;
}

/* Where a flavour is ordered: its hourly plan's regions, else those another plan of the same
 * flavour (its monthly plan) lists, since the catalogue may list them on one of the two only. */
static const cJSON *flavour_regions(const cJSON *addons, const cJSON *plan, const char *flavour)
{
    const cJSON *regions = plan_regions(plan);

    for (const cJSON *other = addons->child; other && !regions; other = other->next) {
        const char *name = gp_feed_json_str(other, "invoiceName");
        if (other != plan && name && strcmp(name, flavour) == 0)
            regions = plan_regions(other);
    }
    return regions;
}

/* Windows flavours ("win-" plans, or a Windows OS) include a licence in the price. */
static bool is_windows(const char *code, const cJSON *technical)
{
    const char *os = gp_feed_json_str(cJSON_GetObjectItemCaseSensitive(technical, "os"), "family");
    return strncmp(code, "win-", 4) == 0 || (os && strcmp(os, "windows") == 0);
}

/* One addon of the catalogue: offers when it is the hourly plan of a GPU instance flavour. */
static int parse_addon(struct gp_feed_ctx *ctx, const cJSON *addon, const struct ovh_catalog *cat)
{
    const char *code = gp_feed_json_str(addon, "planCode");
    const char *flavour = gp_feed_json_str(addon, "invoiceName");
    const cJSON *technical = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(addon, "blobs"), "technical");
    const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(technical, "gpu");
    const char *model = gp_feed_json_str(gpu, "model");
    struct gp_feed_row row = {0};
    double hourly = 0;
    int priced;

    /* Storage, networks, managed AI products and CPU flavours are not GPU instances. */
    if (!code || !cJSON_IsObject(gpu) || !listed_in(cat->instances, code) ||
        is_windows(code, technical))
        return 0;
    if (!flavour)
        flavour = code;
    priced = hourly_price(cJSON_GetObjectItemCaseSensitive(addon, "pricings"), &hourly);
    if (priced == 0)
        return 0; /* a monthly plan: billed by the month, not by the hour */
    if (priced < 0) {
        gp_feed_reject(ctx, "%s: the hourly price is not a number", code);
        return 0;
    }
    row.gpus = gp_feed_json_count(cJSON_GetObjectItemCaseSensitive(gpu, "number"), 72);
    if (row.gpus < 1) {
        gp_feed_reject(ctx, "%s: the GPU number is not a positive whole number", code);
        return 0;
    }
    row.gpu_name = model ? model : flavour;
    row.instance_type = flavour;
    row.tier = GP_TIER_ON_DEMAND;
    row.amount = hourly;
    row.currency = cat->currency;
    row.unit = GP_UNIT_INSTANCE_HOUR;
    return gp_feed_add_regions(ctx, &row, flavour_regions(cat->addons, addon, flavour), NULL);
}

static int ovh_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *addon;
    struct ovh_catalog cat;
    int rc = gp_feed_json_list(&root, &cat.addons, ctx->url, body, len, "addons",
                               (const char *const[]){"message", NULL});

    ctx->next_url[0] = '\0';
    if (rc)
        goto done;
    cat.instances = instance_family(cJSON_GetObjectItemCaseSensitive(root, "plans"));
    cat.currency =
        gp_feed_json_str(cJSON_GetObjectItemCaseSensitive(root, "locale"), "currencyCode");
    if (!cat.instances || !cat.currency) {
        rc = gp_error_set(GP_EINVALID, "%s: no %s: not the OVHcloud Public Cloud catalogue",
                          ctx->url,
                          cat.currency ? "\"instance\" addon family in the \"project\" plan"
                                       : "locale.currencyCode");
        goto done;
    }
    cJSON_ArrayForEach(addon, cat.addons)
    {
        rc = parse_addon(ctx, addon, &cat);
        if (rc)
            goto done;
    }
done:
    cJSON_Delete(root);
    return rc;
}

const struct gp_feed_adapter gp_feed_ovh = {
    .name = "ovh",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND),
    .auth = GP_HTTP_AUTH_NONE,
    .max_page_bytes = (size_t)32 << 20, /* the whole catalogue, every product, in one document */
    .parse = ovh_parse,
};
