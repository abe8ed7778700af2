# Fleet tooling: the Slurm job on a real loopback Slurm, the Kubernetes manifests, and installing
# on the nodes (label integration; exit 77 skips where the tools cannot run).
add_test(NAME contrib_slurm
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/contrib/test_slurm.sh $<TARGET_FILE:gpuplan>)
# It calibrates two nodes at once on this machine: alone, so other timed calibrations keep their
# budgets.
set_tests_properties(contrib_slurm PROPERTIES LABELS integration SKIP_RETURN_CODE 77 TIMEOUT 800
                     RUN_SERIAL TRUE)
add_test(NAME contrib_k8s COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/contrib/test_k8s.sh)
set_tests_properties(contrib_k8s PROPERTIES LABELS integration SKIP_RETURN_CODE 77)
add_test(NAME contrib_install
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/contrib/test_install.sh ${CMAKE_BINARY_DIR})
set_tests_properties(contrib_install PROPERTIES LABELS integration)
