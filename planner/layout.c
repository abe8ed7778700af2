/* Inference layouts: degrees, names and the text form "tep8". */
#include "planner/layout.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static const char *const names[GP_LAYOUT_COUNT] = {
    [GP_LAYOUT_CHOOSE] = "choose", [GP_LAYOUT_TP] = "tp",   [GP_LAYOUT_DEP] = "dep",
    [GP_LAYOUT_TEP] = "tep",       [GP_LAYOUT_DPA] = "dpa",
};

const enum gp_layout gp_layout_searched[GP_LAYOUT_SEARCHED] = {GP_LAYOUT_TP, GP_LAYOUT_TEP,
                                                               GP_LAYOUT_DEP, GP_LAYOUT_DPA};

void gp_layout_shape(struct gp_layout_shape *out, enum gp_layout scheme, int gpus)
{
    bool attention_split = scheme != GP_LAYOUT_DEP && scheme != GP_LAYOUT_DPA;
    bool experts_spread = scheme == GP_LAYOUT_DEP || scheme == GP_LAYOUT_TEP;

    out->scheme = scheme == GP_LAYOUT_CHOOSE ? GP_LAYOUT_TP : scheme;
    out->gpus = gpus;
    out->attention_tp = attention_split ? gpus : 1;
    out->attention_dp = attention_split ? 1 : gpus;
    out->expert_ep = experts_spread ? gpus : 1;
    out->expert_tp = experts_spread ? 1 : gpus;
}

const char *gp_layout_name(enum gp_layout scheme)
{
    return (unsigned)scheme < GP_LAYOUT_COUNT ? names[scheme] : "?";
}

void gp_layout_format(char *out, size_t size, enum gp_layout scheme, int gpus)
{
    if (scheme == GP_LAYOUT_CHOOSE || gpus <= 0)
        snprintf(out, size, "%s", gp_layout_name(scheme));
    else
        snprintf(out, size, "%s%d", gp_layout_name(scheme), gpus);
}

int gp_layout_parse(const char *text, enum gp_layout *scheme, int *gpus)
{
    static const char accepted[] =
        "must be tp, dep, tep or dpa, optionally followed by a power of two of GPUs up to "
        "64 (\"tep8\", \"dep64\"), or choose";

    if (strcmp(text, "choose") == 0) {
        *scheme = GP_LAYOUT_CHOOSE;
        *gpus = 0;
        return 0;
    }
    for (int s = GP_LAYOUT_TP; s < GP_LAYOUT_COUNT; s++) {
        size_t n = strlen(names[s]);
        const char *digits = text + n;
        int count = 0;
        if (strncmp(text, names[s], n) != 0)
            continue;
        /* at most two digits, no leading zero: a power of two from 1 to GP_LAYOUT_MAX_GPUS */
        for (const char *d = digits; *d && count <= GP_LAYOUT_MAX_GPUS; d++)
            count = *d >= '0' && *d <= '9' && d - digits < 2 ? count * 10 + (*d - '0')
                                                             : GP_LAYOUT_MAX_GPUS + 1;
        if (*digits && (digits[0] == '0' || count > GP_LAYOUT_MAX_GPUS || (count & (count - 1))))
            continue;
        *scheme = (enum gp_layout)s;
        *gpus = count;
        return 0;
    }
    return gp_error_set(GP_EINVALID, "'%s' is not a layout: %s", text, accepted);
}

int gp_layout_valid_for(enum gp_layout scheme, int gpus, int experts)
{
    if (scheme == GP_LAYOUT_CHOOSE || scheme == GP_LAYOUT_TP)
        return 1;
    return experts > 1 && gpus != 1;
}
