/* Unit tests for the backend registry against deliberately broken modules: bad ABI, missing
 * entry symbol, score 0, a file that is not a shared object, and one good fake module.
 * GPUPLAN_BACKEND_DIR points at the folder the test modules are built into. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "calibrate/registry.h"
#include "util/error.h"

static const struct gp_backend_candidate *find(const struct gp_registry *reg, const char *name)
{
    for (size_t i = 0; i < reg->count; i++)
        if (strcmp(reg->items[i].name, name) == 0)
            return &reg->items[i];
    return NULL;
}

static int setup(void **state)
{
    struct gp_registry *reg = calloc(1, sizeof(*reg));
    if (!reg || !getenv("GPUPLAN_BACKEND_DIR") || gp_registry_scan(reg) != 0)
        return -1;
    *state = reg;
    return 0;
}

static int teardown(void **state)
{
    gp_registry_release(*state);
    free(*state);
    return 0;
}

static void test_builtin_cpu_first_and_loaded(void **state)
{
    const struct gp_registry *reg = *state;

    assert_true(reg->count >= 1);
    assert_string_equal(reg->items[0].name, "cpu");
    assert_string_equal(reg->items[0].path, "built-in");
    assert_int_equal(reg->items[0].loaded, 1);
    assert_int_equal(reg->items[0].device_count, 1);
    assert_true(reg->items[0].devices[0].memory_bytes > 0);
    assert_true(reg->items[0].devices[0].precisions & GP_BENCH_PRECISION_BIT(GP_BENCH_FP32));
}

static void test_rejections_carry_reasons(void **state)
{
    const struct gp_registry *reg = *state;
    char abi[32];
    /* Table: module name and a piece its reason must contain. */
    static const struct {
        const char *name, *reason;
    } cases[] = {
        {"nosym", "gpuplan_backend_entry"},
        {"zero", "no devices"},
        {"garbage", "libgpuplan-garbage.so"},
    };

    snprintf(abi, sizeof(abi), "ABI %d != %d", GP_BACKEND_ABI_VERSION + 1, GP_BACKEND_ABI_VERSION);
    const struct gp_backend_candidate *bad = find(reg, "badabi");
    assert_non_null(bad);
    assert_int_equal(bad->loaded, 0);
    assert_string_equal(bad->reason, abi);
    assert_null(bad->ops);
    assert_null(bad->handle);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct gp_backend_candidate *c = find(reg, cases[i].name);
        assert_non_null(c);
        assert_int_equal(c->loaded, 0);
        assert_int_equal(c->score, 0);
        assert_int_equal(c->device_count, 0);
        assert_non_null(strstr(c->reason, cases[i].reason));
    }
}

static void test_good_module_loads(void **state)
{
    const struct gp_registry *reg = *state;
    const struct gp_backend_candidate *fake = find(reg, "fake");

    assert_non_null(fake);
    assert_int_equal(fake->loaded, 1);
    assert_int_equal(fake->score, 1);
    assert_int_equal(fake->device_count, 1);
    assert_string_equal(fake->devices[0].name, "Fake Device 0");
    assert_non_null(strstr(fake->path, "libgpuplan-fake.so"));
}

static void test_known_modules_always_listed(void **state)
{
    const struct gp_registry *reg = *state;
    static const char *const known[] = {"cuda", "hip", "opencl"};

    for (size_t i = 0; i < 3; i++) {
        const struct gp_backend_candidate *c = find(reg, known[i]);
        assert_non_null(c);
        if (!c->loaded)
            assert_true(c->reason[0] != '\0');
    }
    assert_non_null(strstr(reg->search_path, getenv("GPUPLAN_BACKEND_DIR")));
}

static void test_pick(void **state)
{
    const struct gp_registry *reg = *state;
    const struct gp_backend_candidate *c = NULL;

    assert_int_equal(gp_registry_pick(reg, "fake", &c), 0);
    assert_string_equal(c->name, "fake");
    assert_int_equal(gp_registry_pick(reg, "auto", &c), 0);
    assert_true(c->loaded && c->score >= 10); /* never the fake (score 1) over the CPU */
    assert_int_equal(gp_registry_pick(reg, "zero", &c), GP_ENOBACKEND);
    assert_null(c);
    assert_non_null(strstr(gp_error_last(), "no devices"));
    assert_int_equal(gp_registry_pick(reg, "cpuu", &c), GP_ENOTFOUND);
    assert_non_null(strstr(gp_error_last(), "did you mean \"cpu\""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_cpu_first_and_loaded),
        cmocka_unit_test(test_rejections_carry_reasons),
        cmocka_unit_test(test_good_module_loads),
        cmocka_unit_test(test_known_modules_always_listed),
        cmocka_unit_test(test_pick),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
