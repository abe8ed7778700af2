/* The plan's columns: one descriptor per figure of a plan row (name, header, unit, style, the
 * workload kinds it applies to and how to read it from a row). The one table drives the text,
 * CSV, JSON, xlsx and HTML output of `plan` and `report`; a new row field is one line here. */
#ifndef GP_REPORT_PLAN_TABLE_H
#define GP_REPORT_PLAN_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "planner/fleet.h"
#include "report/csv.h"
#include "report/table.h"

/* How a column's value is read from a struct gp_plan_row. */
enum gp_plan_read {
    GP_PLAN_READ_TEXT,      /* char[] at `offset` */
    GP_PLAN_READ_INT,       /* int at `offset` */
    GP_PLAN_READ_NUMBER,    /* double at `offset` */
    GP_PLAN_READ_MONEY,     /* double in USD at `offset`, shown in the view's currency */
    GP_PLAN_READ_VENDOR,    /* the vendor's name */
    GP_PLAN_READ_PRECISION, /* the precision's name */
    GP_PLAN_READ_BOUND,     /* what limits the configuration */
    GP_PLAN_READ_LAYOUT,    /* the inference layout, "tep8" */
    GP_PLAN_READ_CLUSTER,   /* the cluster bought, "13 x 8-GPU nodes, 3200 Gb/s InfiniBand" */
    GP_PLAN_READ_NOTES,     /* the note bits as "a,b" */
    GP_PLAN_READ_CURRENCY,  /* the view's currency code */
    GP_PLAN_READ_COOLING,   /* the cooling a site's row needs, "air" or "liquid" */
};

/* What else a row must have for the column to hold a value. */
enum gp_plan_need {
    GP_PLAN_NEED_NONE,    /* always a value (text may be "") */
    GP_PLAN_NEED_SIZED,   /* a fleet was sized (gpus > 0) */
    GP_PLAN_NEED_PRICE,   /* sized and priced */
    GP_PLAN_NEED_TEXT,    /* text that is not empty */
    GP_PLAN_NEED_NONZERO, /* sized, and a number that is not 0 (0: does not apply) */
    GP_PLAN_NEED_BOUGHT,  /* priced, and bought in instances (not owned) */
    GP_PLAN_NEED_SITE,    /* sized at a site (--site) */
};

/* Bits for gp_plan_column.kinds and .listed. */
#define GP_PLAN_KIND(k)   (1u << (unsigned)(k))
#define GP_PLAN_INFERENCE GP_PLAN_KIND(GP_WORKLOAD_INFERENCE)
#define GP_PLAN_TRAINING  GP_PLAN_KIND(GP_WORKLOAD_TRAINING)
#define GP_PLAN_GENERIC   GP_PLAN_KIND(GP_WORKLOAD_GENERIC)
#define GP_PLAN_MODELLED  (GP_PLAN_INFERENCE | GP_PLAN_TRAINING)
#define GP_PLAN_ALL       (GP_PLAN_MODELLED | GP_PLAN_GENERIC)
/* In .listed: the column is listed only in a plan at a site, or only in an owned plan. */
#define GP_PLAN_AT_SITE        (1u << 8)
#define GP_PLAN_WHEN_OWNED     (1u << 9)
#define GP_PLAN_SITE_ALL       (GP_PLAN_ALL | GP_PLAN_AT_SITE)
#define GP_PLAN_SITE_INFERENCE (GP_PLAN_INFERENCE | GP_PLAN_AT_SITE)
#define GP_PLAN_OWNED_ALL      (GP_PLAN_ALL | GP_PLAN_WHEN_OWNED)

struct gp_plan_column {
    struct gp_column column;    /* name (CSV/JSON key), kind, decimals */
    struct gp_column_look look; /* header, unit, style; a fit_rank >= 0 puts the column in
                                   the compact terminal set */
    enum gp_plan_read read;
    size_t offset;          /* of the field in struct gp_plan_row, for the offset reads */
    unsigned kinds;         /* GP_PLAN_* bits: workload kinds whose rows hold a value */
    unsigned listed;        /* kinds whose full tables list the column (a superset of kinds,
                               so that the common columns of every kind come in one order) */
    enum gp_plan_need need; /* what else a row needs for a value */
};

