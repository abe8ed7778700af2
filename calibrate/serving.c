/* Reading serving benchmark results: format detection, the fields each tool writes, checks. */
#include "calibrate/serving.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/json.h"
#include "util/text.h"

/* Most runs one file may hold: a sweep of concurrencies is tens, not millions. */
#define MAX_RUNS 10000

const char *gp_serving_format_name(enum gp_serving_format f)
{
    switch (f) {
    case GP_SERVING_VLLM:
        return "vllm";
    case GP_SERVING_SGLANG:
        return "sglang";
    case GP_SERVING_INFERENCEX:
        return "inferencex";
    }
    return "?";
}

/* A number member that, when present, must be finite and not negative; absent leaves *out. */
static int number(const struct gp_json_reader *r, const cJSON *obj, const char *key, double *out,
                  int flags)
{
    int rc = gp_json_number(r, obj, key, out, flags | GP_JSON_NULLABLE);
    if (!rc && !(isfinite(*out) && *out >= 0))
        rc = gp_json_fail(r, key, "must be a finite number, not negative");
    return rc;
}

/* A whole positive count: max_concurrency (vLLM, SGLang) or conc (InferenceX). */
static int concurrency(const struct gp_json_reader *r, const cJSON *obj, const char *key, int *out)
{
    double v = 0;
    int rc = number(r, obj, key, &v, GP_JSON_REQUIRED);

    if (!rc && !(v >= 1 && v <= 1e7 && v == floor(v)))
        rc = gp_json_fail(r, key, "must be a whole number of requests from 1 to 1e7");
    if (!rc)
        *out = (int)v;
    return rc;
}

static int text(const struct gp_json_reader *r, const cJSON *obj, const char *key, char *out,
                size_t size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v))
        return 0;
    if (cJSON_IsString(v))
        return gp_json_string(r, obj, key, out, size, GP_JSON_OPTIONAL);
    return gp_json_fail(r, key, "must be a string");
}

/* vLLM and SGLang: totals over the run, divided into means per request. */
static int read_bench(const struct gp_json_reader *r, const cJSON *obj, struct gp_serving_run *run)
{
    double in = 0, out = 0;
    int rc = concurrency(r, obj, "max_concurrency", &run->concurrency);

    if (!rc)
        rc = number(r, obj, "completed", &run->completed, GP_JSON_REQUIRED);
    if (!rc && !(run->completed >= 1))
        rc = gp_json_fail(r, "completed", "no request completed: nothing was measured");
    if (!rc)
        rc = number(r, obj, "total_input_tokens", &in, GP_JSON_REQUIRED);
    if (!rc)
        rc = number(r, obj, "total_output_tokens", &out, GP_JSON_REQUIRED);
    if (!rc && !(out >= run->completed))
        rc = gp_json_fail(r, "total_output_tokens", "must be at least one token a request");
    if (!rc)
        rc = number(r, obj, "output_throughput", &run->output_tok_s, GP_JSON_REQUIRED);
    if (!rc && !(run->output_tok_s > 0))
        rc = gp_json_fail(r, "output_throughput", "must be greater than 0");
    if (!rc) {
        run->input_tokens = in / run->completed;
        run->output_tokens = out / run->completed;
        rc = text(r, obj, "model_id", run->model_id, sizeof(run->model_id));
    }
    if (!rc)
        rc = text(r, obj, "date", run->date, sizeof(run->date));
    return rc;
}

/* "true"/"false" as the harness writes it, or a JSON boolean. */
static int dp_attention(const struct gp_json_reader *r, const cJSON *obj, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "dp_attention");

    *out = -1;
    if (!v || cJSON_IsNull(v))
        return 0;
    if (cJSON_IsBool(v))
        *out = cJSON_IsTrue(v);
    else if (cJSON_IsString(v) &&
             (!strcmp(v->valuestring, "true") || !strcmp(v->valuestring, "false")))
        *out = strcmp(v->valuestring, "true") == 0;
    else
        return gp_json_fail(r, "dp_attention", "must be true or false");
    return 0;
}

