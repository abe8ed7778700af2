/* `gpuplan calibrate import-serving FILE`: a user's own serving benchmark results (vLLM bench
 * serve, SGLang bench_serving, InferenceX) compared with the model for the same deployment, and
 * stored as serving factors per GPU type, stack profile and model class. Every run of the file
 * is checked before anything is stored; a bad file changes nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/serving.h"
#include "cli/cli.h"
#include "cli/plan_input.h"
#include "planner/plan.h"
#include "planner/serving_fit.h"
#include "store/calibrations.h"
#include "store/serving.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/msg.h"
#include "util/text.h"
#include "util/timeutil.h"

/* What the user says about the runs, as typed. */
struct serving_args {
    const char *gpu, *gpus, *layout, *stack, *model, *precision, *kv_precision;
    const char *input_tokens, *output_tokens;
};

/* Everything an import reads from. */
struct serving_inputs {
    const struct gp_catalog *catalog;
    struct gp_efficiency_table effs;
    struct gp_model_table models;
    struct gp_stack_table stacks;
    struct gp_bands bands;
    struct gp_calibration_curve *fits; /* kernel calibrations, applied as plans apply them */
    struct gp_plan_request req;        /* what a plan's efficiencies are made from, without the
                                          bands and the serving calibrations being fitted */
};

static const struct gp_column columns[] = {
    {"line", GP_CELL_INT, 0},
    {"format", GP_CELL_TEXT, 0},
    {"gpu", GP_CELL_TEXT, 0},
    {"stack", GP_CELL_TEXT, 0},
    {"model", GP_CELL_TEXT, 0},
    {"layout", GP_CELL_TEXT, 0},
    {"concurrency", GP_CELL_INT, 0},
    {"input_tokens", GP_CELL_NUMBER, 0},
    {"output_tokens", GP_CELL_NUMBER, 0},
    {"measured_per_gpu", GP_CELL_NUMBER, 1},
    {"predicted_per_gpu", GP_CELL_NUMBER, 1},
    {"factor", GP_CELL_NUMBER, 3},
    {"status", GP_CELL_TEXT, 0},
};

/* A run's GPU: --gpu, else the InferenceX runner type. */
static int run_gpu(const struct serving_args *a, const struct serving_inputs *in,
                   const struct gp_serving_run *run, const struct gp_gpu **out)
{
    if (a->gpu)
        return gp_catalog_require(in->catalog, a->gpu, out) ? GP_EINVALID : 0;
    *out = run->hw[0] ? gp_serving_gpu_for(in->catalog, run->hw) : NULL;
    if (!*out)
        return gp_error_set(GP_EINVALID, "%s: give --gpu ID: the result names no catalog GPU%s%s",
                            "--gpu", run->hw[0] ? " (runner " : "", run->hw[0] ? run->hw : "");
    return 0;
}

static int run_model(const struct serving_args *a, const struct serving_inputs *in,
                     const struct gp_serving_run *run, const struct gp_model_arch **out)
{
    const char *id = a->model ? a->model : run->model_id;

    *out = a->model ? gp_model_table_find(&in->models, a->model)
                    : gp_serving_model_for(&in->models, run->model_id);
    if (!*out)
        return gp_error_set(GP_EINVALID,
                            "%s: %s%s%s is no model preset; give --model PRESET "
                            "('gpuplan workloads' uses them)",
                            a->model ? "--model" : "model_id", id[0] ? "'" : "",
                            id[0] ? id : "none", id[0] ? "'" : "");
    return 0;
}

/* The deployment's layout and GPUs: --layout and --gpus, else what InferenceX records
 * (tp, ep, dp_attention), else tensor parallel over --gpus. */
static int run_layout(const struct serving_args *a, const struct gp_serving_run *run,
                      struct gp_serving_measure *m)
{
    long gpus = 0;

    if (a->gpus && gp_text_to_int(a->gpus, 1, 1024, &gpus))
        return gp_error_set(GP_EINVALID, "--gpus '%s' is not a number of GPUs (1-1024)", a->gpus);
    if (a->layout) {
        if (gp_layout_parse(a->layout, &m->layout, &m->replica_gpus))
            return gp_error_wrap("--layout");
    } else if (run->tp > 0) {
        m->layout = gp_serving_layout_for(run->ep, run->dp_attention);
        m->replica_gpus = run->tp;
    } else {
        m->layout = GP_LAYOUT_TP;
    }
    if (m->replica_gpus == 0)
        m->replica_gpus = gpus > 0 ? (int)gpus : 0;
    m->gpus = gpus > 0 ? (int)gpus : run->tp > 0 ? run->tp : m->replica_gpus;
    if (m->replica_gpus <= 0 || m->gpus <= 0)
        return gp_error_set(GP_EINVALID, "--gpus: give the GPUs the benchmark ran on (the result "
                                         "does not say)");
    return 0;
}

