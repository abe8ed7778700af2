/* Runs the planner on published measurements and checks the error of each case class against
 * tests/validation/tolerances.csv: inference throughput per GPU (inference.csv) and training
 * time relative to an anchor row of the same benchmark (training.csv) and system power
 * (power.csv), each case with the software stack profile it was measured with. From the same
 * errors it derives the uncertainty band of every band class and checks that data/bands.json holds
 * exactly those bands
 * (--write-bands prints the file instead). --markdown prints the tables docs/accuracy.md
 * carries. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "planner/bands.h"
#include "planner/efficiency.h"
#include "planner/fleet.h"
#include "planner/model.h"
#include "planner/stack.h"
#include "planner/workload.h"
#include "tests/validation/band_evidence.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/text.h"
#include "util/timeutil.h"

#define MAX_FIELDS  24
#define MAX_CASES   256
#define MAX_CLASSES 16
/* Share of each band class's cases its band must hold. */
#define BAND_COVERAGE 0.8
/* How far data/bands.json may be from the bands the errors give (it is written rounded). */
#define BAND_SLACK 0.0051
/* A band class with two publications or more must hold its cases when one whole publication is
 * left out as it does one case at a time (BAND_COVERAGE), with bands at most this wide (high /
 * low) at the median. */
#define BAND_LOSO_MAX_WIDTH 2.0

struct tolerance {
    char name[32];
    double max_abs;    /* largest allowed |error| of one case */
    double max_median; /* largest allowed median |error| of the class */
    bool in_band;      /* its cases derive the bands; else they only date the evidence (drift) */
    double errors[MAX_CASES];
    size_t count;
};

/* Every case of one band class. */
struct band_cases {
    struct band_case c[MAX_CASES];
    size_t count;
};

/* Everything the checks share. */
struct harness {
    struct gp_catalog cat;
    struct gp_efficiency_table effs;
    struct gp_model_table models;
    struct gp_stack_table stacks;
    struct gp_bands bands; /* data/bands.json as shipped */
    struct tolerance classes[MAX_CLASSES];
    size_t nclass;
    struct band_cases band[GP_BAND_COUNT];
    struct band_cases dated[GP_BAND_COUNT]; /* cases of tolerance classes outside the bands:
                                               engine spread and evidence drift only */
    double all[MAX_CASES];                  /* |error| of every inference case */
    size_t nall;
    bool markdown;
    bool quiet; /* --write-bands: print only the file */
};

/* printf unless the harness is quiet. */
static void say(const struct harness *h, const char *fmt, ...) GP_PRINTF(2, 3);

