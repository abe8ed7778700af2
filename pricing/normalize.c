/* GPU name mapping (exact per-provider names, then ordered token rules) and price
 * normalisation. */
#include "pricing/normalize.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"

/* Instance names whose GPU cannot be read off the name itself. */
struct exact_name {
    const char *provider;
    const char *name; /* compared case-insensitively */
    const char *gpu_id;
    int gpu_count;
    enum gp_name_match match;
};

static const struct exact_name exact_names[] = {
    {"aws", "p5.48xlarge", "h100-sxm", 8, GP_NAME_MAPPED},
    {"aws", "p5.4xlarge", "h100-sxm", 1, GP_NAME_MAPPED},
    {"aws", "p5e.48xlarge", "h200-sxm", 8, GP_NAME_MAPPED},
    {"aws", "p5en.48xlarge", "h200-sxm", 8, GP_NAME_MAPPED},
    {"aws", "p6-b200.48xlarge", "b200", 8, GP_NAME_MAPPED},
    {"aws", "p4d.24xlarge", "a100", 8, GP_NAME_OUT_OF_SCOPE},
    {"aws", "p4de.24xlarge", "a100", 8, GP_NAME_OUT_OF_SCOPE},
    {"azure", "Standard_ND96isr_H100_v5", "h100-sxm", 8, GP_NAME_MAPPED},
    {"azure", "Standard_ND96isr_H200_v5", "h200-sxm", 8, GP_NAME_MAPPED},
    {"azure", "Standard_ND96isr_MI300X_v5", "mi300x", 8, GP_NAME_MAPPED},
    /* NC*_H100_v5 carry H100 NVL (94 GB), not H100 PCIe. */
    {"azure", "Standard_NC40ads_H100_v5", "h100-nvl", 1, GP_NAME_OUT_OF_SCOPE},
    {"azure", "Standard_NC80adis_H100_v5", "h100-nvl", 2, GP_NAME_OUT_OF_SCOPE},
    {"azure", "Standard_NCC40ads_H100_v5", "h100-nvl", 1, GP_NAME_OUT_OF_SCOPE},
    /* One 4-GPU tray of a GB200 NVL72 rack. */
    {"azure", "Standard_ND128isr_NDR_GB200_v6", "gb200-nvl72", 4, GP_NAME_MAPPED},
    /* Scaleway's H100 types without "-SXM" carry the PCIe card. */
    {"scaleway", "H100-1-80G", "h100-pcie", 1, GP_NAME_MAPPED},
    {"scaleway", "H100-2-80G", "h100-pcie", 2, GP_NAME_MAPPED},
};

/*
 * Token rules, tried in order on the lower-cased name: the first whose every `all` token occurs
 * and no `none` token occurs wins. More specific rules come first ("nvl" before "h100", "gh200"
 * before "h200", "gb200" before "b200", "mi300x" before "mi300").
 */
struct token_rule {
    const char *all[3];  /* tokens that must all occur */
    const char *none[2]; /* tokens that must not occur */
    const char *gpu_id;
    const char *model; /* token after which a GPU count may follow (h100x8, mi300x8) */
    enum gp_name_match match;
};

static const struct token_rule token_rules[] = {
    /* A Grace-Blackwell GPU is rented in its NVL72 rack (by the tray or the rack). */
    {{"gb200"}, {NULL}, "gb200-nvl72", "gb200", GP_NAME_MAPPED},
    {{"gb300"}, {NULL}, "gb300-nvl72", "gb300", GP_NAME_MAPPED},
    {{"b300"}, {NULL}, "b300", "b300", GP_NAME_MAPPED},
    {{"gh200"}, {NULL}, "gh200", "gh200", GP_NAME_OUT_OF_SCOPE},
    {{"h100", "nvl"}, {NULL}, "h100-nvl", "h100", GP_NAME_OUT_OF_SCOPE},
    {{"h200", "nvl"}, {NULL}, "h200-nvl", "h200", GP_NAME_MAPPED},
    {{"h100", "pcie"}, {NULL}, "h100-pcie", "h100", GP_NAME_MAPPED},
    {{"h100"}, {NULL}, "h100-sxm", "h100", GP_NAME_MAPPED},
    {{"h200"}, {NULL}, "h200-sxm", "h200", GP_NAME_MAPPED},
    {{"b200"}, {NULL}, "b200", "b200", GP_NAME_MAPPED},
    {{"mi355x"}, {NULL}, "mi355x", "mi355x", GP_NAME_MAPPED},
    {{"mi350x"}, {NULL}, "mi350x", "mi350x", GP_NAME_MAPPED},
    {{"mi325x"}, {NULL}, "mi325x", "mi325x", GP_NAME_MAPPED},
    {{"mi300x"}, {NULL}, "mi300x", "mi300x", GP_NAME_MAPPED},
    {{"mi300a"}, {NULL}, "mi300a", "mi300a", GP_NAME_OUT_OF_SCOPE},
    {{"mi250"}, {NULL}, "mi250", "mi250", GP_NAME_OUT_OF_SCOPE},
    {{"mi210"}, {NULL}, "mi210", "mi210", GP_NAME_OUT_OF_SCOPE},
    {{"a100"}, {NULL}, "a100", "a100", GP_NAME_OUT_OF_SCOPE},
    {{"a10g"}, {NULL}, "a10g", "a10g", GP_NAME_OUT_OF_SCOPE},
    {{"l40"}, {NULL}, "l40", "l40", GP_NAME_OUT_OF_SCOPE},
    {{"v100"}, {NULL}, "v100", "v100", GP_NAME_OUT_OF_SCOPE},
    {{"rtx"}, {NULL}, "rtx", "rtx", GP_NAME_OUT_OF_SCOPE},
    /* Short names last: any GPU named before wins ("l40s" is an L40, "a100" an A100). */
    {{"l4"}, {NULL}, "l4", "l4", GP_NAME_OUT_OF_SCOPE},
    {{"a10"}, {NULL}, "a10", "a10", GP_NAME_OUT_OF_SCOPE},
};

