/* The JSON renderer: {"schema_version": N, <meta members>, "rows": [{column: value}]}. */
#include <stdio.h>
#include <stdlib.h>

#include "report/table.h"
#include "util/error.h"
#include "util/json.h"

enum { SCRATCH_MAX = 512 };

static cJSON *value_json(const struct gp_table *t, size_t r, size_t c)
{
    char scratch[SCRATCH_MAX];
    struct gp_value value;

    gp_table_value(t, r, c, &value, scratch, sizeof(scratch));
    switch (value.kind) {
    case GP_CELL_TEXT:
        return cJSON_CreateString(value.text);
    case GP_CELL_NUMBER:
    case GP_CELL_INT:
        return cJSON_CreateNumber(value.number);
    default:
        return cJSON_CreateNull();
    }
}

cJSON *gp_table_json_rows(const struct gp_table *t)
{
    cJSON *rows = cJSON_CreateArray();

    for (size_t r = 0; rows && r < t->nrows; r++) {
        cJSON *row = cJSON_CreateObject();
        if (!row || !cJSON_AddItemToArray(rows, row)) {
            cJSON_Delete(row);
            cJSON_Delete(rows);
            return NULL;
        }
        for (size_t c = 0; c < t->ncols; c++) {
            cJSON *value = value_json(t, r, c);
            if (!value || !cJSON_AddItemToObject(row, t->columns[c].name, value)) {
                cJSON_Delete(value);
                cJSON_Delete(rows);
                return NULL;
            }
        }
        if (t->row_json && t->row_json(t->source, r, row)) {
            cJSON_Delete(rows);
            return NULL;
        }
    }
    return rows;
}

int gp_render_json(const struct gp_table *t, const struct gp_render_options *options, FILE *out)
{
    cJSON *doc = cJSON_CreateObject(), *rows = NULL, *member;
    char *text = NULL;
    int rc = 0;

    if (!doc || !cJSON_AddNumberToObject(doc, "schema_version",
                                         options->schema_version ? options->schema_version : 1))
        goto oom;
    if (t->meta) {
        cJSON_ArrayForEach(member, t->meta)
        {
            cJSON *copy = cJSON_Duplicate(member, 1);
            if (!copy || !cJSON_AddItemToObject(doc, member->string, copy)) {
                cJSON_Delete(copy);
                goto oom;
            }
        }
    }
    rows = gp_table_json_rows(t);
    if (!rows || !cJSON_AddItemToObject(doc, t->rows_key ? t->rows_key : "rows", rows)) {
        cJSON_Delete(rows);
        goto oom;
    }
    text = gp_json_print(doc, true);
    if (!text)
        goto oom;
    fputs(text, out);
    fputc('\n', out);
    if (ferror(out))
        rc = gp_error_set(GP_ERROR, "cannot write output");
    cJSON_free(text);
    cJSON_Delete(doc);
    return rc;
oom:
    cJSON_Delete(doc);
    return gp_error_set(GP_ENOMEM, "out of memory rendering JSON");
}
