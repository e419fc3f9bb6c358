# ufunc() calls the runtime must refuse, each with a message naming the ufunc and the argument
# (see ufunc_errors_expect.c: the function arrives through a function pointer, so the plugin's
# compile-time check cannot see it). Argument checks do not depend on the backend.
set(uf_cpu KP_BACKEND=cpu)
set(uf_err "kernplug: error: ufunc(")
set(uf_sigs "declared signatures: \"f32(f32,f32)\", \"i64(i64,i64)\"")
kp_kernel_fails(ufunc mismatch "${uf_err}op, ...): no signature of 'op' matches the argument types: output f64[], inputs (f64[], f64[]); ${uf_sigs} (arrays must have the signature's element type exactly; scalars are converted)")
kp_kernel_fails(ufunc mixed_arrays "${uf_err}op, ...): no signature of 'op' matches the argument types: output f32[], inputs (f32[], i64[]); ${uf_sigs}")
kp_kernel_fails(ufunc count "${uf_err}uop, ...): 'uop' takes 1 input but the call passes 2 after the output array (declared signatures: \"f32(f32)\")")
kp_kernel_fails(ufunc plain "${uf_err}op, ...): 'op' is not a vectorize function: mark it __attribute__((vectorize(\"f32(f32)\", ...))) with its signatures and compile its file with clang -fplugin=kernplug.so or gcc -fplugin=kernplug-gcc.so")
kp_kernel_fails(ufunc kernel "${uf_err}kf, ...): 'kf' is a kernel, not a vectorize function: call it with launch(kf, blocks, threads)(args...)")
kp_kernel_fails(ufunc null_function "${uf_err}none, ...): the function is NULL")
kp_kernel_fails(ufunc negative_n "${uf_err}add, -5, ...): the element count must not be negative")
kp_kernel_fails(ufunc scalar_output "${uf_err}op, ...): the output (the argument after n) must be an array, not a f32 scalar")
kp_kernel_fails(ufunc const_output "${uf_err}op, ...): the output array is a pointer to const f32; ufunc writes it")
kp_kernel_fails(ufunc null_input "${uf_err}add, ...): input 1 ('a', 10 x f32) is a NULL pointer (it needs 40 bytes)")
kp_kernel_fails(ufunc small_device "${uf_err}add, ...): input 2 ('b', 10 x f32) is a device array of 36 bytes" "but the call needs 40 bytes")
kp_kernel_fails(ufunc small_device_output "${uf_err}add, ...): the output (10 x i64) is a device array of 72 bytes" "but the call needs 80 bytes")
kp_kernel_expect(ufunc_return_mode ufunc_errors_expect EXPECT success ARGS return_mode
                 ENV ${uf_cpu} STDOUT "ufunc_errors return_mode: finished")

# The CUDA path without a GPU: the fake driver of tests/runtime logs what a call does (it runs
# no kernels). Host arrays are staged: each input copied in (10 x i64 = 80 bytes), the output
# allocated and copied back; the kernel gets n, the device pointers, the broadcast scalar 3
# and the scalar mask; a call whose only array is its first input runs the _first_array
# variant, one with arrays only the _arrays variant (neither tests the mask). A million
# elements take the grid the occupancy answer allows (132 SMs x 2 blocks of 768 threads) and
# the kernel's loop strides over the rest; 100 elements take one block of 128 threads (whole
# warps). Without an occupancy answer the grid covers n in blocks of 256.
if(TARGET fake_cuda)
  set(uf_fake ${kp_fake_cuda_env}
      FAKE_CUDA_LOG=/dev/stderr)
  kp_kernel_expect(ufunc_fake_cuda_staged ufunc_errors_expect EXPECT success ARGS fake_staged
    ENV ${uf_fake} STDOUT "ufunc_errors fake_staged: finished"
    STDERR "cuMemAllocAsync 80 stream=(nil) -> " "cuMemcpyHtoD 0x" " 80\ncuPointerGetAttribute 2 0x" " -> unknown\ncuMemAllocAsync 80 stream=(nil) -> "
           "cuOccupancyMaxPotentialBlockSize __kp_vec_add_1_first_array dynamic=0 -> block=768 min_grid=264"
           "cuLaunchKernel __kp_vec_add_1_first_array grid=1,1,1 block=32,1,1 shared=0 stream=(nil) params=0xa,0x"
           ",0x0,0x3,0x2\n" "cuMemcpyDtoH 0x")
  kp_kernel_expect(ufunc_fake_cuda_large ufunc_errors_expect EXPECT success ARGS fake_large
    ENV ${uf_fake} STDOUT "ufunc_errors fake_large: finished"
    STDERR "cuLaunchKernel __kp_vec_add_0_first_array grid=264,1,1 block=768,1,1 shared=0 stream=(nil) params=0xf4240,"
           ",0x40000000,0x2\n"
           "cuLaunchKernel __kp_vec_add_0_arrays grid=1,1,1 block=128,1,1 shared=0 stream=(nil) params=0x64,"
    LACKS "cuMemcpy")
  # Over 2^30 elements (the kernels index with 32 bits): one launch per 2^30, the second on
  # the arrays from element 2^30 on; with no broadcast scalar the all-array twin runs.
  # The program reads the log back to check the pointers.
  kp_kernel_expect(ufunc_fake_cuda_chunks ufunc_errors_expect EXPECT success ARGS fake_chunks
    ENV ${kp_fake_cuda_env}
        FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/ufunc_fake_cuda_chunks.log
    STDOUT "ufunc_errors fake_chunks: finished")
  kp_kernel_expect(ufunc_fake_cuda_no_occupancy ufunc_errors_expect EXPECT success ARGS fake_large
    ENV ${uf_fake} FAKE_CUDA_FAIL=occupancy STDOUT "ufunc_errors fake_large: finished"
    STDERR "cuLaunchKernel __kp_vec_add_0_first_array grid=3907,1,1 block=256,1,1 ")
endif()
kp_kernel_expect(ufunc_launched ufunc_errors_expect EXPECT fail ARGS launched ENV ${uf_cpu} STDERR
  "kernplug: error: launch(twice, ...): 'twice' is a vectorize function, not a kernel: call it with ufunc(twice, n, out, in...)")

# A crash in the element function on the CPU backend names the element (its range entry is
# replayed one element at a time), on the workers and on the calling thread alone.
kp_kernel_fails(ufunc element_fault
  "kernplug: error: kernel '__kp_vec_trap_at_0_arrays', element 77777: trap: __builtin_trap()")
kp_kernel_fails(ufunc element_fault_small
  "kernplug: error: kernel '__kp_vec_trap_at_0_arrays', element 7777: trap: __builtin_trap()")
