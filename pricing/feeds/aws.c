/* AWS EC2 price list, two ways: the public bulk CSV offer file (gigabytes, parsed as it streams
 * in, in constant memory) and the GetProducts Query API (SigV4). Both yield on-demand per
 * instance-hour for shared-tenancy Linux, and capacity blocks (market option CapacityBlock) as
 * their own tier; the price list has no spot and reserved terms are not hourly prices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"

#define MAX_LINE    ((size_t)64 << 10) /* longest CSV record kept, bytes */
#define MAX_FIELDS  160
#define COMPACT_MIN 4096 /* offers held before the first fold of duplicates */

/* The price list states no block length; the shortest a capacity block is sold for. */
#define CAPACITY_BLOCK_MIN_DAYS 1

/* The tier of a market option: "" and "OnDemand" are on-demand, "CapacityBlock" a capacity
 * block (with its shortest term set in `row`); -1 for any other (spot, reservations). */
static int market_tier(const char *market, struct gp_feed_row *row)
{
    if (*market == '\0' || strcmp(market, "OnDemand") == 0)
        return GP_TIER_ON_DEMAND;
    if (strcmp(market, "CapacityBlock") != 0)
        return -1;
    row->term_days = CAPACITY_BLOCK_MIN_DAYS;
    row->min_term_hours = 24 * CAPACITY_BLOCK_MIN_DAYS;
    return GP_TIER_CAPACITY_BLOCK;
}

/* ---- bulk CSV ------------------------------------------------------------------------ */

enum col {
    COL_TERM,
    COL_PRICE,
    COL_CURRENCY,
    COL_UNIT,
    COL_INSTANCE,
    COL_REGION,
    COL_TENANCY,
    COL_OS,
    COL_CAPACITY,
    COL_SOFTWARE,
    COL_MARKET, /* optional */
    COL_GPU,    /* optional */
    COL_COUNT
};

static const char *const col_names[COL_COUNT] = {
    "TermType",       "PricePerUnit",      "Currency",     "Unit",
    "Instance Type",  "Region Code",       "Tenancy",      "Operating System",
    "CapacityStatus", "Pre Installed S/W", "MarketOption", "GPU",
};

struct gp_feed_stream {
    struct gp_feed_ctx *ctx;
    struct gp_buf partial; /* a record split across chunks */
    bool skipping;         /* inside an over-long record: drop bytes up to the newline */
    bool have_header;
    int col[COL_COUNT]; /* field index of each column, -1 when absent */
    int width;          /* fields in the header */
    char *scratch;      /* MAX_LINE + 1 bytes for splitting a record */
    size_t compact_at;  /* offers held before duplicates are folded again */
};

static int aws_stream_open(struct gp_feed_stream **out, struct gp_feed_ctx *ctx)
{
    struct gp_feed_stream *s = calloc(1, sizeof(*s));

    *out = NULL;
    if (!s || !(s->scratch = malloc(MAX_LINE + 1))) {
        free(s);
        return gp_error_set(GP_ENOMEM, "out of memory opening the AWS offer file parser");
    }
    s->ctx = ctx;
    s->compact_at = COMPACT_MIN;
    gp_buf_init(&s->partial, MAX_LINE);
    *out = s;
    return 0;
}

static void aws_stream_free(struct gp_feed_stream *s)
{
    if (!s)
        return;
    gp_buf_release(&s->partial);
    free(s->scratch);
    free(s);
}

static int read_header(struct gp_feed_stream *s, char **f, int n)
{
    for (int c = 0; c < COL_COUNT; c++) {
        s->col[c] = -1;
        for (int i = 0; i < n; i++)
            if (strcmp(f[i], col_names[c]) == 0)
                s->col[c] = i;
        if (s->col[c] < 0 && c != COL_MARKET && c != COL_GPU)
            return gp_error_set(GP_EINVALID, "%s: the offer file header has no '%s' column",
                                s->ctx->url, col_names[c]);
    }
    s->width = n;
    s->have_header = true;
    return 0;
}

static const char *field(struct gp_feed_stream *s, char **f, enum col c)
{
    return s->col[c] >= 0 ? f[s->col[c]] : "";
}

