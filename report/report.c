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

#include "report/sections.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/outfile.h"
#include "util/text.h"
#include "util/timeutil.h"

int gp_report_format_parse(const char *name)
{
    static const char *const names[] = {"xlsx", "html", "csv", "json", "focus"};

    for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
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
    if (strcmp(dot, ".csv") == 0 && dot - path >= 6 && strncmp(dot - 6, ".focus", 6) == 0)
        return GP_REPORT_FOCUS;
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

const struct gp_offer *gp_report_line_offer(const struct gp_report_inputs *in,
                                            const struct gp_plan_line *l)
{
    if (l->origin == GP_PLAN_FROM_QUOTE)
        return l->input < in->nquotes ? &in->quotes[l->input].offer : NULL;
    return l->input < in->noffers ? &in->offers[l->input] : NULL;
}

char *gp_report_line_instance(char *out, size_t size, const struct gp_report_inputs *in,
                              const struct gp_plan_line *l)
{
    const struct gp_offer *o = gp_report_line_offer(in, l);

    if (!o)
        snprintf(out, size, "%s", "");
    else if (l->origin == GP_PLAN_FROM_QUOTE && !o->instance_type[0])
        snprintf(out, size, "quote #%lld", (long long)in->quotes[l->input].id);
    else
        snprintf(out, size, "%s", o->instance_type);
    return out;
}

struct gp_report_section *gp_report_find_section(const struct gp_report *r, const char *key)
{
    for (size_t i = 0; i < r->nsections; i++)
        if (strcmp(r->sections[i].key, key) == 0)
            return (struct gp_report_section *)&r->sections[i];
    return NULL;
}

void gp_report_note_gpu(struct gp_report *r, const char *gpu)
{
    for (size_t i = 0; i < r->ngpus; i++)
        if (strcmp(r->gpus[i], gpu) == 0)
            return;
    if (r->ngpus < GP_REPORT_GPUS_MAX)
        r->gpus[r->ngpus++] = gpu;
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
    for (size_t g = 0; g < res->per_point; g++)
        gp_report_note_gpu(r, res->gpus[g].gpu->id);
    gp_plan_view_init(&p->view, p->rows, p->nrows, p->kind, r->currency, r->fx);
    gp_plan_view_table(&p->view, &s->table);
    s->borrowed = true;
    return gp_report_add_rent_own(r, p);
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
    if (format == GP_REPORT_FOCUS)
        return gp_report_render_focus(r, stream);
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
