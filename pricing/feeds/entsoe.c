/* ENTSO-E's Transparency Platform (web-api.tp.entsoe.eu; a free security token, sent as the
 * securityToken query parameter): day-ahead prices, documentType A44, one bidding zone a
 * request. The answer is XML, a Publication_MarketDocument:
 *   <TimeSeries>
 *     <in_Domain.mRID codingScheme="A01">10YNO-1--------2</in_Domain.mRID> ...
 *     <currency_Unit.name>EUR</currency_Unit.name>
 *     <price_Measure_Unit.name>MWH</price_Measure_Unit.name>
 *     <curveType>A01</curveType>
 *     <Period>
 *       <timeInterval><start>2026-11-29T23:00Z</start><end>2026-11-30T23:00Z</end></timeInterval>
 *       <resolution>PT15M</resolution>
 *       <Point><position>1</position><price.amount>101.25</price.amount></Point> ...
 * A01 curves give every position; A03 curves give a position only where the price changes, and
 * each price holds until the next given position. A request for which nothing is published is
 * answered by an Acknowledgement_MarketDocument whose Reason text says "No matching data"; any
 * other Reason is a refusal. The zone is named from the domain's EIC code. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing/feeds/adapters.h"
#include "util/error.h"
#include "util/text.h"
#include "util/timeutil.h"
#include "util/xml_scan.h"

/* The bidding zones gpuplan names, by their EIC codes. */
static const struct {
    const char *eic, *zone;
} zones[] = {
    {"10YDK-1--------W", "DK1"}, {"10YDK-2--------M", "DK2"}, {"10YNO-1--------2", "NO1"},
    {"10YNO-2--------T", "NO2"}, {"10YNO-3--------J", "NO3"}, {"10YNO-4--------9", "NO4"},
    {"10Y1001A1001A48H", "NO5"}, {"10Y1001A1001A44P", "SE1"}, {"10Y1001A1001A45N", "SE2"},
    {"10Y1001A1001A46L", "SE3"}, {"10Y1001A1001A47J", "SE4"}, {"10YFI-1--------U", "FI"},
};

#define MAX_SLOTS 40000 /* periods of one Period: a year and more of quarter-hours */

/* One <Point> as read. */
struct point {
    long position; /* 1-based */
    double price;  /* EUR/MWh */
};

/* What the document has said so far, element by element. */
struct reading {
    struct gp_feed_ctx *ctx;
    bool acknowledgement; /* the root is an Acknowledgement_MarketDocument */
    char reason_code[16], reason_text[256];
    /* the TimeSeries being read */
    char eic[32], zone[GP_ZONE_MAX], currency[8], unit[8], curve[8];
    /* its Period being read */
    char start[32], end[32], resolution[16];
    struct point *points; /* owned; `npoints` of the Period */
    size_t npoints, cap;
    /* the <Point> being read */
    char position[24], price[32];
};

static const char *zone_of(const char *eic)
{
    for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
        if (strcmp(zones[i].eic, eic) == 0)
            return zones[i].zone;
    return NULL;
}

/* PT15M, PT30M or PT60M: minutes; 0 for any other resolution. */
static int resolution_minutes(const char *r)
{
    return strcmp(r, "PT15M") == 0   ? 15
           : strcmp(r, "PT30M") == 0 ? 30
           : strcmp(r, "PT60M") == 0 ? 60
                                     : 0;
}

static void reject_points(struct reading *rd, const char *fmt, const char *what)
{
    for (size_t i = 0; i < rd->npoints; i++)
        gp_feed_reject(rd->ctx, fmt, what);
}

/* Why the current TimeSeries and Period cannot be priced, or NULL; *first, *slots and *minutes
 * set when they can. */
