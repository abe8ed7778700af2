# Installing and packaging: the man page and shell completions generated from the built binary's
# help, the documentation, the systemd units with the installed executable's path, and Debian
# packages through CPack, one per install component: gpuplan (the program), gpuplan-cuda,
# gpuplan-hip and gpuplan-opencl (one calibration module each, depending on its runtime).
include(GNUInstallDirs)
find_package(Python3 COMPONENTS Interpreter REQUIRED)

# gpuplan(1), bash and zsh completion, from `gpuplan help` and every `gpuplan COMMAND --help`.
set(GPUPLAN_CLI_DOCS ${CMAKE_BINARY_DIR}/share)
add_custom_command(
  OUTPUT ${GPUPLAN_CLI_DOCS}/gpuplan.1 ${GPUPLAN_CLI_DOCS}/gpuplan.bash ${GPUPLAN_CLI_DOCS}/_gpuplan
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/cmake/gen_cli_docs.py
          $<TARGET_FILE:gpuplan> ${PROJECT_VERSION} ${GPUPLAN_CLI_DOCS}
  DEPENDS gpuplan ${PROJECT_SOURCE_DIR}/cmake/gen_cli_docs.py
  COMMENT "Generating gpuplan(1) and the shell completions from --help"
  VERBATIM)
add_custom_target(gpuplan_cli_docs ALL
  DEPENDS ${GPUPLAN_CLI_DOCS}/gpuplan.1 ${GPUPLAN_CLI_DOCS}/gpuplan.bash ${GPUPLAN_CLI_DOCS}/_gpuplan)
install(FILES ${GPUPLAN_CLI_DOCS}/gpuplan.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        COMPONENT gpuplan)
install(FILES ${GPUPLAN_CLI_DOCS}/gpuplan.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME gpuplan
        COMPONENT gpuplan)
install(FILES ${GPUPLAN_CLI_DOCS}/_gpuplan DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions
        COMPONENT gpuplan)

# Documentation, as the units' Documentation= lines name it.
file(GLOB GPUPLAN_DOCS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${GPUPLAN_DOCS}
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT gpuplan)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/cmd DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT gpuplan)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/contrib/slurm ${PROJECT_SOURCE_DIR}/contrib/k8s
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/contrib COMPONENT gpuplan USE_SOURCE_PERMISSIONS)

# systemd: the per-user refresh units and the team writer's system units, each pointing at the
# executable of the prefix they are installed to (known only at install time: `make install
# PREFIX=...`, cpack); the writer's system user for systemd-sysusers.
foreach(unit user/gpuplan-refresh.service user/gpuplan-refresh.timer
             system/gpuplan-refresh.service system/gpuplan-refresh.timer)
  get_filename_component(kind ${unit} DIRECTORY)
  get_filename_component(name ${unit} NAME)
  set(source ${PROJECT_SOURCE_DIR}/contrib/systemd/${name})
  if(kind STREQUAL "system")
    set(source ${PROJECT_SOURCE_DIR}/contrib/systemd/team/${name})
  endif()
  set(staged ${CMAKE_BINARY_DIR}/share/systemd/${unit})
  install(CODE "file(READ \"${source}\" text)
    string(REPLACE \"/usr/local/bin/gpuplan\" \"\${CMAKE_INSTALL_PREFIX}/bin/gpuplan\" text \"\${text}\")
    file(WRITE \"${staged}\" \"\${text}\")" COMPONENT gpuplan)
  install(FILES ${staged} DESTINATION lib/systemd/${kind} COMPONENT gpuplan)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/contrib/systemd/team/gpuplan.sysusers
        DESTINATION lib/sysusers.d RENAME gpuplan.conf COMPONENT gpuplan)

# Debian packages: `cpack -G DEB` in the build folder (or `make package`).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpuplan)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "gpuplan maintainers <gpuplan@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_GPUPLAN_PACKAGE_NAME gpuplan)
set(CPACK_DEBIAN_GPUPLAN_PACKAGE_SHLIBDEPS ON)
# libcurl (by the commands that fetch) and libxlsxwriter (by workbooks) are loaded at run time,
# so the shared-library scan does not see them.
set(CPACK_DEBIAN_GPUPLAN_PACKAGE_DEPENDS "libcurl4, libxlsxwriter4")
# The CPU backend loads OpenBLAS when it is there.
set(CPACK_DEBIAN_GPUPLAN_PACKAGE_RECOMMENDS "libopenblas0")
set(CPACK_DEBIAN_GPUPLAN_DESCRIPTION
    "GPU fleet, power and cost planner\n Plans GPU fleets from a catalog, price feeds and calibrations; calibrates the CPU.")
set(CPACK_COMPONENTS_ALL gpuplan)
# Each module: its package, the program it plugs into, and the runtime it loads.
set(GPUPLAN_MODULE_DEPENDS_opencl "ocl-icd-libopencl1 | libopencl1")
set(GPUPLAN_MODULE_DEPENDS_cuda "libcublas-13-0 | libcublaslt13")
set(GPUPLAN_MODULE_RECOMMENDS_cuda "libcuda1 | cuda-drivers")
set(GPUPLAN_MODULE_DEPENDS_hip "libamdhip64-5 | hip-runtime-amd")
foreach(module opencl cuda hip)
  if(TARGET gpuplan_${module})
    string(TOUPPER ${module} up)
    list(APPEND CPACK_COMPONENTS_ALL ${module})
    set(CPACK_DEBIAN_${up}_PACKAGE_NAME gpuplan-${module})
    set(CPACK_DEBIAN_${up}_PACKAGE_DEPENDS
        "gpuplan (= ${PROJECT_VERSION}), ${GPUPLAN_MODULE_DEPENDS_${module}}")
    if(DEFINED GPUPLAN_MODULE_RECOMMENDS_${module})
      set(CPACK_DEBIAN_${up}_PACKAGE_RECOMMENDS "${GPUPLAN_MODULE_RECOMMENDS_${module}}")
    endif()
    set(CPACK_DEBIAN_${up}_DESCRIPTION
        "gpuplan calibration module for ${module}\n Measures GEMM and memory bandwidth on ${module} devices for gpuplan calibrate.")
  endif()
endforeach()
include(CPack)
