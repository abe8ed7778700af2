/* Runs the planner on published measurements and checks the error of each case class against
 * tests/validation/tolerances.csv: inference throughput per GPU (inference.csv) and training
 * time relative to an anchor row of the same benchmark (training.csv). --markdown prints the
 * tables docs/accuracy.md carries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/data.h"
#include "planner/efficiency.h"
#include "planner/model.h"
#include "planner/workload.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/text.h"

#define MAX_FIELDS  16
#define MAX_CASES   256
#define MAX_CLASSES 16

struct tolerance {
    char name[32];
    double max_abs;    /* largest allowed |error| of one case */
    double max_median; /* largest allowed median |error| of the class */
    double errors[MAX_CASES];
    size_t count;
};

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

static int parse_tolerances(char *text, struct tolerance *out, size_t *count)
{
    char *fields[MAX_FIELDS], *save = NULL;
    int line = 0;

    *count = 0;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (line++ == 0)
            continue;
        if (split(l, fields) < 3 || *count == MAX_CLASSES)
            return -1;
        struct tolerance *t = &out[(*count)++];
        memset(t, 0, sizeof(*t));
        gp_text_copy(t->name, sizeof(t->name), fields[0]);
        if (gp_text_to_double(fields[1], &t->max_abs) ||
            gp_text_to_double(fields[2], &t->max_median))
            return -1;
    }
    return 0;
}

/* One training row's predicted time, hours (0 when the model cannot plan it). */
struct training_case {
    char id[48];
    double predicted; /* hours */
    double measured;  /* minutes */
};

static struct tolerance *find_class(struct tolerance *classes, size_t n, const char *name)
{
    for (size_t c = 0; c < n; c++)
        if (strcmp(classes[c].name, name) == 0)
            return &classes[c];
    return NULL;
}

/*
 * Training rows: the token count a time-to-train run processes is not published, so each row is
 * compared with an anchor row of the same benchmark: predicted time ratio against measured
 * time ratio. Rows whose class has no tolerance are printed but not checked. Returns the number
 * of rows out of tolerance, or -1 on a malformed file.
 */
static int check_training(char *text, const char *file, const struct gp_catalog *cat,
                          const struct gp_efficiency_table *effs,
                          const struct gp_model_table *models, struct tolerance *classes,
                          size_t nclass, bool markdown)
{
    static struct training_case done[MAX_CASES];
    char *save = NULL, *f[MAX_FIELDS];
    size_t ndone = 0;
    int line = 0, failures = 0;

    if (markdown)
        printf("\n| case | GPU | GPUs | anchor | measured ratio | predicted ratio | error "
               "|\n|---|---|---:|---|---:|---:|---:|\n");
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (line++ == 0)
            continue;
        if (split(l, f) != 15 || ndone == MAX_CASES) {
            fprintf(stderr, "%s:%d: expected 15 fields\n", file, line);
            return -1;
        }
        const struct gp_model_arch *arch = gp_model_table_find(models, f[4]);
        const struct gp_gpu *gpu = NULL;
        struct gp_workload w;
        struct gp_efficiency eff;
        struct gp_perf perf;
        double gpus = 0, seq = 0, batch = 0, recompute = 0, optim = 0, zero = 0, minutes = 0;
        int prec = gp_precision_parse(f[5]);

        memset(&w, 0, sizeof(w));
        if (!arch || prec < 0 || gp_catalog_require(cat, f[3], &gpu) ||
            gp_text_to_double(f[6], &gpus) || gp_text_to_double(f[7], &seq) ||
            gp_text_to_double(f[8], &batch) || gp_text_to_double(f[9], &recompute) ||
            gp_text_to_double(f[10], &optim) || gp_text_to_double(f[11], &zero) ||
            gp_text_to_double(f[12], &minutes)) {
            fprintf(stderr, "%s:%d: bad case %s\n", file, line, f[0]);
            return -1;
        }
        w.kind = GP_WORKLOAD_TRAINING;
        gp_text_copy(w.name, sizeof(w.name), f[0]);
        w.model = *arch;
        /* The token count cancels in the ratio; any value does. */
        w.training = (struct gp_training){.precision = (enum gp_precision)prec,
                                          .tokens = 1e9,
                                          .gpus = (int)gpus,
                                          .recompute = recompute != 0,
                                          .optimizer_bytes = optim,
                                          .zero_stage = (int)zero,
                                          .seq_len = (int)seq,
                                          .micro_batch = 1,
                                          .global_batch_tokens = batch};
        if (gp_workload_validate(&w)) {
            fprintf(stderr, "%s:%d: %s\n", file, line, gp_error_last());
            return -1;
        }
        gp_efficiency_resolve(&eff, effs, gpu->id);
        gp_model_evaluate(&perf, &w, gpu, &eff, 1.0, 0);
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
        struct tolerance *cls = find_class(classes, nclass, f[1]);
        double measured = minutes / anchor->measured;
        double predicted = tc->predicted / anchor->predicted;
        double error = predicted / measured - 1.0;
        bool bad = cls && (!(tc->predicted > 0) || fabs(error) > cls->max_abs);
        if (cls)
            cls->errors[cls->count++] = fabs(error);
        failures += bad;
        if (markdown)
            printf("| %s | %s | %.0f | %s | %.3f | %.3f | %+.1f%%%s |\n", f[0], gpu->id, gpus, f[2],
                   measured, predicted, error * 100.0, cls ? "" : " (not checked)");
        else
            printf("%-18s %-9s %6.0f GPUs vs %-14s measured x%.3f predicted x%.3f error "
                   "%+6.1f%%%s\n",
                   f[0], gpu->id, gpus, f[2], measured, predicted, error * 100.0,
                   !cls  ? "  (not checked)"
                   : bad ? "  OUT OF TOLERANCE"
                         : "");
    }
    return failures;
}

