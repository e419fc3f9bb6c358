# kernel.dlclose (cpu, gpu): the library tests/kernels/dlclose/lib.c, built with the plugin,
# is dlopen()ed and dlclose()d by kt_dlclose three times (finding 5).
add_library(kt_dlclose_lib MODULE ${CMAKE_CURRENT_SOURCE_DIR}/dlclose/lib.c)
kernplug_use_plugin(kt_dlclose_lib)
target_compile_definitions(kt_dlclose PRIVATE "KT_DLCLOSE_LIB=\"$<TARGET_FILE:kt_dlclose_lib>\"")
target_link_libraries(kt_dlclose PRIVATE ${CMAKE_DL_LIBS})
add_dependencies(kt_dlclose kt_dlclose_lib)

# The CUDA backend on the fake driver, which runs no kernels: the program reads the driver's
# log and checks that the library's module is unloaded (cuModuleUnload) at each dlclose, that
# nothing uses it afterwards, and that the program's own module stays loaded.
if(TARGET fake_cuda)
  kp_kernel_expect(dlclose_fake_cuda dlclose EXPECT success ARGS fake
    ENV ${kp_fake_cuda_env}
        FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/dlclose_fake_cuda.log
    STDOUT "dlclose: round 3 ok" "dlclose: ok")
endif()

# kernel.dlopen_no_runtime (cpu): the same library loaded by a plain C program that does not
# link the runtime, as Python's ctypes does (issue 17 item 4; dlclose/no_runtime.c). Not in a
# sanitizer build: the instrumented library needs the sanitizer runtime loaded first.
if(BUILD_TESTING AND NOT KP_SANITIZE)
  add_executable(kt_dlopen_no_runtime ${CMAKE_CURRENT_SOURCE_DIR}/dlclose/no_runtime.c)
  target_compile_options(kt_dlopen_no_runtime PRIVATE ${KP_WARNINGS} -Werror)
  target_compile_definitions(kt_dlopen_no_runtime PRIVATE
    "KT_DLCLOSE_LIB=\"$<TARGET_FILE:kt_dlclose_lib>\"")
  target_link_libraries(kt_dlopen_no_runtime PRIVATE ${CMAKE_DL_LIBS})
  add_dependencies(kt_dlopen_no_runtime kt_dlclose_lib)
  add_test(NAME kernel.dlopen_no_runtime COMMAND kt_dlopen_no_runtime)
  set_tests_properties(kernel.dlopen_no_runtime PROPERTIES LABELS cpu
                       ENVIRONMENT "KP_BACKEND=cpu")
endif()

# kernel.runtime_no_static_tls (cpu): libkernplug_rt must not ask for static TLS (the
# DF_STATIC_TLS flag, set by any initial-exec access): with it, dlopen() from such a program
# fails as soon as its TLS block outgrows glibc's small surplus (docs/runtime.md, Notes).
find_program(KP_READELF NAMES readelf llvm-readelf-19 llvm-readelf)
if(BUILD_TESTING AND KP_READELF)
  add_test(NAME kernel.runtime_no_static_tls COMMAND sh -c
           "flags=$(\"$0\" -d \"$1\" | grep FLAGS); echo \"$1: $flags\"; case $flags in *STATIC_TLS*) exit 1 ;; esac"
           ${KP_READELF} $<TARGET_FILE:kernplug_rt>)
  set_tests_properties(kernel.runtime_no_static_tls PROPERTIES LABELS cpu)
endif()
