/* The report's price history: per GPU type and tier, the cheapest price on each day a price was
 * seen, as a section and as the points its chart is drawn from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sections.h"
#include "util/error.h"
#include "util/text.h"
#include "util/timeutil.h"

#define SECONDS_PER_DAY 86400

static const struct gp_column history_columns[] = {
    {"gpu", GP_CELL_TEXT, 0},
    {"tier", GP_CELL_TEXT, 0},
    {"date", GP_CELL_TEXT, 0},
    {"price_per_gpu_hour", GP_CELL_NUMBER, 3},
};
static const struct gp_column_look history_looks[] = {
    {"GPU", NULL, GP_STYLE_TEXT, 0},
    {"Tier", NULL, GP_STYLE_TEXT, 0},
    {"Date", NULL, GP_STYLE_DATE, 0},
    {"Cheapest price per GPU-hour", "per GPU-hour", GP_STYLE_CURRENCY, 0},
};

static const char history_key[] = "price-history";

int gp_report_begin_history(struct gp_report *r)
{
    struct gp_report_section *s = gp_report_add_section(r, history_key, "Price history");

    if (!s)
        return GP_EINVALID;
    gp_table_init(&s->table, history_columns, sizeof(history_columns) / sizeof(history_columns[0]));
    s->table.looks = history_looks;
    s->note = "Per GPU, the cheapest on-demand and spot price on each day a price was seen.";
    return 0;
}

static bool same_key(const struct gp_offer *a, const struct gp_offer *b)
{
    return strcmp(a->feed, b->feed) == 0 && strcmp(a->provider, b->provider) == 0 &&
           strcmp(a->region, b->region) == 0 && strcmp(a->instance_type, b->instance_type) == 0;
}

/* The cheapest price on `day` (USD per GPU-hour): over every offer key, its last observation
 * made by the end of the day; -1 when none was. Observations come grouped by key, oldest
 * first. */
static double cheapest_on(const struct gp_offer *obs, size_t n, int64_t day)
{
    int64_t end = day + SECONDS_PER_DAY;
    double best = -1;

    for (size_t i = 0; i < n; i++) {
        bool last = i + 1 == n || !same_key(&obs[i], &obs[i + 1]) || obs[i + 1].observed_at >= end;
        if (obs[i].observed_at < end && last && (best < 0 || obs[i].usd_per_gpu_hour < best))
            best = obs[i].usd_per_gpu_hour;
    }
    return best;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* One day's point, as a section row and as a chart point. */
static int add_day(struct gp_report *r, struct gp_table *t, const char *gpu, const char *tier,
                   int64_t day, double price)
{
    struct gp_report_price_point *pt = &r->history[r->nhistory++];
    char date[16];
    int rc;

    memset(pt, 0, sizeof(*pt));
    gp_text_copy(pt->gpu, sizeof(pt->gpu), gpu);
    gp_text_copy(pt->tier, sizeof(pt->tier), tier);
    pt->day = day;
    pt->price = price;
    gp_report_note_gpu(r, gpu);
    gp_time_format_date(day, date, sizeof(date));
    rc = gp_table_add_row(t);
    rc = rc ? rc : gp_table_set_text(t, "gpu", "%s", gpu);
    rc = rc ? rc : gp_table_set_text(t, "tier", "%s", tier);
    rc = rc ? rc : gp_table_set_text(t, "date", "%s", date);
    return rc ? rc : gp_table_set_number(t, "price_per_gpu_hour", price);
}

int gp_report_add_history(struct gp_report *r, const char *gpu, enum gp_tier tier,
                          const struct gp_offer *obs, size_t n, double fx_per_usd)
{
    struct gp_report_section *s = gp_report_find_section(r, history_key);
    int64_t *days = malloc((n ? n : 1) * sizeof(*days));
    struct gp_report_price_point *grown =
        realloc(r->history, (r->nhistory + n + 1) * sizeof(*grown));
    int rc = s ? 0 : GP_EINVALID;

    if (grown)
        r->history = grown;
    if (!days || !grown) {
        free(days);
        return gp_error_set(GP_ENOMEM, "out of memory reading the price history");
    }
    for (size_t i = 0; i < n; i++)
        days[i] = obs[i].observed_at - obs[i].observed_at % SECONDS_PER_DAY;
    qsort(days, n, sizeof(*days), cmp_i64);
    for (size_t d = 0; rc == 0 && d < n; d++) {
        double usd = d > 0 && days[d] == days[d - 1] ? -1 : cheapest_on(obs, n, days[d]);
        if (usd >= 0)
            rc = add_day(r, &s->table, gpu, gp_tier_name(tier), days[d], usd * fx_per_usd);
    }
    free(days);
    return rc == GP_EINVALID ? gp_error_set(rc, "the price history was not begun") : rc;
}