int main(int argc, char **argv)
{
    struct gp_buf cases = GP_BUF_INIT, training = GP_BUF_INIT, tols = GP_BUF_INIT;
    struct gp_buf effbuf = GP_BUF_INIT, modbuf = GP_BUF_INIT;
    struct gp_catalog cat = {0};
    struct gp_efficiency_table effs = {0};
    struct gp_model_table models = {0};
    struct tolerance classes[MAX_CLASSES];
    double all[MAX_CASES];
    size_t nclass = 0, nall = 0;
    bool markdown = argc > 4 && strcmp(argv[4], "--markdown") == 0;
    int failures = 0, rc = 1;

    if (argc < 4) {
        fprintf(stderr, "usage: validate INFERENCE.csv TRAINING.csv TOLERANCES.csv [--markdown]\n");
        return 2;
    }
    gp_buf_init(&cases, 1 << 20);
    gp_buf_init(&training, 1 << 20);
    gp_buf_init(&tols, 1 << 16);
    if (gp_buf_read_file(&cases, argv[1]) || gp_buf_read_file(&training, argv[2]) ||
        gp_buf_read_file(&tols, argv[3]) || gp_catalog_load(&cat) ||
        load_data(&effbuf, "efficiency.json") || load_data(&modbuf, "models.json") ||
        gp_efficiency_table_parse(&effs, effbuf.data, effbuf.len, "efficiency.json") ||
        gp_model_table_parse(&models, modbuf.data, modbuf.len, "models.json")) {
        fprintf(stderr, "validate: %s\n", gp_error_last());
        goto done;
    }
    if (parse_tolerances(tols.data, classes, &nclass)) {
        fprintf(stderr, "validate: %s: malformed\n", argv[3]);
        goto done;
    }
    if (markdown)
        printf("| case | GPU | precision | ISL/OSL | TP | measured tok/s/GPU | predicted | error "
               "|\n|---|---|---|---|---|---:|---:|---:|\n");

    char *save = NULL, *fields[MAX_FIELDS];
    int line = 0;
    for (char *l = strtok_r(cases.data, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (line++ == 0)
            continue;
        if (split(l, fields) != 15) {
            fprintf(stderr, "%s:%d: expected 15 fields\n", argv[1], line);
            goto done;
        }
        struct gp_workload w;
        const struct gp_gpu *gpu = NULL;
        const struct gp_model_arch *arch = gp_model_table_find(&models, fields[3]);
        struct gp_efficiency eff;
        struct gp_perf perf;
        struct tolerance *cls = NULL;
        double measured = 0, tp = 0, ttft = 0, tpot = 0, batch = 0;
        int prec = gp_precision_parse(fields[4]), kv = gp_precision_parse(fields[5]);

        for (size_t c = 0; c < nclass; c++)
            if (strcmp(classes[c].name, fields[1]) == 0)
                cls = &classes[c];
        memset(&w, 0, sizeof(w));
        if (!cls || !arch || prec < 0 || kv < 0 || gp_catalog_require(&cat, fields[2], &gpu) ||
            gp_text_to_double(fields[6], &w.inference.input_tokens) ||
            gp_text_to_double(fields[7], &w.inference.output_tokens) ||
            gp_text_to_double(fields[8], &tp) || gp_text_to_double(fields[9], &ttft) ||
            gp_text_to_double(fields[10], &tpot) || gp_text_to_double(fields[11], &batch) ||
            gp_text_to_double(fields[12], &measured)) {
            fprintf(stderr, "%s:%d: bad case %s\n", argv[1], line, fields[0]);
            goto done;
        }
        gp_text_copy(w.name, sizeof(w.name), fields[0]);
        w.kind = GP_WORKLOAD_INFERENCE;
        w.model = *arch;
        w.inference.precision = (enum gp_precision)prec;
        w.inference.kv_precision = (enum gp_precision)kv;
        w.inference.load = GP_LOAD_MAX;
        w.inference.ttft_ms = ttft;
        w.inference.tpot_ms = tpot;
        w.inference.memory_fraction = 0.9;
        w.inference.tensor_parallel = (int)tp;
        w.inference.max_batch = (int)batch;
        if (gp_workload_validate(&w)) {
            fprintf(stderr, "%s:%d: %s\n", argv[1], line, gp_error_last());
            goto done;
        }
        gp_efficiency_resolve(&eff, &effs, gpu->id);
        gp_model_evaluate(&perf, &w, gpu, &eff, 1.0, 0);
        double predicted = perf.feasible ? perf.replica_rate / perf.tp : 0.0;
        double error = (predicted - measured) / measured;
        bool bad = !perf.feasible || fabs(error) > cls->max_abs;
        cls->errors[cls->count++] = fabs(error);
        all[nall++] = fabs(error);
        failures += bad;
        if (markdown)
            printf("| %s | %s | %s | %s/%s | %d | %.0f | %.0f | %+.1f%% |\n", fields[0], gpu->id,
                   gp_precision_name(perf.precision), fields[6], fields[7], perf.tp, measured,
                   predicted, error * 100.0);
        else
            printf("%-28s %-9s tp=%d batch=%-5d %-7s measured %8.1f predicted %8.1f error "
                   "%+6.1f%%%s\n",
                   fields[0], gpu->id, perf.tp, perf.batch, gp_bound_name(perf.bound), measured,
                   predicted, error * 100.0, bad ? "  OUT OF TOLERANCE" : "");
    }
    int bad_training =
        check_training(training.data, argv[2], &cat, &effs, &models, classes, nclass, markdown);
    if (bad_training < 0)
        goto done;
    failures += bad_training;
    printf("\n");
    for (size_t c = 0; c < nclass; c++) {
        struct tolerance *t = &classes[c];
        if (t->count == 0)
            continue;
        double worst = 0;
        for (size_t i = 0; i < t->count; i++)
            worst = fmax(worst, t->errors[i]);
        double med = median(t->errors, t->count);
        bool bad = med > t->max_median;
        failures += bad;
        printf("%s%s: %zu cases, median |error| %.1f%% (limit %.0f%%), worst %.1f%% (limit "
               "%.0f%%)%s\n",
               markdown ? "- " : "", t->name, t->count, med * 100, t->max_median * 100, worst * 100,
               t->max_abs * 100, bad ? "  OUT OF TOLERANCE" : "");
    }
    if (nall)
        printf("%sall inference: %zu cases, median |error| %.1f%%\n", markdown ? "- " : "", nall,
               median(all, nall) * 100);
    rc = failures ? 1 : 0;
done:
    gp_buf_release(&cases);
    gp_buf_release(&training);
    gp_buf_release(&tols);
    gp_buf_release(&effbuf);
    gp_buf_release(&modbuf);
    gp_catalog_release(&cat);
    gp_efficiency_table_release(&effs);
    gp_model_table_release(&models);
    return rc;
}
