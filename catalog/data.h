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
 * How a table parsed from a data file lies in memory: a struct of `size` bytes that owns one
 * array, and nothing else, of items of `item_size` bytes, whose pointer is at `items_offset`
 * and whose count (a size_t) is at `count_offset`. Such a table can be parsed once at build
 * time (data/compile.c) and handed out again by copying.
 */
struct gp_data_layout {
    size_t size, items_offset, count_offset, item_size;
};

#define GP_DATA_LAYOUT(type, items, count)                                                         \
    {                                                                                              \
        sizeof(type), offsetof(type, items), offsetof(type, count), sizeof(*((type *)0)->items)    \
    }

/* A data file that parses into such a table. */
struct gp_data_table {
    const char *path;        /* relative to the data folder, "gpus.json" */
    gp_data_parse_fn *parse; /* fills a table of `layout` */
    struct gp_data_layout layout;
};

/*
 * A table parsed at build time from the embedded copy of `path`, as data/compile.c writes it:
 * `table` holds the struct's bytes with a null items pointer, `items` the array's bytes.
 */
struct gp_data_compiled {
    const char *path;
    size_t text_len; /* bytes of the embedded file it was parsed from */
    struct gp_data_layout layout;
    const unsigned char *table, *items;
    size_t count;
};

/* The compiled tables, ended by a NULL path; NULL itself (a weak reference) in programs that
 * are not linked with them: they parse every file. */
extern const struct gp_data_compiled gp_data_compiled[] __attribute__((weak));

/*
 * Load `table` into `out` (a struct of table->layout, owned by the caller, released with the
 * table's own release function): a copy of the table compiled into the binary when the file
 * read would be the embedded copy it was compiled from, else the file parsed. Returns 0, the
 * read's error, the parser's, or GP_ENOMEM.
 */
int gp_data_load_table(const struct gp_data_table *table, void *out);

/*
 * List the files directly under the folder `reldir` ("workloads", "prices") whose names end in
 * `suffix`, from both the directory and the embedded set, sorted and without duplicates.
 * *out is a malloc'd array of malloc'd relative paths; free with gp_data_list_free.
 */
int gp_data_list(char ***out, size_t *count, const char *reldir, const char *suffix);
void gp_data_list_free(char **list, size_t count);

#endif
