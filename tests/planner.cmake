# Planner tests: unit tests, the accuracy check against published measurements (label
# integration), and the fuzz targets of the workload, stack, sweep and --set parsers with their
# corpus replays (label fuzz).
gp_add_unit_test(test_planner SOURCES unit/test_planner.c LIBS gp_planner)
gp_add_unit_test(test_purchase SOURCES unit/test_purchase.c LIBS gp_planner)
gp_add_unit_test(test_fleetcal SOURCES unit/test_fleetcal.c LIBS gp_planner)
gp_add_unit_test(test_stacks SOURCES unit/test_stacks.c LIBS gp_planner)
gp_add_unit_test(test_plan_purchase SOURCES unit/test_plan_purchase.c LIBS gp_planner gp_pricing)
gp_add_unit_test(test_planner_plan SOURCES unit/test_planner_plan.c LIBS gp_planner)
gp_add_unit_test(test_planner_moe SOURCES unit/test_planner_moe.c LIBS gp_planner)

add_executable(validate_planner validation/validate.c validation/band_evidence.c)
target_link_libraries(validate_planner PRIVATE gp_planner)
add_test(NAME planner_validation
         COMMAND validate_planner ${CMAKE_CURRENT_SOURCE_DIR}/validation/inference.csv
                 ${CMAKE_CURRENT_SOURCE_DIR}/validation/training.csv
                 ${CMAKE_CURRENT_SOURCE_DIR}/validation/power.csv
                 ${CMAKE_CURRENT_SOURCE_DIR}/validation/tolerances.csv)
set_tests_properties(planner_validation PROPERTIES LABELS integration)
# The same harness must fail when held-out band coverage drops below its 80 % target.
add_test(NAME planner_validation_coverage
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/validation/coverage_check.sh
                 $<TARGET_FILE:validate_planner> ${CMAKE_CURRENT_SOURCE_DIR}/validation)
set_tests_properties(planner_validation_coverage PROPERTIES LABELS integration)

gp_add_fuzz_target(fuzz_workload SOURCES fuzz/fuzz_workload.c LIBS gp_planner
                   CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/workload)
gp_add_fuzz_target(fuzz_stacks SOURCES fuzz/fuzz_stacks.c LIBS gp_planner
                   CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/stacks)
gp_add_fuzz_target(fuzz_sweep SOURCES fuzz/fuzz_sweep.c LIBS gp_planner
                   CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/sweep)