static int parse_precision(const char *flag, const char *text, enum gp_precision *out)
{
    int p = gp_precision_parse(text);
    if (p < 0)
        return gp_error_set(GP_EINVALID, "%s: unknown precision '%s'", flag, text);
    *out = (enum gp_precision)p;
    return 0;
}

/* Weights: --precision or the InferenceX precision; the KV cache follows as workloads do. */
static int run_precision(const struct serving_args *a, const struct gp_serving_run *run,
                         struct gp_serving_measure *m)
{
    const char *text = a->precision ? a->precision : run->precision[0] ? run->precision : NULL;
    int rc;

    if (!text)
        return gp_error_set(GP_EINVALID, "--precision: give the weights' precision (the result "
                                         "does not say)");
    if ((rc = parse_precision(a->precision ? "--precision" : "precision", text, &m->precision)))
        return rc;
    m->kv_precision = gp_inference_default_kv(m->precision);
    return a->kv_precision ? parse_precision("--kv-precision", a->kv_precision, &m->kv_precision)
                           : 0;
}

/* Mean prompt and output lengths: --input-tokens/--output-tokens, else the file's. */
static int run_lengths(const struct serving_args *a, const struct gp_serving_run *run,
                       struct gp_serving_measure *m)
{
    const char *flags[2] = {a->input_tokens, a->output_tokens};
    const char *names[2] = {"--input-tokens", "--output-tokens"};
    double *out[2] = {&m->input_tokens, &m->output_tokens};

    m->input_tokens = run->input_tokens;
    m->output_tokens = run->output_tokens;
    for (int i = 0; i < 2; i++) {
        if (flags[i] && (gp_text_to_double(flags[i], out[i]) || !(*out[i] >= 1 && *out[i] <= 1e7)))
            return gp_error_set(GP_EINVALID, "%s '%s' is not a number of tokens (1-1e7)", names[i],
                                flags[i]);
        if (!(*out[i] >= 1))
            return gp_error_set(GP_EINVALID, "%s: give it: the result has no token totals",
                                names[i]);
    }
    return 0;
}

/* The profile: --stack, else the InferenceX framework's, else the vendor's production one. */
static int run_stack(const struct serving_args *a, const struct serving_inputs *in,
                     const struct gp_serving_run *run, const struct gp_gpu *gpu,
                     const struct gp_stack **out)
{
    if (a->stack)
        *out = gp_stack_find(&in->stacks, a->stack);
    else if (run->framework[0])
        *out = gp_serving_stack_for(&in->stacks, run->framework, gpu->vendor);
    else
        *out = gp_stack_default(&in->stacks, gpu->vendor, true);
    if (!*out)
        return gp_error_set(GP_EINVALID, "--stack: %s%s is no profile for %s; give --stack NAME",
                            a->stack ? a->stack : run->framework, a->stack ? "" : " (framework)",
                            gpu->id);
    if (!(*out)->vendors[gpu->vendor] || (*out)->claim)
        return gp_error_set(GP_EINVALID, "--stack: '%s' is %s", (*out)->name,
                            (*out)->claim ? "a vendor claim, not a measured profile"
                                          : "not a profile for this GPU's vendor");
    return 0;
}

