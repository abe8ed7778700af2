# Fleet tooling under contrib/: the Slurm job on a real loopback Slurm and the Kubernetes
# manifests (label integration; exit 77 skips where the tools cannot run).
add_test(NAME contrib_slurm
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/contrib/test_slurm.sh $<TARGET_FILE:gpuplan>)
set_tests_properties(contrib_slurm PROPERTIES LABELS integration SKIP_RETURN_CODE 77 TIMEOUT 300)
add_test(NAME contrib_k8s COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/contrib/test_k8s.sh)
set_tests_properties(contrib_k8s PROPERTIES LABELS integration SKIP_RETURN_CODE 77)