static int read_record(struct gp_feed_stream *s, char **f, int n)
{
    struct gp_feed_ctx *ctx = s->ctx;
    struct gp_feed_row row = {0};
    const char *software, *market, *gpu, *instance;
    double price;
    long gpus = 0;

    if (n != s->width) {
        gp_feed_reject(ctx, "a record whose field count differs from the header");
        return 0;
    }
    software = field(s, f, COL_SOFTWARE);
    market = field(s, f, COL_MARKET);
    gpu = field(s, f, COL_GPU);
    if (strcmp(field(s, f, COL_TERM), "OnDemand") != 0 ||
        strcmp(field(s, f, COL_TENANCY), "Shared") != 0 ||
        strcmp(field(s, f, COL_OS), "Linux") != 0 ||
        strcmp(field(s, f, COL_CAPACITY), "Used") != 0 ||
        !(*software == '\0' || strcmp(software, "NA") == 0) || market_tier(market, &row) < 0)
        return 0;
    /* Only GPU instances; a fractional GPU count is a slice, not a GPU. */
    if (s->col[COL_GPU] >= 0 && gp_text_to_int(gpu, 1, 72, &gpus) != 0)
        return 0;
    instance = field(s, f, COL_INSTANCE);
    if (strcmp(field(s, f, COL_UNIT), "Hrs") != 0) {
        gp_feed_reject(ctx, "%s: unknown unit '%s'", instance, field(s, f, COL_UNIT));
        return 0;
    }
    if (gp_text_to_double(field(s, f, COL_PRICE), &price) != 0) {
        gp_feed_reject(ctx, "%s: PricePerUnit is not a number", instance);
        return 0;
    }
    row.gpu_name = instance;
    row.instance_type = instance;
    row.region = field(s, f, COL_REGION);
    row.gpus = (int)gpus;
    row.tier = (enum gp_tier)market_tier(market, &row);
    row.amount = price;
    row.currency = field(s, f, COL_CURRENCY);
    row.unit = GP_UNIT_INSTANCE_HOUR;
    return gp_feed_add(ctx, &row);
}

/* Whether `needle` (m bytes, m >= 1) occurs in the n bytes at `h`. */
static bool contains(const char *h, size_t n, const char *needle, size_t m)
{
    const char *end = h + n;

    while ((size_t)(end - h) >= m) {
        const char *p = memchr(h, needle[0], (size_t)(end - h) - m + 1);
        if (!p)
            return false;
        if (memcmp(p, needle, m) == 0)
            return true;
        h = p + 1;
    }
    return false;
}

/* Whether a data record can be an on-demand Linux shared-tenancy price at all: a cheap test on
 * the raw bytes that spares splitting the great majority of the file's records. */
static bool may_match(const char *line, size_t len)
{
    /* needles start after the opening quote: memchr on '"' would stop at every field */
    return contains(line, len, "OnDemand\"", 9) && contains(line, len, "Linux\"", 6) &&
           contains(line, len, "Shared\"", 7);
}

static int process_line(struct gp_feed_stream *s, const char *line, size_t len)
{
    char *f[MAX_FIELDS];
    int n;

    if (len && line[len - 1] == '\r')
        len--;
    if (len == 0)
        return 0;
    if (s->have_header && !may_match(line, len))
        return 0;
    if (!s->have_header && !contains(line, len, "\"TermType\"", 10))
        return 0; /* the disclaimer lines before the header */
    memcpy(s->scratch, line, len);
    s->scratch[len] = '\0';
    n = gp_feed_csv_split(s->scratch, f, MAX_FIELDS);
    if (n < 0) {
        if (!s->have_header)
            return gp_error_set(GP_EINVALID, "%s: malformed offer file header", s->ctx->url);
        gp_feed_reject(s->ctx, "a record with an unterminated quote");
        return 0;
    }
    return s->have_header ? read_record(s, f, n) : read_header(s, f, n);
}

