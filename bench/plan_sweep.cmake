# plan_sweep: planner scenario evaluations per second (see docs/benchmarks.md, "Planner").
add_executable(plan_sweep ${CMAKE_CURRENT_LIST_DIR}/plan_sweep.c)
target_link_libraries(plan_sweep PRIVATE gp_bench_pairs gp_planner)
