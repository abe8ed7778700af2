/* A procurement report: titled sections (each a table) plus the plan rows and price history its
 * charts are drawn from, and one renderer per format. The renderers take the report as built by
 * cli/ and never query the store. */
#ifndef GP_REPORT_REPORT_H
#define GP_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "gpuplan/offer.h"
#include "planner/fleet.h"
#include "planner/frontier.h"
#include "planner/plan.h"
#include "planner/rent_own.h"
#include "report/plan_table.h"
#include "report/table.h"

#define GP_REPORT_SECTIONS_MAX 32
#define GP_REPORT_PLANS_MAX    16
#define GP_REPORT_GPUS_MAX     64

enum gp_report_format {
    GP_REPORT_XLSX,
    GP_REPORT_HTML,
    GP_REPORT_CSV,
    GP_REPORT_JSON,
    GP_REPORT_FOCUS, /* the planned spend as a FinOps FOCUS cost file (CSV) */
};

/* "xlsx" | "html" | "csv" | "json" | "focus" -> format; -1 for anything else. */
int gp_report_format_parse(const char *name);
/* The format a path's extension names (".xlsx", ".html"/".htm", ".csv", ".json", ".focus.csv"),
 * or -1. A path without an extension is a CSV folder when it ends in '/'. */
int gp_report_format_from_path(const char *path);

/* A line chart of a section's table: `x` against each of `lines`, columns named by key. */
struct gp_report_line_chart {
    const char *x;        /* the category column, e.g. "month" */
    const char *lines[4]; /* the value columns, NULL-ended */
    const char *y_title;  /* the value axis's title */
};

/* One section: a titled table. */
struct gp_report_section {
    char key[32];          /* JSON key, CSV file name and xlsx sheet name (at most 31 characters) */
    char title[96];        /* heading for people */
    const char *note;      /* borrowed: a line under the heading, or NULL */
    struct gp_table table; /* the rows; released by gp_report_release unless `borrowed` */
    bool borrowed;         /* the table belongs to someone else */
    const char *const *totals; /* borrowed, NULL-terminated: the columns that get a total row
                                  (a SUM formula in xlsx); NULL = none */
    const struct gp_report_line_chart *chart; /* borrowed: drawn beside the xlsx sheet, or NULL */
};

/* The inputs a plan was made from, so that each purchase line's offer or quote can be read. */
struct gp_report_inputs {
    const struct gp_offer *offers; /* borrowed: the request's offers, `noffers` */
    size_t noffers;
    const struct gp_quote *quotes; /* borrowed: the request's quotes, `nquotes` */
    size_t nquotes;
};

/* One workload's plan, as `plan` would print it. */
struct gp_report_plan {
    const char *workload; /* borrowed preset or file name */
    enum gp_workload_kind kind;
    const struct gp_plan_row *rows; /* borrowed, ranked as plan ranks them */
    size_t nrows;
    const struct gp_plan_result *result; /* borrowed: the rows, the best row and runner-up, what
                                            each GPU type used */
    struct gp_report_inputs inputs;      /* what its purchase lines index */
    cJSON *document;                     /* owned: plan's JSON document for the workload (workload,
                                            assumptions, rows), without schema_version */
    struct gp_plan_view view;            /* every column, in the report currency */
    const struct gp_frontier *frontier;  /* borrowed: inference workloads' throughput-
                                            interactivity frontier; NULL for none */
    struct gp_rent_own rent_own;         /* owned plans: the fleets cheapest to own and to rent
                                            (of the best row's sweep point); NULL rows for none */
    char rent_own_note[192];             /* the rent-against-own section's note */
};

/* One point of a GPU's price history: the cheapest price of a tier on one day. */
struct gp_report_price_point {
    char gpu[32];  /* catalog id */
    char tier[16]; /* "on-demand" or "spot" */
    int64_t day;   /* Unix seconds UTC at the start of the day */
    double price;  /* report currency per GPU-hour */
};

