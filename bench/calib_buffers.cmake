# calib_buffers: the quick CPU calibration plan with one arena per run against allocating per
# step, in the same run (docs/benchmarks.md, "Calibration buffers (CPU)").
add_executable(calib_buffers ${CMAKE_CURRENT_LIST_DIR}/calib_buffers.c)
target_link_libraries(calib_buffers PRIVATE gp_calibrate)
