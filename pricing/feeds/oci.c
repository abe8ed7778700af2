/* OCI public price list: {items: [{displayName, metricName, currencyCodeLocalizations}]};
 * yields on-demand per GPU-hour (pay-as-you-go GPU parts; prices are global, no region). Part
 * names are mapped exactly, to the bare-metal shape each part prices: those shapes are 8-GPU
 * machines, rented whole, though the list quotes one GPU-hour. */
#include <stdio.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"

/* What a GPU part's model (the name after "Compute - GPU - ") prices. */
struct oci_part {
    const char *model;    /* exactly as the price list spells it */
    const char *gpu_id;   /* canonical id; NULL: a GPU gpuplan does not plan for */
    const char *shape;    /* the shape rented */
    int gpus_per_machine; /* GPUs in one rented shape */
};

static const struct oci_part oci_parts[] = {
    {"H100", "h100-sxm", "BM.GPU.H100.8", 8},
    {"H200", "h200-sxm", "BM.GPU.H200.8", 8},
    {"B200", "b200", "BM.GPU.B200.8", 8},
    {"MI300X", "mi300x", "BM.GPU.MI300X.8", 8},
    {"MI355X", "mi355x", "BM.GPU.MI355X.8", 8},
    {"A100", NULL, NULL, 0},
    {"A100 - v2", NULL, NULL, 0},
    {"A10", NULL, NULL, 0},
    {"L40S", NULL, NULL, 0},
    {"V100", NULL, NULL, 0},
    {"P100", NULL, NULL, 0},
    /* Grace-Blackwell shapes are one 4-GPU tray of the NVL72 rack. */
    {"GB200", "gb200-nvl72", "BM.GPU.GB200.4", 4},
    {"GB300", "gb300-nvl72", "BM.GPU.GB300.4", 4},
    {"B300", "b300", "BM.GPU.B300.8", 8},
};

/* The part a display name prices ("OCI - Compute - GPU - H100", "OCI- Compute - GPU - MI355X",
 * "Oracle Cloud Infrastructure - Compute - GPU - H200"); NULL when the model is not known. */
static const struct oci_part *find_part(const char *name)
{
    static const char *const prefixes[] = {"OCI - Compute - GPU - ", "OCI- Compute - GPU - ",
                                           "Oracle Cloud Infrastructure - Compute - GPU - "};

    for (size_t p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]); p++) {
        size_t n = strlen(prefixes[p]);
        if (strncmp(name, prefixes[p], n) != 0)
            continue;
        for (size_t i = 0; i < sizeof(oci_parts) / sizeof(oci_parts[0]); i++)
            if (strcmp(name + n, oci_parts[i].model) == 0)
                return &oci_parts[i];
    }
    return NULL;
}

/* The pay-as-you-go price of one localisation, preferring USD. */
static int pick_price(const cJSON *locs, const char **currency, double *amount, bool *bad)
{
    const cJSON *loc;
    int found = -1;

    *bad = false;
    cJSON_ArrayForEach(loc, locs)
    {
        const char *code = gp_feed_json_str(loc, "currencyCode");
        const cJSON *prices = cJSON_GetObjectItemCaseSensitive(loc, "prices");
        const cJSON *p;
        if (!code || !cJSON_IsArray(prices))
            continue;
        cJSON_ArrayForEach(p, prices)
        {
            const char *model = gp_feed_json_str(p, "model");
            double v;
            if (!model || strcmp(model, "PAY_AS_YOU_GO") != 0)
                continue;
            if (gp_feed_json_price(cJSON_GetObjectItemCaseSensitive(p, "value"), &v) != 0) {
                *bad = true;
                continue;
            }
            /* a tiered part starts at rangeMin 0; later tiers are volume discounts */
            const cJSON *min = cJSON_GetObjectItemCaseSensitive(p, "rangeMin");
            if (cJSON_IsNumber(min) && min->valuedouble > 0)
                continue;
            if (found < 0 || strcmp(code, "USD") == 0) {
                *currency = code;
                *amount = v;
                found = 0;
            }
        }
        if (found == 0 && strcmp(*currency, "USD") == 0)
            break;
    }
    return found;
}

static int parse_item(struct gp_feed_ctx *ctx, const cJSON *item, void *payload)
{
    const char *name = gp_feed_json_str(item, "displayName");
    const char *metric = gp_feed_json_str(item, "metricName");
    const struct oci_part *known;
    struct gp_feed_row row = {0};
    const char *currency = NULL;
    double amount = 0;
    bool bad;

    (void)payload;
    if (!name || !metric)
        return 0;
    /* Only GPU parts are priced per GPU-hour; BYOL and other metrics are not GPU prices. */
    if (!strstr(name, "GPU") || strstr(name, "BYOL"))
        return 0;
    if (strcmp(metric, "GPU Per Hour") != 0) {
        gp_feed_reject(ctx, "%s: unknown unit '%s'", name, metric);
        return 0;
    }
    if (pick_price(cJSON_GetObjectItemCaseSensitive(item, "currencyCodeLocalizations"), &currency,
                   &amount, &bad) != 0) {
        gp_feed_reject(
            ctx, bad ? "%s: a price value is not a number" : "%s: no pay-as-you-go price", name);
        return 0;
    }
    known = find_part(name);
    if (!known) {
        gp_feed_note_unmapped(ctx, name);
        return 0;
    }
    if (!known->gpu_id) {
        ctx->out_of_scope++;
        return 0;
    }
    row.gpu_name = known->gpu_id;
    row.instance_type = known->shape;
    row.tier = GP_TIER_ON_DEMAND;
    row.amount = amount;
    row.currency = currency;
    row.unit = GP_UNIT_GPU_HOUR;
    row.gpus = known->gpus_per_machine;
    return gp_feed_add(ctx, &row);
}

static int oci_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *more, *links, *link;
    size_t count;
    int rc = gp_feed_json_items(&root, &count, ctx, body, len, "items", NULL, parse_item, NULL);

    ctx->next_url[0] = '\0';
    if (rc)
        goto done;
    /* ORDS paging, should the list ever be split: hasMore plus a "next" link. */
    more = cJSON_GetObjectItemCaseSensitive(root, "hasMore");
    links = cJSON_GetObjectItemCaseSensitive(root, "links");
    if (cJSON_IsTrue(more) && cJSON_IsArray(links)) {
        cJSON_ArrayForEach(link, links)
        {
            const char *rel = gp_feed_json_str(link, "rel");
            const char *href = gp_feed_json_str(link, "href");
            if (rel && href && strcmp(rel, "next") == 0)
                rc = gp_feed_set_next(ctx, href);
        }
    }
done:
    cJSON_Delete(root);
    return rc;
}

const struct gp_feed_adapter gp_feed_oci = {
    .name = "oci",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND),
    .auth = GP_HTTP_AUTH_NONE,
    .max_page_bytes = (size_t)16 << 20,
    .max_pages = 50, /* the products list comes in a handful of pages */
    .parse = oci_parse,
};
