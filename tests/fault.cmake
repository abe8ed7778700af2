# Fault injection: an SQLite VFS that fails the Nth write, sync or lock (tests/fault/faultvfs.c)
# and an allocator that fails the Nth allocation (tests/fault/failmalloc.c), both preloaded into
# the real binary, with the runners that check every outcome (docs/reliability.md).
add_library(gp_fault_vfs MODULE fault/faultvfs.c)
target_link_libraries(gp_fault_vfs PRIVATE PkgConfig::SQLITE3 ${CMAKE_DL_LIBS})
add_test(NAME fault_sqlite_io
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_vfs_faults.sh $<TARGET_FILE:gpuplan>
                 $<TARGET_FILE:gp_fault_vfs>)
set_tests_properties(fault_sqlite_io PROPERTIES LABELS fault TIMEOUT 900)
