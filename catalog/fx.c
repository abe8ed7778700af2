/* Parsing data/fx.json and looking up the rate in force at a given time. */
#include "catalog/fx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/data.h"
#include "util/error.h"
#include "util/json.h"
#include "util/text.h"
#include "util/timeutil.h"

static int parse_rate(struct gp_json_reader *r, const cJSON *item, const char *source,
                      struct gp_fx_rate *rate)
{
    static const char *const keys[] = {"date", "currency", "per_usd", "source", NULL};
    char date[32] = "";
    int rc;

    if (!cJSON_IsObject(item))
        return gp_json_fail(r, NULL, "must be an object");
    memset(rate, 0, sizeof(*rate));
    rc = gp_json_check_keys(r, item, keys);
    if (!rc)
        rc = gp_json_string(r, item, "date", date, sizeof(date), GP_JSON_REQUIRED);
    if (!rc && gp_time_parse(date, &rate->date))
        rc = gp_json_fail(r, "date", "'%s' is not a date (YYYY-MM-DD)", date);
    if (!rc)
        rc = gp_json_string(r, item, "currency", rate->currency, sizeof(rate->currency),
                            GP_JSON_REQUIRED);
    if (!rc && strlen(rate->currency) != 3)
        rc = gp_json_fail(r, "currency", "must be a three-letter ISO 4217 code");
    if (!rc)
        rc = gp_json_number(r, item, "per_usd", &rate->per_usd, GP_JSON_REQUIRED);
    if (!rc && !(rate->per_usd > 0))
        rc = gp_json_fail(r, "per_usd", "must be greater than zero");
    snprintf(rate->source, sizeof(rate->source), "%s", source);
    if (!rc) /* a rate from elsewhere than the file's source says so */
        rc =
            gp_json_string(r, item, "source", rate->source, sizeof(rate->source), GP_JSON_OPTIONAL);
    return rc;
}

static int read_rate(struct gp_json_reader *r, const cJSON *item, void *rates, size_t index,
                     const void *source)
{
    return parse_rate(r, item, source, (struct gp_fx_rate *)rates + index);
}

int gp_fx_parse(struct gp_fx_table *out, const char *text, size_t len, const char *origin)
{
    static const char *const keys[] = {"schema_version", "base", "notes", "source", "rates", NULL};
    struct gp_json_reader r;
    cJSON *root = NULL;
    char base[8] = "", source[256] = "";
    void *list = NULL;
    size_t n = 0;
    int rc;

    out->rates = NULL;
    out->count = 0;
    gp_json_reader_init(&r, origin, text, len);
    rc = gp_json_parse(&root, text, len, origin);
    if (!rc && !cJSON_IsObject(root))
        rc = gp_json_fail(&r, NULL, "must be an object");
    if (!rc)
        rc = gp_json_check_keys(&r, root, keys);
    if (!rc)
        rc = gp_json_string(&r, root, "base", base, sizeof(base), GP_JSON_REQUIRED);
    if (!rc && strcmp(base, "USD") != 0)
        rc = gp_json_fail(&r, "base", "must be \"USD\"");
    if (!rc)
        rc = gp_json_string(&r, root, "source", source, sizeof(source), GP_JSON_OPTIONAL);
    if (!rc)
        rc = gp_json_read_list(&list, &n, &r, root, "rates", sizeof(struct gp_fx_rate), read_rate,
                               source);
    if (rc)
        goto done;
    out->rates = list;
    out->count = n;
    list = NULL;
done:
    free(list);
    cJSON_Delete(root);
    return rc;
}

static int parse_fx(void *out, const char *text, size_t len, const char *origin)
{
    return gp_fx_parse(out, text, len, origin);
}

int gp_fx_load(struct gp_fx_table *out)
{
    return gp_data_parse_file("fx.json", parse_fx, out);
}

void gp_fx_release(struct gp_fx_table *fx)
{
    if (!fx)
        return;
    free(fx->rates);
    fx->rates = NULL;
    fx->count = 0;
}

int gp_fx_per_usd(const struct gp_fx_table *fx, const char *currency, int64_t at, double *out)
{
    const struct gp_fx_rate *best = NULL, *earliest = NULL;

    if (strcmp(currency, "USD") == 0) {
        *out = 1.0;
        return 0;
    }
    for (size_t i = 0; i < fx->count; i++) {
        const struct gp_fx_rate *rate = &fx->rates[i];
        if (strcmp(rate->currency, currency) != 0)
            continue;
        if (!earliest || rate->date < earliest->date)
            earliest = rate;
        if (rate->date <= at && (!best || rate->date > best->date))
            best = rate;
    }
    if (!best)
        best = earliest;
    if (!best)
        return gp_error_set(GP_ENOTFOUND, "no exchange rate for %s", currency);
    *out = best->per_usd;
    return 0;
}

const char *const gp_fx_report_currencies[] = {"USD", "EUR", "DKK", NULL};

bool gp_fx_is_report_currency(const char *code)
{
    for (size_t i = 0; gp_fx_report_currencies[i]; i++)
        if (strcmp(gp_fx_report_currencies[i], code) == 0)
            return true;
    return false;
}

void gp_fx_report_currencies_text(char *out, size_t size, const char *sep, const char *last)
{
    gp_text_join(out, size, gp_fx_report_currencies, sep, last);
}
