/* Access to the data files: those under --data DIR first, else those embedded in the binary. */
#ifndef GP_CATALOG_DATA_H
#define GP_CATALOG_DATA_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* Read data files from `dir` (borrowed; must outlive use) before the embedded copies; NULL
 * restores embedded-only. */
void gp_data_set_dir(const char *dir);
/* True when no --data folder is set: every data file is the embedded copy. */
bool gp_data_embedded_only(void);

/* True when the data file `relpath` is read from the --data folder, not the embedded copy. */
bool gp_data_in_dir(const char *relpath);

/*
 * Append the file `relpath` ("gpus.json", "workloads/chat.json") to `out`, and write into
 * origin[size] the name to use in messages: the full path when read from the directory,
 * "<embedded>/relpath" otherwise. Returns 0, GP_ENOTFOUND, or an I/O error.
 */
int gp_data_read(struct gp_buf *out, const char *relpath, char *origin, size_t origin_size);

/* Parse `len` bytes of `text` into `out`; `origin` names the text in messages. */
typedef int gp_data_parse_fn(void *out, const char *text, size_t len, const char *origin);

/* Read the data file `relpath` (gp_data_read) and parse it with `parse` into `out`. Returns 0,
 * the read's error, or the parser's. */
int gp_data_parse_file(const char *relpath, gp_data_parse_fn *parse, void *out);

/*
 * List the files directly under the folder `reldir` ("workloads", "prices") whose names end in
 * `suffix`, from both the directory and the embedded set, sorted and without duplicates.
 * *out is a malloc'd array of malloc'd relative paths; free with gp_data_list_free.
 */
int gp_data_list(char ***out, size_t *count, const char *reldir, const char *suffix);
void gp_data_list_free(char **list, size_t count);

#endif
