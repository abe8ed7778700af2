/* Names of the shared enums (precisions, vendors, tiers, units) and their parsers. */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "gpuplan/gpu.h"
#include "gpuplan/offer.h"

static const char *const precision_names[GP_PRECISION_COUNT] = {
    "fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp6", "fp4", "int8",
};

/* Bytes per stored element; fp6 values are packed at 6 bits. */
static const double precision_bytes[GP_PRECISION_COUNT] = {
    8.0, 4.0, 4.0, 2.0, 2.0, 1.0, 0.75, 0.5, 1.0,
};

static const char *const tier_names[GP_TIER_COUNT] = {"on-demand", "spot", "reserved", "quote",
                                                      "capacity-block"};

static int parse_name(const char *const *names, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

const char *gp_precision_name(enum gp_precision p)
{
    return (unsigned)p < GP_PRECISION_COUNT ? precision_names[p] : "?";
}

int gp_precision_parse(const char *name)
{
    return parse_name(precision_names, GP_PRECISION_COUNT, name);
}

double gp_precision_bytes(enum gp_precision p)
{
    return (unsigned)p < GP_PRECISION_COUNT ? precision_bytes[p] : 0.0;
}

const char *gp_vendor_name(enum gp_vendor v)
{
    return v == GP_VENDOR_AMD ? "amd" : "nvidia";
}

static const char *const status_names[] = {"shipping", "announced"};
static const char *const confidence_names[] = {"official", "secondary", "estimate"};
static const char *const cooling_names[] = {"", "air", "liquid"};
static const char *const figure_names[GP_FIGURE_COUNT - GP_PRECISION_COUNT] = {
    "hbm_gb",          "hbm_tbs", "tdp_w",     "scaleup_gbs", "scaleout_gbps", "gpus_per_node",
    "node_overhead_w", "llc_mb",  "capex_usd", "rack.gpus",   "rack.kw",
};

const char *gp_status_name(enum gp_gpu_status s)
{
    return (unsigned)s < sizeof(status_names) / sizeof(*status_names) ? status_names[s] : "?";
}

const char *gp_confidence_name(enum gp_confidence c)
{
    return (unsigned)c < sizeof(confidence_names) / sizeof(*confidence_names) ? confidence_names[c]
                                                                              : "?";
}

const char *gp_cooling_name(enum gp_cooling c)
{
    return (unsigned)c < sizeof(cooling_names) / sizeof(*cooling_names) ? cooling_names[c] : "?";
}

const char *gp_figure_name(enum gp_figure f)
{
    static const char *const peaks[GP_PRECISION_COUNT] = {
        "peak_tflops.fp64", "peak_tflops.fp32", "peak_tflops.tf32",
        "peak_tflops.bf16", "peak_tflops.fp16", "peak_tflops.fp8",
        "peak_tflops.fp6",  "peak_tflops.fp4",  "peak_tflops.int8",
    };

    if ((unsigned)f < GP_PRECISION_COUNT)
        return peaks[f];
    return (unsigned)f < GP_FIGURE_COUNT ? figure_names[f - GP_PRECISION_COUNT] : "?";
}

int gp_status_parse(const char *name)
{
    return parse_name(status_names, 2, name);
}

int gp_confidence_parse(const char *name)
{
    return parse_name(confidence_names, 3, name);
}

int gp_cooling_parse(const char *name)
{
    return name[0] ? parse_name(cooling_names, 3, name) : -1;
}

int gp_figure_parse(const char *name)
{
    for (int f = 0; f < GP_FIGURE_COUNT; f++)
        if (strcmp(gp_figure_name((enum gp_figure)f), name) == 0)
            return f;
    return -1;
}

enum gp_confidence gp_gpu_throughput_confidence(const struct gp_gpu *gpu)
{
    static const enum gp_figure links[] = {GP_FIGURE_HBM_GB, GP_FIGURE_HBM_TBS,
                                           GP_FIGURE_SCALEUP_GBS};
    unsigned char weakest = GP_CONFIDENCE_OFFICIAL;

    for (int p = 0; p < GP_PRECISION_COUNT; p++)
        if (gpu->peak_tflops[p] > 0 && gpu->confidence[p] > weakest)
            weakest = gpu->confidence[p];
    for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
        if (gpu->confidence[links[i]] > weakest)
            weakest = gpu->confidence[links[i]];
    return (enum gp_confidence)weakest;
}

const char *gp_tier_name(enum gp_tier t)
{
    return (unsigned)t < GP_TIER_COUNT ? tier_names[t] : "?";
}

int gp_tier_parse(const char *name)
{
    return parse_name(tier_names, GP_TIER_COUNT, name);
}

const char *gp_price_unit_name(enum gp_price_unit u)
{
    return u == GP_UNIT_INSTANCE_HOUR ? "instance-hour" : "gpu-hour";
}

int gp_price_unit_parse(const char *name)
{
    if (strcmp(name, "gpu-hour") == 0)
        return GP_UNIT_GPU_HOUR;
    if (strcmp(name, "instance-hour") == 0)
        return GP_UNIT_INSTANCE_HOUR;
    return -1;
}

bool gp_offer_in_place(const struct gp_offer *offer, const char *region_glob,
                       const char *jurisdiction)
{
    if (region_glob && (!offer->region[0] || fnmatch(region_glob, offer->region, 0) != 0))
        return false;
    if (!jurisdiction)
        return true;
    if (strcmp(offer->jurisdiction, jurisdiction) == 0 && offer->jurisdiction[0])
        return true;
    return strcmp(jurisdiction, "eea") == 0 && strcmp(offer->jurisdiction, "eu") == 0;
}

/* <0, 0, >0 for numbers. */
static int compare_number(double a, double b)
{
    return (a > b) - (a < b);
}

bool gp_offer_term_unknown(const struct gp_offer *o)
{
    return o->tier == GP_TIER_RESERVED && o->term_months <= 0 && o->term_days <= 0 &&
           o->min_term_hours <= 0;
}

char *gp_offer_term_text(const struct gp_offer *o, char *out, size_t size)
{
    if (gp_offer_term_unknown(o))
        snprintf(out, size, "unknown");
    else if (o->term_months > 0)
        snprintf(out, size, "%dmo", o->term_months);
    else if (o->term_days > 0)
        snprintf(out, size, "%dd", o->term_days);
    else if (size)
        out[0] = '\0';
    return out;
}

int gp_offer_key_compare(const struct gp_offer *a, const struct gp_offer *b)
{
    int c;

    if ((c = strcmp(a->provider, b->provider)) || (c = strcmp(a->region, b->region)) ||
        (c = strcmp(a->instance_type, b->instance_type)) || (c = strcmp(a->gpu_id, b->gpu_id)))
        return c;
    if ((c = compare_number(a->tier, b->tier)) ||
        (c = compare_number(a->term_months, b->term_months)))
        return c;
    return compare_number(a->term_days, b->term_days);
}

enum { TIE_NUMBERS = 10, TIE_TEXTS = 5 };

/* The fields that decide between two offers of one key, in the order they decide: the price,
 * the newer observation, then every other field. */
static void tie_fields(const struct gp_offer *o, double num[TIE_NUMBERS],
                       const char *text[TIE_TEXTS])
{
    const double n[TIE_NUMBERS] = {o->usd_per_gpu_hour,
                                   (double)-o->observed_at,
                                   o->amount,
                                   o->usd_per_instance_hour,
                                   o->gpus_per_instance,
                                   o->upfront_share,
                                   (double)o->min_term_hours,
                                   o->min_gpus,
                                   (double)o->valid_until,
                                   o->unit};
    const char *const t[TIE_TEXTS] = {o->currency, o->feed, o->country, o->jurisdiction,
                                      o->source_url};

    memcpy(num, n, sizeof(n));
    memcpy(text, t, sizeof(t));
}

bool gp_offer_kept_over(const struct gp_offer *a, const struct gp_offer *b)
{
    double an[TIE_NUMBERS], bn[TIE_NUMBERS];
    const char *as[TIE_TEXTS], *bs[TIE_TEXTS];
    int c;

    tie_fields(a, an, as);
    tie_fields(b, bn, bs);
    for (size_t i = 0; i < TIE_NUMBERS; i++)
        if ((c = compare_number(an[i], bn[i])))
            return c < 0;
    for (size_t i = 0; i < TIE_TEXTS; i++)
        if ((c = strcmp(as[i], bs[i])))
            return c < 0;
    return false;
}
