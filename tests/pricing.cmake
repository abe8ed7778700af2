# Price feeds: adapter unit tests, fuzz targets with fixture-corpus replay, and the refresh
# integration tests against the loopback fixture server. Included from tests/CMakeLists.txt.

gp_add_unit_test(test_feeds SOURCES unit/test_feeds.c LIBS gp_pricing)
gp_add_unit_test(test_energy_feed SOURCES unit/test_energy_feed.c LIBS gp_pricing)
gp_add_unit_test(test_entsoe_feed SOURCES unit/test_entsoe_feed.c LIBS gp_pricing)

# One fuzz target per adapter; the replay runs its corpus, seeded by the provider's fixtures.
foreach(adapter IN ITEMS azure aws aws_query lambda runpod oci vultr digitalocean vast
                         scaleway ovh verda pricelist_csv ecb energidata entsoe)
  gp_add_fuzz_target(fuzz_${adapter} SOURCES fuzz/fuzz_${adapter}.c LIBS gp_pricing
                     CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${adapter})
  set_tests_properties(fuzz_${adapter}_replay PROPERTIES
                       ENVIRONMENT "GPUPLAN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endforeach()
gp_add_fuzz_target(fuzz_feeds_config SOURCES fuzz/fuzz_feeds_config.c LIBS gp_pricing
                   CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/feeds_config)
gp_add_fuzz_target(fuzz_oauth_token SOURCES fuzz/fuzz_oauth_token.c LIBS gp_pricing
                   CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/oauth_token)

# The refresh end to end: the real binary against tests/servers/fixture_server.py on loopback.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME refresh_integration
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/servers/test_refresh.py
                   $<TARGET_FILE:gpuplan>)
  set_tests_properties(refresh_integration PROPERTIES LABELS integration TIMEOUT 300)
  add_test(NAME refresh_hardening
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/servers/test_hardening.py
                   $<TARGET_FILE:gpuplan>)
  set_tests_properties(refresh_hardening PROPERTIES LABELS integration TIMEOUT 300)
endif()

# The HTTP client's own header reading, and the key files of keyed feeds.
gp_add_fuzz_target(fuzz_http_headers SOURCES fuzz/fuzz_http_headers.c LIBS gp_pricing
                   CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/http_headers)
gp_add_fuzz_target(fuzz_key_file SOURCES fuzz/fuzz_key_file.c LIBS gp_pricing
                   CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/key_file)