static void say(const struct harness *h, const char *fmt, ...)
{
    va_list ap;

    if (h->quiet)
        return;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

/* Split one CSV line (no quoting) in place; returns the field count. */
static int split(char *line, char **fields)
{
    int n = 0;
    char *p = line;

    for (;;) {
        if (n == MAX_FIELDS)
            return -1;
        fields[n++] = p;
        p = strchr(p, ',');
        if (!p)
            return n;
        *p++ = '\0';
    }
}

static int load_data(struct gp_buf *buf, const char *rel)
{
    char origin[256];
    gp_buf_init(buf, 1 << 20);
    return gp_data_read(buf, rel, origin, sizeof(origin));
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof(*v), compare_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static int parse_tolerances(char *text, struct harness *h)
{
    char *fields[MAX_FIELDS], *save = NULL;
    int line = 0;

    h->nclass = 0;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (line++ == 0)
            continue;
        if (split(l, fields) < 4 || h->nclass == MAX_CLASSES)
            return -1;
        struct tolerance *t = &h->classes[h->nclass++];
        memset(t, 0, sizeof(*t));
        gp_text_copy(t->name, sizeof(t->name), fields[0]);
        if (gp_text_to_double(fields[1], &t->max_abs) ||
            gp_text_to_double(fields[2], &t->max_median) ||
            (strcmp(fields[3], "yes") && strcmp(fields[3], "no")))
            return -1;
        t->in_band = strcmp(fields[3], "yes") == 0;
    }
    return 0;
}

static struct tolerance *find_class(struct harness *h, const char *name)
{
    for (size_t c = 0; c < h->nclass; c++)
        if (strcmp(h->classes[c].name, name) == 0)
            return &h->classes[c];
    return NULL;
}

/* The efficiencies of `gpu` with stack profile `name`, which must run on the GPU's vendor. */
static int case_efficiency(struct gp_efficiency *eff, const struct harness *h,
                           const struct gp_gpu *gpu, const char *name)
{
    const struct gp_stack *s = gp_stack_find(&h->stacks, name);

    if (!s || !s->vendors[gpu->vendor])
        return -1;
    gp_efficiency_resolve(eff, &h->effs, gpu->id);
    gp_stack_apply(eff, &h->stacks, s);
    return 0;
}

/* "0" (choose), "2" (tensor parallel 2) or a layout as engines name it: "dep4", "tep8". */
static int parse_parallel(const char *s, struct gp_inference *in)
{
    double n = 0;

    if (gp_text_to_double(s, &n) == 0) {
        in->layout = n > 0 ? GP_LAYOUT_TP : GP_LAYOUT_CHOOSE;
        in->layout_gpus = (int)n;
        return 0;
    }
    return gp_layout_parse(s, &in->layout, &in->layout_gpus) ? -1 : 0;
}

/* What a band case is besides its ratio: its publication, conditions and evidence date. */
struct case_origin {
    const char *url;   /* the row's source */
    const char *stack; /* the profile it was planned with */
    char key[BAND_KEY_MAX], hardware[BAND_KEY_MAX];
};

/* Years since 1970 of a profile's as_of date; 0 when it has none. */
static double evidence_years(const struct harness *h, const char *stack)
{
    const struct gp_stack *s = gp_stack_find(&h->stacks, stack);
    int64_t t = 0;

    if (!s || gp_time_parse(s->as_of, &t))
        return 0.0;
    return (double)t / (365.25 * 86400.0);
}

/* Record a case's measured/predicted ratio and origin under its band class, or among the
 * dated cases when its tolerance class stays out of the bands (`t` NULL: in). */
static void add_band_case(struct harness *h, int cls, double measured, double predicted,
                          const struct case_origin *o, const struct tolerance *t)
{
    if (cls < 0 || !(predicted > 0))
        return;
    struct band_cases *b = t && !t->in_band ? &h->dated[cls] : &h->band[cls];
    if (b->count == MAX_CASES)
        return;
    struct band_case *c = &b->c[b->count++];
    c->ratio = measured / predicted;
    band_source_of(c->source, sizeof(c->source), o->url);
    gp_text_copy(c->key, sizeof(c->key), o->key);
    gp_text_copy(c->hardware, sizeof(c->hardware), o->hardware);
    gp_text_copy(c->stack, sizeof(c->stack), o->stack);
    c->as_of_years = evidence_years(h, o->stack);
}

/* One inference case: plan it with target max and compare tokens/s per GPU. Returns 1 when
 * out of tolerance, 0 when within, -1 on a malformed line. */
static int inference_case(struct harness *h, char **f, const char *file, int line)
{
    struct gp_workload w;
    const struct gp_gpu *gpu = NULL;
    const struct gp_model_arch *arch = gp_model_table_find(&h->models, f[4]);
    struct gp_efficiency eff;
    struct gp_perf perf;
    struct tolerance *cls = find_class(h, f[1]);
    double measured = 0, batch = 0;
    int prec = gp_precision_parse(f[5]), kv = gp_precision_parse(f[6]);

    memset(&w, 0, sizeof(w));
    if (!cls || !arch || prec < 0 || kv < 0 || gp_catalog_require(&h->cat, f[2], &gpu) ||
        case_efficiency(&eff, h, gpu, f[3]) || gp_text_to_double(f[7], &w.inference.input_tokens) ||
        gp_text_to_double(f[8], &w.inference.output_tokens) || parse_parallel(f[9], &w.inference) ||
        gp_text_to_double(f[10], &w.inference.ttft_ms) ||
        gp_text_to_double(f[11], &w.inference.tpot_ms) || gp_text_to_double(f[12], &batch) ||
        gp_text_to_double(f[13], &measured)) {
        fprintf(stderr, "%s:%d: bad case %s\n", file, line, f[0]);
        return -1;
    }
    gp_text_copy(w.name, sizeof(w.name), f[0]);
    w.kind = GP_WORKLOAD_INFERENCE;
    w.model = *arch;
    w.inference.precision = (enum gp_precision)prec;
    w.inference.kv_precision = (enum gp_precision)kv;
    w.inference.load = GP_LOAD_MAX;
    w.inference.max_batch = (int)batch;
    if (gp_workload_validate(&w)) {
        fprintf(stderr, "%s:%d: %s\n", file, line, gp_error_last());
        return -1;
    }
    gp_model_evaluate(&perf, &w, gpu, &eff, 1.0, 0);
    int gpus = perf.replica_gpus;
    double predicted = perf.feasible ? perf.replica_rate / gpus : 0.0;
    char layout[GP_LAYOUT_TEXT_MAX];
    gp_layout_format(layout, sizeof(layout), perf.layout, perf.replica_gpus);
    double error = (predicted - measured) / measured;
    bool bad = !perf.feasible || fabs(error) > cls->max_abs;
    cls->errors[cls->count++] = fabs(error);
    h->all[h->nall++] = fabs(error);
    struct case_origin origin = {.url = f[14], .stack = f[3]};
    snprintf(origin.key, sizeof(origin.key), "%s|%s|%s|%s|%s|%s|%s", f[2], f[4], f[5], f[6], f[7],
             f[8], f[12]);
    snprintf(origin.hardware, sizeof(origin.hardware), "%s|%s", f[2], f[4]);
    add_band_case(h, gp_band_class_of(&w, gpus, gpu->gpus_per_node), measured, predicted, &origin,
                  cls);
    if (h->markdown)
        say(h, "| %s | %s | %s | %s | %s/%s | %s | %.0f | %.0f | %+.1f%% |\n", f[0], gpu->id, f[3],
            gp_precision_name(perf.precision), f[7], f[8], f[9], measured, predicted,
            error * 100.0);
    else
        say(h,
            "%-28s %-9s %-18s %-5s batch=%-5d %-7s measured %8.1f predicted %8.1f "
            "error %+6.1f%%%s\n",
            f[0], gpu->id, f[3], layout, perf.batch, gp_bound_name(perf.bound), measured, predicted,
            error * 100.0, bad ? "  OUT OF TOLERANCE" : "");
    return bad;
}

/* One case of a file: 1 out of tolerance, 0 within, -1 malformed. */
typedef int (*case_fn)(struct harness *h, char **f, const char *file, int line);

/* Every line after the header through `fn`, each with `fields` fields; returns the cases out
 * of tolerance or -1. */
static int check_rows(struct harness *h, char *text, const char *file, int fields, case_fn fn)
{
    char *save = NULL, *f[MAX_FIELDS];
    int line = 0, failures = 0;

    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (line++ == 0)
            continue;
        if (split(l, f) != fields || h->nall == MAX_CASES) {
            fprintf(stderr, "%s:%d: expected %d fields\n", file, line, fields);
            return -1;
        }
        int rc = fn(h, f, file, line);
        if (rc < 0)
            return -1;
        failures += rc;
    }
    return failures;
}

