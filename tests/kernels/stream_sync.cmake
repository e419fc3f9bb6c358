# kp_stream_wait_event, kp_stream_add_callback and kp_stream_create_with_flags used wrongly
# (stream_sync_errors_expect.c): each stops with a message naming the call and the handles.
set(ss_err "kernplug: error: ")
kp_kernel_fails(stream_sync wait_null_event "${ss_err}kp_stream_wait_event(stream 1, NULL): the event is NULL")
kp_kernel_fails(stream_sync wait_destroyed_stream "${ss_err}kp_stream_wait_event(stream 1, event 1): stream 1 was destroyed (kp_stream_destroy)")
kp_kernel_fails(stream_sync wait_destroyed_event "${ss_err}kp_stream_wait_event(the default stream, event 1): event 1 was destroyed (kp_event_destroy)")
kp_kernel_fails(stream_sync callback_null "${ss_err}kp_stream_add_callback(the default stream): the callback is NULL")
kp_kernel_fails(stream_sync callback_destroyed_stream "${ss_err}kp_stream_add_callback(stream 1): stream 1 was destroyed (kp_stream_destroy)")
kp_kernel_fails(stream_sync bad_flags "${ss_err}kp_stream_create_with_flags(0x4): unknown flags 0x4 (KP_STREAM_DEFAULT or KP_STREAM_NON_BLOCKING)")
kp_kernel_fails(stream_sync callback_calls_kernplug "${ss_err}a kernplug function was called from a stream callback (kp_stream_add_callback): a callback must not call kernplug")
kp_kernel_expect(stream_sync_return_mode stream_sync_errors_expect EXPECT success ARGS return_mode
                 ENV KP_BACKEND=cpu STDOUT "stream_sync_errors return_mode: finished")

# The CUDA path on the fake driver (tests/runtime): stream flags, cuStreamWaitEvent's handles,
# cuLaunchHostFunc per stream (the fake runs host functions on a thread of their own), frees
# that wait for the device while a non-blocking stream lives; the driver's errors reported.
if(TARGET fake_cuda)
  set(ss_fake ${kp_fake_cuda_env})
  kp_kernel_expect(stream_sync_fake_cuda stream_sync_errors_expect EXPECT success ARGS fake
    ENV ${ss_fake} FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/stream_sync_fake_cuda.log
    STDOUT "stream_sync_errors fake: finished")
  kp_kernel_expect(stream_sync_fake_cuda_return_mode stream_sync_errors_expect EXPECT success
    ARGS return_mode ENV ${ss_fake} STDOUT "stream_sync_errors return_mode: finished")
  kp_kernel_expect(stream_sync_fake_cuda_callback_calls_kernplug stream_sync_errors_expect
    EXPECT fail ARGS callback_calls_kernplug ENV ${ss_fake}
    STDERR "${ss_err}a kernplug function was called from a stream callback")
  kp_kernel_expect(stream_sync_fake_cuda_wait_fails stream_sync_errors_expect EXPECT fail
    ARGS fake_wait_fails ENV ${ss_fake} FAKE_CUDA_FAIL=wait_event
    STDERR "${ss_err}kp_stream_wait_event(stream 1, event 1): cuStreamWaitEvent returned CUDA_ERROR_INVALID_HANDLE")
  kp_kernel_expect(stream_sync_fake_cuda_callback_fails stream_sync_errors_expect EXPECT fail
    ARGS fake_callback_fails ENV ${ss_fake} FAKE_CUDA_FAIL=host_func
    STDERR "${ss_err}kp_stream_add_callback(stream 1): cuLaunchHostFunc returned CUDA_ERROR_INVALID_VALUE")
endif()