/* An id for the run and what it was taken to be: FNV-1a over both, 16 hex digits. */
static void fingerprint(struct gp_serving_record *r)
{
    char text[640];
    uint64_t h = 1469598103934665603ull;

    snprintf(text, sizeof(text), "%s|%d|%s|%s|%s|%s|%s|%d|%d|%.6g|%.6g|%.6g|%s", r->origin, r->line,
             r->format, r->gpu_id, r->stack, r->model, r->layout, r->gpus, r->concurrency,
             r->input_tokens, r->output_tokens, r->measured_per_gpu, r->precision);
    for (const char *c = text; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    snprintf(r->fingerprint, sizeof(r->fingerprint), "%016llx", (unsigned long long)h);
}

/* One run as a record: its conditions, the model's prediction and the factor. */
static int fit_run(struct gp_serving_record *rec, const struct serving_args *a,
                   const struct serving_inputs *in, const struct gp_serving_run *run,
                   const char *origin)
{
    struct gp_serving_measure m = {0};
    struct gp_serving_fit fit;
    const struct gp_gpu *gpu = NULL;
    const struct gp_stack *stack = NULL;
    struct gp_efficiency eff;
    int rc;

    if ((rc = run_gpu(a, in, run, &gpu)) || (rc = run_model(a, in, run, &m.model)) ||
        (rc = run_layout(a, run, &m)) || (rc = run_precision(a, run, &m)) ||
        (rc = run_lengths(a, run, &m)) || (rc = run_stack(a, in, run, gpu, &stack)))
        return rc;
    m.concurrency = run->concurrency;
    m.measured_per_gpu = run->output_per_gpu > 0 ? run->output_per_gpu : run->output_tok_s / m.gpus;
    if ((rc = gp_plan_efficiency(&eff, &in->req, gpu, stack)) ||
        (rc = gp_serving_fit(&fit, &m, gpu, &eff)))
        return rc;
    memset(rec, 0, sizeof(*rec));
    gp_text_copy(rec->gpu_id, sizeof(rec->gpu_id), gpu->id);
    gp_text_copy(rec->stack, sizeof(rec->stack), stack->name);
    gp_text_copy(rec->model, sizeof(rec->model), m.model->name);
    gp_text_copy(rec->model_class, sizeof(rec->model_class), gp_serving_class(m.model));
    gp_text_copy(rec->format, sizeof(rec->format), gp_serving_format_name(run->format));
    gp_text_copy(rec->origin, sizeof(rec->origin), origin);
    gp_text_copy(rec->precision, sizeof(rec->precision), gp_precision_name(m.precision));
    gp_text_copy(rec->measured_on, sizeof(rec->measured_on), run->date);
    gp_layout_format(rec->layout, sizeof(rec->layout), m.layout, m.replica_gpus);
    rec->line = run->line;
    rec->gpus = m.gpus;
    rec->concurrency = m.concurrency;
    rec->input_tokens = m.input_tokens;
    rec->output_tokens = m.output_tokens;
    rec->measured_per_gpu = m.measured_per_gpu;
    rec->predicted_per_gpu = fit.predicted_per_gpu;
    rec->factor = fit.factor;
    rec->imported_at = gp_time_now();
    fingerprint(rec);
    return 0;
}

static int add_row(struct gp_table *t, const struct gp_serving_record *r, bool added)
{
    int rc = gp_table_add_row(t);
    if (!rc)
        rc = gp_table_set_int(t, "line", r->line);
    if (!rc)
        rc = gp_table_set_text(t, "format", "%s", r->format);
    if (!rc)
        rc = gp_table_set_text(t, "gpu", "%s", r->gpu_id);
    if (!rc)
        rc = gp_table_set_text(t, "stack", "%s", r->stack);
    if (!rc)
        rc = gp_table_set_text(t, "model", "%s", r->model);
    if (!rc)
        rc = gp_table_set_text(t, "layout", "%s", r->layout);
    if (!rc)
        rc = gp_table_set_int(t, "concurrency", r->concurrency);
    if (!rc)
        rc = gp_table_set_number(t, "input_tokens", r->input_tokens);
    if (!rc)
        rc = gp_table_set_number(t, "output_tokens", r->output_tokens);
    if (!rc)
        rc = gp_table_set_number(t, "measured_per_gpu", r->measured_per_gpu);
    if (!rc)
        rc = gp_table_set_number(t, "predicted_per_gpu", r->predicted_per_gpu);
    if (!rc)
        rc = gp_table_set_number(t, "factor", r->factor);
    if (!rc)
        rc = gp_table_set_text(t, "status", "%s", added ? "added" : "already present");
    return rc;
}

/* The data the runs are fitted against, and the database they go to (`*store`). */
static int load_inputs(struct gp_cli *cli, struct serving_inputs *in, struct gp_store **store)
{
    int rc = gp_cli_catalog(cli, &in->catalog);

    if (!rc)
        rc = gp_cli_plan_inputs(cli, &in->effs, &in->models);
    if (!rc)
        rc = gp_cli_plan_stacks(cli, &in->stacks, &in->bands);
    if (!rc)
        rc = gp_cli_store(cli, store);
    if (!rc && gp_store_calibration_fits_for_gpu(*store, NULL, &in->fits, &in->req.fit_count))
        rc = gp_cli_fail();
    in->req.efficiencies = &in->effs;
    in->req.stacks = &in->stacks;
    in->req.fits = in->fits;
    return rc;
}

static void release_inputs(struct serving_inputs *in)
{
    gp_efficiency_table_release(&in->effs);
    gp_model_table_release(&in->models);
    gp_stack_table_release(&in->stacks);
    free(in->fits);
}

/* Fit every run of `file`; none is stored unless all fit. */
static int fit_all(struct gp_cli *cli, const struct serving_args *a,
                   const struct serving_inputs *in, const struct gp_serving_file *file,
                   const char *path, struct gp_serving_record *recs)
{
    for (size_t i = 0; i < file->count; i++)
        if (fit_run(&recs[i], a, in, &file->runs[i], path))
            return gp_cli_input_error(cli, "%s:%d: %s", path, file->runs[i].line, gp_error_last());
    return GP_EXIT_OK;
}

static int import_file(struct gp_cli *cli, const struct serving_args *a, const char *path)
{
    struct serving_inputs in = {0};
    struct gp_serving_file file = {0};
    struct gp_buf buf = GP_BUF_INIT;
    struct gp_serving_record *recs = NULL;
    struct gp_store *store = NULL;
    struct gp_table table;
    int *inserted = NULL, rc = load_inputs(cli, &in, &store);
    size_t added = 0, skipped = 0;

    gp_table_init(&table, columns, sizeof(columns) / sizeof(columns[0]));
    gp_buf_init(&buf, 1 << 16);
    if (!rc && gp_buf_read_file(&buf, path))
        rc = gp_cli_input_error(cli, "%s", gp_error_last());
    if (!rc && gp_serving_file_parse(&file, buf.data, buf.len, path))
        rc = gp_error_code() == GP_ENOMEM ? gp_cli_fail()
                                          : gp_cli_input_error(cli, "%s", gp_error_last());
    if (!rc && (!(recs = calloc(file.count, sizeof(*recs))) ||
                !(inserted = calloc(file.count, sizeof(*inserted))))) {
        gp_error_set(GP_ENOMEM, "out of memory");
        rc = gp_cli_fail();
    }
    if (!rc)
        rc = fit_all(cli, a, &in, &file, path, recs);
    if (!rc && gp_store_serving_insert(store, recs, file.count, inserted, &added, &skipped))
        rc = gp_cli_fail();
    for (size_t i = 0; !rc && i < file.count; i++)
        if (add_row(&table, &recs[i], inserted[i]))
            rc = gp_cli_fail();
    if (!rc) {
        gp_msg_info("%s: %zu run(s) added, %zu already present", path, added, skipped);
        rc = gp_cli_output(cli, &table, SIZE_MAX);
    }
    gp_table_release(&table);
    gp_buf_release(&buf);
    gp_serving_file_release(&file);
    release_inputs(&in);
    free(recs);
    free(inserted);
    return rc;
}

int gp_cmd_calibrate_serving(struct gp_cli *cli, int argc, char **argv)
{
    struct serving_args a = {0};
    const struct gp_opt opts[] = {
        {"gpu", 0, GP_OPT_STRING, &a.gpu, "ID", "catalog GPU the benchmark ran on"},
        {"gpus", 0, GP_OPT_STRING, &a.gpus, "N", "GPUs the benchmark's throughput was over"},
        {"layout", 0, GP_OPT_STRING, &a.layout, "LAYOUT",
         "how each replica split the model: tp, dep, tep or dpa with its GPUs (default tp over "
         "--gpus)"},
        {"stack", 0, GP_OPT_STRING, &a.stack, "NAME",
         "profile the runs calibrate (default: the vendor's production profile)"},
        {"model", 0, GP_OPT_STRING, &a.model, "PRESET", "model preset served (default: model_id)"},
        {"precision", 0, GP_OPT_STRING, &a.precision, "FORMAT", "weights' precision"},
        {"kv-precision", 0, GP_OPT_STRING, &a.kv_precision, "FORMAT", "KV cache precision"},
        {"input-tokens", 0, GP_OPT_STRING, &a.input_tokens, "N", "mean prompt tokens per request"},
        {"output-tokens", 0, GP_OPT_STRING, &a.output_tokens, "N",
         "mean generated tokens per request"},
        GP_OPT_END,
    };
    int npos = 0;
    int rc = gp_cli_parse(cli, gp_cli_find_command("calibrate"), opts, argc, argv, &npos);

    if (rc)
        return rc < 0 ? GP_EXIT_OK : rc;
    if (npos != 1)
        return gp_cli_usage_error(cli, "calibrate import-serving takes exactly one FILE");
    return import_file(cli, &a, argv[1]);
}
