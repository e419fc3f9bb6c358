# gufunc() calls the runtime must refuse, each with a message naming the gufunc and the
# argument (see gufunc_errors_expect.c). Argument checks do not depend on the backend.
set(gu_cpu KP_BACKEND=cpu)
set(gu_err "kernplug: error: gufunc(")
kp_kernel_fails(gufunc negative_n "${gu_err}l2_norm, -1, ...): the loop count n must not be negative")
kp_kernel_fails(gufunc negative_size "${gu_err}l2_norm, ...): argument 3 ('i'), the size of dimension 'i', is -2; sizes must not be negative")
kp_kernel_fails(gufunc size_too_big "${gu_err}trace, ...): argument 3 ('m'), the size of dimension 'm', is 200, more than its 1-byte parameter holds")
kp_kernel_fails(gufunc float_size "${gu_err}l2_norm, ...): argument 3 ('i') is the size of dimension 'i' and must be an integer, not f64")
kp_kernel_fails(gufunc not_gufunc "${gu_err}fp, ...): 'fp' is not a guvectorize function: mark it __attribute__((guvectorize(")
kp_kernel_fails(gufunc vectorize "${gu_err}twice, ...): 'twice' is a vectorize function, not a guvectorize function: call it with ufunc(twice, n, out, in...)")
kp_kernel_fails(gufunc kernel "${gu_err}fill, ...): 'fill' is a kernel, not a guvectorize function: call it with launch(fill, blocks, threads)(args...)")
kp_kernel_fails(gufunc launched "kernplug: error: launch(l2_norm, ...): 'l2_norm' is a guvectorize function, not a kernel: call it with gufunc(l2_norm, n, args...)")
kp_kernel_fails(gufunc count "${gu_err}l2_norm, ...): 'l2_norm' takes 3 arguments after n (a pointer for each of the 2 operands of layout \"(i)->()\", then 1 size) but the call passes 2")
kp_kernel_fails(gufunc element_type "${gu_err}l2_norm, ...): argument 1 ('vec') points to f64 (8-byte elements) but parameter 'vec' of 'l2_norm' has 4-byte elements")
kp_kernel_fails(gufunc scalar_operand "${gu_err}l2_norm, ...): argument 2 ('out', output 1 of layout \"(i)->()\") must be a pointer to its elements, not a scalar (f32)")
kp_kernel_fails(gufunc array_size "${gu_err}l2_norm, ...): argument 3 ('i') is the size of dimension 'i' and must be an integer, not an array of f32")
kp_kernel_fails(gufunc const_output "${gu_err}l2_norm, ...): argument 2 ('out') is output 1 of layout \"(i)->()\" but points to const f32; gufunc writes it")
kp_kernel_fails(gufunc null_input "${gu_err}l2_norm, ...): input 1 ('vec': 3 blocks of 2 f32) is a NULL pointer (it needs 24 bytes)")
kp_kernel_fails(gufunc small_device "${gu_err}l2_norm, ...): input 1 ('vec': 3 blocks of 2 f32) is a device array of 20 bytes" "but the call needs 24 bytes")
kp_kernel_expect(gufunc_zero_count gufunc_errors_expect EXPECT success ARGS zero_count
                 ENV ${gu_cpu} STDOUT "gufunc_errors zero_count: finished")
kp_kernel_expect(gufunc_return_mode gufunc_errors_expect EXPECT success ARGS return_mode
                 ENV ${gu_cpu} STDOUT "gufunc_errors return_mode: finished")

# The CUDA path without a GPU: the fake driver of tests/runtime logs what a call does. Host
# arrays are staged (input 10 x 2 floats = 80 bytes in; the output's 40 bytes in and back),
# the kernel gets n, the two device copies and the size 2; a million rows take the grid the
# occupancy answer allows (132 SMs x 2 blocks of 768) and the loop strides over the rest.
if(TARGET fake_cuda)
  set(gu_fake ${kp_fake_cuda_env}
      FAKE_CUDA_LOG=/dev/stderr)
  kp_kernel_expect(gufunc_fake_cuda_staged gufunc_errors_expect EXPECT success ARGS staged
    ENV ${gu_fake} STDOUT "gufunc_errors staged: finished"
    STDERR "cuMemAllocAsync 80 stream=(nil) -> " "cuMemAllocAsync 40 stream=(nil) -> " "cuModuleGetFunction __kp_guvec_l2_norm\n"
           "cuLaunchKernel __kp_guvec_l2_norm grid=1,1,1 block=32,1,1 shared=0 stream=(nil) params=0xa,0x"
           ",0x2\n" "cuMemcpyDtoH 0x")
  kp_kernel_expect(gufunc_fake_cuda_large gufunc_errors_expect EXPECT success ARGS large
    ENV ${gu_fake} STDOUT "gufunc_errors large: finished"
    STDERR "cuLaunchKernel __kp_guvec_l2_norm grid=264,1,1 block=768,1,1 shared=0 stream=(nil) params=0xf4240,0x")
endif()

# A "()" input taken by value (gufunc_scalar_fake_expect.c) on the fake driver: the kernel's
# parameters are n = 10, the staged x, the float 2.5, the signed char -3, the staged output
# and n = 7; only the two arrays are copied (280 bytes each).
if(TARGET fake_cuda)
  kp_kernel_expect(gufunc_fake_cuda_by_value gufunc_scalar_fake_expect EXPECT success
    ENV ${kp_fake_cuda_env} FAKE_CUDA_LOG=/dev/stderr
    STDOUT "gufunc_scalar_fake: finished"
    STDERR "cuLaunchKernel __kp_guvec_scale_row " "params=0xa,0x" ",0x40200000,fd,0x" ",0x7\n")
endif()
