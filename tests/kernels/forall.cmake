# forall() and kp_occupancy() used wrongly (forall_errors_expect.c): messages that name the
# kernel, the same on both backends.
set(fa_err "kernplug: error: ")
kp_kernel_fails(forall negative "${fa_err}forall(fill, -3): the task count must not be negative")
kp_kernel_fails(forall plain "${fa_err}forall(plain, ...): 'plain' is not a kernel")
kp_kernel_fails(forall occupancy_plain "${fa_err}kp_occupancy(plain, ...): 'plain' is not a kernel")
kp_kernel_expect(forall_return_mode forall_errors_expect EXPECT success ARGS return_mode
                 ENV KP_BACKEND=cpu STDOUT "forall_errors return_mode: finished")

# The CUDA path on the fake driver (it runs no kernels): forall asks
# cuOccupancyMaxPotentialBlockSize with the launch's dynamic shared bytes (the fake answers
# 768 threads, 132 SMs x 2 blocks) and launches ceil(n / block) blocks; a small n gets whole
# warps; without an answer (FAKE_CUDA_FAIL=occupancy) the block is 256.
if(TARGET fake_cuda)
  set(fa_fake ${kp_fake_cuda_env}
      FAKE_CUDA_LOG=/dev/stderr)
  kp_kernel_expect(forall_fake_cuda forall_errors_expect EXPECT success ARGS fake
    ENV ${fa_fake} STDOUT "forall_errors fake: finished" "kp_occupancy(fill): block 768, min_grid 264"
    STDERR "cuOccupancyMaxPotentialBlockSize fill dynamic=0 -> block=768 min_grid=264"
           "cuLaunchKernel fill grid=1303,1,1 block=768,1,1 shared=0 "
           "cuLaunchKernel fill grid=1,1,1 block=128,1,1 shared=0 "
           "cuOccupancyMaxPotentialBlockSize fill dynamic=4096 -> block=768"
           "cuLaunchKernel fill grid=7,1,1 block=768,1,1 shared=4096 ")
  kp_kernel_expect(forall_fake_cuda_no_occupancy forall_errors_expect EXPECT success ARGS fake
    ENV ${fa_fake} FAKE_CUDA_FAIL=occupancy STDOUT "forall_errors fake: finished"
    STDERR "cuLaunchKernel fill grid=3907,1,1 block=256,1,1 shared=0 ")
endif()