static int aws_stream_push(struct gp_feed_stream *s, const char *data, size_t len)
{
    const char *end = data + len;
    int rc = 0;

    while (data < end && !rc) {
        const char *nl = memchr(data, '\n', (size_t)(end - data));
        size_t chunk = (size_t)((nl ? nl : end) - data);

        if (s->skipping) {
            s->skipping = nl == NULL;
        } else if (s->partial.len == 0 && nl) {
            rc = process_line(s, data, chunk); /* the common case: no copy */
        } else if (s->partial.len + chunk > MAX_LINE) {
            gp_feed_reject(s->ctx, "a record longer than 64 KiB");
            gp_buf_reset(&s->partial);
            s->skipping = nl == NULL;
        } else {
            rc = gp_buf_append(&s->partial, data, chunk);
            if (!rc && nl) {
                rc = process_line(s, s->partial.data, s->partial.len);
                gp_buf_reset(&s->partial);
            }
        }
        data += chunk + (nl != NULL);
    }
    /* A file listing one price many times must not grow memory with its size: fold
     * duplicates whenever the offers held double, so memory follows the distinct keys. */
    if (!rc && s->ctx->count >= s->compact_at) {
        gp_feed_dedupe(s->ctx);
        s->compact_at = s->ctx->count * 2 > COMPACT_MIN ? s->ctx->count * 2 : COMPACT_MIN;
    }
    return rc;
}

static int aws_stream_end(struct gp_feed_stream *s)
{
    int rc = 0;

    if (s->partial.len && !s->skipping)
        rc = process_line(s, s->partial.data, s->partial.len);
    gp_buf_reset(&s->partial);
    if (!rc && !s->have_header)
        rc = gp_error_set(GP_EINVALID, "%s: not an AWS offer file (no header with TermType)",
                          s->ctx->url);
    return rc;
}

const struct gp_feed_adapter gp_feed_aws = {
    .name = "aws",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND) | GP_FEED_TIER(GP_TIER_CAPACITY_BLOCK),
    .auth = GP_HTTP_AUTH_NONE,
    .max_page_bytes = (size_t)16 << 30,
    .stream_open = aws_stream_open,
    .stream_push = aws_stream_push,
    .stream_end = aws_stream_end,
    .stream_free = aws_stream_free,
};

/* ---- Query API ----------------------------------------------------------------------- */

static int query_body(struct gp_buf *out, const char *token)
{
    int rc =
        gp_buf_puts(out, "{\"ServiceCode\":\"AmazonEC2\",\"FormatVersion\":\"aws_v1\","
                         "\"MaxResults\":100,\"Filters\":["
                         "{\"Type\":\"TERM_MATCH\",\"Field\":\"instanceFamily\","
                         "\"Value\":\"GPU instance\"},"
                         "{\"Type\":\"TERM_MATCH\",\"Field\":\"operatingSystem\","
                         "\"Value\":\"Linux\"},"
                         "{\"Type\":\"TERM_MATCH\",\"Field\":\"tenancy\",\"Value\":\"Shared\"},"
                         "{\"Type\":\"TERM_MATCH\",\"Field\":\"capacitystatus\","
                         "\"Value\":\"Used\"},"
                         "{\"Type\":\"TERM_MATCH\",\"Field\":\"preInstalledSw\","
                         "\"Value\":\"NA\"},"
                         "{\"Type\":\"TERM_MATCH\",\"Field\":\"marketoption\","
                         "\"Value\":\"OnDemand\"}]");
    if (!rc && token && *token) {
        cJSON *s = cJSON_CreateString(token);
        char *quoted = s ? cJSON_PrintUnformatted(s) : NULL;
        rc = quoted ? gp_buf_printf(out, ",\"NextToken\":%s", quoted)
                    : gp_error_set(GP_ENOMEM, "out of memory");
        cJSON_free(quoted);
        cJSON_Delete(s);
    }
    return rc ? rc : gp_buf_putc(out, '}');
}

