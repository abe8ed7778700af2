# calib_cpu: the CPU backend's triad against mbw in the same run (docs/benchmarks.md,
# "Calibration (CPU)").
add_executable(calib_cpu ${CMAKE_CURRENT_LIST_DIR}/calib_cpu.c)
target_link_libraries(calib_cpu PRIVATE gp_calibrate)
