/* The JSON renderer: {"schema_version": N, <meta members>, "rows": [{column: value}]}, written
 * a row at a time. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/table.h"
#include "util/error.h"
#include "util/json.h"
#include "util/utf8.h"

enum { SCRATCH_MAX = 512 };

/* A JSON string of `text`, with any byte that is not UTF-8 (text stored before it was checked)
 * replaced by U+FFFD, so the document stays valid JSON. */
static cJSON *text_json(const char *text)
{
    cJSON *item;
    char *repaired;

    if (gp_utf8_valid(text))
        return cJSON_CreateString(text);
    size_t size = 3 * strlen(text) + 1;
    if (!(repaired = malloc(size)))
        return NULL;
    gp_utf8_repair(repaired, size, text);
    item = cJSON_CreateString(repaired);
    free(repaired);
    return item;
}

static cJSON *value_json(const struct gp_table *t, size_t r, size_t c)
{
    char scratch[SCRATCH_MAX];
    struct gp_value value;

    gp_table_value(t, r, c, &value, scratch, sizeof(scratch));
    switch (value.kind) {
    case GP_CELL_TEXT:
        return text_json(value.text);
    case GP_CELL_NUMBER:
    case GP_CELL_INT:
        return cJSON_CreateNumber(value.number);
    default:
        return cJSON_CreateNull();
    }
}

/* Row `r` as a JSON object: its columns, then what row_json adds; NULL when out of memory. */
static cJSON *row_object(const struct gp_table *t, size_t r)
{
    cJSON *row = cJSON_CreateObject();

    for (size_t c = 0; row && c < t->ncols; c++) {
        cJSON *value = value_json(t, r, c);
        if (!value || !cJSON_AddItemToObject(row, t->columns[c].name, value)) {
            cJSON_Delete(value);
            cJSON_Delete(row);
            return NULL;
        }
    }
    if (row && t->row_json && t->row_json(t->source, r, row)) {
        cJSON_Delete(row);
        return NULL;
    }
    return row;
}

cJSON *gp_table_json_rows(const struct gp_table *t)
{
    cJSON *rows = cJSON_CreateArray();

    for (size_t r = 0; rows && r < t->nrows; r++) {
        cJSON *row = row_object(t, r);
        if (!row || !cJSON_AddItemToArray(rows, row)) {
            cJSON_Delete(row);
            cJSON_Delete(rows);
            return NULL;
        }
    }
    return rows;
}

/* The document around the rows, as text: schema_version, the meta members and an empty rows
 * array, printed by cJSON; malloc'd (cJSON_free), NULL when out of memory. */
static char *document_head(const struct gp_table *t, const struct gp_render_options *options)
{
    cJSON *doc = cJSON_CreateObject(), *member, *rows = cJSON_CreateArray();
    char *text = NULL;
    bool ok = doc && rows &&
              cJSON_AddNumberToObject(doc, "schema_version",
                                      options->schema_version ? options->schema_version : 1);

    if (ok && t->meta) {
        cJSON_ArrayForEach(member, t->meta)
        {
            cJSON *copy = cJSON_Duplicate(member, 1);
            if (!copy || !cJSON_AddItemToObject(doc, member->string, copy)) {
                cJSON_Delete(copy);
                ok = false;
                break;
            }
        }
    }
    if (ok && cJSON_AddItemToObject(doc, t->rows_key ? t->rows_key : "rows", rows))
        rows = NULL;
    else
        ok = false;
    if (ok)
        text = gp_json_print(doc, true);
    cJSON_Delete(rows);
    cJSON_Delete(doc);
    return text;
}

/* Row `r` as cJSON prints it inside the document: printed alone, with the two tabs of the
 * document and the rows array after every line break. */
static int write_row(const struct gp_table *t, size_t r, FILE *out)
{
    cJSON *row = row_object(t, r);
    char *text = row ? gp_json_print(row, true) : NULL;
    const char *p = text;

    cJSON_Delete(row);
    if (!text)
        return gp_error_set(GP_ENOMEM, "out of memory rendering JSON");
    for (const char *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
        fwrite(p, 1, (size_t)(nl - p + 1), out);
        fputs("\t\t", out);
    }
    fputs(p, out);
    cJSON_free(text);
    return 0;
}

/*
 * The document as cJSON prints it whole, written a row at a time, so that memory does not grow
 * with the rows (a price list of a million offers): the head up to the rows array's opening
 * bracket, each row, then the array's and the document's close. A row that cannot be built
 * ends the output there with GP_ENOMEM.
 */
int gp_render_json(const struct gp_table *t, const struct gp_render_options *options, FILE *out)
{
    static const char empty_tail[] = "[]\n}"; /* how the head ends: the empty rows array */
    char *head = document_head(t, options);
    size_t len = head ? strlen(head) : 0, tail = sizeof(empty_tail) - 1;
    int rc = 0;

    if (!head || len < tail || strcmp(head + len - tail, empty_tail) != 0) {
        cJSON_free(head);
        return gp_error_set(GP_ENOMEM, "out of memory rendering JSON");
    }
    fwrite(head, 1, len - tail + 1, out);
    cJSON_free(head);
    for (size_t r = 0; rc == 0 && r < t->nrows; r++) {
        if (r)
            fputs(", ", out);
        rc = write_row(t, r, out);
    }
    if (rc)
        return rc;
    fputs("]\n}\n", out);
    if (ferror(out))
        rc = gp_error_set(GP_ERROR, "cannot write output");
    return rc;
}