/* A parallel size: a whole number from 1 to 1024 when present. */
static int size(const struct gp_json_reader *r, const cJSON *obj, const char *key, int *out)
{
    double v = 0;
    int rc = number(r, obj, key, &v, GP_JSON_OPTIONAL);

    if (!rc && v != 0 && !(v >= 1 && v <= 1024 && v == floor(v)))
        rc = gp_json_fail(r, key, "must be a whole number of GPUs from 1 to 1024");
    if (!rc)
        *out = (int)v;
    return rc;
}

/* InferenceX: per-GPU throughput, the deployment, latencies in seconds. */
static int read_inferencex(const struct gp_json_reader *r, const cJSON *obj,
                           struct gp_serving_run *run)
{
    double tpot = 0, ttft = 0;
    int rc = concurrency(r, obj, "conc", &run->concurrency);

    if (!rc)
        rc = number(r, obj, "output_tput_per_gpu", &run->output_per_gpu, GP_JSON_REQUIRED);
    if (!rc && !(run->output_per_gpu > 0))
        rc = gp_json_fail(r, "output_tput_per_gpu", "must be greater than 0");
    if (!rc)
        rc = text(r, obj, "model", run->model_id, sizeof(run->model_id));
    if (!rc)
        rc = text(r, obj, "hw", run->hw, sizeof(run->hw));
    if (!rc)
        rc = text(r, obj, "framework", run->framework, sizeof(run->framework));
    if (!rc)
        rc = text(r, obj, "precision", run->precision, sizeof(run->precision));
    if (!rc)
        rc = size(r, obj, "tp", &run->tp);
    if (!rc)
        rc = size(r, obj, "ep", &run->ep);
    if (!rc)
        rc = dp_attention(r, obj, &run->dp_attention);
    if (!rc)
        rc = number(r, obj, "mean_tpot", &tpot, GP_JSON_OPTIONAL);
    if (!rc)
        rc = number(r, obj, "mean_ttft", &ttft, GP_JSON_OPTIONAL);
    run->mean_tpot_ms = tpot * 1e3;
    run->mean_ttft_ms = ttft * 1e3;
    return rc;
}

/* One result object; the format is told by what it holds. */
static int read_run(const struct gp_json_reader *r, const cJSON *obj, bool lines,
                    struct gp_serving_run *run)
{
    if (!cJSON_IsObject(obj))
        return gp_json_fail(r, NULL, "must be a benchmark result object");
    if (cJSON_GetObjectItemCaseSensitive(obj, "output_tput_per_gpu")) {
        run->format = GP_SERVING_INFERENCEX;
        return read_inferencex(r, obj, run);
    }
    if (!cJSON_GetObjectItemCaseSensitive(obj, "output_throughput"))
        return gp_json_fail(r, NULL,
                            "is no serving result: it has neither output_throughput (vLLM "
                            "bench serve, SGLang bench_serving) nor output_tput_per_gpu "
                            "(InferenceX)");
    bool sglang = lines || (cJSON_GetObjectItemCaseSensitive(obj, "dataset_name") &&
                            !cJSON_GetObjectItemCaseSensitive(obj, "model_id"));
    run->format = sglang ? GP_SERVING_SGLANG : GP_SERVING_VLLM;
    if (cJSON_GetObjectItemCaseSensitive(obj, "max_concurrency") &&
        cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(obj, "max_concurrency")))
        return gp_json_fail(r, "max_concurrency",
                            "is null: the run had no concurrency limit, so it measured no "
                            "steady batch (rerun with --max-concurrency)");
    return read_bench(r, obj, run);
}

