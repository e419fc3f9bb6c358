# Copies and fills used wrongly (memops_errors_expect.c): each stops with a message naming the
# call, the pointer and the sizes. The checks are the runtime's own, the same on both backends.
set(mo_err "kernplug: error: ")
kp_kernel_fails(memops dtod_too_much "${mo_err}copy_device_to_device: 400 bytes at 0x" "run past the end of its device array (400 bytes at" "16 bytes in)")
kp_kernel_fails(memops dtod_host "${mo_err}copy_device_to_device: 0x" "is not a device array")
kp_kernel_fails(memops pinned_src_too_much "${mo_err}copy_to_device: 400 bytes at 0x" "run past the end of its pinned array (400 bytes at" "40 bytes in)")
kp_kernel_fails(memops device_dst_too_much "${mo_err}copy_to_host: 400 bytes at 0x" "run past the end of its device array (400 bytes at" "200 bytes in)")
kp_kernel_fails(memops overlap "${mo_err}copy_device_to_device: the destination 0x" "overlap (40 bytes each), which a GPU driver's copy leaves undefined")
kp_kernel_fails(memops memset_too_much "${mo_err}kp_memset: 400 bytes at 0x" "run past the end of its device array (400 bytes at" "4 bytes in)")
kp_kernel_fails(memops memset_host "${mo_err}kp_memset: 0x" "is not a device array")
kp_kernel_fails(memops fill_odd_size "${mo_err}kp_fill: elements of 3 bytes cannot be filled (1, 2, 4 or 8 bytes can)")
kp_kernel_fails(memops fill_double "${mo_err}kp_fill: 8-byte elements can be filled only with a value whose two 4-byte halves are equal")
kp_kernel_fails(memops fill_misaligned "${mo_err}kp_fill: 0x" "is not aligned to its 4-byte elements")
kp_kernel_fails(memops memset_async_destroyed "${mo_err}kp_memset_async on stream 1: stream 1 was destroyed (kp_stream_destroy)")
kp_kernel_fails(memops dtod_async_too_much "${mo_err}copy_device_to_device_async on stream 1: 400 bytes at 0x" "run past the end of its device array (400 bytes at" "4 bytes in)")
kp_kernel_expect(memops_return_mode memops_errors_expect EXPECT success ARGS return_mode
                 ENV KP_BACKEND=cpu STDOUT "memops_errors return_mode: finished")

# The CUDA path on the fake driver of tests/runtime: each pair of memory kinds gets the right
# cuMemcpy variant (the log is checked by the program), fills the right cuMemsetD*, and the
# driver's errors are reported naming the call.
if(TARGET fake_cuda)
  set(mo_fake ${kp_fake_cuda_env})
  kp_kernel_expect(memops_fake_cuda memops_errors_expect EXPECT success ARGS fake
    ENV ${mo_fake} FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/memops_fake_cuda.log
    STDOUT "memops_errors fake: finished")
  kp_kernel_expect(memops_fake_cuda_return_mode memops_errors_expect EXPECT success
    ARGS return_mode ENV ${mo_fake} STDOUT "memops_errors return_mode: finished")
  kp_kernel_expect(memops_fake_cuda_dtod_fails memops_errors_expect EXPECT fail
    ARGS fake_dtod_fails ENV ${mo_fake} FAKE_CUDA_FAIL=dtod
    STDERR "${mo_err}copy_to_device: copying 400 bytes from 0x" "on CUDA device 0 (Fake GPU sm_90, sm_90): cuMemcpyDtoD returned CUDA_ERROR_ILLEGAL_ADDRESS")
  kp_kernel_expect(memops_fake_cuda_memset_fails memops_errors_expect EXPECT fail
    ARGS fake_memset_fails ENV ${mo_fake} FAKE_CUDA_FAIL=memset
    STDERR "${mo_err}kp_memset_async on the default stream: filling 8 bytes at 0x" "(1-byte elements): cuMemsetD8Async returned CUDA_ERROR_ILLEGAL_ADDRESS")
endif()