static int check_inference(struct harness *h, char *text, const char *file)
{
    if (h->markdown)
        say(h, "| case | GPU | stack | precision | ISL/OSL | parallel | measured tok/s/GPU | "
               "predicted | error |\n|---|---|---|---|---|---|---:|---:|---:|\n");
    return check_rows(h, text, file, 16, inference_case);
}

/* One training row's predicted time, hours (0 when the model cannot plan it). */
struct training_case {
    char id[48];
    double predicted; /* hours */
    double measured;  /* minutes */
};

/* Plan one training row; the token count cancels in the ratios, any value does. */
static int training_plan(struct harness *h, char **f, struct gp_perf *perf,
                         const struct gp_gpu **gpu)
{
    const struct gp_model_arch *arch = gp_model_table_find(&h->models, f[5]);
    struct gp_workload w;
    struct gp_efficiency eff;
    double gpus = 0, seq = 0, batch = 0, recompute = 0, optim = 0, zero = 0, trainable = 0;
    double critical = 0;
    int prec = gp_precision_parse(f[6]);

    memset(&w, 0, sizeof(w));
    if (!arch || prec < 0 || gp_catalog_require(&h->cat, f[3], gpu) ||
        case_efficiency(&eff, h, *gpu, f[4]) || gp_text_to_double(f[7], &gpus) ||
        gp_text_to_double(f[8], &seq) || gp_text_to_double(f[9], &batch) ||
        gp_text_to_double(f[10], &recompute) || gp_text_to_double(f[11], &optim) ||
        gp_text_to_double(f[12], &zero) || gp_text_to_double(f[13], &trainable) ||
        gp_text_to_double(f[14], &critical))
        return -1;
    w.kind = GP_WORKLOAD_TRAINING;
    gp_text_copy(w.name, sizeof(w.name), f[0]);
    w.model = *arch;
    w.training = (struct gp_training){.precision = (enum gp_precision)prec,
                                      .tokens = 1e9,
                                      .gpus = (int)gpus,
                                      .recompute = recompute != 0,
                                      .optimizer_bytes = optim,
                                      .zero_stage = (int)zero,
                                      .trainable_fraction = trainable,
                                      .seq_len = (int)seq,
                                      .micro_batch = 1,
                                      .global_batch_tokens = batch,
                                      .critical_batch_tokens = critical};
    if (gp_workload_validate(&w))
        return -1;
    gp_model_evaluate(perf, &w, *gpu, &eff, 1.0, 0);
    return 0;
}

