/* Building a report: its plans, sections and summary, and writing it atomically. */
#include "report/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/outfile.h"
#include "util/text.h"
#include "util/timeutil.h"

int gp_report_format_parse(const char *name)
{
    static const char *const names[] = {"xlsx", "html", "csv", "json"};

    for (int i = 0; i < 4; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

int gp_report_format_from_path(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    size_t len = strlen(path);

    if (len > 0 && path[len - 1] == '/')
        return GP_REPORT_CSV;
    if (!dot || (slash && dot < slash))
        return -1;
    if (strcmp(dot, ".htm") == 0)
        return GP_REPORT_HTML;
    return gp_report_format_parse(dot + 1);
}

void gp_report_init(struct gp_report *r)
{
    memset(r, 0, sizeof(*r));
    r->title = "GPU fleet plan";
    r->author = "";
    r->currency = "USD";
    r->fx = 1.0;
    r->version = "";
    r->database = "";
}

void gp_report_release(struct gp_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nsections; i++)
        if (!r->sections[i].borrowed)
            gp_table_release(&r->sections[i].table);
    for (size_t i = 0; i < r->nplans; i++)
        cJSON_Delete(r->plans[i].document);
    free(r->history);
    r->history = NULL;
    r->nsections = r->nplans = r->nhistory = 0;
}

struct gp_report_section *gp_report_add_section(struct gp_report *r, const char *key,
                                                const char *title)
{
    struct gp_report_section *s;

    if (r->nsections == GP_REPORT_SECTIONS_MAX) {
        gp_error_set(GP_EINVALID, "a report holds at most %d sections", GP_REPORT_SECTIONS_MAX);
        return NULL;
    }
    s = &r->sections[r->nsections++];
    memset(s, 0, sizeof(*s));
    gp_text_copy(s->key, sizeof(s->key), key);
    gp_text_copy(s->title, sizeof(s->title), title);
    gp_table_init(&s->table, NULL, 0);
    return s;
}

int gp_report_add_plan(struct gp_report *r, const struct gp_plan_result *res,
                       const struct gp_report_inputs *inputs, cJSON *document)
{
    const char *workload = res->used.workload.name;
    struct gp_report_plan *p;
    struct gp_report_section *s;
    char key[32], title[96];

    if (r->nplans == GP_REPORT_PLANS_MAX) {
        cJSON_Delete(document);
        return gp_error_set(GP_EINVALID, "a report holds at most %d workloads",
                            GP_REPORT_PLANS_MAX);
    }
    snprintf(key, sizeof(key), "plan-%zu", r->nplans + 1);
    snprintf(title, sizeof(title), "Plan: %.80s", workload);
    if (!(s = gp_report_add_section(r, key, title))) {
        cJSON_Delete(document);
        return GP_EINVALID;
    }
    p = &r->plans[r->nplans++];
    p->workload = workload;
    p->kind = res->used.workload.kind;
    p->rows = res->rows;
    p->nrows = res->count;
    p->result = res;
    p->inputs = *inputs;
    p->document = document;
    gp_plan_view_init(&p->view, p->rows, p->nrows, p->kind, r->currency, r->fx);
    gp_plan_view_table(&p->view, &s->table);
    s->borrowed = true;
    return 0;
}

bool gp_report_is_total(const struct gp_report_section *s, size_t col)
{
    for (const char *const *name = s->totals; name && *name; name++)
        if (strcmp(*name, s->table.columns[col].name) == 0)
            return true;
    return false;
}

void gp_report_month_band(const struct gp_plan_row *row, double fx, double *low, double *high)
{
    double unit = gp_plan_unit_cost(row);

    *low = *high = row->cost_per_month * fx;
    if (unit > 0) {
        *low = row->cost_per_month * row->cost_low / unit * fx;
        *high = row->cost_per_month * row->cost_high / unit * fx;
    }
}

/* ---- the summary ------------------------------------------------------------------------- */

static const struct gp_column summary_columns[] = {
    {"workload", GP_CELL_TEXT, 0},
    {"recommended", GP_CELL_TEXT, 0},
    {"gpus", GP_CELL_INT, 0},
    {"runner_up", GP_CELL_TEXT, 0},
    {"saving", GP_CELL_NUMBER, 3},
    {"cost_per_month", GP_CELL_NUMBER, 0},
    {"cost_month_low", GP_CELL_NUMBER, 0},
    {"cost_month_high", GP_CELL_NUMBER, 0},
    {"unit_cost", GP_CELL_NUMBER, 4},
    {"unit", GP_CELL_TEXT, 0},
    {"facility_kw", GP_CELL_NUMBER, 2},
    {"energy_kwh_per_month", GP_CELL_NUMBER, 0},
    {"risks", GP_CELL_TEXT, 0},
};
static const struct gp_column_look summary_looks[] = {
    {"Workload", NULL, GP_STYLE_TEXT, 0},
    {"Recommended GPU", NULL, GP_STYLE_TEXT, 0},
    {"GPUs", "GPUs", GP_STYLE_COUNT, 0},
    {"Runner-up", NULL, GP_STYLE_TEXT, 0},
    {"Saving vs runner-up", "fraction", GP_STYLE_PERCENT, 0},
    {"Cost per month", GP_MONTH_TEXT, GP_STYLE_CURRENCY, 0},
    {"Month, low", GP_MONTH_TEXT, GP_STYLE_CURRENCY, 0},
    {"Month, high", GP_MONTH_TEXT, GP_STYLE_CURRENCY, 0},
    {"Cost per unit", "per unit of work", GP_STYLE_CURRENCY, 0},
    {"Unit", NULL, GP_STYLE_TEXT, 0},
    {"Facility kW", "kW", GP_STYLE_PLAIN, 0},
    {"Energy kWh/month", "kWh per month", GP_STYLE_PLAIN, 0},
    {"Risks", NULL, GP_STYLE_TEXT, 0},
};

static const char *const summary_totals[] = {"cost_per_month",       "cost_month_low",
                                             "cost_month_high",      "facility_kw",
                                             "energy_kwh_per_month", NULL};

static const char *unit_name(enum gp_workload_kind kind)
{
    switch (kind) {
    case GP_WORKLOAD_INFERENCE:
        return "million output tokens";
    case GP_WORKLOAD_TRAINING:
        return "training run";
    default:
        return "job";
    }
}

/* The plan's best row and its runner-up, as the planner chose them (NULL for none). */
static void best_two(const struct gp_report_plan *p, const struct gp_plan_row **best,
                     const struct gp_plan_row **runner)
{
    const struct gp_plan_result *res = p->result;

    *best = res->best < p->nrows ? &p->rows[res->best] : NULL;
    *runner = *best && res->runner_up < p->nrows ? &p->rows[res->runner_up] : NULL;
}

/* Append "; "-separated risks of one plan to `out`. */
static int plan_risks(struct gp_buf *out, const struct gp_report_plan *p,
                      const struct gp_plan_row *best, const struct gp_plan_row *runner,
                      size_t expiring)
{
    const char *sep = "";
    int rc = 0;

    if (best && (best->notes & GP_NOTE_STALE_PRICE)) {
        rc |= gp_buf_printf(out, "%sthe recommended price is stale (%s)", sep, best->price_date);
        sep = "; ";
    }
    for (size_t i = 0; i < p->nrows; i++)
        if (p->rows[i].notes & GP_NOTE_NO_PUBLIC_PRICE) {
            rc |= gp_buf_printf(out, "%sno public price for %s", sep, p->rows[i].gpu);
            sep = "; ";
        }
    for (size_t i = 0; i < p->nrows; i++)
        if (p->rows[i].notes & GP_NOTE_OVER_POWER_BUDGET) {
            rc |= gp_buf_printf(out, "%s%s is over the power budget", sep, p->rows[i].gpu);
            sep = "; ";
        }
    if (best && runner && best->cost_high >= runner->cost_low) {
        rc |= gp_buf_printf(out, "%s%s and %s are within each other's uncertainty", sep, best->gpu,
                            runner->gpu);
        sep = "; ";
    }
    if (expiring)
        rc |= gp_buf_printf(out, "%s%zu quote%s expire%s inside the horizon", sep, expiring,
                            expiring == 1 ? "" : "s", expiring == 1 ? "s" : "");
    return rc;
}

static int summary_row(struct gp_table *t, const struct gp_report *r,
                       const struct gp_report_plan *p, size_t expiring)
{
    const struct gp_plan_row *best, *runner;
    struct gp_buf risks = GP_BUF_INIT;
    double low, high;
    int rc = gp_table_add_row(t);

    best_two(p, &best, &runner);
    rc = rc ? rc : gp_table_set_text(t, "workload", "%s", p->workload);
    rc = rc ? rc : gp_table_set_text(t, "unit", "%s", unit_name(p->kind));
    if (!rc && best) {
        gp_report_month_band(best, r->fx, &low, &high);
        rc |= gp_table_set_text(t, "recommended", "%s", best->gpu);
        rc |= gp_table_set_int(t, "gpus", best->gpus);
        rc |= gp_table_set_number(t, "cost_per_month", best->cost_per_month * r->fx);
        rc |= gp_table_set_number(t, "cost_month_low", low);
        rc |= gp_table_set_number(t, "cost_month_high", high);
        rc |= gp_table_set_number(t, "unit_cost", gp_plan_unit_cost(best) * r->fx);
        rc |= gp_table_set_number(t, "facility_kw", best->facility_kw);
        rc |= gp_table_set_number(t, "energy_kwh_per_month", best->energy_kwh_per_month);
    }
    if (!rc && best && runner) {
        rc |= gp_table_set_text(t, "runner_up", "%s", runner->gpu);
        rc |= gp_table_set_number(t, "saving", gp_plan_saving(best, runner));
    }
    if (!rc)
        rc = plan_risks(&risks, p, best, runner, expiring);
    if (!rc && !best)
        rc = gp_buf_puts(&risks, risks.len ? "; no GPU type is feasible and priced"
                                           : "no GPU type is feasible and priced");
    if (!rc)
        rc = gp_table_set_text(t, "risks", "%s", gp_buf_str(&risks));
    gp_buf_release(&risks);
    return rc;
}

int gp_report_add_summary(struct gp_report *r, const int64_t *quote_expiry, size_t nexpiry,
                          long horizon_days)
{
    struct gp_report_section *s = gp_report_add_section(r, "summary", "Summary");
    size_t expiring = 0;

    if (!s)
        return GP_EINVALID;
    for (size_t i = 0; i < nexpiry; i++)
        expiring += quote_expiry[i] > 0 &&
                    quote_expiry[i] < r->generated_at + (int64_t)horizon_days * 86400;
    gp_table_init(&s->table, summary_columns, sizeof(summary_columns) / sizeof(summary_columns[0]));
    s->table.looks = summary_looks;
    s->totals = summary_totals;
    for (size_t i = 0; i < r->nplans; i++)
        if (summary_row(&s->table, r, &r->plans[i], expiring))
            return gp_error_set(GP_ENOMEM, "out of memory building the summary");
    /* the summary reads first */
    struct gp_report_section moved = *s;
    memmove(&r->sections[1], &r->sections[0], (r->nsections - 1) * sizeof(r->sections[0]));
    r->sections[0] = moved;
    return 0;
}

/* ---- writing ----------------------------------------------------------------------------- */

/* Render a single-file format into the output's temporary file. */
static int render_file(const struct gp_report *r, enum gp_report_format format,
                       struct gp_outfile *out)
{
    FILE *stream;

    if (format == GP_REPORT_XLSX)
        return gp_report_render_xlsx(r, out->temp);
    if (!(stream = gp_outfile_stream(out)))
        return GP_ERROR;
    return format == GP_REPORT_HTML ? gp_report_render_html(r, stream)
                                    : gp_report_render_json(r, stream);
}

/* Whether the open folder `dir` holds nothing but regular .csv files (a report folder); when
 * `remove`, remove them. Entries are looked at, never followed. */
static bool csv_entries(int dir, bool remove)
{
    DIR *d = fdopendir(dir);
    struct dirent *e;
    bool only_csv = d != NULL;

    while (d && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n < 5 || strcmp(e->d_name + n - 4, ".csv") != 0 ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) {
            only_csv = false;
            continue;
        }
        if (remove)
            unlinkat(dirfd(d), e->d_name, 0);
    }
    if (d)
        closedir(d);
    else
        close(dir);
    return only_csv;
}