struct gp_report {
    const char *title;    /* borrowed cover title */
    const char *author;   /* borrowed, "" when not given */
    const char *currency; /* borrowed ISO code of every money figure */
    double fx;            /* currency units per USD */
    int64_t generated_at; /* Unix seconds UTC */
    const char *version;  /* gpuplan version */
    const char *database; /* database path, "" for none */
    struct gp_report_plan plans[GP_REPORT_PLANS_MAX];
    size_t nplans;
    struct gp_report_section sections[GP_REPORT_SECTIONS_MAX];
    size_t nsections;
    struct gp_report_price_point *history; /* owned, by GPU then tier then day */
    size_t nhistory;
    const char *gpus[GP_REPORT_GPUS_MAX]; /* borrowed: the GPU types in the order they first
                                             appear in the plans, then the history, each once
                                             (a chart's colour for each) */
    size_t ngpus;
    const struct gp_locale *locale; /* decimal mark (CSV, HTML) and CSV separators */
};

void gp_report_init(struct gp_report *r);
/* Free the owned section tables and plan documents. Accepts NULL. */
void gp_report_release(struct gp_report *r);

/* Add the plan `res` made from `inputs` (both borrowed; `document` taken over) and its section
 * "plan-<n>". Returns 0, or GP_EINVALID when the report holds GP_REPORT_PLANS_MAX plans. */
int gp_report_add_plan(struct gp_report *r, const struct gp_plan_result *res,
                       const struct gp_report_inputs *inputs, cJSON *document);

/* The offer or quote purchase line `l` was bought from among `in`, or NULL when its index is
 * out of them. Borrowed. */
const struct gp_offer *gp_report_line_offer(const struct gp_report_inputs *in,
                                            const struct gp_plan_line *l);

/* What the line bought, as listings name it, into out[size]: the offer's instance type, or
 * "quote #<id>" for a quote that names none; "" when the line names no input. Returns out. */
char *gp_report_line_instance(char *out, size_t size, const struct gp_report_inputs *in,
                              const struct gp_plan_line *l);

/* Count `gpu` among r->gpus when it is not there yet (and there is room); `gpu` is borrowed and
 * must outlive the report. */
void gp_report_note_gpu(struct gp_report *r, const char *gpu);

/* The section whose key is `key`, or NULL. Borrowed from the report. */
struct gp_report_section *gp_report_find_section(const struct gp_report *r, const char *key);

/* Add an empty section and return it for its table to be filled (gp_table_init on it), or NULL
 * with GP_EINVALID set when the report is full. */
struct gp_report_section *gp_report_add_section(struct gp_report *r, const char *key,
                                                const char *title);

/* Build the summary section from the plans: per workload the recommended row and the
 * runner-up, the monthly cost and its band, the cost per unit of work, facility power and
 * energy, and the risks. `quote_expiry` lists days (Unix seconds) on which quotes the plans use
 * expire, `horizon_days` how far ahead that counts as a risk. Returns 0 or GP_ENOMEM. */
int gp_report_add_summary(struct gp_report *r, const int64_t *quote_expiry, size_t nexpiry,
                          long horizon_days);

/* Whether column `col` of the section gets a total. */
bool gp_report_is_total(const struct gp_report_section *s, size_t col);

/* The monthly cost of a priced row at the efficiency bounds (low, high), report currency. */
void gp_report_month_band(const struct gp_plan_row *row, double fx, double *low, double *high);

/* Renderers (report/render_<format>.c). They write `r` and nothing else. */
int gp_report_render_html(const struct gp_report *r, FILE *out);
int gp_report_render_json(const struct gp_report *r, FILE *out);
/* One FOCUS 1.x row per purchase line of each workload's recommended fleet per month: a
 * service each month of the horizon, a training run in the months it runs, from the calendar
 * month after the report's date. */
int gp_report_render_focus(const struct gp_report *r, FILE *out);
/* One RFC 4180 file per section, "<key>.csv", in the existing folder `dir`. */
int gp_report_render_csv(const struct gp_report *r, const char *dir);
/* The workbook at `path` (written in place: the caller renames it into its final place). */
int gp_report_render_xlsx(const struct gp_report *r, const char *path);

/* Write `r` to `path` in `format` atomically: into a temporary sibling, then renamed over the
 * path (a CSV report is a folder, swapped in the same way), so a failed run leaves no half
 * file. Returns 0, GP_EINVALID (a folder that is in the way) or GP_ERROR naming the path. */
int gp_report_write(const struct gp_report *r, enum gp_report_format format, const char *path);

#endif