/* Print one training row and record its error; returns 1 when out of tolerance. */
static int training_row(struct harness *h, char **f, const struct gp_gpu *gpu,
                        const struct gp_perf *perf, const struct training_case *tc,
                        const struct training_case *anchor)
{
    struct tolerance *cls = find_class(h, f[1]);
    double measured = tc->measured / anchor->measured;
    double predicted = tc->predicted / anchor->predicted;
    double error = predicted / measured - 1.0;
    bool bad = cls && (!(tc->predicted > 0) || fabs(error) > cls->max_abs);
    double gpus = atof(f[7]);

    if (cls)
        cls->errors[cls->count++] = fabs(error);
    /* Time ratios: the throughput ratio measured/predicted is predicted/measured time. */
    struct case_origin origin = {.url = f[16], .stack = f[4]};
    snprintf(origin.key, sizeof(origin.key), "%s|%s|%s", f[3], f[5], f[7]);
    snprintf(origin.hardware, sizeof(origin.hardware), "%s|%s", f[3], f[5]);
    add_band_case(h, gpus > gpu->gpus_per_node ? GP_BAND_TRAINING_SCALE : GP_BAND_TRAINING_NODE,
                  predicted, measured, &origin, cls);
    if (h->markdown)
        say(h, "| %s | %s | %.0f | %s | %.3f | %.3f | %+.1f%%%s |\n", f[0], gpu->id, gpus, f[2],
            measured, predicted, error * 100.0, cls ? "" : " (not checked)");
    else
        say(h,
            "%-18s %-9s %6.0f GPUs tp=%d cp=%d pp=%d mfu=%.3f vs %-14s measured x%.3f "
            "predicted x%.3f error %+6.1f%%%s\n",
            f[0], gpu->id, gpus, perf->tp, perf->cp, perf->pp, perf->mfu, f[2], measured, predicted,
            error * 100.0,
            !cls  ? "  (not checked)"
            : bad ? "  OUT OF TOLERANCE"
                  : "");
    return bad;
}

/*
 * Training rows: the token count a time-to-train run processes is not published, so each row is
 * compared with an anchor row of the same benchmark: predicted time ratio against measured
 * time ratio. Rows whose class has no tolerance are printed but not checked. Returns the number
 * of rows out of tolerance, or -1 on a malformed file.
 */
static int check_training(struct harness *h, char *text, const char *file)
{
    static struct training_case done[MAX_CASES];
    char *save = NULL, *f[MAX_FIELDS];
    size_t ndone = 0;
    int line = 0, failures = 0;

    if (h->markdown)
        say(h, "\n| case | GPU | GPUs | anchor | measured ratio | predicted ratio | error "
               "|\n|---|---|---:|---|---:|---:|---:|\n");
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        const struct gp_gpu *gpu = NULL;
        struct gp_perf perf;
        double minutes = 0;
        if (line++ == 0)
            continue;
        if (split(l, f) != 18 || ndone == MAX_CASES || training_plan(h, f, &perf, &gpu) ||
            gp_text_to_double(f[15], &minutes)) {
            fprintf(stderr, "%s:%d: bad case (18 fields expected): %s\n", file, line,
                    gp_error_last());
            return -1;
        }
        struct training_case *tc = &done[ndone++];
        gp_text_copy(tc->id, sizeof(tc->id), f[0]);
        tc->predicted = perf.feasible ? perf.train_hours : 0;
        tc->measured = minutes;
        if (!f[2][0])
            continue;
        const struct training_case *anchor = NULL;
        for (size_t i = 0; i + 1 < ndone; i++)
            if (strcmp(done[i].id, f[2]) == 0)
                anchor = &done[i];
        if (!anchor || !(anchor->predicted > 0)) {
            fprintf(stderr, "%s:%d: anchor %s missing or not plannable\n", file, line, f[2]);
            return -1;
        }
        failures += training_row(h, f, gpu, &perf, tc, anchor);
    }
    return failures;
}

/* One power row: the model's system power for the measured configuration (GPUs at their power
 * limit, target max, the node's overhead) against the measured average. Returns 1 when out of
 * tolerance, 0 within, -1 on a malformed line. */
