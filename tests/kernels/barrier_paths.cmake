# Kernels with barriers run on the CPU split at their barriers where the plugin proves that
# every thread of a block reaches them (BarrierFission.cpp), else as fibers. The programs
# whose kernels the split takes are built a second time with cpu-barriers=fibers, so that
# both paths stay tested: kernel.<name> (split) and kernel.<name>.fibers.
foreach(prog barriers shared_static shared_dynamic barrier_split barrier_split_adversarial
             barrier_split_loaded barrier_split_votes barrier_split_ranges barrier_split_runs
             barrier_split_stencil warp_split warp_shuffle_in_place warp_split_uniform_saves
             warp_loop_unroll barrier_split_equality
             calling_conventions const_index_helpers shared_scalar
             fiber_errors_expect)
  kernplug_add_program(kt_${prog}_fibers ${prog}.c)
  target_compile_options(kt_${prog}_fibers PRIVATE -fplugin-arg-kernplug-cpu-barriers=fibers)
  target_include_directories(kt_${prog}_fibers PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(kt_${prog}_fibers PRIVATE m)
  if(NOT prog MATCHES "_expect$")
    add_test(NAME kernel.${prog}.fibers COMMAND kt_${prog}_fibers)
    set_tests_properties(kernel.${prog}.fibers PROPERTIES LABELS cpu ENVIRONMENT "KP_BACKEND=cpu"
                         TIMEOUT 300)
  endif()
endforeach()
