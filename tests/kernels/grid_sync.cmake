# grid_sync() used wrongly (grid_sync_errors_expect.c): the launch fails with a message naming
# the kernel and the blocks, never hangs.
kp_kernel_fails(grid_sync too_large
  "launch(synced, ...): the kernel calls grid_sync(), so every block must be resident at once"
  "kp_max_cooperative_grid_blocks(synced, 64, 0)")
kp_kernel_fails(grid_sync half_block
  "kernel 'half_block_skips', block ("
  "grid_sync() was reached by 16 of the block's 32 threads; the other 16 exited without reaching it")
kp_kernel_fails(grid_sync block_exits
  "kernel 'block_exits': grid_sync() can never complete: block (1, 0, 0) exited without reaching it")
kp_kernel_fails(grid_sync fault
  "kernel 'faults_after_sync', block (1, 0, 0), thread (31, 0, 0): invalid memory access (SIGSEGV)")
kp_kernel_expect(grid_sync_watchdog grid_sync_errors_expect EXPECT fail ARGS watchdog
  ENV KP_BACKEND=cpu KP_CPU_TIMEOUT_MS=500
  STDERR "kernel 'block_spins', block (2, 0, 0), thread (" "did not finish within KP_CPU_TIMEOUT_MS=500 ms")
# The CUDA path on the fake driver: cuLaunchCooperativeKernel with the launch's grid, the
# co-resident limit from cuOccupancyMaxActiveBlocksPerMultiprocessor, and the driver's
# CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE reported with the kernel and the grid.
if(TARGET fake_cuda)
  kp_kernel_expect(grid_sync_fake_cuda grid_sync_errors_expect EXPECT success ARGS fake
    ENV ${kp_fake_cuda_env}
        FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/grid_sync_fake_cuda.log
    STDOUT "grid_sync fake: limit 4224" "grid_sync_errors fake: finished"
    LACKS "a kernel failed earlier"
    STDERR "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"
           "launch(synced, ...): the kernel calls grid_sync(), so every block must be resident at once, and")
endif()