static int power_case(struct harness *h, char **f, const char *file, int line)
{
    struct gp_workload w;
    struct gp_gpu capped;
    const struct gp_gpu *gpu = NULL;
    const struct gp_model_arch *arch = gp_model_table_find(&h->models, f[4]);
    struct gp_efficiency eff;
    struct gp_assumptions a;
    struct gp_price price = {.known = false};
    struct gp_plan_row row;
    struct tolerance *cls = find_class(h, f[1]);
    double gpus = 0, limit = 0, measured = 0;
    int prec = gp_precision_parse(f[5]), kv = gp_precision_parse(f[6]);

    memset(&w, 0, sizeof(w));
    if (!cls || !arch || prec < 0 || kv < 0 || gp_catalog_require(&h->cat, f[2], &gpu) ||
        case_efficiency(&eff, h, gpu, f[3]) || gp_text_to_double(f[7], &w.inference.input_tokens) ||
        gp_text_to_double(f[8], &w.inference.output_tokens) ||
        gp_text_to_double(f[9], &w.inference.ttft_ms) ||
        gp_text_to_double(f[10], &w.inference.tpot_ms) || gp_text_to_double(f[11], &gpus) ||
        gp_text_to_double(f[12], &limit) || gp_text_to_double(f[13], &measured)) {
        fprintf(stderr, "%s:%d: bad case %s\n", file, line, f[0]);
        return -1;
    }
    w.kind = GP_WORKLOAD_INFERENCE;
    w.model = *arch;
    w.inference.precision = (enum gp_precision)prec;
    w.inference.kv_precision = (enum gp_precision)kv;
    w.inference.load = GP_LOAD_MAX;
    capped = *gpu;
    capped.tdp_w = limit > 0 ? limit : gpu->tdp_w;
    gp_assumptions_init(&a);
    gp_plan_evaluate(&row, &w, &a, &capped, &eff, &price);
    double predicted = row.gpus > 0 ? row.it_kw * 1000.0 / row.gpus * gpus : 0.0;
    double error = (predicted - measured) / measured;
    bool bad = !(predicted > 0) || fabs(error) > cls->max_abs;
    cls->errors[cls->count++] = fabs(error);
    if (h->markdown)
        say(h, "| %s | %s | %.0f | %.0f W | %.0f W | %.0f W | %+.1f%% |\n", f[0], gpu->id, gpus,
            capped.tdp_w, measured, predicted, error * 100.0);
    else
        say(h,
            "%-28s %-9s %3.0f GPUs at %4.0f W measured %6.0f W predicted %6.0f W error "
            "%+6.1f%%%s\n",
            f[0], gpu->id, gpus, capped.tdp_w, measured, predicted, error * 100.0,
            bad ? "  OUT OF TOLERANCE" : "");
    return bad;
}

static int check_power(struct harness *h, char *text, const char *file)
{
    if (h->markdown)
        say(h, "\n| case | GPU | GPUs | power limit | measured system | predicted | error "
               "|\n|---|---|---:|---:|---:|---:|---:|\n");
    return check_rows(h, text, file, 16, power_case);
}

/* Print each class's median and worst error; returns the classes whose median is too large. */
static int report_classes(struct harness *h)
{
    int failures = 0;

    say(h, "\n");
    for (size_t c = 0; c < h->nclass; c++) {
        struct tolerance *t = &h->classes[c];
        if (t->count == 0)
            continue;
        double worst = 0;
        for (size_t i = 0; i < t->count; i++)
            worst = fmax(worst, t->errors[i]);
        double med = median(t->errors, t->count);
        bool bad = med > t->max_median;
        failures += bad;
        say(h,
            "%s%s: %zu cases, median |error| %.1f%% (limit %.0f%%), worst %.1f%% (limit "
            "%.0f%%)%s\n",
            h->markdown ? "- " : "", t->name, t->count, med * 100, t->max_median * 100, worst * 100,
            t->max_abs * 100, bad ? "  OUT OF TOLERANCE" : "");
    }
    if (h->nall)
        say(h, "%sall inference: %zu cases, median |error| %.1f%%\n", h->markdown ? "- " : "",
            h->nall, median(h->all, h->nall) * 100);
    return failures;
}

/* Whether class `c` has cases enough for a held-out band of its own: with one case left out,
 * the conformal order statistic must still exist. */
static bool band_alone(const struct harness *h, int c)
{
    size_t n = h->band[c].count;
    return n >= 2 && ceil(BAND_COVERAGE * (double)n - 1e-9) <= (double)(n - 1);
}

/* Serving classes pool with serving classes, training with training. */
static bool band_kind(int c)
{
    return c == GP_BAND_INFERENCE_DENSE || c == GP_BAND_INFERENCE_MOE;
}

