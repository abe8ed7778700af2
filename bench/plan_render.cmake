# plan_render: rendering plan rows against modelling them, and a 9,000-row CSV sweep against a
# plain plan end to end (see docs/benchmarks.md, "Rendering").
add_executable(plan_render ${CMAKE_CURRENT_LIST_DIR}/plan_render.c)
target_link_libraries(plan_render PRIVATE gp_bench_pairs gp_report gp_planner)
