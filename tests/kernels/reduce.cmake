# kp_reduce: calls that must fail with a message naming the function and the argument
# (reduce_errors_expect.c), and the GPU's reduction kernel run on the CPU backend.
set(cpu KP_BACKEND=cpu)
kp_kernel_expect(reduce_not_reduce reduce_errors_expect EXPECT fail ARGS not_reduce ENV ${cpu}
  STDERR "kernplug: error: kp_reduce(plain_max, ...): 'plain_max' is not a reduce function: declare it as __attribute__((reduce)) T plain_max(T, T)")
kp_kernel_expect(reduce_vectorize reduce_errors_expect EXPECT fail ARGS vectorize ENV ${cpu}
  STDERR "kernplug: error: kp_reduce(vmax, ...): 'vmax' is a vectorize function, not a reduce function: call it with ufunc(vmax, n, out, ")
kp_kernel_expect(reduce_type_mismatch reduce_errors_expect EXPECT fail ARGS type_mismatch ENV ${cpu}
  STDERR "kernplug: error: kp_reduce(wrong, ...): reduce function 'wrong' (" "reduce_errors_expect.c:6) folds f32 values, but argument 'in' is an array of i32")
kp_kernel_expect(reduce_launched reduce_errors_expect EXPECT fail ARGS launched ENV ${cpu}
  STDERR "kernplug: error: launch(fsum, ...): 'fsum' is a reduce function, not a kernel: call it with kp_reduce(fsum, in, n)")
kp_kernel_expect(reduce_negative_n reduce_errors_expect EXPECT fail ARGS negative_n ENV ${cpu}
  STDERR "kernplug: error: kp_reduce(fsum, ...): argument 'n' is -3; the element count must be at least 0")
kp_kernel_expect(reduce_null_in reduce_errors_expect EXPECT fail ARGS null_in ENV ${cpu}
  STDERR "kernplug: error: kp_reduce(fsum, ...): argument 'in' is a NULL pointer")
kp_kernel_expect(reduce_short_device_array reduce_errors_expect EXPECT fail
  ARGS short_device_array ENV ${cpu}
  STDERR "kernplug: error: kp_reduce(fsum, ...): argument 'in' is a device array of 32 bytes" "needs 36 bytes")
kp_kernel_expect(reduce_return_mode reduce_errors_expect EXPECT success ARGS return_mode
  ENV ${cpu} STDOUT "reduce_errors return_mode: finished")

# The CUDA path against the fake driver of tests/runtime (no GPU, no kernels run): the PTX
# entry is found, the host array goes to the device, pass 1 runs 163 blocks of 768 threads
# (the fake's occupancy answer: 3907 tiles of 256 floats, one per warp), pass 2 one warp over
# the 163 partials, and 4 bytes come back.
if(TARGET fake_cuda)
  kp_kernel_expect(reduce_fake_cuda reduce_errors_expect EXPECT success ARGS staged
    ENV ${kp_fake_cuda_env}
        FAKE_CUDA_LOG=/dev/stderr
    STDERR "cuModuleGetFunction __kp_reduce_fsum" "cuMemcpyHtoD 0x" " 4000000\n"
           "cuLaunchKernel __kp_reduce_fsum grid=163,1,1 block=768,1,1 shared=0 stream=(nil) params=0xf4240,0x"
           "cuLaunchKernel __kp_reduce_fsum grid=1,1,1 block=32,1,1 shared=0 stream=(nil) params=0xa3,0x"
           " 4\ncuMemFree")
endif()

# The CPU backend normally runs each reduce function's per-block fold; built with
# -fplugin-arg-kernplug-reduce-fibers it runs the GPU kernel itself (warp shuffles, shared
# partials, barrier) as fibers, which tests that algorithm on machines without a GPU.
foreach(prog reduce_order reduce_types)
  kernplug_add_program(kt_${prog}_fibers ${prog}.c)
  target_compile_options(kt_${prog}_fibers PRIVATE -fplugin-arg-kernplug-reduce-fibers)
  target_include_directories(kt_${prog}_fibers PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  add_test(NAME kernel.${prog}.fibers COMMAND kt_${prog}_fibers small)
  set_tests_properties(kernel.${prog}.fibers PROPERTIES LABELS cpu ENVIRONMENT "KP_BACKEND=cpu"
                       TIMEOUT 300)
endforeach()
