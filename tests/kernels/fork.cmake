# kt_fork_child loads and unloads the dlclose test's library on a thread of its own while it
# forks (the registry's lock must not be inherited held).
target_compile_definitions(kt_fork_child PRIVATE "KT_DLCLOSE_LIB=\"$<TARGET_FILE:kt_dlclose_lib>\"")
target_link_libraries(kt_fork_child PRIVATE ${CMAKE_DL_LIBS})
add_dependencies(kt_fork_child kt_dlclose_lib)
# Fewer forks under the sanitizers, whose fork() is slow (ASan: 38 s for 2000).
if(KP_SANITIZE MATCHES "thread")
  target_compile_definitions(kt_fork_child PRIVATE KT_FORKS=50)
elseif(KP_SANITIZE)
  target_compile_definitions(kt_fork_child PRIVATE KT_FORKS=200)
endif()

# fork() after the runtime started (fork_child.c): on the CUDA backend the child's first call
# is an error naming fork(), as CUDA forbids it; the parent goes on.
if(TARGET fake_cuda)
  kp_kernel_expect(fork_child_fake_cuda fork_child EXPECT success ARGS no-results
    ENV ${kp_fake_cuda_env}
    STDOUT "child: this process was created by fork() after kernplug started the CUDA backend in its parent, and CUDA cannot be used in such a child"
           "fork_child: finished")
endif()

# ThreadSanitizer does not support threads started in the child of a multithreaded fork() and
# kills the child unless told to go on (die_after_fork=0); the CPU backend's child restarts its
# workers, which is what kernel.fork_child checks. kp_sanitize_tests() keeps this option.
if(KP_SANITIZE MATCHES "thread")
  set_tests_properties(kernel.fork_child PROPERTIES
                       ENVIRONMENT "KP_BACKEND=cpu;TSAN_OPTIONS=die_after_fork=0")
endif()
