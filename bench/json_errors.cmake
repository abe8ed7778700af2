# json_errors: a price list of up to 1,000,000 bad rows rejected in linear time (docs/benchmarks.md,
# "Rejected rows").
add_executable(json_errors ${CMAKE_CURRENT_LIST_DIR}/json_errors.c)
target_link_libraries(json_errors PRIVATE gp_bench_pairs gp_pricing gp_catalog gp_util)
