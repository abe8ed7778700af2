/* Reading a citation's words as a quantity and checking a catalog figure against it. */
#include "catalog/citations.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a figure measures; rates of bytes and of bits are one quantity (GB/s). */
enum quantity { Q_FLOPS, Q_BYTES, Q_RATE, Q_POWER, Q_COUNT, Q_MONEY };

/* How many GPUs a figure, or a cited value, is counted over. */
enum basis { PER_GPU, PER_NODE, PER_RACK };

struct unit {
    const char *name;
    enum quantity quantity;
    double base; /* the unit in its quantity's base: TFLOP/s, GB, GB/s, W, GPUs, USD */
};

static const struct unit units[] = {
    {"EFLOPS", Q_FLOPS, 1e6}, {"PFLOPS", Q_FLOPS, 1e3},
    {"TFLOPS", Q_FLOPS, 1.0}, {"GFLOPS", Q_FLOPS, 1e-3},
    {"POPS", Q_FLOPS, 1e3},   {"TOPS", Q_FLOPS, 1.0},
    {"TB", Q_BYTES, 1e3},     {"TiB", Q_BYTES, 1099.511627776},
    {"GB", Q_BYTES, 1.0},     {"GiB", Q_BYTES, 1.073741824},
    {"MB", Q_BYTES, 1e-3},    {"MiB", Q_BYTES, 1.048576e-3},
    {"TB/s", Q_RATE, 1e3},    {"GB/s", Q_RATE, 1.0},
    {"Tb/s", Q_RATE, 125.0},  {"Gb/s", Q_RATE, 0.125},
    {"MW", Q_POWER, 1e6},     {"kW", Q_POWER, 1e3},
    {"W", Q_POWER, 1.0},      {"GPUs", Q_COUNT, 1.0},
    {"USD", Q_MONEY, 1.0},
};

struct figure_kind {
    enum quantity quantity;
    double scale;      /* the quantity's base in the figure's unit */
    enum basis basis;  /* what the figure counts over */
    bool both_ways;    /* a link figure that counts both directions */
    bool one_way_rate; /* a link figure that counts one direction */
};

static struct figure_kind kind_of(enum gp_figure f)
{
    if ((int)f < GP_PRECISION_COUNT)
        return (struct figure_kind){Q_FLOPS, 1.0, PER_GPU, false, false};
    switch (f) {
    case GP_FIGURE_HBM_GB:
        return (struct figure_kind){Q_BYTES, 1.0, PER_GPU, false, false};
    case GP_FIGURE_HBM_TBS:
        return (struct figure_kind){Q_RATE, 1e-3, PER_GPU, false, false};
    case GP_FIGURE_TDP_W:
        return (struct figure_kind){Q_POWER, 1.0, PER_GPU, false, false};
    case GP_FIGURE_SCALEUP_GBS:
        return (struct figure_kind){Q_RATE, 1.0, PER_GPU, true, false};
    case GP_FIGURE_SCALEOUT_GBPS:
        return (struct figure_kind){Q_RATE, 8.0, PER_GPU, false, true};
    case GP_FIGURE_GPUS_PER_NODE:
        return (struct figure_kind){Q_COUNT, 1.0, PER_NODE, false, false};
    case GP_FIGURE_NODE_OVERHEAD_W:
        return (struct figure_kind){Q_POWER, 1.0, PER_NODE, false, false};
    case GP_FIGURE_LLC_MB:
        return (struct figure_kind){Q_BYTES, 1e3, PER_GPU, false, false};
    case GP_FIGURE_CAPEX_USD:
        return (struct figure_kind){Q_MONEY, 1.0, PER_GPU, false, false};
    case GP_FIGURE_RACK_GPUS:
        return (struct figure_kind){Q_COUNT, 1.0, PER_RACK, false, false};
    default: /* GP_FIGURE_RACK_KW */
        return (struct figure_kind){Q_POWER, 1e-3, PER_RACK, false, false};
    }
}

double gp_gpu_figure(const struct gp_gpu *g, enum gp_figure f)
{
    if ((int)f < GP_PRECISION_COUNT)
        return g->peak_tflops[f];
    switch (f) {
    case GP_FIGURE_HBM_GB:
        return g->hbm_gb;
    case GP_FIGURE_HBM_TBS:
        return g->hbm_tbs;
    case GP_FIGURE_TDP_W:
        return g->tdp_w;
    case GP_FIGURE_SCALEUP_GBS:
        return g->scaleup_gbs;
    case GP_FIGURE_SCALEOUT_GBPS:
        return g->scaleout_gbps;
    case GP_FIGURE_GPUS_PER_NODE:
        return g->gpus_per_node;
    case GP_FIGURE_NODE_OVERHEAD_W:
        return g->node_overhead_w;
    case GP_FIGURE_LLC_MB:
        return g->llc_mb;
    case GP_FIGURE_CAPEX_USD:
        return g->capex_usd;
    case GP_FIGURE_RACK_GPUS:
        return g->rack.gpus;
    default:
        return g->rack.kw;
    }
}

static const struct unit *find_unit(const char *name)
{
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(units[i].name, name) == 0)
            return &units[i];
    return NULL;
}

