/* Data file lookup: the --data directory first, then the copies embedded at build time. */
#include "catalog/data.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/embedded.h"
#include "util/error.h"
#include "util/json_arena.h"
#include "util/text.h"

static const char *data_dir;

void gp_data_set_dir(const char *dir)
{
    data_dir = dir;
}

bool gp_data_embedded_only(void)
{
    return data_dir == NULL;
}

static const struct gp_embedded_file *embedded_find(const char *relpath)
{
    for (const struct gp_embedded_file *f = gp_embedded_files; f->path; f++)
        if (strcmp(f->path, relpath) == 0)
            return f;
    return NULL;
}

/*
 * The text of the data file `relpath`: appended to `scratch` from the --data folder when it is
 * there (*in_scratch true), else the embedded copy itself, NUL-terminated and not copied. Writes
 * the name to use in messages into origin[origin_size]. Returns 0, GP_ENOTFOUND, or an I/O error.
 */
static int data_text(const char *relpath, struct gp_buf *scratch, bool *in_scratch,
                     const char **text, size_t *len, char *origin, size_t origin_size)
{
    const struct gp_embedded_file *f;

    *in_scratch = false;
    if (data_dir) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", data_dir, relpath);
        snprintf(origin, origin_size, "%s", path);
        int rc = gp_buf_read_file(scratch, path);
        if (rc != GP_ENOTFOUND) {
            *in_scratch = true;
            *text = gp_buf_str(scratch);
            *len = scratch->len;
            return rc;
        }
        gp_error_clear();
    }
    snprintf(origin, origin_size, "<embedded>/%s", relpath);
    f = embedded_find(relpath);
    if (!f)
        return gp_error_set(GP_ENOTFOUND, "data file '%s' not found", relpath);
    *text = (const char *)f->bytes;
    *len = f->len;
    return 0;
}

int gp_data_parse_file(const char *relpath, gp_data_parse_fn *parse, void *out)
{
    struct gp_buf scratch = GP_BUF_INIT;
    struct gp_json_arena arena;
    const char *text = NULL;
    size_t len = 0;
    char origin[4200];
    bool in_scratch;
    int rc = data_text(relpath, &scratch, &in_scratch, &text, &len, origin, sizeof(origin));

    if (rc == 0) {
        gp_json_arena_begin(&arena);
        rc = parse(out, text, len, origin);
        gp_json_arena_end(&arena);
    }
    gp_buf_release(&scratch);
    return rc;
}

/* The compiled table of `table`, when there is one of its layout and the file it would read is
 * the embedded copy the table was compiled from; else NULL. */
static const struct gp_data_compiled *compiled_for(const struct gp_data_table *table)
{
    const struct gp_data_compiled *c = gp_data_compiled;
    const struct gp_embedded_file *f;

    if (!c || gp_data_in_dir(table->path))
        return NULL;
    for (; c->path; c++)
        if (strcmp(c->path, table->path) == 0)
            break;
    if (!c->path || memcmp(&c->layout, &table->layout, sizeof(c->layout)) != 0)
        return NULL;
    f = embedded_find(table->path);
    return f && f->len == c->text_len ? c : NULL;
}

static int copy_compiled(const struct gp_data_compiled *c, void *out)
{
    const struct gp_data_layout *l = &c->layout;
    void *items = NULL;

    if (c->count) {
        if (!(items = malloc(c->count * l->item_size)))
            return gp_error_set(GP_ENOMEM, "out of memory reading %s", c->path);
        memcpy(items, c->items, c->count * l->item_size);
    }
    memcpy(out, c->table, l->size);
    memcpy((char *)out + l->items_offset, &items, sizeof(items));
    memcpy((char *)out + l->count_offset, &c->count, sizeof(c->count));
    return 0;
}

int gp_data_load_table(const struct gp_data_table *table, void *out)
{
    const struct gp_data_compiled *c = compiled_for(table);

    return c ? copy_compiled(c, out) : gp_data_parse_file(table->path, table->parse, out);
}

int gp_data_read(struct gp_buf *out, const char *relpath, char *origin, size_t origin_size)
{
    const char *text = NULL;
    size_t len = 0;
    bool in_scratch;
    int rc = data_text(relpath, out, &in_scratch, &text, &len, origin, origin_size);

    if (rc || in_scratch)
        return rc;
    return gp_buf_append(out, text, len);
}

bool gp_data_in_dir(const char *relpath)
{
    char path[4096];

    if (!data_dir)
        return false;
    snprintf(path, sizeof(path), "%s/%s", data_dir, relpath);
    return access(path, F_OK) == 0;
}

/* Append `name` to the growing list unless it is already there. */
static int list_add(char ***list, size_t *count, size_t *cap, const char *name)
{
    for (size_t i = 0; i < *count; i++)
        if (strcmp((*list)[i], name) == 0)
            return 0;
    if (*count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        char **grown = realloc(*list, ncap * sizeof(*grown));
        if (!grown)
            return gp_error_set(GP_ENOMEM, "out of memory listing data files");
        *list = grown;
        *cap = ncap;
    }
    (*list)[*count] = strdup(name);
    if (!(*list)[*count])
        return gp_error_set(GP_ENOMEM, "out of memory listing data files");
    (*count)++;
    return 0;
}

static int has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix);
    return n > s && strcmp(name + n - s, suffix) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_directory(char ***list, size_t *count, size_t *cap, const char *reldir,
                          const char *suffix)
{
    char path[4096], rel[4096];
    struct dirent *entry;
    DIR *dir;
    int rc = 0;

    snprintf(path, sizeof(path), "%s/%s", data_dir, reldir);
    dir = opendir(path);
    if (!dir)
        return 0;
    while (rc == 0 && (entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.' || !has_suffix(entry->d_name, suffix))
            continue;
        snprintf(rel, sizeof(rel), "%s/%s", reldir, entry->d_name);
        rc = list_add(list, count, cap, rel);
    }
    closedir(dir);
    return rc;
}

int gp_data_list(char ***out, size_t *count_out, const char *reldir, const char *suffix)
{
    char **list = NULL;
    size_t count = 0, cap = 0, dirlen = strlen(reldir);
    int rc = 0;

    if (data_dir)
        rc = list_directory(&list, &count, &cap, reldir, suffix);
    for (const struct gp_embedded_file *f = gp_embedded_files; rc == 0 && f->path; f++) {
        const char *rest = f->path + dirlen;
        if (strncmp(f->path, reldir, dirlen) == 0 && rest[0] == '/' && !strchr(rest + 1, '/') &&
            has_suffix(rest, suffix))
            rc = list_add(&list, &count, &cap, f->path);
    }
    if (rc) {
        gp_data_list_free(list, count);
        return rc;
    }
    if (count)
        qsort(list, count, sizeof(*list), compare_names);
    *out = list;
    *count_out = count;
    return 0;
}

void gp_data_list_free(char **list, size_t count)
{
    for (size_t i = 0; list && i < count; i++)
        free(list[i]);
    free(list);
}