static int push(struct gp_serving_file *f, size_t *cap, const struct gp_serving_run *run,
                const char *origin)
{
    if (f->count == MAX_RUNS)
        return gp_error_set(GP_EINVALID, "%s: more than %d runs", origin, MAX_RUNS);
    if (f->count == *cap) {
        size_t grown = *cap ? 2 * *cap : 8;
        void *p = realloc(f->runs, grown * sizeof(*f->runs));
        if (!p)
            return gp_error_set(GP_ENOMEM, "out of memory reading %s", origin);
        f->runs = p;
        *cap = grown;
    }
    f->runs[f->count++] = *run;
    return 0;
}

/* One JSON text (a line, or the whole file) as run(s); `line` numbers its messages. */
static int read_text(struct gp_serving_file *out, size_t *cap, const char *text, size_t len,
                     const char *origin, int line, bool lines)
{
    struct gp_json_reader r;
    struct gp_serving_run run;
    cJSON *root = NULL;
    char where[512];

    gp_json_reader_init(&r, origin, text, len);
    int rc = gp_json_parse(&root, text, len, origin);
    if (!rc) {
        memset(&run, 0, sizeof(run));
        run.line = line;
        rc = read_run(&r, root, lines, &run);
    }
    if (!rc)
        rc = push(out, cap, &run, origin);
    cJSON_Delete(root);
    /* Positions within a line of JSON lines are on line 1 of that line: say the file's line. */
    size_t n = strlen(origin);
    const char *msg = gp_error_last();
    if (rc == GP_EINVALID && lines && strncmp(msg, origin, n) == 0 &&
        strncmp(msg + n, ":1:", 3) == 0) {
        snprintf(where, sizeof(where), "%s", msg + n + 3);
        gp_error_set(GP_EINVALID, "%s:%d:%s", origin, line, where);
    }
    return rc;
}

/* The first line that is not blank, [*start, *end); false when there is none. */
static bool first_line(const char *text, size_t len, size_t *start, size_t *end)
{
    for (size_t s = 0; s < len;) {
        const char *nl = memchr(text + s, '\n', len - s);
        size_t e = nl ? (size_t)(nl - text) : len;
        for (size_t i = s; i < e; i++) {
            if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r') {
                *start = s;
                *end = e;
                return true;
            }
        }
        s = e + 1;
    }
    return false;
}

/* JSON lines: the first line alone is a whole object, and more text follows it. A
 * pretty-printed object's first line ("{") is not. */
static bool json_lines(const char *text, size_t len)
{
    size_t start, end;

    if (!first_line(text, len, &start, &end) || end >= len)
        return false;
    cJSON *probe = cJSON_ParseWithLength(text + start, end - start);
    bool object = cJSON_IsObject(probe);
    cJSON_Delete(probe);
    size_t next_start, next_end;
    return object && first_line(text + end, len - end, &next_start, &next_end);
}

int gp_serving_file_parse(struct gp_serving_file *out, const char *text, size_t len,
                          const char *origin)
{
    size_t cap = 0;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    if (len == 0 || memchr(text, '\0', len))
        return gp_error_set(GP_EINVALID, "%s: %s", origin,
                            len ? "holds a NUL byte: not a results file" : "is empty");
    if (!json_lines(text, len)) {
        rc = read_text(out, &cap, text, len, origin, 1, false);
    } else {
        size_t start = 0;
        for (int line = 1; start < len && !rc; line++) {
            const char *nl = memchr(text + start, '\n', len - start);
            size_t end = nl ? (size_t)(nl - text) : len, blank = start;
            /* within the line only: the text need not end in a NUL */
            while (blank < end &&
                   (text[blank] == ' ' || text[blank] == '\t' || text[blank] == '\r'))
                blank++;
            if (blank < end)
                rc = read_text(out, &cap, text + start, end - start, origin, line, true);
            start = end + 1;
        }
    }
    if (!rc && out->count == 0)
        rc = gp_error_set(GP_EINVALID, "%s: no benchmark run in it", origin);
    if (rc)
        gp_serving_file_release(out);
    return rc;
}

void gp_serving_file_release(struct gp_serving_file *f)
{
    if (!f)
        return;
    free(f->runs);
    memset(f, 0, sizeof(*f));
}
