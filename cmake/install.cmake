# Installs Jackdaw as a CMake package: headers, the static libraries, and JackdawConfig.cmake, so
# that a project outside this tree can
#   find_package(Jackdaw REQUIRED)                       # every component
#   target_link_libraries(my_app PRIVATE Jackdaw::jackdaw)
# or ask only for what it links, and need only that part's dependencies:
#   find_package(Jackdaw REQUIRED COMPONENTS search)     # no MPI, spdlog, CLI11, ...
#   target_link_libraries(my_solver PRIVATE Jackdaw::search)
# Components (each its own targets file, loaded by JackdawConfig.cmake only when asked for or
# needed by one that is):
#   search       Jackdaw::search, Jackdaw::core: the MPI-free engine (core + single-node skeletons)
#   trace        Jackdaw::trace: the --trace file format
#   distributed  Jackdaw::distributed, Jackdaw::comm, Jackdaw::comm_core: the comm layer and the
#                multi-rank driver; needs search
#   app          Jackdaw::app (the common app kit: CLI, logging, JSON reports) and Jackdaw::jackdaw
#                (everything); needs distributed and trace
#   solve        Jackdaw::solve: what jackdaw/jackdaw.hpp needs (distributed, or search where
#                Jackdaw was built with JACKDAW_WITH_MPI=OFF: then only search, trace and solve)
# The dependencies each one brings are in cmake/JackdawConfig.cmake.in.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Installed under the same names as in the tree: Jackdaw::search, Jackdaw::distributed, …
# (comm_core: comm's MPI-free half, policies and their registry; trace: the --trace file format.)
foreach(_t core search trace)
  set_target_properties(jackdaw_${_t} PROPERTIES EXPORT_NAME ${_t})
endforeach()

set(_cfgdir ${CMAKE_INSTALL_LIBDIR}/cmake/Jackdaw)
# One export set, and one targets file, per component.
function(jackdaw_install_component export)
  install(TARGETS ${ARGN}
    EXPORT ${export}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT ${export} NAMESPACE Jackdaw:: DESTINATION ${_cfgdir})
endfunction()
jackdaw_install_component(JackdawSearchTargets jackdaw_core jackdaw_search)
jackdaw_install_component(JackdawTraceTargets jackdaw_trace)
set(_includes core/include skeletons/include trace/include)
if(JACKDAW_WITH_MPI)
  add_library(jackdaw INTERFACE)
  add_library(Jackdaw::jackdaw ALIAS jackdaw)
  target_link_libraries(jackdaw INTERFACE jackdaw_app jackdaw_distributed jackdaw_search jackdaw_comm jackdaw_core)
  foreach(_t comm comm_core distributed app)
    set_target_properties(jackdaw_${_t} PROPERTIES EXPORT_NAME ${_t})
  endforeach()
  jackdaw_install_component(JackdawDistributedTargets jackdaw_comm_core jackdaw_comm jackdaw_distributed)
  jackdaw_install_component(JackdawAppTargets jackdaw_app jackdaw)
  list(APPEND _includes comm/include distributed/include apps/common/include)
else()
  # jackdaw/jackdaw.hpp of a package without MPI: jackdaw::solve and jackdaw::Job on one process.
  list(APPEND _includes skeletons/local)
endif()
foreach(_inc ${_includes})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_inc}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/JackdawConfig.cmake.in
  ${PROJECT_BINARY_DIR}/JackdawConfig.cmake INSTALL_DESTINATION ${_cfgdir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/JackdawConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/JackdawConfig.cmake ${PROJECT_BINARY_DIR}/JackdawConfigVersion.cmake
  DESTINATION ${_cfgdir})