/* Whether class `c`'s band draws on the cases of class `d`: its own, or, for a class too small
 * for a band of its own, every class of its kind. */
static bool band_pools(const struct harness *h, int c, int d)
{
    return c == d || (!band_alone(h, c) && band_kind(c) == band_kind(d));
}

/* The absolute log errors class `c`'s band is derived from, leaving out case `skip` of class
 * `c` (SIZE_MAX: none), into out[]; returns how many. */
static size_t band_errors(const struct harness *h, int c, size_t skip, double *out)
{
    size_t n = 0;

    for (int d = 0; d < GP_BAND_COUNT; d++) {
        if (!band_pools(h, c, d))
            continue;
        for (size_t i = 0; i < h->band[d].count; i++)
            if (!(d == c && i == skip) && n < MAX_CASES)
                out[n++] = fabs(log(h->band[d].c[i].ratio));
    }
    return n;
}

/* Coverage of one band class: the band from all its cases, and each case against the band
 * derived without it (leave-one-out). */
struct band_result {
    size_t cases, pooled;   /* the class's own cases; the cases its band is derived from */
    double q;               /* conformal half-width, log units; < 0: too few cases */
    size_t in, held;        /* own cases inside the band; inside their held-out band */
    double held_factor;     /* mean held-out band factor exp(q): prediction / f .. x f */
    double spread;          /* engine spread, log units (band_engine_spread) */
    size_t sources;         /* publications among the cases */
    size_t loso, loso_with; /* cases inside the band of the other sources; cases with one */
    double loso_width;      /* median high / low of those bands */
};

/* Engine spread of class `c`: over its cases and its dated ones. */
static double class_spread(const struct harness *h, int c)
{
    static struct band_case all[2 * MAX_CASES];
    size_t n = 0;

    for (size_t i = 0; i < h->band[c].count; i++)
        all[n++] = h->band[c].c[i];
    for (size_t i = 0; i < h->dated[c].count; i++)
        all[n++] = h->dated[c].c[i];
    return band_engine_spread(all, n);
}

static void band_measure(const struct harness *h, int c, struct band_result *out)
{
    const struct band_cases *b = &h->band[c];
    double e[MAX_CASES], q;

    memset(out, 0, sizeof(*out));
    out->cases = b->count;
    out->pooled = band_errors(h, c, SIZE_MAX, e);
    out->q = gp_bands_conformal(e, out->pooled, BAND_COVERAGE, &q) ? -1.0 : q;
    for (size_t i = 0; out->q >= 0 && i < b->count; i++) {
        double err = fabs(log(b->c[i].ratio));
        out->in += err <= out->q + 1e-12;
        if (gp_bands_conformal(e, band_errors(h, c, i, e), BAND_COVERAGE, &q))
            continue;
        out->held += err <= q + 1e-12;
        out->held_factor += exp(q) / (double)b->count;
    }
    out->spread = class_spread(h, c);
    band_leave_source_out(b->c, b->count, BAND_COVERAGE, out->spread, &out->loso, &out->loso_with,
                          &out->loso_width, &out->sources);
}

/* "82% of 33" for the leave-one-source-out coverage, or "one source only". Static storage. */
static const char *loso_text(const struct band_result *r)
{
    static char text[48];

    if (r->loso_with == 0)
        snprintf(text, sizeof(text), "one source only");
    else
        snprintf(text, sizeof(text), "%.0f%% of %zu",
                 100.0 * (double)r->loso / (double)r->loso_with, r->loso_with);
    return text;
}

/* Print one class's band, or its line of data/bands.json (`write`); returns 1 when the shipped
 * band differs, the held-out coverage is below BAND_COVERAGE, or, with a publication left out,
 * the coverage is below it or the median band wider than BAND_LOSO_MAX_WIDTH. */
