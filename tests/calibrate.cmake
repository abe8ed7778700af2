# Calibration tests: statistics and fit, the runner on a synthetic device, the time budget, the
# registry against deliberately broken modules, records, exchange files and the store (all unit); every backend run
# for real at small sizes (label backend; exit 77 = skip where the backend has no device), the
# CLI round trip (label backend), and the import parser's fuzz replay.
gp_add_unit_test(test_calibrate_fit SOURCES unit/test_calibrate_fit.c LIBS gp_calibrate)
gp_add_unit_test(test_calibrate_store SOURCES unit/test_calibrate_store.c LIBS gp_calibrate)
gp_add_unit_test(test_calibrate_runner SOURCES unit/test_calibrate_runner.c LIBS gp_calibrate)
gp_add_unit_test(test_calibrate_schedule SOURCES unit/test_calibrate_schedule.c
                 LIBS gp_calibrate)
# The working memory of a device's run: one block per schedule, sized by its largest step.
gp_add_unit_test(test_calibrate_arena SOURCES unit/test_calibrate_arena.c LIBS gp_calibrate)
# The backends' shared host code: verification bound and the CUDA/HIP GEMM call layout.
gp_add_unit_test(test_kernels SOURCES unit/test_kernels.c LIBS m)

# Test modules: a good one, wrong ABI, no entry symbol, probe score 0, and a non-ELF file.
set(GP_TEST_MODULE_DIR ${CMAKE_CURRENT_BINARY_DIR}/backend_modules)
foreach(mod fake badabi nosym zero)
  add_library(gp_test_module_${mod} MODULE backend/modules/mod_${mod}.c)
  set_target_properties(gp_test_module_${mod} PROPERTIES
    OUTPUT_NAME gpuplan-${mod} PREFIX lib C_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY ${GP_TEST_MODULE_DIR})
  list(APPEND GP_TEST_MODULES gp_test_module_${mod})
endforeach()
file(WRITE ${GP_TEST_MODULE_DIR}/libgpuplan-garbage.so "this is not a shared object\n")
# The rehearsal H200, named like the CUDA module, in a folder of its own.
set(GP_TEST_H200_DIR ${CMAKE_CURRENT_BINARY_DIR}/backend_h200)
add_library(gp_test_module_h200 MODULE backend/modules/mod_h200.c)
target_link_libraries(gp_test_module_h200 PRIVATE ${MATH_LIBRARY})
set_target_properties(gp_test_module_h200 PROPERTIES
  OUTPUT_NAME gpuplan-cuda PREFIX lib C_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${GP_TEST_H200_DIR})
gp_add_unit_test(test_calibrate_registry SOURCES unit/test_calibrate_registry.c
                 LIBS gp_calibrate)
add_dependencies(test_calibrate_registry ${GP_TEST_MODULES})
set_property(TEST test_calibrate_registry APPEND PROPERTY ENVIRONMENT
             "GPUPLAN_BACKEND_DIR=${GP_TEST_MODULE_DIR}")

# Real runs. PoCL runs OpenCL on the CPU with a couple of threads: the sizes stay small.
add_executable(test_backend_run backend/test_backend_run.c)
target_link_libraries(test_backend_run PRIVATE gp_calibrate)
foreach(backend cpu opencl cuda hip)
  add_test(NAME backend_${backend} COMMAND test_backend_run ${backend})
  set_tests_properties(backend_${backend} PROPERTIES LABELS backend SKIP_RETURN_CODE 77
                       TIMEOUT 300)
endforeach()

add_test(NAME backend_calibrate_cli
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/backend/test_calibrate_cli.sh $<TARGET_FILE:gpuplan>
                 ${GP_TEST_MODULE_DIR})
# A quick CPU calibration fills three arrays of 4x the last-level cache (3 GiB here) and fits
# curves to its timings: it runs alone, so neither its memory nor its timings meet another test's.
set_tests_properties(backend_calibrate_cli PROPERTIES LABELS backend TIMEOUT 300 RUN_SERIAL TRUE)

add_test(NAME backend_fallback_driver
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/backend/test_fallback_driver.sh
                 $<TARGET_FILE:gpuplan-calibrate> $<TARGET_FILE:gpuplan> ${GP_TEST_H200_DIR}
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(backend_fallback_driver PROPERTIES LABELS backend TIMEOUT 300)

# The rehearsal of scripts/gpu-check.sh against the pretend H200 (builds into a folder of its
# own, reused by later runs). It compiles the project, so it runs alone: beside it, tests with
# time limits of their own would starve on a small machine. The script builds gpuplan as a user
# would, without sanitizers, and an instrumented pretend module cannot load into that binary:
# sanitizer builds leave the rehearsal out (the plain build runs it).
if(NOT GPUPLAN_SANITIZE)
  add_test(NAME backend_gpu_check
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/backend/test_gpu_check.sh ${PROJECT_SOURCE_DIR}
                   ${GP_TEST_H200_DIR} ${CMAKE_CURRENT_BINARY_DIR}/gpu-check-build)
  set_tests_properties(backend_gpu_check PROPERTIES LABELS backend TIMEOUT 900 RUN_SERIAL TRUE)
endif()

# The loader: which commands and folders make gpuplan run a module's code (a spy module that
# records when its constructor runs), kept apart from the modules the other tests scan.
add_library(gp_test_module_spy MODULE backend/modules/mod_spy.c)
set_target_properties(gp_test_module_spy PROPERTIES
  OUTPUT_NAME gpuplan-spy PREFIX lib C_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/backend_spy)
add_library(gp_test_module_other MODULE backend/modules/mod_spy.c)
target_compile_definitions(gp_test_module_other PRIVATE "SPY_TRACE=\"other user's module code ran\"")
set_target_properties(gp_test_module_other PROPERTIES
  OUTPUT_NAME gpuplan-other PREFIX lib C_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/backend_spy)
add_test(NAME backend_loader
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/backend/test_loader.sh $<TARGET_FILE:gpuplan>
                 $<TARGET_FILE:gp_test_module_spy> ${CMAKE_BINARY_DIR}/lib/gpuplan
                 $<TARGET_FILE:gp_test_module_other>)
set_tests_properties(backend_loader PROPERTIES LABELS backend TIMEOUT 120)

gp_add_fuzz_target(fuzz_calibration SOURCES fuzz/fuzz_calibration.c LIBS gp_calibrate
                   CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/calibration)
gp_add_fuzz_target(fuzz_serving SOURCES fuzz/fuzz_serving.c LIBS gp_calibrate
                   CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/serving)
gp_add_unit_test(test_serving SOURCES unit/test_serving.c LIBS gp_calibrate gp_planner)
