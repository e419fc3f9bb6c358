# Helpers for building C programs whose kernels the plugin compiles, inside this build tree.

# kernplug_target_sources_use_plugin(<target>): compile the target's C sources with the
# plugin and link the runtime. Objects are rebuilt when the plugin or the device runtime change.
function(kernplug_use_plugin target)
  target_compile_options(${target} PRIVATE -fplugin=$<TARGET_FILE:kernplug> ${KP_WARNINGS} -Werror)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(${target} PRIVATE kernplug_rt)
  add_dependencies(${target} kernplug kernplug_device_bc)
  get_target_property(srcs ${target} SOURCES)
  set_source_files_properties(${srcs} TARGET_DIRECTORY ${target} PROPERTIES
    OBJECT_DEPENDS "${KP_PLUGIN_PATH};${KP_PLUGIN_IMPL_PATH};${KP_DEVICE_BC}")
endfunction()

# kernplug_add_program(<name> <sources>...): an executable built with the plugin.
function(kernplug_add_program name)
  add_executable(${name} ${ARGN})
  kernplug_use_plugin(${name})
endfunction()
