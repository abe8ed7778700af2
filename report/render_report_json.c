/* The JSON report: schema 2, plan's document for each workload under "plans", and every other
 * section as an array of row objects under "sections" (docs/cmd/report.md). */
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "util/error.h"
#include "util/json.h"
#include "util/timeutil.h"

enum { REPORT_SCHEMA_VERSION = 2 };

static cJSON *report_json(const struct gp_report *r)
{
    cJSON *doc = cJSON_CreateObject(), *plans = cJSON_CreateArray(),
          *sections = cJSON_CreateObject();
    char when[32];
    bool ok = doc && plans && sections;

    gp_time_format_stamp(r->generated_at, when, sizeof(when));
    ok = ok && cJSON_AddNumberToObject(doc, "schema_version", REPORT_SCHEMA_VERSION) &&
         cJSON_AddStringToObject(doc, "title", r->title) &&
         cJSON_AddStringToObject(doc, "author", r->author) &&
         cJSON_AddStringToObject(doc, "generated_at", when) &&
         cJSON_AddStringToObject(doc, "currency", r->currency) &&
         cJSON_AddStringToObject(doc, "gpuplan_version", r->version) &&
         cJSON_AddStringToObject(doc, "database", r->database);
    for (size_t i = 0; ok && i < r->nplans; i++) {
        cJSON *copy = cJSON_Duplicate(r->plans[i].document, 1);
        ok = copy && cJSON_AddItemToArray(plans, copy);
        if (!ok)
            cJSON_Delete(copy);
    }
    for (size_t i = 0; ok && i < r->nsections; i++) {
        const struct gp_report_section *s = &r->sections[i];
        if (strncmp(s->key, "plan-", 5) == 0)
            continue; /* in "plans", as plan prints it */
        cJSON *rows = gp_table_json_rows(&s->table);
        ok = rows && cJSON_AddItemToObject(sections, s->key, rows);
        if (!ok)
            cJSON_Delete(rows);
    }
    if (ok && cJSON_AddItemToObject(doc, "plans", plans)) {
        plans = NULL;
        if (cJSON_AddItemToObject(doc, "sections", sections))
            return doc;
    }
    cJSON_Delete(plans);
    cJSON_Delete(sections);
    cJSON_Delete(doc);
    return NULL;
}

int gp_report_render_json(const struct gp_report *r, FILE *out)
{
    cJSON *doc = report_json(r);
    char *text = gp_json_print(doc, true);
    int rc = 0;

    if (!text)
        rc = gp_error_set(GP_ENOMEM, "out of memory rendering the JSON report");
    else if (fputs(text, out) < 0 || fputc('\n', out) == EOF)
        rc = gp_error_set(GP_ERROR, "cannot write the JSON report");
    cJSON_free(text);
    cJSON_Delete(doc);
    return rc;
}
