/* Unit tests for the calibration time budget: required steps always run, optional ones are left
 * out once the budget is spent or when they would not fit, and shares follow the weights. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "calibrate/schedule.h"

static void test_required_steps_run_past_the_budget(void **state)
{
    struct gp_schedule s;

    (void)state;
    gp_schedule_init(&s, 10.0, 3.0);
    assert_true(gp_schedule_next(&s, 0.0, 1.0, 1, 0.0) > 0);
    assert_int_equal(s.over_budget, 0);
    /* 20 s into a 10 s budget: still run, at the minimum, and counted. */
    double b = gp_schedule_next(&s, 20.0, 1.0, 1, 30.0);
    assert_true(b > 0 && b <= 0.01);
    assert_int_equal(s.over_budget, 1);
    assert_int_equal(s.skipped, 0);
}

static void test_optional_steps_are_left_out_when_time_is_gone(void **state)
{
    struct gp_schedule s;

    (void)state;
    gp_schedule_init(&s, 10.0, 3.0);
    assert_true(gp_schedule_next(&s, 1.0, 1.0, 0, 0.5) > 0);
    /* Predicted 7 s against 8 * 0.8 - 2 = 6 s left: left out. */
    assert_true(gp_schedule_next(&s, 2.0, 1.0, 0, 7.0) == 0.0);
    /* Past the budget: left out whatever the prediction. */
    assert_true(gp_schedule_next(&s, 9.0, 1.0, 0, 0.0) == 0.0);
    assert_int_equal(s.skipped, 2);
    assert_int_equal(s.over_budget, 0);
}

static void test_budgets_follow_the_weights(void **state)
{
    struct gp_schedule s;

    (void)state;
    gp_schedule_init(&s, 100.0, 4.0);
    /* 80 s to spend, 0.4 of it shared by weight: 1 of 4 -> 8 s, capped at 1 s per step. */
    assert_true(gp_schedule_next(&s, 0.0, 1.0, 1, 0.0) == 1.0);
    gp_schedule_init(&s, 10.0, 4.0);
    /* 8 s, 0.4 of it, weight 1 of 4: 0.8 s. */
    double b = gp_schedule_next(&s, 0.0, 1.0, 1, 0.0);
    assert_true(b > 0.79 && b < 0.81);
    /* The next step shares what is left among the 3 remaining weights: 0.4 * 7 / 3. */
    b = gp_schedule_next(&s, 1.0, 1.0, 1, 0.0);
    assert_true(b > 0.93 && b < 0.94);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_required_steps_run_past_the_budget),
        cmocka_unit_test(test_optional_steps_are_left_out_when_time_is_gone),
        cmocka_unit_test(test_budgets_follow_the_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
