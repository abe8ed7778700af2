# Fault injection: an SQLite VFS that fails the Nth write, sync or lock (tests/fault/faultvfs.c)
# and an allocator that fails the Nth allocation (tests/fault/failmalloc.c), both preloaded into
# the real binary, with the runners that check every outcome (docs/reliability.md). Preloading
# does not mix with the sanitizer runtimes, so sanitizer builds leave these tests out.
if(GPUPLAN_SANITIZE OR GPUPLAN_FUZZ)
  return()
endif()

add_library(gp_fault_vfs MODULE fault/faultvfs.c)
target_link_libraries(gp_fault_vfs PRIVATE PkgConfig::SQLITE3 ${CMAKE_DL_LIBS})
add_test(NAME fault_sqlite_io
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_vfs_faults.sh $<TARGET_FILE:gpuplan>
                 $<TARGET_FILE:gp_fault_vfs>)
set_tests_properties(fault_sqlite_io PROPERTIES LABELS fault TIMEOUT 900)

add_library(gp_fail_malloc MODULE fault/failmalloc.c)
target_link_libraries(gp_fail_malloc PRIVATE ${CMAKE_DL_LIBS})
# Every allocation of a few golden cases (the version, data files that are refused; about 100
# runs), one run per allocation; .ci/run runs a larger subset (the catalog, workload files and
# presets, option errors). The cases that read offers from the database are left
# out: see docs/reliability.md for why.
add_test(NAME fault_allocation
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_alloc_faults.sh $<TARGET_FILE:gpuplan>
                 $<TARGET_FILE:gp_fail_malloc> ${CMAKE_CURRENT_SOURCE_DIR}/cli/cases
                 035-version 040-data-malformed 041-data-bad-field)
set_tests_properties(fault_allocation PROPERTIES LABELS fault TIMEOUT 900)
