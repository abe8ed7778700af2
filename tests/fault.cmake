# Fault injection: an SQLite VFS that fails the Nth write, sync or lock (tests/fault/faultvfs.c)
# and an allocator that fails the Nth allocation and counts the blocks left at exit
# (tests/fault/failmalloc.c), both preloaded into the real binary, with the runners that check
# every outcome (docs/reliability.md). Preloading
# does not mix with the sanitizer runtimes, so sanitizer builds leave these tests out.
if(GPUPLAN_SANITIZE OR GPUPLAN_FUZZ)
  return()
endif()

add_library(gp_fault_vfs MODULE fault/faultvfs.c)
target_link_libraries(gp_fault_vfs PRIVATE PkgConfig::SQLITE3 ${CMAKE_DL_LIBS})
add_library(gp_fail_malloc MODULE fault/failmalloc.c)
target_link_libraries(gp_fail_malloc PRIVATE ${CMAKE_DL_LIBS})

# The writing commands: every SQLite write, sync and lock, and every 50th allocation (about 460
# runs); .ci/run takes every 5th allocation.
add_test(NAME fault_writes
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_write_faults.sh $<TARGET_FILE:gpuplan>
                 $<TARGET_FILE:gp_fault_vfs> $<TARGET_FILE:gp_fail_malloc>)
set_tests_properties(fault_writes PROPERTIES LABELS fault TIMEOUT 900 ENVIRONMENT
                                             ALLOC_STRIDE=50)

# Every allocation of a few golden cases (the version, data files that are refused; about 100
# runs); .ci/run runs a larger subset (the catalog, workload files and presets, option errors,
# prices and plan in each format).
add_test(NAME fault_allocation
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_alloc_faults.sh $<TARGET_FILE:gpuplan>
                 $<TARGET_FILE:gp_fail_malloc> ${CMAKE_CURRENT_SOURCE_DIR}/cli/cases
                 035-version 040-data-malformed 041-data-bad-field)
set_tests_properties(fault_allocation PROPERTIES LABELS fault TIMEOUT 900)
# The readers of offers, bounded: every 7th allocation of a price list (about 630 runs) and every
# 101st of a plan (about 130 runs).
add_test(NAME fault_allocation_prices
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_alloc_faults.sh $<TARGET_FILE:gpuplan>
                 $<TARGET_FILE:gp_fail_malloc> ${CMAKE_CURRENT_SOURCE_DIR}/cli/cases
                 010-prices-h100-sxm-csv)
add_test(NAME fault_allocation_plan
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_alloc_faults.sh $<TARGET_FILE:gpuplan>
                 $<TARGET_FILE:gp_fail_malloc> ${CMAKE_CURRENT_SOURCE_DIR}/cli/cases
                 060-plan-chat-csv)
set_tests_properties(fault_allocation_prices PROPERTIES LABELS fault TIMEOUT 900 ENVIRONMENT
                                                        STRIDE=7)
set_tests_properties(fault_allocation_plan PROPERTIES LABELS fault TIMEOUT 900 ENVIRONMENT
                                                      STRIDE=101)

# Every allocation in a window of 2,000 around parsing --sweep (its allocation was number 2284
# when this was written): a failure there is out of memory, exit 1, never a usage error.
add_test(NAME fault_allocation_sweep
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_alloc_faults.sh $<TARGET_FILE:gpuplan>
                 $<TARGET_FILE:gp_fail_malloc> ${CMAKE_CURRENT_SOURCE_DIR}/cli/cases
                 063-plan-sweep-csv)
set_tests_properties(fault_allocation_sweep PROPERTIES LABELS fault TIMEOUT 900 ENVIRONMENT
                                                       "START=1500;LAST=3500")

# The runner's leak check proved on a stand-in program (named gpuplan, as the allocator arms only
# for that name) whose error path forgets a block.
add_executable(gp_fault_leaky fault/leaky.c)
set_target_properties(gp_fault_leaky PROPERTIES OUTPUT_NAME gpuplan RUNTIME_OUTPUT_DIRECTORY
                                                                  ${CMAKE_CURRENT_BINARY_DIR}/leaky)
add_test(NAME fault_leak_check
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/test_leak_check.sh
                 $<TARGET_FILE:gp_fault_leaky> $<TARGET_FILE:gp_fail_malloc>)
set_tests_properties(fault_leak_check PROPERTIES LABELS fault)