/* GPUs of basis `b` for entry `g`; 0 when the entry does not know it. */
static double basis_gpus(enum basis b, const struct gp_gpu *g)
{
    return b == PER_GPU ? 1.0 : b == PER_NODE ? g->gpus_per_node : g->rack.gpus;
}

/* What the words after the unit say. */
struct qualifiers {
    int sparse;    /* -1 unsaid, 0 dense, 1 sparse */
    int direction; /* -1 unsaid, 0 one way, 1 both ways */
    double per;    /* GPUs the value counts over; 0: the figure's own basis */
};

static int fail(char *why, size_t size, const char *fmt, const char *word)
{
    snprintf(why, size, fmt, word);
    return -1;
}

/* The words from `cursor` on (strtok-split copy), into q. */
static int read_qualifiers(char *cursor, const struct gp_gpu *g, struct qualifiers *q, char *why,
                           size_t size)
{
    char *save = NULL;

    *q = (struct qualifiers){-1, -1, 0.0};
    for (char *w = strtok_r(cursor, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (!strcmp(w, "dense") || !strcmp(w, "sparse")) {
            q->sparse = w[0] == 's';
        } else if (!strcmp(w, "one-way") || !strcmp(w, "bidirectional")) {
            q->direction = w[0] == 'b';
        } else if (!strcmp(w, "per")) {
            char *what = strtok_r(NULL, " ", &save), *end = NULL;
            if (!what)
                return fail(why, size, "\"per\" needs gpu, node, rack or N gpus%s", "");
            if (!strcmp(what, "gpu"))
                q->per = 1.0;
            else if (!strcmp(what, "node"))
                q->per = basis_gpus(PER_NODE, g);
            else if (!strcmp(what, "rack") && !(q->per = basis_gpus(PER_RACK, g)))
                return fail(why, size, "says \"per rack\" but the entry has no rack.gpus%s", "");
            else if (strcmp(what, "rack")) {
                double n = strtod(what, &end);
                char *gpus = strtok_r(NULL, " ", &save);
                if (end == what || *end || !(n >= 1) || !gpus || strcmp(gpus, "gpus"))
                    return fail(why, size, "unknown basis 'per %s'", what);
                q->per = n;
            }
        } else {
            return fail(why, size, "unknown word '%s'", w);
        }
    }
    return 0;
}

/* Bring a cited value in the figure's quantity base to the figure's basis and direction. */
static int to_figure(double *v, const struct qualifiers *q, const struct figure_kind *k,
                     enum gp_figure f, const struct gp_gpu *g, char *why, size_t size)
{
    bool peak = (int)f < GP_PRECISION_COUNT;
    double own = basis_gpus(k->basis, g);

    if (peak && q->sparse < 0)
        return fail(why, size, "a peak must say dense or sparse%s", "");
    if (!peak && q->sparse >= 0)
        return fail(why, size, "only a peak is dense or sparse%s", "");
    if (q->direction >= 0 && !k->both_ways && !k->one_way_rate)
        return fail(why, size, "only a link is one-way or bidirectional%s", "");
    if (q->sparse == 1)
        *v /= 2.0;
    if (k->both_ways && q->direction == 0)
        *v *= 2.0;
    if (k->one_way_rate && q->direction == 1)
        *v /= 2.0;
    if (q->per > 0) {
        if (!(own > 0))
            return fail(why, size, "the entry lacks the GPUs its figure counts over%s", "");
        *v = *v / q->per * own;
    }
    *v *= k->scale;
    return 0;
}

int gp_citation_value(const char *says, enum gp_figure f, const struct gp_gpu *g, double *value,
                      char *why, size_t size)
{
    char copy[sizeof(((struct gp_citation *)0)->says)], *save = NULL, *end = NULL;
    struct figure_kind k = kind_of(f);
    const struct unit *u;
    struct qualifiers q;

    if (strlen(says) >= sizeof(copy))
        return fail(why, size, "is too long%s", "");
    strcpy(copy, says);
    char *number = strtok_r(copy, " ", &save), *unit = strtok_r(NULL, " ", &save);
    double v = number ? strtod(number, &end) : 0.0;
    if (!number || end == number || *end || !isfinite(v) || v < 0)
        return fail(why, size, "must start with a number, not '%s'", number ? number : "");
    if (!unit || !(u = find_unit(unit)))
        return fail(why, size, "unknown unit '%s'", unit ? unit : "");
    if (u->quantity != k.quantity) {
        snprintf(why, size, "'%s' is not a unit of %s", unit, gp_figure_name(f));
        return -1;
    }
    if (read_qualifiers(save ? save : copy + strlen(copy), g, &q, why, size))
        return -1;
    v *= u->base;
    if (to_figure(&v, &q, &k, f, g, why, size))
        return -1;
    *value = v;
    return 0;
}

int gp_citation_check(const struct gp_citation *c, const struct gp_gpu *g, char *why, size_t size)
{
    double cited, figure = gp_gpu_figure(g, c->figure);

    if (!c->says[0])
        return 0;
    if (gp_citation_value(c->says, c->figure, g, &cited, why, size))
        return -1;
    if (fabs(cited - figure) <= GP_CITATION_TOLERANCE * fmax(fabs(figure), fabs(cited)))
        return 0;
    snprintf(why, size, "says \"%s\", which is %.6g, but the figure is %.6g", c->says, cited,
             figure);
    return -1;
}
