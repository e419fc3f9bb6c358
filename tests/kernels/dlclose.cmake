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
    ENV KP_BACKEND=cuda "KP_LIBCUDA=$<TARGET_FILE_DIR:fake_cuda>/libcuda.so.1"
        FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/dlclose_fake_cuda.log
    STDOUT "dlclose: round 3 ok" "dlclose: ok")
endif()
