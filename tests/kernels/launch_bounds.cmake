# Launches over a kernel's launch_bounds (launch_bounds_errors_expect.c): the same message on
# both backends; on the fake driver no cuLaunchKernel is made, and forall's block is capped.
set(lb_err "kernplug: error: launch(bounded, ...): ")
kp_kernel_fails(launch_bounds over "${lb_err}512 threads per block (512 x 1 x 1) exceed the kernel's launch_bounds(256)")
kp_kernel_fails(launch_bounds over_2d "${lb_err}512 threads per block (32 x 16 x 1) exceed the kernel's launch_bounds(256)")
kp_kernel_expect(launch_bounds_return_mode launch_bounds_errors_expect EXPECT success ARGS return_mode
                 ENV KP_BACKEND=cpu STDOUT "launch_bounds_errors return_mode: finished")
if(TARGET fake_cuda)
  set(lb_fake ${kp_fake_cuda_env}
      FAKE_CUDA_LOG=/dev/stderr)
  kp_kernel_expect(launch_bounds_fake_cuda_over launch_bounds_errors_expect EXPECT fail ARGS over
    ENV ${lb_fake} STDERR "${lb_err}512 threads per block (512 x 1 x 1) exceed the kernel's launch_bounds(256)"
    LACKS "cuLaunchKernel")
  kp_kernel_expect(launch_bounds_fake_cuda_forall launch_bounds_errors_expect EXPECT success ARGS forall
    ENV ${lb_fake} STDOUT "launch_bounds_errors forall: finished"
    STDERR "cuLaunchKernel bounded grid=391,1,1 block=256,1,1 ")
endif()