static const char *period_problem(const struct reading *rd, int64_t *first, long *slots,
                                  int *minutes)
{
    int64_t last;

    if (!rd->zone[0])
        return "a TimeSeries whose in_Domain is no bidding zone gpuplan names";
    if (strcmp(rd->currency, "EUR") != 0 || strcmp(rd->unit, "MWH") != 0)
        return "a TimeSeries not priced in EUR per MWH";
    if (strcmp(rd->curve, "A01") != 0 && strcmp(rd->curve, "A03") != 0)
        return "a TimeSeries whose curveType is neither A01 nor A03";
    *minutes = resolution_minutes(rd->resolution);
    if (!*minutes)
        return "a Period whose resolution is not PT15M, PT30M or PT60M";
    if (gp_time_parse(rd->start, first) || gp_time_parse(rd->end, &last) || last <= *first ||
        (last - *first) % (*minutes * 60) != 0)
        return "a Period whose timeInterval is not a whole number of its resolution";
    *slots = (long)((last - *first) / (*minutes * 60));
    if (*slots > MAX_SLOTS)
        return "a Period longer than a year";
    return NULL;
}

static int by_position(const void *a, const void *b)
{
    const struct point *x = a, *y = b;

    return (x->position > y->position) - (x->position < y->position);
}

/* The prices of one Point: its own slot, and under A03 every slot up to the next given one. */
static int emit_point(struct reading *rd, const struct point *pt, long until, int64_t first,
                      int minutes)
{
    struct gp_energy_price p;
    int rc = 0;

    memset(&p, 0, sizeof(p));
    memcpy(p.zone, rd->zone, sizeof(p.zone));
    p.minutes = minutes;
    p.eur_mwh = pt->price;
    for (long slot = pt->position; slot < until && !rc; slot++) {
        p.start = first + (int64_t)(slot - 1) * minutes * 60;
        rc = gp_feed_add_energy(rd->ctx, &p);
    }
    return rc;
}

/* A Period has closed: its prices, slot by slot, or its points rejected with the reason. */
static int period_done(struct reading *rd)
{
    const char *problem;
    int64_t first = 0;
    long slots = 0;
    int minutes = 0, rc = 0;
    bool fill = strcmp(rd->curve, "A03") == 0;

    rd->ctx->rows += rd->npoints;
    if ((problem = period_problem(rd, &first, &slots, &minutes))) {
        reject_points(rd, "%s", problem);
        rd->npoints = 0;
        return 0;
    }
    if (rd->npoints > 1)
        qsort(rd->points, rd->npoints, sizeof(*rd->points), by_position);
    for (size_t i = 0; i < rd->npoints && !rc; i++) {
        const struct point *pt = &rd->points[i];
        long next = i + 1 < rd->npoints ? rd->points[i + 1].position : slots + 1;
        if (pt->position > slots)
            gp_feed_reject(rd->ctx, "a Point whose position is past its Period's end");
        else if (i + 1 < rd->npoints && next == pt->position)
            gp_feed_reject(rd->ctx, "a Point whose position is given twice");
        else
            rc = emit_point(rd, pt, fill ? (next > slots + 1 ? slots + 1 : next) : pt->position + 1,
                            first, minutes);
    }
    rd->npoints = 0;
    return rc;
}

/* A Point has closed: kept for its Period, or rejected. */
static int point_done(struct reading *rd)
{
    char *end;
    long position = strtol(rd->position, &end, 10);
    double price;
    bool ok = rd->position[0] && !*end && position >= 1 && position <= MAX_SLOTS;

    price = strtod(rd->price, &end);
    ok = ok && rd->price[0] && !*end && price >= -1e4 && price <= 1e5;
    rd->position[0] = rd->price[0] = '\0';
    if (!ok) {
        rd->ctx->rows++;
        gp_feed_reject(rd->ctx,
                       "a Point without a position 1 to %d and a price.amount in "
                       "-10000 to 100000",
                       MAX_SLOTS);
        return 0;
    }
    if (rd->npoints == rd->cap) {
        size_t cap = rd->cap ? rd->cap * 2 : 128;
        struct point *grown = realloc(rd->points, cap * sizeof(*grown));
        if (!grown)
            return gp_error_set(GP_ENOMEM, "out of memory reading %s", rd->ctx->url);
        rd->points = grown;
        rd->cap = cap;
    }
    rd->points[rd->npoints++] = (struct point){position, price};
    return 0;
}

/* The text of element `name` inside `parent`, as the reading keeps it: where it goes, and
 * its size, or NULL when the reading has no use for it. */
