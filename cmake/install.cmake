# Installs Jackdaw as a CMake package: headers, the static libraries, and JackdawConfig.cmake, so
# that a project outside this tree can
#   find_package(Jackdaw REQUIRED)
#   target_link_libraries(my_app PRIVATE Jackdaw::jackdaw)
# Jackdaw::jackdaw brings the skeletons, the MPI runtime and the common app kit (CLI, logging, JSON).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(jackdaw INTERFACE)
add_library(Jackdaw::jackdaw ALIAS jackdaw)
target_link_libraries(jackdaw INTERFACE jackdaw_app jackdaw_skeletons jackdaw_comm jackdaw_core)

install(TARGETS jackdaw jackdaw_app jackdaw_skeletons jackdaw_comm jackdaw_core
  EXPORT JackdawTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(_inc core/include skeletons/include comm/include apps/common/include)
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