static void lower_copy(char *out, size_t size, const char *in)
{
    size_t i = 0;
    for (; in[i] && i + 1 < size; i++)
        out[i] = (char)tolower((unsigned char)in[i]);
    out[i] = '\0';
}

static int rule_matches(const struct token_rule *rule, const char *name)
{
    for (int i = 0; i < 3 && rule->all[i]; i++)
        if (!strstr(name, rule->all[i]))
            return 0;
    for (int i = 0; i < 2 && rule->none[i]; i++)
        if (strstr(name, rule->none[i]))
            return 0;
    return 1;
}

/* Read a GPU count of 1..72 at `p` (digits not followed by more digits or "gb"). */
static int count_at(const char *p)
{
    char *end;
    long n;

    if (!isdigit((unsigned char)*p))
        return 0;
    n = strtol(p, &end, 10);
    if (n < 1 || n > 72 || strncmp(end, "gb", 2) == 0 || isdigit((unsigned char)*end))
        return 0;
    return (int)n;
}

/* The GPU count a name spells: "h100x8", "mi300x8", "gpu_8x_h100", "8-h100", "bm.gpu.h100.8". */
static int gpu_count(const char *name, const char *model)
{
    const char *at = strstr(name, model);
    const char *after, *dot;
    int n;

    if (!at)
        return 0;
    after = at + strlen(model);
    n = count_at(after[0] == 'x' ? after + 1 : after);
    if (n)
        return n;
    for (const char *p = at - 1; p >= name && p >= at - 4; p--) {
        if (!isdigit((unsigned char)*p))
            continue;
        const char *start = p;
        while (start > name && isdigit((unsigned char)start[-1]))
            start--;
        if ((p[1] == 'x' || p[1] == '-' || p[1] == '_') &&
            (start == name || !isalnum((unsigned char)start[-1])))
            return count_at(start);
        break;
    }
    dot = strrchr(name, '.');
    if (dot && dot > at && gp_text_starts_with(name, "bm.gpu."))
        return count_at(dot + 1);
    return 0;
}

enum gp_name_match gp_normalize_gpu_name(struct gp_gpu_name *out, const char *provider,
                                         const char *name)
{
    char lower[256];

    memset(out, 0, sizeof(*out));
    for (size_t i = 0; provider && i < sizeof(exact_names) / sizeof(exact_names[0]); i++) {
        const struct exact_name *e = &exact_names[i];
        if (strcmp(e->provider, provider) == 0 && gp_text_ieq(e->name, name)) {
            snprintf(out->gpu_id, sizeof(out->gpu_id), "%s", e->gpu_id);
            out->gpu_count = e->gpu_count;
            return e->match;
        }
    }
    lower_copy(lower, sizeof(lower), name);
    /* Azure's NC-series H100 VMs are H100 NVL whatever else the name says. */
    if (provider && strcmp(provider, "azure") == 0 && strstr(lower, "standard_nc") &&
        strstr(lower, "h100")) {
        snprintf(out->gpu_id, sizeof(out->gpu_id), "h100-nvl");
        return GP_NAME_OUT_OF_SCOPE;
    }
    for (size_t i = 0; i < sizeof(token_rules) / sizeof(token_rules[0]); i++) {
        const struct token_rule *rule = &token_rules[i];
        if (!rule_matches(rule, lower))
            continue;
        snprintf(out->gpu_id, sizeof(out->gpu_id), "%s", rule->gpu_id);
        out->gpu_count = gpu_count(lower, rule->model);
        return rule->match;
    }
    return GP_NAME_UNKNOWN;
}

int gp_normalize_price(struct gp_offer *offer, const struct gp_fx_table *fx)
{
    double per_usd = 0, usd;

    if (!isfinite(offer->amount) || offer->amount <= 0)
        return gp_error_set(GP_EINVALID, "price %g is not a positive amount", offer->amount);
    if (offer->gpus_per_instance < 1 || offer->gpus_per_instance > 72)
        return gp_error_set(GP_EINVALID, "GPU count %d is outside 1..72", offer->gpus_per_instance);
    if (gp_fx_per_usd(fx, offer->currency, offer->observed_at, &per_usd))
        return gp_error_set(GP_EINVALID, "unknown currency '%s'", offer->currency);
    usd = offer->amount / per_usd;
    if (offer->unit == GP_UNIT_INSTANCE_HOUR)
        usd /= offer->gpus_per_instance;
    if (!(usd >= GP_PRICE_MIN_USD && usd <= GP_PRICE_MAX_USD))
        return gp_error_set(GP_EINVALID,
                            "price %.4g USD per GPU-hour is outside the believable range "
                            "%.2f..%.0f",
                            usd, GP_PRICE_MIN_USD, GP_PRICE_MAX_USD);
    offer->usd_per_gpu_hour = usd;
    offer->usd_per_instance_hour = usd * offer->gpus_per_instance;
    return 0;
}