static char *slot_for(struct reading *rd, struct gp_xml_slice name, struct gp_xml_slice parent,
                      size_t *size)
{
    static const struct {
        const char *name, *parent;
        size_t offset, size;
    } slots[] = {
#define SLOT(n, p, m) {n, p, offsetof(struct reading, m), sizeof(((struct reading *)0)->m)}
        SLOT("in_Domain.mRID", "TimeSeries", eic),
        SLOT("currency_Unit.name", "TimeSeries", currency),
        SLOT("price_Measure_Unit.name", "TimeSeries", unit),
        SLOT("curveType", "TimeSeries", curve),
        SLOT("start", "timeInterval", start),
        SLOT("end", "timeInterval", end),
        SLOT("resolution", "Period", resolution),
        SLOT("position", "Point", position),
        SLOT("price.amount", "Point", price),
        SLOT("code", "Reason", reason_code),
        SLOT("text", "Reason", reason_text),
#undef SLOT
    };

    for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
        if (gp_xml_slice_is(name, slots[i].name) && gp_xml_slice_is(parent, slots[i].parent)) {
            *size = slots[i].size;
            return (char *)rd + slots[i].offset;
        }
    return NULL;
}

/* Character data: kept in its slot when the reading wants it (cut to fit: a field longer than
 * its slot is wrong anyway, and is refused where it is used). */
static int text(struct reading *rd, struct gp_xml_scanner *x)
{
    char value[512];
    size_t size = 0;
    char *slot = slot_for(rd, gp_xml_enclosing(x, 0), gp_xml_enclosing(x, 1), &size);

    if (!slot)
        return 0;
    if (gp_xml_text(x, value, sizeof(value)))
        return gp_error_set(GP_EINVALID, "%s: %s", rd->ctx->url, x->error);
    gp_text_copy(slot, size, value);
    if (slot == rd->eic) {
        const char *zone = zone_of(rd->eic);
        gp_text_copy(rd->zone, sizeof(rd->zone), zone ? zone : "");
    }
    return 0;
}

static int element_opened(struct reading *rd, struct gp_xml_scanner *x, bool root)
{
    if (root) {
        rd->acknowledgement = gp_xml_is(x, "Acknowledgement_MarketDocument");
        if (!rd->acknowledgement && !gp_xml_is(x, "Publication_MarketDocument"))
            return gp_error_set(GP_EINVALID, "%s: not an ENTSO-E market document (root <%.*s>)",
                                rd->ctx->url, (int)(x->name.len > 40 ? 40 : x->name.len),
                                x->name.at);
    }
    if (gp_xml_is(x, "TimeSeries"))
        rd->eic[0] = rd->zone[0] = rd->currency[0] = rd->unit[0] = rd->curve[0] = '\0';
    else if (gp_xml_is(x, "Period"))
        rd->start[0] = rd->end[0] = rd->resolution[0] = '\0', rd->npoints = 0;
    else if (gp_xml_is(x, "Point"))
        rd->position[0] = rd->price[0] = '\0';
    return 0;
}

static int element_closed(struct reading *rd, struct gp_xml_scanner *x)
{
    if (gp_xml_is(x, "Point") && gp_xml_slice_is(gp_xml_enclosing(x, 0), "Period"))
        return point_done(rd);
    if (gp_xml_is(x, "Period") && gp_xml_slice_is(gp_xml_enclosing(x, 0), "TimeSeries"))
        return period_done(rd);
    return 0;
}

/* An Acknowledgement: nothing published is an empty page; any other reason a refusal. */
static int acknowledged(const struct reading *rd)
{
    if (strstr(rd->reason_text, "No matching data"))
        return 0;
    return gp_error_set(GP_EINVALID, "%s: ENTSO-E refused the request: %s%s%s", rd->ctx->url,
                        rd->reason_code[0] ? rd->reason_code : "no reason code",
                        rd->reason_text[0] ? ": " : "", rd->reason_text);
}