/* Every plan column, in output order. */
extern const struct gp_plan_column gp_plan_columns[];
extern const size_t gp_plan_column_count;

#define GP_PLAN_COLUMNS_MAX 80

/*
 * A view of plan rows as a table: which columns, in which currency, with the swept value in
 * front when there is a sweep. Holds no allocation; the rows and sweep values are borrowed and
 * must outlive it. It points into itself: never copy one, make another.
 */
struct gp_plan_view {
    const struct gp_plan_row *rows; /* borrowed, `nrows` */
    size_t nrows;
    enum gp_workload_kind kind;
    size_t group;             /* rows per sweep point (the GPU types), >= 1 */
    const char *sweep_values; /* borrowed, one string per sweep point, each in
                                 `sweep_stride` bytes; NULL = no sweep */
    size_t sweep_stride;
    char sweep_name[64];   /* the sweep column's name */
    const char *sweep_key; /* the swept key, inside sweep_name */
    const char *currency;  /* borrowed ISO code of the money columns */
    double fx;             /* currency units per USD */
    size_t ncols;
    const struct gp_plan_column *used[GP_PLAN_COLUMNS_MAX]; /* NULL = the sweep column */
    bool compact;                                           /* the compact terminal set */
    /* Filled by gp_plan_view_table from `used`: */
    struct gp_column columns[GP_PLAN_COLUMNS_MAX];
    struct gp_column_look looks[GP_PLAN_COLUMNS_MAX];
    char headers[GP_PLAN_COLUMNS_MAX][32]; /* the looks' headers, currency filled in */
};

/* A view of every column listed for `kind` (those of a site too when the rows were planned at
 * one, and those of owning when they are owned), in `currency` at `fx` per USD. */
void gp_plan_view_init(struct gp_plan_view *v, const struct gp_plan_row *rows, size_t nrows,
                       enum gp_workload_kind kind, const char *currency, double fx);
/* gp_plan_view_init for rows that may not be planned yet (a streamed sweep): `listing` says
 * which conditional columns are listed (GP_PLAN_AT_SITE, GP_PLAN_WHEN_OWNED bits). */
void gp_plan_view_init_at(struct gp_plan_view *v, const struct gp_plan_row *rows, size_t nrows,
                          enum gp_workload_kind kind, const char *currency, double fx,
                          unsigned listing);

/* Put the swept key's column in front: `values` holds nrows / group strings, `stride` bytes
 * apart, one per run of `group` rows. Its name is the key, or "sweep_<key>" when a column
 * already has that name. */
void gp_plan_view_sweep(struct gp_plan_view *v, const char *key, const char *values, size_t stride,
                        size_t group);

/* Keep only the columns of the compact terminal set that apply to the view's kind, and the
 * stack column too when `with_stack` (rows of one GPU on several stacks: --compare-stacks). */
void gp_plan_view_compact(struct gp_plan_view *v, bool with_stack);

/* Keep only the columns named in `list` ("gpu,gpus,cost_per_month"), in that order (the sweep
 * column stays in front). An unknown name, or one that does not apply to the view's kind, fails
 * with GP_EINVALID naming it and the nearest column. */
int gp_plan_view_pick(struct gp_plan_view *v, const char *list);

/* The view as a table whose rows are read from the view; `t` borrows `v` (and any later change
 * to the view's columns needs a new call). */
void gp_plan_view_table(struct gp_plan_view *v, struct gp_table *t);

/* The view's rows as CSV lines in `style`: the bytes gp_render_csv_rows writes for the table of
 * gp_plan_view_table, each value read and written in one pass (a sweep's CSV streams through
 * here point by point). Returns 0, or GP_ENOMEM or GP_ERROR (writing failed), message set. */
int gp_plan_view_csv_rows(const struct gp_plan_view *v, const struct gp_csv_style *style,
                          FILE *out);

/* Column `d`'s header with `currency` for "{c}", into out[size]. */
void gp_plan_column_header(char *out, size_t size, const struct gp_plan_column *d,
                           const char *currency);

/* The plan column named `name`, or NULL. */
const struct gp_plan_column *gp_plan_column_find(const char *name);

#endif