/* One PriceList element: a product with its on-demand terms, itself a JSON document. */
static int parse_product(struct gp_feed_ctx *ctx, const char *doc)
{
    cJSON *root = cJSON_Parse(doc);
    const cJSON *attrs, *terms, *term, *dim;
    const char *instance, *gpu, *market;
    struct gp_feed_row row = {0};
    long gpus = 0;
    int rc = 0;

    attrs = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "product"),
                                             "attributes");
    instance = gp_feed_json_str(attrs, "instanceType");
    if (!instance) {
        gp_feed_reject(ctx, "a PriceList entry without product.attributes.instanceType");
        goto done;
    }
    gpu = gp_feed_json_str(attrs, "gpu");
    if (gpu && gp_text_to_int(gpu, 1, 72, &gpus) != 0)
        goto done; /* a fractional or absent GPU: not a whole-GPU instance */
    /* the request asks for OnDemand; a capacity block that comes anyway is kept apart */
    market = gp_feed_json_str(attrs, "marketoption");
    if (market_tier(market ? market : "", &row) < 0)
        goto done;
    terms = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "terms"),
                                             "OnDemand");
    cJSON_ArrayForEach(term, terms)
    {
        cJSON_ArrayForEach(dim, cJSON_GetObjectItemCaseSensitive(term, "priceDimensions"))
        {
            const char *unit = gp_feed_json_str(dim, "unit");
            const cJSON *ppu = cJSON_GetObjectItemCaseSensitive(dim, "pricePerUnit");
            const cJSON *usd = cJSON_GetObjectItemCaseSensitive(ppu, "USD");
            double price;
            if (!unit || strcmp(unit, "Hrs") != 0) {
                gp_feed_reject(ctx, "%s: unknown unit '%s'", instance, unit ? unit : "");
                continue;
            }
            if (gp_feed_json_price(usd, &price) != 0) {
                gp_feed_reject(ctx, "%s: pricePerUnit.USD is not a number", instance);
                continue;
            }
            row.gpu_name = instance;
            row.instance_type = instance;
            row.region = gp_feed_json_str(attrs, "regionCode");
            row.gpus = (int)gpus;
            row.tier = (enum gp_tier)market_tier(market ? market : "", &row);
            row.amount = price;
            row.currency = "USD";
            row.unit = GP_UNIT_INSTANCE_HOUR;
            rc = gp_feed_add(ctx, &row);
            if (rc)
                goto done;
        }
    }
done:
    cJSON_Delete(root);
    return rc;
}

static int query_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    cJSON *root = NULL;
    const cJSON *list, *entry, *next;
    int rc = gp_feed_json_list(&root, &list, ctx->url, body, len, "PriceList",
                               (const char *const[]){"message", "Message", NULL});

    ctx->next_token[0] = '\0';
    if (rc)
        goto done;
    cJSON_ArrayForEach(entry, list)
    {
        if (!cJSON_IsString(entry)) {
            gp_feed_reject(ctx, "a PriceList entry that is not a JSON string");
            continue;
        }
        rc = parse_product(ctx, entry->valuestring);
        if (rc)
            goto done;
    }
    next = cJSON_GetObjectItemCaseSensitive(root, "NextToken");
    if (cJSON_IsString(next) && cJSON_GetArraySize(list) > 0 &&
        gp_text_copy(ctx->next_token, sizeof(ctx->next_token), next->valuestring) != 0) {
        ctx->next_token[0] = '\0';
        rc = gp_error_set(GP_EINVALID, "%s: NextToken longer than %zu bytes", ctx->url,
                          sizeof(ctx->next_token) - 1);
    }
done:
    cJSON_Delete(root);
    return rc;
}

static const char *const query_headers[] = {"X-Amz-Target: AWSPriceListService.GetProducts", NULL};

const struct gp_feed_adapter gp_feed_aws_query = {
    .name = "aws-query",
    .tiers = GP_FEED_TIER(GP_TIER_ON_DEMAND) | GP_FEED_TIER(GP_TIER_CAPACITY_BLOCK),
    .auth = GP_HTTP_AUTH_SIGV4,
    .key_required = true,
    .max_page_bytes = (size_t)16 << 20,
    .max_pages = 200, /* GetProducts answers 100 products a page; the GPU instance families of one
                             region take a few pages */
    .parse = query_parse,
    .request_body = query_body,
    .content_type = "application/x-amz-json-1.1",
    .headers = query_headers,
    .sigv4 = "aws:amz:us-east-1:pricing",
};
