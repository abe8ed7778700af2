/* The plan column descriptors and the view that reads plan rows through them. */
#include "report/plan_table.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "planner/model.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/text.h"
#include "util/timeutil.h"

#define AT(field) offsetof(struct gp_plan_row, field)
#define COL(name, kind, decimals, header, unit, style, rank, read, offset, kinds, listed, need)    \
    {                                                                                              \
        {name, GP_CELL_##kind, decimals}, {header, unit, GP_STYLE_##style, rank},                  \
            GP_PLAN_READ_##read, offset, GP_PLAN_##kinds, GP_PLAN_##listed, GP_PLAN_NEED_##need    \
    }

/* Name, cell kind, decimals; header ("{c}": the currency code), unit, style, fit rank; how to read
 * it, field offset, the kinds whose rows hold a value, the kinds whose tables list it, what else a
 * value needs. A fit rank >= 0 puts the column in the compact terminal set; a narrow terminal drops
 * the highest ranks first, and never rank 0. */
/* clang-format off */
const struct gp_plan_column gp_plan_columns[] = {
    COL("gpu", TEXT, 0, "GPU", NULL, TEXT, 0,
        TEXT, AT(gpu), ALL, ALL, NONE),
    COL("vendor", TEXT, 0, "vendor", NULL, TEXT, -1,
        VENDOR, 0, ALL, ALL, NONE),
    COL("precision", TEXT, 0, "prec", NULL, TEXT, -1,
        PRECISION, 0, ALL, ALL, NONE),
    COL("tp", INT, 0, "TP", "GPUs per replica", COUNT, -1,
        INT, AT(tp), ALL, ALL, SIZED),
    COL("ep", INT, 0, "EP", "expert-parallel GPUs per replica", COUNT, -1,
        INT, AT(ep), INFERENCE, INFERENCE, SIZED),
    COL("layout", TEXT, 0, "layout", NULL, TEXT, -1,
        LAYOUT, 0, INFERENCE, INFERENCE, SIZED),
    COL("replicas", INT, 0, "replicas", NULL, COUNT, -1,
        INT, AT(replicas), ALL, ALL, SIZED),
    COL("gpus", INT, 0, "GPUs", "GPUs", COUNT, 1,
        INT, AT(gpus), ALL, ALL, SIZED),
    COL("gpus_needed", INT, 0, "GPUs needed", "GPUs", COUNT, -1,
        INT, AT(gpus_needed), ALL, ALL, SIZED),
    COL("nodes", INT, 0, "nodes", NULL, COUNT, -1,
        INT, AT(nodes), ALL, ALL, SIZED),
    COL("instances", INT, 0, "inst", "whole instances", COUNT, -1,
        INT, AT(instances), ALL, ALL, BOUGHT),
    COL("instance_type", TEXT, 0, "instance", NULL, TEXT, 6,
        TEXT, AT(instance_type), ALL, ALL, TEXT),
    COL("gpus_per_instance", INT, 0, "GPUs/inst", "GPUs per instance", COUNT, -1,
        INT, AT(gpus_per_instance), ALL, ALL, NONZERO),
    COL("provider", TEXT, 0, "provider", NULL, TEXT, 5,
        TEXT, AT(provider), ALL, ALL, TEXT),
    COL("region", TEXT, 0, "region", NULL, TEXT, -1,
        TEXT, AT(region), ALL, ALL, TEXT),
    COL("cluster", TEXT, 0, "cluster", NULL, TEXT, -1,
        CLUSTER, AT(cluster.nodes), ALL, ALL, NONZERO),
    COL("headroom", NUMBER, 3, "headroom", "capacity / target - 1", PERCENT, -1,
        NUMBER, AT(headroom), ALL, ALL, BOUGHT),
    COL("batch", INT, 0, "batch", "sequences", COUNT, -1,
        INT, AT(batch), MODELLED, ALL, SIZED),
    COL("tokens_per_s", NUMBER, 1, "tok/s", "tokens/s", PLAIN, -1,
        NUMBER, AT(tokens_per_s), MODELLED, ALL, SIZED),
    COL("tokens_per_s_per_gpu", NUMBER, 1, "tok/s/GPU", "tokens/s per GPU", PLAIN, 5,
        NUMBER, AT(tokens_per_s_per_gpu), MODELLED, ALL, SIZED),
    COL("ttft_ms", NUMBER, 1, "TTFT ms", "ms", PLAIN, 7,
        NUMBER, AT(ttft_ms), INFERENCE, ALL, SIZED),
    COL("tpot_ms", NUMBER, 1, "TPOT ms", "ms", PLAIN, 8,
        NUMBER, AT(tpot_ms), INFERENCE, ALL, SIZED),
    COL("bound", TEXT, 0, "bound", NULL, TEXT, -1,
        BOUND, 0, ALL, ALL, SIZED),
    COL("it_kw", NUMBER, 2, "IT kW", "kW", PLAIN, -1,
        NUMBER, AT(it_kw), ALL, ALL, SIZED),
    COL("facility_kw", NUMBER, 2, "facility kW", "kW", PLAIN, -1,
        NUMBER, AT(facility_kw), ALL, ALL, SIZED),
    COL("price_per_gpu_hour", NUMBER, 3, "{c}/GPU-h", "per GPU-hour", CURRENCY, -1,
        MONEY, AT(price_per_gpu_hour), ALL, ALL, PRICE),
    COL("price_tier", TEXT, 0, "tier", NULL, TEXT, -1,
        TEXT, AT(price_tier), ALL, ALL, NONE),
    COL("price_source", TEXT, 0, "price source", NULL, TEXT, -1,
        TEXT, AT(price_source), ALL, ALL, TEXT),
    COL("price_date", TEXT, 0, "price date", NULL, DATE, -1,
        TEXT, AT(price_date), ALL, ALL, TEXT),
    COL("price_mix", TEXT, 0, "bought as", NULL, TEXT, -1,
        TEXT, AT(price_mix), ALL, ALL, TEXT),
    COL("cost_per_hour", NUMBER, 2, "{c}/h", "per hour", CURRENCY, 6,
        MONEY, AT(cost_per_hour), ALL, ALL, PRICE),
    COL("cost_per_month", NUMBER, 0, "{c}/month", GP_MONTH_TEXT, CURRENCY, 4,
        MONEY, AT(cost_per_month), ALL, ALL, PRICE),
    COL("upfront", NUMBER, 0, "upfront {c}", "paid at the start of terms", CURRENCY, -1,
        MONEY, AT(upfront), ALL, ALL, NONZERO),
    COL("break_even_months", NUMBER, 1, "break-even mo", "months owning beats renting", PLAIN, -1,
        NUMBER, AT(break_even_months), ALL, ALL, NONZERO),
    COL("horizon_months", INT, 0, "horizon mo", "months owning and renting are compared over",
        COUNT, -1, INT, AT(rent_own.months), ALL, OWNED_ALL, NONZERO),
    COL("rent_per_month", NUMBER, 0, "rent {c}/month", "the same fleet rented", CURRENCY, -1,
        MONEY, AT(rent_own.rent_per_month), ALL, OWNED_ALL, NONZERO),
    COL("rented_from", TEXT, 0, "rented from", NULL, TEXT, -1,
        TEXT, AT(rent_own.rented_from), ALL, OWNED_ALL, TEXT),
    COL("own_total", NUMBER, 0, "own {c} over horizon", "capital and running costs", CURRENCY,
        -1, MONEY, AT(rent_own.own_total), ALL, OWNED_ALL, NONZERO),
    COL("rent_total", NUMBER, 0, "rent {c} over horizon", "the same fleet rented", CURRENCY, -1,
        MONEY, AT(rent_own.rent_total), ALL, OWNED_ALL, NONZERO),
    COL("break_even_low", NUMBER, 1, "break-even low mo", "at the capex estimate's low", PLAIN,
        -1, NUMBER, AT(rent_own.break_even_low), ALL, OWNED_ALL, NONZERO),
    COL("break_even_high", NUMBER, 1, "break-even high mo", "at the capex estimate's high", PLAIN,
        -1, NUMBER, AT(rent_own.break_even_high), ALL, OWNED_ALL, NONZERO),
    COL("cost_per_mtok", NUMBER, 4, "{c}/Mtok", "per million tokens", CURRENCY, 2,
        MONEY, AT(cost_per_mtok), MODELLED, ALL, PRICE),
    COL("energy_cost_per_month", NUMBER, 0, "energy {c}/month", GP_MONTH_TEXT, CURRENCY, -1,
        MONEY, AT(energy_cost_per_month), ALL, ALL, SIZED),
    COL("efficiency_source", TEXT, 0, "efficiency", NULL, TEXT, -1,
        TEXT, AT(efficiency_source), ALL, ALL, NONE),
    COL("stack", TEXT, 0, "stack", NULL, TEXT, -1,
        TEXT, AT(stack), ALL, ALL, TEXT),
    COL("notes", TEXT, 0, "notes", NULL, TEXT, 3,
        NOTES, 0, ALL, ALL, NONE),
    COL("train_hours", NUMBER, 1, "train h", "h", PLAIN, 5,
        NUMBER, AT(train_hours), TRAINING, TRAINING, SIZED),
    COL("gpu_hours", NUMBER, 0, "GPU-h", "GPU-hours", PLAIN, -1,
        NUMBER, AT(gpu_hours), TRAINING, TRAINING, SIZED),
    COL("total_cost", NUMBER, 0, "{c}/run", "per run", CURRENCY, 2,
        MONEY, AT(total_cost), TRAINING, TRAINING, PRICE),
    COL("mfu", NUMBER, 3, "MFU", "fraction of peak", PERCENT, 8,
        NUMBER, AT(mfu), TRAINING, TRAINING, SIZED),
    COL("jobs_per_hour", NUMBER, 1, "jobs/h", "jobs/h", PLAIN, 5,
        NUMBER, AT(jobs_per_hour), GENERIC, GENERIC, SIZED),
    COL("cost_per_job", NUMBER, 6, "{c}/job", "per job", CURRENCY, 2,
        MONEY, AT(total_cost), GENERIC, GENERIC, PRICE),
    COL("energy_kwh_per_month", NUMBER, 0, "kWh/month", "kWh per month", PLAIN, -1,
        NUMBER, AT(energy_kwh_per_month), ALL, ALL, SIZED),
    COL("site_pue", NUMBER, 2, "PUE", "facility/IT power", PLAIN, -1,
        NUMBER, AT(site.pue), ALL, SITE_ALL, SITE),
    COL("cooling", TEXT, 0, "cooling", NULL, TEXT, 8,
        COOLING, 0, ALL, SITE_ALL, SITE),
    COL("servers_per_rack", INT, 0, "srv/rack", "at the rack limit", COUNT, -1,
        INT, AT(site.servers_per_rack), ALL, SITE_ALL, SITE),
    COL("racks", INT, 0, "racks", NULL, COUNT, 7,
        INT, AT(site.racks), ALL, SITE_ALL, SITE),
    COL("floor_m2", NUMBER, 0, "floor m2", "aisles included", PLAIN, -1,
        NUMBER, AT(site.floor_m2), ALL, SITE_ALL, SITE),
    COL("users", INT, 0, "users", "sequences at once", COUNT, -1,
        INT, AT(site.users), INFERENCE, SITE_INFERENCE, SITE),
    COL("energy_price_kwh", NUMBER, 4, "{c}/kWh", "all-in, mean spot", CURRENCY, -1,
        MONEY, AT(site.energy_price_kwh), ALL, SITE_ALL, SITE),
    COL("energy_p90_per_month", NUMBER, 0, "energy p90 {c}/month", GP_MONTH_TEXT, CURRENCY,
        -1, MONEY, AT(site.energy_cost_p90_per_month), ALL, SITE_ALL, NONZERO),
    COL("heat_credit_per_month", NUMBER, 0, "heat credit {c}/month", GP_MONTH_TEXT, CURRENCY, -1,
        MONEY, AT(site.heat_credit_per_month), ALL, SITE_ALL, NONZERO),
    COL("colocation_per_month", NUMBER, 0, "colocation {c}/month", GP_MONTH_TEXT, CURRENCY, -1,
        MONEY, AT(site.colocation_per_month), ALL, SITE_ALL, NONZERO),
    COL("tokens_per_joule", NUMBER, 3, "tok/J", "tokens per joule of IT energy", PLAIN, -1,
        NUMBER, AT(tokens_per_joule), MODELLED, ALL, SIZED),
    COL("cost_low", NUMBER, 4, "low {c}/unit", "per unit of work", CURRENCY, -1,
        MONEY, AT(cost_low), ALL, ALL, PRICE),
    COL("cost_high", NUMBER, 4, "high {c}/unit", "per unit of work", CURRENCY, -1,
        MONEY, AT(cost_high), ALL, ALL, PRICE),
    COL("throughput_low", NUMBER, 1, "work/s/GPU low", "work per second per GPU", PLAIN, -1,
        NUMBER, AT(throughput_low), ALL, ALL, SIZED),
    COL("throughput_high", NUMBER, 1, "work/s/GPU high", "work per second per GPU", PLAIN, -1,
        NUMBER, AT(throughput_high), ALL, ALL, SIZED),
    COL("currency", TEXT, 0, "currency", NULL, TEXT, -1,
        CURRENCY, 0, ALL, ALL, NONE),
};
/* clang-format on */
const size_t gp_plan_column_count = sizeof(gp_plan_columns) / sizeof(gp_plan_columns[0]);

/* Whether the int or double the column reads is not 0 (0 means "does not apply"). */
static bool nonzero(const struct gp_plan_column *d, const struct gp_plan_row *r)
{
    const char *field = (const char *)r + d->offset;
    double number;
    int whole;

    if (d->read == GP_PLAN_READ_INT || d->read == GP_PLAN_READ_CLUSTER) {
        memcpy(&whole, field, sizeof(whole));
        return whole != 0;
    }
    memcpy(&number, field, sizeof(number));
    return number != 0;
}

/* The needs (bits of enum gp_plan_need) row `r` meets; TEXT and NONZERO still look at the
 * column's field. */
static inline unsigned needs_met(const struct gp_plan_row *r)
{
    unsigned sized = r->gpus > 0, priced = sized && r->price_known, site = sized && r->site.set;

    return 1u << GP_PLAN_NEED_NONE | sized << GP_PLAN_NEED_SIZED | priced << GP_PLAN_NEED_PRICE |
           1u << GP_PLAN_NEED_TEXT | sized << GP_PLAN_NEED_NONZERO |
           (unsigned)(priced && r->instances > 0) << GP_PLAN_NEED_BOUGHT |
           site << GP_PLAN_NEED_SITE;
}

/* Whether row `r`, which meets `met` (needs_met), has a value in column `d`. */
static inline bool has_value(const struct gp_plan_column *d, const struct gp_plan_row *r,
                             unsigned met)
{
    if (!(d->kinds & GP_PLAN_KIND(r->kind)) || !(met >> d->need & 1))
        return false;
    if (d->need == GP_PLAN_NEED_TEXT)
        return ((const char *)r + d->offset)[0] != '\0';
    return d->need != GP_PLAN_NEED_NONZERO || nonzero(d, r);
}

static void set_text(struct gp_value *out, const char *text)
{
    out->kind = GP_CELL_TEXT;
    out->text = text;
}

static void set_number(struct gp_value *out, enum gp_cell_kind kind, double number)
{
    out->kind = kind;
    out->number = number;
}

/* The value of row `r` of view `v`, which meets `met` (needs_met) and belongs to the sweep
 * point whose value is `swept`, in column `d` (NULL: the sweep column). Inline: the CSV writer
 * reads every cell through here. */
static inline void read_cell(const struct gp_plan_view *v, const struct gp_plan_column *d,
                             const char *swept, const struct gp_plan_row *r, unsigned met,
                             struct gp_value *out, char *scratch, size_t size)
{
    const char *field;
    int whole;
    double number;

    out->kind = GP_CELL_EMPTY;
    if (!d) {
        set_text(out, swept);
        return;
    }
    if (!has_value(d, r, met))
        return;
    field = (const char *)r + d->offset;
    switch (d->read) {
    case GP_PLAN_READ_TEXT:
        set_text(out, field);
        break;
    case GP_PLAN_READ_INT:
        memcpy(&whole, field, sizeof(whole));
        set_number(out, GP_CELL_INT, whole);
        break;
    case GP_PLAN_READ_NUMBER:
    case GP_PLAN_READ_MONEY:
        memcpy(&number, field, sizeof(number));
        set_number(out, GP_CELL_NUMBER, d->read == GP_PLAN_READ_MONEY ? number * v->fx : number);
        break;
    case GP_PLAN_READ_VENDOR:
        set_text(out, gp_vendor_name(r->vendor));
        break;
    case GP_PLAN_READ_PRECISION:
        set_text(out, gp_precision_name(r->precision));
        break;
    case GP_PLAN_READ_BOUND:
        set_text(out, gp_bound_name(r->bound));
        break;
    case GP_PLAN_READ_LAYOUT:
        gp_layout_format(scratch, size, r->layout, r->replica_gpus);
        set_text(out, scratch);
        break;
    case GP_PLAN_READ_CLUSTER:
        set_text(out, gp_plan_cluster_format(scratch, size, &r->cluster));
        break;
    case GP_PLAN_READ_NOTES:
        gp_notes_format(scratch, size, r->notes);
        set_text(out, scratch);
        break;
    case GP_PLAN_READ_CURRENCY:
        set_text(out, v->currency);
        break;
    case GP_PLAN_READ_COOLING:
        set_text(out, gp_cooling_name((enum gp_cooling)r->site.cooling));
        break;
    }
}

/* gp_table_read_fn over a struct gp_plan_view. */
static void read_value(const void *source, size_t row, size_t col, struct gp_value *out,
                       char *scratch, size_t size)
{
    const struct gp_plan_view *v = source;
    const struct gp_plan_row *r = &v->rows[row];
    const struct gp_plan_column *d = v->used[col];
    /* the swept value only for its column: the division is dearer than the rest of a cell */
    const char *swept =
        d || !v->sweep_values ? "" : v->sweep_values + row / v->group * v->sweep_stride;

    read_cell(v, d, swept, r, needs_met(r), out, scratch, size);
}

/* Append row `row` of `v` to `line` as a CSV line, CRLF included: each cell through one cursor,
 * in room made once for the row. Returns 0, or GP_ENOMEM or GP_EINVALID. */
static int csv_line(struct gp_buf *line, const struct gp_plan_view *v, size_t row,
                    const char *swept, const struct gp_csv_style *style, char *scratch, size_t size)
{
    const size_t room = 1 + GP_CSV_CELL_ROOM; /* a separator and a cell */
    const struct gp_plan_row *r = &v->rows[row];
    struct gp_value value = {GP_CELL_EMPTY, 0.0, NULL};
    unsigned met = needs_met(r);
    int rc;

    char *out;
    if ((rc = gp_buf_room(line, v->ncols * room + 2, &out)))
        return rc;
    for (size_t c = 0; c < v->ncols; c++) {
        const struct gp_plan_column *d = v->used[c];
        if (c > 0)
            *out++ = style->separator;
        read_cell(v, d, swept, r, met, &value, scratch, size);
        char *end = gp_csv_put_cell(out, &value, d ? d->column.decimals : 0, style);
        if (end) {
            out = end;
            continue;
        }
        /* text that needs quotes: written through the line, which then makes room anew */
        gp_buf_commit(line, out);
        if ((rc = gp_csv_put_any_text(line, value.text, style)) ||
            (rc = gp_buf_room(line, (v->ncols - c) * room, &out)))
            return rc;
    }
    *out++ = '\r';
    *out++ = '\n';
    gp_buf_commit(line, out);
    return 0;
}

/* The lines are handed to `out` in blocks of about this many bytes. */
enum { WRITE_AT = 16384 };

int gp_plan_view_csv_rows(const struct gp_plan_view *v, const struct gp_csv_style *style, FILE *out)
{
    struct gp_buf line = GP_BUF_INIT;
    char scratch[512]; /* a value's text while it is copied: the notes, at most 18 names */
    int rc = 0;

    /* the row's swept value (NULL: no sweep) steps once per `group` rows, with no division */
    const char *swept = v->sweep_values;
    for (size_t row = 0, in_point = 0; rc == 0 && row < v->nrows; row++) {
        rc = csv_line(&line, v, row, swept ? swept : "", style, scratch, sizeof(scratch));
        if (swept && ++in_point == v->group) {
            swept += v->sweep_stride;
            in_point = 0;
        }
        if (rc == 0 && (line.len >= WRITE_AT || row + 1 == v->nrows))
            rc = gp_csv_write_lines(&line, out);
    }
    gp_buf_release(&line);
    if (rc == 0 && ferror(out))
        rc = gp_error_set(GP_ERROR, "cannot write output");
    return rc;
}

static void use(struct gp_plan_view *v, const struct gp_plan_column *d)
{
    v->used[v->ncols++] = d;
}

void gp_plan_view_init(struct gp_plan_view *v, const struct gp_plan_row *rows, size_t nrows,
                       enum gp_workload_kind kind, const char *currency, double fx)
{
    /* a plan's rows are all at its site or none, and all owned or none */
    unsigned listing = (nrows > 0 && rows[0].site.set ? GP_PLAN_AT_SITE : 0) |
                       (nrows > 0 && rows[0].owned ? GP_PLAN_WHEN_OWNED : 0);
    gp_plan_view_init_at(v, rows, nrows, kind, currency, fx, listing);
}

void gp_plan_view_init_at(struct gp_plan_view *v, const struct gp_plan_row *rows, size_t nrows,
                          enum gp_workload_kind kind, const char *currency, double fx,
                          unsigned listing)
{
    const unsigned conditional = GP_PLAN_AT_SITE | GP_PLAN_WHEN_OWNED;

    memset(v, 0, sizeof(*v));
    v->rows = rows;
    v->nrows = nrows;
    v->kind = kind;
    v->group = 1;
    v->currency = currency;
    v->fx = fx;
    for (size_t i = 0; i < gp_plan_column_count; i++) {
        unsigned listed = gp_plan_columns[i].listed;
        if ((listed & GP_PLAN_KIND(kind)) && (listed & conditional & ~listing) == 0)
            use(v, &gp_plan_columns[i]);
    }
}

const struct gp_plan_column *gp_plan_column_find(const char *name)
{
    for (size_t i = 0; i < gp_plan_column_count; i++)
        if (strcmp(gp_plan_columns[i].column.name, name) == 0)
            return &gp_plan_columns[i];
    return NULL;
}

void gp_plan_view_sweep(struct gp_plan_view *v, const char *key, const char *values, size_t stride,
                        size_t group)
{
    bool taken = false;

    for (size_t c = 0; c < v->ncols; c++)
        taken |= v->used[c] && strcmp(v->used[c]->column.name, key) == 0;
    snprintf(v->sweep_name, sizeof(v->sweep_name), "%s%.50s", taken ? "sweep_" : "", key);
    v->sweep_key = v->sweep_name + (taken ? strlen("sweep_") : 0);
    if (v->ncols == GP_PLAN_COLUMNS_MAX)
        v->ncols--;
    memmove(&v->used[1], &v->used[0], v->ncols * sizeof(v->used[0]));
    v->used[0] = NULL;
    v->ncols++;
    v->sweep_values = values;
    v->sweep_stride = stride;
    v->group = group ? group : 1;
}

static bool is_compact(const struct gp_plan_column *d, enum gp_workload_kind kind)
{
    return d->look.fit_rank >= 0 && (d->kinds & GP_PLAN_KIND(kind));
}

/* The compact set keeps the descriptor order but puts the notes, free text of any width, last;
 * its columns give way to a narrow terminal by their fit rank. */
void gp_plan_view_compact(struct gp_plan_view *v, bool with_stack)
{
    const struct gp_plan_column *notes = NULL;
    size_t n = 0;

    for (size_t c = 0; c < v->ncols; c++) {
        const struct gp_plan_column *d = v->used[c];
        if (d && d->read == GP_PLAN_READ_NOTES)
            notes = d;
        else if (!d || is_compact(d, v->kind) ||
                 (with_stack && strcmp(d->column.name, "stack") == 0))
            v->used[n++] = d;
    }
    if (notes)
        v->used[n++] = notes;
    v->ncols = n;
    v->compact = true;
}

/* The names of the columns that apply to `kind`, NULL-terminated, for suggestions. */
static void applicable_names(const char **names, enum gp_workload_kind kind)
{
    size_t n = 0;

    for (size_t i = 0; i < gp_plan_column_count; i++)
        if (gp_plan_columns[i].kinds & GP_PLAN_KIND(kind))
            names[n++] = gp_plan_columns[i].column.name;
    names[n] = NULL;
}

/* The column `name` names for `kind`, or NULL with the error set. */
static const struct gp_plan_column *pick_one(const char *name, enum gp_workload_kind kind)
{
    const struct gp_plan_column *d = gp_plan_column_find(name);
    const char *names[GP_PLAN_COLUMNS_MAX + 1];
    const char *near;

    if (d && (d->kinds & GP_PLAN_KIND(kind)))
        return d;
    if (d) {
        gp_error_set(GP_EINVALID, "column '%s' does not apply to %s workloads", name,
                     gp_workload_kind_name(kind));
        return NULL;
    }
    applicable_names(names, kind);
    near = gp_text_nearest(name, names);
    if (near)
        gp_error_set(GP_EINVALID, "unknown column '%s' (did you mean '%s'?)", name, near);
    else
        gp_error_set(GP_EINVALID, "unknown column '%s' (see 'gpuplan help plan')", name);
    return NULL;
}

int gp_plan_view_pick(struct gp_plan_view *v, const char *list)
{
    const struct gp_plan_column *picked[GP_PLAN_COLUMNS_MAX];
    size_t n = 0;
    char name[64];

    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof(name))
            return gp_error_set(GP_EINVALID, "'%s': expected NAME,NAME,...", list);
        memcpy(name, p, len);
        name[len] = '\0';
        if (n == GP_PLAN_COLUMNS_MAX)
            return gp_error_set(GP_EINVALID, "'%s': more than %d columns", list,
                                GP_PLAN_COLUMNS_MAX);
        if (!(picked[n++] = pick_one(name, v->kind)))
            return GP_EINVALID;
        p += len + (p[len] == ',');
    }
    if (n == 0)
        return gp_error_set(GP_EINVALID, "no columns given");
    v->ncols = v->used[0] == NULL && v->ncols > 0 ? 1 : 0;
    for (size_t i = 0; i < n && v->ncols < GP_PLAN_COLUMNS_MAX; i++)
        use(v, picked[i]);
    v->compact = false;
    return 0;
}

