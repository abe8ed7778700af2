# feed_parse: price-feed parsing and storing throughput (see docs/benchmarks.md, "Price feeds").
add_executable(feed_parse ${CMAKE_CURRENT_LIST_DIR}/feed_parse.c)
target_link_libraries(feed_parse PRIVATE gp_bench_pairs gp_pricing gp_store gp_catalog gp_util)