static int entsoe_parse(struct gp_feed_ctx *ctx, const char *body, size_t len)
{
    struct reading rd = {.ctx = ctx};
    struct gp_xml_scanner x;
    enum gp_xml_event ev = GP_XML_OPEN;
    bool root = true;
    int rc = 0;

    ctx->next_url[0] = '\0';
    gp_xml_init(&x, body, len);
    while (!rc && ev != GP_XML_DONE) {
        if (gp_xml_next(&x, &ev)) {
            rc = gp_error_set(GP_EINVALID, "%s: not an ENTSO-E market document: %s", ctx->url,
                              x.error);
        } else if (ev == GP_XML_OPEN) {
            rc = element_opened(&rd, &x, root);
            root = false;
        } else if (ev == GP_XML_CLOSE) {
            rc = element_closed(&rd, &x);
        } else if (ev == GP_XML_TEXT) {
            rc = text(&rd, &x);
        }
    }
    if (!rc && rd.acknowledgement)
        rc = acknowledged(&rd);
    free(rd.points);
    return rc;
}

/* Order by zone, then start, the finest period first. */
static int by_zone_start(const void *a, const void *b)
{
    const struct gp_energy_price *x = a, *y = b;
    int c = strcmp(x->zone, y->zone);

    if (c)
        return c;
    if (x->start != y->start)
        return (x->start > y->start) - (x->start < y->start);
    return (x->minutes > y->minutes) - (x->minutes < y->minutes);
}

/* Whether a finer price of the same zone overlaps prices[i] (sorted by by_zone_start). */
static bool overlapped_by_finer(const struct gp_energy_price *prices, size_t n, size_t i)
{
    const struct gp_energy_price *p = &prices[i];
    int64_t end = p->start + (int64_t)p->minutes * 60;

    for (size_t j = i + 1; j < n && strcmp(prices[j].zone, p->zone) == 0 && prices[j].start < end;
         j++)
        if (prices[j].minutes < p->minutes)
            return true;
    for (size_t j = i;
         j-- > 0 && strcmp(prices[j].zone, p->zone) == 0 && prices[j].start + 3600 > p->start;)
        if (prices[j].minutes < p->minutes &&
            prices[j].start + (int64_t)prices[j].minutes * 60 > p->start)
            return true;
    return false;
}

/* One price per period: a period given twice is kept once, and a zone published at two
 * resolutions over the same hours (as some were when day-ahead moved to quarter-hours) keeps
 * the finer, so no hour is counted twice. */
static int entsoe_finish(struct gp_feed_ctx *ctx)
{
    struct gp_energy_price *p = ctx->energy;
    size_t n = ctx->nenergy, kept = 0;
    bool *drop;

    if (n < 2)
        return 0;
    qsort(p, n, sizeof(*p), by_zone_start);
    drop = calloc(n, sizeof(*drop));
    if (!drop)
        return gp_error_set(GP_ENOMEM, "out of memory combining electricity prices");
    for (size_t i = 0; i < n; i++)
        drop[i] = (i > 0 && by_zone_start(&p[i - 1], &p[i]) == 0) || overlapped_by_finer(p, n, i);
    for (size_t i = 0; i < n; i++) {
        if (drop[i])
            gp_feed_reject(ctx, "a period given twice, or at a coarser resolution beside a finer");
        else
            p[kept++] = p[i];
    }
    ctx->nenergy = kept;
    free(drop);
    return 0;
}

/* The zones of data/feeds.json's paths (DK1 and DK2 come from energidata). */
static const char *const default_zones[] = {"NO1", "NO2", "NO3", "NO4", "NO5", "SE1",
                                            "SE2", "SE3", "SE4", "FI",  NULL};

const struct gp_feed_adapter gp_feed_entsoe = {
    .name = "entsoe",
    .tiers = 0,
    .auth = GP_HTTP_AUTH_QUERY,
    .query_key = "securityToken",
    .key_required = true,
    .max_page_bytes = (size_t)64 << 20, /* a year of quarter-hours of one zone is ~4 MB */
    .max_pages = 0,
    .parse = entsoe_parse,
    .finish = entsoe_finish,
    .yields_energy = true,
    .explains_refusals = true,
    .zones = default_zones,
};
