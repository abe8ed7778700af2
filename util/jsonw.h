/* A small JSON writer into a growing buffer, with no library behind it: compact (as
 * cJSON_PrintUnformatted writes) or one member per line with tabs (as cJSON_Print does), for
 * what gpuplan writes and for the fallback calibration driver, which has no cJSON. */
#ifndef GP_UTIL_JSONW_H
#define GP_UTIL_JSONW_H

#include <stddef.h>

#define GP_JSONW_DEPTH 16

struct gp_jsonw {
    char *text;                /* owned, NUL-terminated; NULL once out of memory */
    size_t len;                /* bytes in text */
    size_t cap;                /* bytes allocated */
    int pretty;                /* 1: newline and tabs before every member */
    int depth;                 /* open objects and arrays */
    int count[GP_JSONW_DEPTH]; /* members written at each depth */
    int failed;                /* allocation failed or nesting too deep: finish returns NULL */
};

/* Start an empty document. */
void gp_jsonw_init(struct gp_jsonw *w, int pretty);

/* Members: `key` names it inside an object; NULL inside an array or for the document itself.
 * Numbers that are not finite are written as null; others round-trip (%.15g, else %.17g). */
void gp_jsonw_open(struct gp_jsonw *w, const char *key, char bracket); /* '{' or '[' */
void gp_jsonw_close(struct gp_jsonw *w, char bracket);                 /* '}' or ']' */
void gp_jsonw_string(struct gp_jsonw *w, const char *key, const char *value);
void gp_jsonw_number(struct gp_jsonw *w, const char *key, double value);
void gp_jsonw_null(struct gp_jsonw *w, const char *key);
void gp_jsonw_bool(struct gp_jsonw *w, const char *key, int value);
/* A value that is JSON text already (e.g. a stored object), copied as it is. */
void gp_jsonw_raw(struct gp_jsonw *w, const char *key, const char *json);

/* The document, malloc'd (the caller frees it), or NULL when something failed; either way the
 * writer is left empty. */
char *gp_jsonw_finish(struct gp_jsonw *w);

#endif