static int band_report(const struct harness *h, int c, const struct band_result *r, bool write,
                       bool *first)
{
    const struct gp_band *shipped = &h->bands.band[c];
    const char *name = gp_band_class_name((enum gp_band_class)c);
    double lo = exp(-r->q), hi = exp(r->q), n = (double)r->cases;

    if (write) {
        printf("%s\n    {\"class\": \"%s\", \"low\": %.3f, \"high\": %.3f, \"cases\": %zu, "
               "\"engine_spread\": %.3f}",
               *first ? "" : ",", name, lo, hi, r->pooled, r->spread);
        *first = false;
        return 0;
    }
    bool differs = fabs(shipped->low - lo) > BAND_SLACK || fabs(shipped->high - hi) > BAND_SLACK ||
                   shipped->cases != (int)r->pooled ||
                   fabs(shipped->spread - r->spread) > BAND_SLACK;
    bool short_held = (double)r->held < BAND_COVERAGE * n - 1e-9;
    bool short_loso =
        r->loso_with > 0 && ((double)r->loso < BAND_COVERAGE * (double)r->loso_with - 1e-9 ||
                             r->loso_width > BAND_LOSO_MAX_WIDTH);
    printf(h->markdown ? "| %s | %zu | %zu | %.3f | %.3f | %.0f%% | %.0f%% | %.3f | %.3f | %zu | "
                         "%s | %.2f |%s%s%s\n"
                       : "band %s: %zu cases (band from %zu), low %.3f high %.3f, in band %.0f%%, "
                         "held out %.0f%%, mean held-out factor %.3f, engine spread %.3f; %zu "
                         "sources, leave-one-source-out %s, median width %.2fx%s%s%s\n",
           name, r->cases, r->pooled, lo, hi, 100.0 * (double)r->in / n,
           100.0 * (double)r->held / n, r->held_factor, r->spread, r->sources, loso_text(r),
           r->loso_width, differs ? "  data/bands.json DIFFERS (rerun with --write-bands)" : "",
           short_held ? "  HELD-OUT COVERAGE BELOW TARGET" : "",
           short_loso ? "  LEAVE-ONE-SOURCE-OUT BELOW TARGET" : "");
    return differs || short_held || short_loso;
}

/*
 * Derive each band class's conformal band from its cases and compare it with data/bands.json,
 * or print the file (`write`); report coverage in sample and held out, per class and over all
 * cases. Returns the number of failures: a band that differs from the file, or a held-out
 * coverage (per class or overall) below BAND_COVERAGE.
 */
/* Drift over every band case: pairs on the same GPU and model across evidence dates. */
static double evidence_drift(const struct harness *h, size_t *pairs)
{
    static struct band_case all[2 * GP_BAND_COUNT * MAX_CASES];
    size_t n = 0;

    for (int c = 0; c < GP_BAND_COUNT; c++)
        for (size_t i = 0; i < h->band[c].count; i++)
            all[n++] = h->band[c].c[i];
    for (int c = 0; c < GP_BAND_COUNT; c++)
        for (size_t i = 0; i < h->dated[c].count; i++)
            all[n++] = h->dated[c].c[i];
    return band_drift_per_year(all, n, pairs);
}

static int check_bands(struct harness *h, bool write)
{
    size_t cases = 0, in = 0, held = 0, loso = 0, loso_with = 0, pairs = 0;
    int failures = 0;
    bool first = true;
    double drift = evidence_drift(h, &pairs);

    if (write)
        printf("{\n  \"schema_version\": 1,\n  \"notes\": \"Written by validate_planner "
               "--write-bands from the errors of tests/validation; do not edit by hand. low and "
               "high multiply the central throughput: exp(-q) and exp(q), q the split-conformal "
               "quantile of |log(measured / predicted)| over the class's cases (a class with too "
               "few cases pools those of its kind); cases is how many. engine_spread is the "
               "median |log| ratio between engines on identical cases, added to q in quadrature; "
               "drift_per_year the median change of log error per year between evidence dates on "
               "the same GPU and model, added to q for each year a profile's evidence is "
               "old.\",\n  \"coverage\": %.2f,\n  \"drift_per_year\": %.3f,\n  \"bands\": [",
               BAND_COVERAGE, drift);
    else
        printf("%s\n", h->markdown ? "\n| band class | cases | band from | low | high | in band | "
                                     "held out | mean held-out factor | engine spread | sources | "
                                     "leave one source out | median width |\n"
                                     "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
                                   : "");
    for (int c = 0; c < GP_BAND_COUNT; c++) {
        struct band_result r;
        if (h->band[c].count == 0)
            continue;
        band_measure(h, c, &r);
        if (r.q < 0) {
            if (!write)
                printf("band %s: %zu cases, too few for a band\n",
                       gp_band_class_name((enum gp_band_class)c), r.cases);
            continue;
        }
        failures += band_report(h, c, &r, write, &first);
        cases += r.cases;
        in += r.in;
        held += r.held;
        loso += r.loso;
        loso_with += r.loso_with;
    }
    if (write) {
        printf("\n  ]\n}\n");
        return 0;
    }
    bool drift_differs = fabs(h->bands.drift_per_year - drift) > BAND_SLACK;
    printf("%sevidence drift: %.3f per year in log throughput, from %zu case pairs%s\n",
           h->markdown ? "\n- " : "", drift, pairs,
           drift_differs ? "  data/bands.json DIFFERS (rerun with --write-bands)" : "");
    printf("%sleave one source out: %zu of %zu cases inside the other sources' band (%.0f%%)\n",
           h->markdown ? "- " : "", loso, loso_with,
           loso_with ? 100.0 * (double)loso / (double)loso_with : 0.0);
    failures += drift_differs;
    bool short_held = cases == 0 || (double)held < BAND_COVERAGE * (double)cases - 1e-9;
    printf("%sall band classes: %zu cases, in band %.0f%%, held out %.0f%% (target %.0f%%)%s\n",
           h->markdown ? "\n- " : "", cases, cases ? 100.0 * (double)in / (double)cases : 0.0,
           cases ? 100.0 * (double)held / (double)cases : 0.0, 100.0 * BAND_COVERAGE,
           short_held ? "  HELD-OUT COVERAGE BELOW TARGET" : "");
    return failures + short_held;
}

