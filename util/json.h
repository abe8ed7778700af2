/* Reading JSON documents with errors that name the file, the JSON path, the line and the
 * column: parsing, typed field getters, unknown-key checks with suggestions. */
#ifndef GP_UTIL_JSON_H
#define GP_UTIL_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "util/format.h"

/*
 * Where the last error was located, so that errors further down a long list cost only the text
 * between them, not a rescan from the start: a list of n bad rows is rejected in O(n), not
 * O(n^2). Filled by gp_json_fail.
 */
struct gp_json_memo {
    char array[256]; /* path of the array whose element was found ("offers"), "" for none */
    long index;      /* that element's index */
    size_t element;  /* its offset in the text, bytes */
    size_t counted;  /* offset up to which lines and columns are counted, bytes */
    int line, col;   /* at `counted` */
    size_t scanned;  /* bytes walked by the locator in all, for the cost check in the tests */
};

/*
 * A reader borrows the document text (for locating errors) and tracks the JSON path of the
 * value being read, e.g. "model.layers" or "gpus[3].hbm_gb". A copy shares the original's memo.
 */
struct gp_json_reader {
    const char *file; /* name used in messages (borrowed) */
    const char *text; /* the document (borrowed, `len` bytes) */
    size_t len;
    char path[256];            /* current path, "" at the root */
    struct gp_json_memo *memo; /* &own_memo after gp_json_reader_init */
    struct gp_json_memo own_memo;
};

enum gp_json_flags {
    GP_JSON_REQUIRED = 0,
    GP_JSON_OPTIONAL = 1 << 0, /* absent key leaves *out unchanged and returns 0 */
    GP_JSON_NULLABLE = 1 << 1, /* null leaves *out unchanged and returns 0 */
};

/* Add `item` (owned by the caller until then) to `object` under `key`. When it cannot be added
 * (no object, no item, or no memory for the key) it is deleted and the answer is false. */
bool gp_json_add_owned(cJSON *object, const char *key, cJSON *item);

/* Route cJSON's allocations through gpuplan's hook, which records every failure. Called once at
 * start-up (and again by gp_json_parse); idempotent. */
void gp_json_init(void);

/*
 * `doc` as text (indented when `formatted`), owned by the caller (cJSON_free). NULL when out of
 * memory, and also when any cJSON allocation has failed in this process so far: a member added
 * without a check may then be missing, and an incomplete document is never written.
 */
char *gp_json_print(const cJSON *doc, bool formatted);

/* Whether any cJSON allocation has failed in this process so far: a tree built since may lack a
 * member added without a check. Writers that print a tree without gp_json_print ask this. */
bool gp_json_failed(void);

/*
 * Parse `len` bytes of `text`. On malformed input returns GP_EINVALID with a message
 * "FILE:LINE:COL: invalid JSON ..."; *out is owned by the caller (cJSON_Delete). An escaped NUL
 * (\u0000), which would end a C string early, reaches the tree as GP_JSON_NUL_STAND_IN (U+FFFF,
 * a noncharacter), which gp_json_string refuses with the field's path and feeds reject.
 */
#define GP_JSON_NUL_STAND_IN "\xef\xbf\xbf"
int gp_json_parse(cJSON **out, const char *text, size_t len, const char *file);

/* The offset of the first escaped NUL ("\u0000") in the JSON text, or `len` when it has none:
 * without one, cJSON reads the text as gp_json_parse does. */
size_t gp_json_escaped_nul(const char *text, size_t len);

void gp_json_reader_init(struct gp_json_reader *r, const char *file, const char *text, size_t len);

/*
 * Parse the reader's document as an object with only the `known` members (NULL-terminated) and
 * a "schema_version" equal to `version`. *out is owned by the caller (cJSON_Delete) even when an
 * error is returned; it is NULL when the text is not JSON. Returns 0 or GP_EINVALID.
 */
int gp_json_parse_versioned(cJSON **out, const struct gp_json_reader *r, const char *const *known,
                            int version);

/* Descend into `key` (or index `idx` when key is NULL); returns the previous path length, to
 * be given back to gp_json_leave. */
size_t gp_json_enter(struct gp_json_reader *r, const char *key, int idx);
void gp_json_leave(struct gp_json_reader *r, size_t saved);

/* Set GP_EINVALID with "FILE:LINE:COL: PATH.KEY: message" (key may be NULL) and return it. */
int gp_json_fail(const struct gp_json_reader *r, const char *key, const char *fmt, ...)
    GP_PRINTF(3, 4);

/* Typed getters: 0, or GP_EINVALID naming the field when it is absent (unless OPTIONAL), null
 * (unless NULLABLE), of the wrong type, or (numbers) not finite. */
int gp_json_number(const struct gp_json_reader *r, const cJSON *obj, const char *key, double *out,
                   int flags);
int gp_json_int(const struct gp_json_reader *r, const cJSON *obj, const char *key, int *out,
                int flags);
int gp_json_bool(const struct gp_json_reader *r, const cJSON *obj, const char *key, bool *out,
                 int flags);
/* Copies into out[size]; a longer string is an error, never silently cut. */
int gp_json_string(const struct gp_json_reader *r, const cJSON *obj, const char *key, char *out,
                   size_t size, int flags);
/* The member `key` if it is an object (or array when want_array), else an error. */
int gp_json_child(const struct gp_json_reader *r, const cJSON *obj, const char *key,
                  bool want_array, const cJSON **out, int flags);

/* Fill element `index` of `items` from `item`; earlier elements are there for checks such as
 * duplicates. Returns 0 or an error (which stops the list). */
typedef int (*gp_json_item_fn)(struct gp_json_reader *r, const cJSON *item, void *items,
                               size_t index, const void *ctx);

/*
 * Read the array member `key` of `obj` into a new zeroed array of `size`-byte elements (with one
 * spare), calling `read` for each item with the path at "key[index]". *out is the caller's
 * (free) even on error and *count says how many elements were read. Returns 0, GP_EINVALID
 * when the member is missing or not an array, GP_ENOMEM, or the first error of `read`.
 */
int gp_json_read_list(void **out, size_t *count, struct gp_json_reader *r, const cJSON *obj,
                      const char *key, size_t size, gp_json_item_fn read, const void *ctx);

/* Reject any member of `obj` not in the NULL-terminated `known` list, suggesting the nearest
 * known key; a value that is not an object is rejected too. */
int gp_json_check_keys(const struct gp_json_reader *r, const cJSON *obj, const char *const *known);

/*
 * Find the 1-based line and column of the value at `path` ("a.b[2].c") in the document text;
 * falls back to the deepest part of the path that exists. Returns 0 when found.
 */
int gp_json_locate(const char *text, size_t len, const char *path, int *line, int *col);

#endif