static void header_for(char *out, size_t size, const char *header, const char *currency);

void gp_plan_column_header(char *out, size_t size, const struct gp_plan_column *d,
                           const char *currency)
{
    header_for(out, size, d->look.header, currency);
}

/* `header` with "{c}" replaced by the currency code, into out[size]. */
static void header_for(char *out, size_t size, const char *header, const char *currency)
{
    const char *mark = strstr(header, "{c}");

    if (mark)
        snprintf(out, size, "%.*s%s%s", (int)(mark - header), header, currency, mark + 3);
    else
        snprintf(out, size, "%s", header);
}

void gp_plan_view_table(struct gp_plan_view *v, struct gp_table *t)
{
    for (size_t c = 0; c < v->ncols; c++) {
        const struct gp_plan_column *d = v->used[c];
        if (!d) { /* people read the key itself; the name may carry "sweep_" */
            v->columns[c] = (struct gp_column){v->sweep_name, GP_CELL_TEXT, 0};
            header_for(v->headers[c], sizeof(v->headers[c]), v->sweep_key, v->currency);
            v->looks[c] = (struct gp_column_look){v->headers[c], NULL, GP_STYLE_TEXT, 0};
            continue;
        }
        v->columns[c] = d->column;
        v->looks[c] = d->look;
        header_for(v->headers[c], sizeof(v->headers[c]), d->look.header, v->currency);
        v->looks[c].header = v->headers[c];
        if (!v->compact) /* only the compact set gives way to a narrow terminal */
            v->looks[c].fit_rank = 0;
    }
    gp_table_init_source(t, v->columns, v->ncols, v->nrows, read_value, v);
    t->looks = v->looks;
}