static int load_all(struct harness *h)
{
    struct gp_buf eff = GP_BUF_INIT, mod = GP_BUF_INIT, st = GP_BUF_INIT, bd = GP_BUF_INIT;
    int rc = gp_catalog_load(&h->cat);

    if (!rc)
        rc = load_data(&eff, "efficiency.json");
    if (!rc)
        rc = gp_efficiency_table_parse(&h->effs, eff.data, eff.len, "efficiency.json");
    if (!rc)
        rc = load_data(&mod, "models.json");
    if (!rc)
        rc = gp_model_table_parse(&h->models, mod.data, mod.len, "models.json");
    if (!rc)
        rc = load_data(&st, "stacks.json");
    if (!rc)
        rc = gp_stack_table_parse(&h->stacks, st.data, st.len, "stacks.json");
    if (!rc)
        rc = load_data(&bd, "bands.json");
    if (!rc)
        rc = gp_bands_parse(&h->bands, bd.data, bd.len, "bands.json");
    gp_buf_release(&eff);
    gp_buf_release(&mod);
    gp_buf_release(&st);
    gp_buf_release(&bd);
    return rc;
}

int main(int argc, char **argv)
{
    static struct harness h;
    struct gp_buf cases = GP_BUF_INIT, training = GP_BUF_INIT, power = GP_BUF_INIT;
    struct gp_buf tols = GP_BUF_INIT;
    bool write = false;
    int rc = 1;

    for (int i = 5; i < argc; i++) {
        if (strcmp(argv[i], "--write-bands") == 0)
            write = true;
        else if (strcmp(argv[i], "--markdown") == 0)
            h.markdown = true;
        else if (strcmp(argv[i], "--data") == 0 && i + 1 < argc)
            gp_data_set_dir(argv[++i]);
        else
            argc = 0;
    }
    if (argc < 5) {
        fprintf(stderr, "usage: validate INFERENCE.csv TRAINING.csv POWER.csv TOLERANCES.csv "
                        "[--markdown | --write-bands] [--data DIR]\n");
        return 2;
    }
    gp_buf_init(&cases, 1 << 20);
    gp_buf_init(&training, 1 << 20);
    gp_buf_init(&power, 1 << 16);
    gp_buf_init(&tols, 1 << 16);
    if (gp_buf_read_file(&cases, argv[1]) || gp_buf_read_file(&training, argv[2]) ||
        gp_buf_read_file(&power, argv[3]) || gp_buf_read_file(&tols, argv[4]) || load_all(&h)) {
        fprintf(stderr, "validate: %s\n", gp_error_last());
        goto done;
    }
    if (parse_tolerances(tols.data, &h)) {
        fprintf(stderr, "validate: %s: malformed\n", argv[4]);
        goto done;
    }
    h.quiet = write;
    int bad_inference = check_inference(&h, cases.data, argv[1]);
    int bad_training = bad_inference < 0 ? -1 : check_training(&h, training.data, argv[2]);
    int bad_power = bad_training < 0 ? -1 : check_power(&h, power.data, argv[3]);
    if (bad_inference < 0 || bad_training < 0 || bad_power < 0)
        goto done;
    int failures = bad_inference + bad_training + bad_power + report_classes(&h);
    failures += check_bands(&h, write);
    rc = write || failures == 0 ? 0 : 1;
done:
    gp_buf_release(&cases);
    gp_buf_release(&training);
    gp_buf_release(&power);
    gp_buf_release(&tols);
    gp_catalog_release(&h.cat);
    gp_efficiency_table_release(&h.effs);
    gp_model_table_release(&h.models);
    gp_stack_table_release(&h.stacks);
    return rc;
}