/* Open `path` as a folder, never through a link: -1 when it is a link or not a folder. */
static int open_folder(const char *path)
{
    return open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static bool is_report_folder(const char *path)
{
    int dir = open_folder(path);
    return dir >= 0 && csv_entries(dir, false);
}

/* Remove the report folder at `path` and its CSV files; a link there is removed, not followed. */
static void remove_report_folder(const char *path)
{
    int dir = open_folder(path);

    if (dir >= 0)
        csv_entries(dir, true);
    if (rmdir(path) != 0)
        unlink(path);
}

/* A CSV report: a new folder beside `path`, filled, then renamed into place; an older report
 * folder at `path` is moved aside first and removed after. A link at `path` is refused: the
 * folder it points to is not this report's to clear. */
static int write_csv_dir(const struct gp_report *r, const char *path, const char *tmp_template)
{
    char tmp[4096], old[4112];
    struct stat st;
    int rc = 0;

    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return gp_error_set(GP_EINVALID, "%s: is a symbolic link; give the report folder itself",
                            path);
    gp_text_copy(tmp, sizeof(tmp), tmp_template);
    if (!mkdtemp(tmp))
        return gp_error_set(GP_ERROR, "%s: cannot create a folder: %s", path, strerror(errno));
    mode_t mask = umask(0);
    umask(mask);
    if (chmod(tmp, 0777 & ~mask) != 0 || (rc = gp_report_render_csv(r, tmp))) {
        rc = rc ? rc : gp_error_set(GP_ERROR, "%s: %s", tmp, strerror(errno));
        remove_report_folder(tmp);
        return rc;
    }
    snprintf(old, sizeof(old), "%s.old", tmp);
    if (lstat(path, &st) == 0 && (!is_report_folder(path) || rename(path, old) != 0)) {
        remove_report_folder(tmp);
        return gp_error_set(
            GP_EINVALID, "%s: already exists and is not a report folder (only .csv files)", path);
    }
    if (rename(tmp, path) != 0) {
        rc = gp_error_set(GP_ERROR, "%s: %s", path, strerror(errno));
        remove_report_folder(tmp);
        rename(old, path);
        return rc;
    }
    remove_report_folder(old);
    return 0;
}

int gp_report_write(const struct gp_report *r, enum gp_report_format format, const char *path)
{
    struct gp_outfile out;
    size_t len = strlen(path);
    int rc;

    if (format == GP_REPORT_CSV && (strcmp(path, "-") == 0 || strncmp(path, "/dev/", 5) == 0 ||
                                    strncmp(path, "/proc/", 6) == 0))
        return gp_error_set(GP_EINVALID,
                            "%s: a CSV report is a folder of files; it cannot be written to "
                            "standard output or a device (give a folder, or --format json)",
                            path);
    if (format == GP_REPORT_CSV) {
        char dir[4096], tmp[4096];
        while (len > 1 && path[len - 1] == '/')
            len--;
        if (len == 0 || len > 4000)
            return gp_error_set(GP_EINVALID, "'%s': not a usable output path", path);
        snprintf(dir, sizeof(dir), "%.*s", (int)len, path);
        snprintf(tmp, sizeof(tmp), "%.*s.tmp-XXXXXX", (int)len, path);
        return write_csv_dir(r, dir, tmp);
    }
    if ((rc = gp_outfile_open(&out, path)))
        return rc;
    rc = render_file(r, format, &out);
    if (rc) {
        gp_outfile_abort(&out);
        return rc;
    }
    return gp_outfile_commit(&out);
}
