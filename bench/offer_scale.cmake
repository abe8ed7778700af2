# offer_scale: plan and prices against 200,000 and 1,000,000 offers in the database (see
# docs/benchmarks.md, "Offers at scale").
add_executable(offer_scale ${CMAKE_CURRENT_LIST_DIR}/offer_scale.c)
target_link_libraries(offer_scale PRIVATE gp_bench_pairs gp_store gp_catalog gp_util)
