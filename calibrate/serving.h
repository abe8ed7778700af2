/* A user's own serving benchmark results, as the tools write them: vLLM's `bench serve`
 * result JSON, SGLang's `bench_serving` JSONL (one run a line) and the aggregated result JSON of
 * the InferenceX harness (utils/process_result.py). Only what a serving calibration needs is
 * kept. */
#ifndef GP_CALIBRATE_SERVING_H
#define GP_CALIBRATE_SERVING_H

#include <stddef.h>

enum gp_serving_format { GP_SERVING_VLLM, GP_SERVING_SGLANG, GP_SERVING_INFERENCEX };

/* One benchmark run. Fields a format does not carry are 0 or "". */
struct gp_serving_run {
    enum gp_serving_format format;
    int line;              /* 1-based line of the run in its file (JSONL), else 1 */
    char model_id[128];    /* served model as the tool names it ("deepseek-ai/DeepSeek-R1") */
    char date[32];         /* when it ran, as the tool writes it; "" when not written */
    int concurrency;       /* max_concurrency (conc): requests in flight, > 0 */
    double completed;      /* requests completed; 0 for InferenceX (not kept there) */
    double input_tokens;   /* mean prompt tokens per request (totals / completed); 0: unknown */
    double output_tokens;  /* mean generated tokens per request; 0: unknown */
    double output_tok_s;   /* output tokens/s of the whole deployment; 0 for InferenceX */
    double output_per_gpu; /* InferenceX: output tokens/s per GPU as it divides them; else 0 */
    double mean_tpot_ms;   /* mean time per output token, ms; 0: not written */
    double mean_ttft_ms;   /* mean time to first token, ms; 0: not written */
    /* InferenceX only: the deployment as the harness records it. */
    char hw[32];        /* runner type, "b200", "mi355x-amd", ... */
    char framework[32]; /* "vllm", "sglang", "trt", "atom", ... */
    char precision[16]; /* "fp8", "fp4", ... */
    int tp, ep;         /* tensor- and expert-parallel sizes; 0: not written */
    int dp_attention;   /* 1 attention data-parallel, 0 not, -1 not written */
};

struct gp_serving_file {
    struct gp_serving_run *runs; /* owned, `count` runs in file order */
    size_t count;
};

/* "vllm", "sglang", "inferencex". */
const char *gp_serving_format_name(enum gp_serving_format f);

/*
 * Parse a results file: one JSON object (vLLM, InferenceX) or JSON lines (SGLang; blank lines
 * allowed). Every run must have a concurrency, and unless it is an InferenceX result positive
 * completed requests, token totals and output throughput; numbers must be finite and not
 * negative. Errors name `origin`, the line and the field. Returns 0, GP_EINVALID or GP_ENOMEM;
 * release with gp_serving_file_release.
 */
int gp_serving_file_parse(struct gp_serving_file *out, const char *text, size_t len,
                          const char *origin);
void gp_serving_file_release(struct gp_serving_file *f);

#endif
