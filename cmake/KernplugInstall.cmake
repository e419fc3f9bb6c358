# What `cmake --install` adds for projects that use kernplug, beside the files installed where
# they are built (kpcc, the plugin, the runtime and the device bitcode):
#   <includedir>/kernplug.h   the umbrella header, and under <includedir>/kernplug/ its topic
#                             headers, short_names.h and detail/ (every .h of include/)
#   <libdir>/cmake/kernplug/  kernplugConfig.cmake, kernplugConfigVersion.cmake and the exported
#                             targets kernplug::runtime and kernplug::plugin (find_package)
#   <libdir>/pkgconfig/kernplug.pc
# Both find the prefix relative to their own location, like kpcc, so a moved prefix works.
# Tested by tests/install (builds examples/out_of_tree against an installed prefix).
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

set(KP_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kernplug
    CACHE STRING "Where kernplugConfig.cmake is installed (relative to the prefix)")
get_filename_component(KP_INSTALL_PLUGIN_NAME "${KP_PLUGIN_PATH}" NAME)
get_filename_component(KP_INSTALL_DEVICE_BC_NAME "${KP_DEVICE_BC}" NAME)
set(KP_INSTALL_REDUCE_BC_NAME kernplug-reduce.bc)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(EXPORT kernplugTargets NAMESPACE kernplug:: FILE kernplugTargets.cmake
        DESTINATION ${KP_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/kernplugConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/kernplugConfig.cmake
  INSTALL_DESTINATION ${KP_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
# 0.x: a minor version may break the API; from 1.0 on, SameMajorVersion.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/kernplugConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/kernplugConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/kernplugConfigVersion.cmake
        DESTINATION ${KP_INSTALL_CMAKEDIR})

# pkg-config: prefix relative to ${pcfiledir} when the install directories are relative to the
# prefix (the usual case); absolute CMAKE_INSTALL_<dir> values are written as they are.
set(KP_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(KP_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH kp_pc_up /kp-prefix/${KP_INSTALL_PKGCONFIGDIR} /kp-prefix)
  string(REGEX REPLACE "/$" "" kp_pc_up "${kp_pc_up}")
  set(KP_PC_PREFIX "\${pcfiledir}/${kp_pc_up}")
endif()
kp_install_paths(KP_PC "\${prefix}")
# GCC's plugin, when it was built (gcc-plugin/): its path and the GCC major it loads into.
set(KP_PC_GCC_LINES "")
if(KP_GCC_MAJOR)
  set(KP_PC_GCC_LINES "gcc_plugin=\${libdir}/kernplug_gcc.so\ngcc_major=${KP_GCC_MAJOR}\n")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/kernplug.pc.in ${PROJECT_BINARY_DIR}/cmake/kernplug.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/kernplug.pc DESTINATION ${KP_INSTALL_PKGCONFIGDIR})
