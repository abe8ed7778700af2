/* Unit tests for the tables compiled at build time (data/compile.c, catalog/data.c): each is the
 * table its file parses into, byte for byte, and a --data folder or another layout parses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "catalog/clusters.h"
#include "catalog/data.h"
#include "planner/efficiency.h"
#include "planner/stack.h"
#include "planner/workload.h"
#include "util/error.h"

static const struct gp_data_table *const tables[] = {
    &gp_catalog_file, &gp_clusters_file, &gp_stack_file, &gp_model_file, &gp_efficiency_file,
};
enum { TABLE_COUNT = sizeof(tables) / sizeof(tables[0]) };

/* The table's owned array, taken out of `table` (its pointer zeroed), and its count. */
static void *take_items(unsigned char *table, const struct gp_data_layout *l, size_t *count)
{
    void *items;

    memcpy(&items, table + l->items_offset, sizeof(items));
    memcpy(count, table + l->count_offset, sizeof(*count));
    memset(table + l->items_offset, 0, sizeof(items));
    return items;
}

static void compiled_tables_equal_parsed(void **state)
{
    size_t compiled = 0;
    (void)state;

    assert_non_null(gp_data_compiled);
    while (gp_data_compiled[compiled].path)
        compiled++;
    assert_int_equal(compiled, TABLE_COUNT);
    for (int n = 0; n < TABLE_COUNT; n++) {
        const struct gp_data_layout *l = &tables[n]->layout;
        unsigned char *copy = calloc(1, l->size), *parsed = calloc(1, l->size);
        size_t ncopy = 0, nparsed = 0;

        assert_int_equal(gp_data_load_table(tables[n], copy), 0);
        assert_int_equal(gp_data_parse_file(tables[n]->path, tables[n]->parse, parsed), 0);
        void *a = take_items(copy, l, &ncopy), *b = take_items(parsed, l, &nparsed);
        assert_true(ncopy > 0);
        assert_int_equal(ncopy, nparsed);
        assert_ptr_not_equal(a, b);
        assert_memory_equal(a, b, ncopy * l->item_size);
        assert_memory_equal(copy, parsed, l->size); /* everything but the array is the same */
        free(a);
        free(b);
        free(copy);
        free(parsed);
    }
}

static int parses;

static int counting_parse(void *out, const char *text, size_t len, const char *origin)
{
    parses++;
    return gp_catalog_file.parse(out, text, len, origin);
}

/* A table of another layout than the compiled one (a program built against other headers)
 * parses its file; one of the same layout is copied. */
static void other_layout_parses(void **state)
{
    struct gp_data_table same = {"gpus.json", counting_parse, gp_catalog_file.layout};
    struct gp_data_table other = same;
    struct gp_catalog cat[2];
    (void)state;

    other.layout.size = sizeof(cat);
    parses = 0;
    assert_int_equal(gp_data_load_table(&same, cat), 0);
    assert_int_equal(parses, 0);
    gp_catalog_release(cat);
    assert_int_equal(gp_data_load_table(&other, cat), 0);
    assert_int_equal(parses, 1);
    assert_true(cat[0].count > 0);
    gp_catalog_release(cat);
}

/* A --data folder's own file is parsed, errors and all; a file it lacks comes compiled. */
static void data_folder_file_parses(void **state)
{
    char dir[] = "/tmp/gp-data-tables-XXXXXX", path[64];
    struct gp_stack_table stacks;
    struct gp_model_table models;
    FILE *f;
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/stacks.json", dir);
    assert_non_null(f = fopen(path, "w"));
    fputs("{\"schema_version\": 1, \"stacks\": 3}", f);
    fclose(f);
    gp_data_set_dir(dir);
    assert_int_equal(gp_data_load_table(&gp_stack_file, &stacks), GP_EINVALID);
    assert_non_null(strstr(gp_error_last(), path));
    assert_int_equal(gp_data_load_table(&gp_model_file, &models), 0);
    assert_true(models.count > 0);
    gp_model_table_release(&models);
    gp_data_set_dir(NULL);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compiled_tables_equal_parsed),
        cmocka_unit_test(other_layout_parses),
        cmocka_unit_test(data_folder_file_parses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
