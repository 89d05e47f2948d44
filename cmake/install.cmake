# Installs Jackdaw as a CMake package: headers, the static libraries, and JackdawConfig.cmake, so
# that a project outside this tree can
#   find_package(Jackdaw REQUIRED)
#   target_link_libraries(my_app PRIVATE Jackdaw::jackdaw)
# Jackdaw::jackdaw brings the skeletons, the MPI runtime and the common app kit (CLI, logging, JSON);
# Jackdaw::search alone is the MPI-free engine (core + single-node skeletons), and
# Jackdaw::distributed adds the comm layer and the multi-rank driver.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(jackdaw INTERFACE)
add_library(Jackdaw::jackdaw ALIAS jackdaw)
target_link_libraries(jackdaw INTERFACE jackdaw_app jackdaw_distributed jackdaw_search jackdaw_comm jackdaw_core)

# Installed under the same names as in the tree: Jackdaw::search, Jackdaw::distributed, …
# (comm_core: comm's MPI-free half, policies and their registry; trace: the --trace file format.)
foreach(_t core search comm comm_core distributed app trace)
  set_target_properties(jackdaw_${_t} PROPERTIES EXPORT_NAME ${_t})
endforeach()

install(TARGETS jackdaw jackdaw_app jackdaw_distributed jackdaw_search jackdaw_comm jackdaw_comm_core jackdaw_core
                jackdaw_trace
  EXPORT JackdawTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(_inc core/include skeletons/include comm/include distributed/include apps/common/include trace/include)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_inc}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()

set(_cfgdir ${CMAKE_INSTALL_LIBDIR}/cmake/Jackdaw)
install(EXPORT JackdawTargets NAMESPACE Jackdaw:: DESTINATION ${_cfgdir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/JackdawConfig.cmake.in
  ${PROJECT_BINARY_DIR}/JackdawConfig.cmake INSTALL_DESTINATION ${_cfgdir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/JackdawConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/JackdawConfig.cmake ${PROJECT_BINARY_DIR}/JackdawConfigVersion.cmake
  DESTINATION ${_cfgdir})
