# Streams and events used wrongly (streams_errors_expect.c): each stops with a message naming
# the call and the handle. The checks are the runtime's own, the same on both backends.
set(st_cpu KP_BACKEND=cpu)
set(st_err "kernplug: error: ")
kp_kernel_fails(streams stream_destroy_twice "${st_err}kp_stream_destroy(stream 1): stream 1 was already destroyed")
kp_kernel_fails(streams event_destroy_twice "${st_err}kp_event_destroy(event 1): event 1 was already destroyed")
kp_kernel_fails(streams sync_destroyed "${st_err}kp_stream_synchronize(stream 1): stream 1 was destroyed (kp_stream_destroy)")
kp_kernel_fails(streams launch_destroyed "${st_err}launch(add_const, ...): stream 1 was destroyed (kp_stream_destroy)")
kp_kernel_fails(streams ufunc_destroyed "${st_err}ufunc(twice, ...): stream 1 was destroyed (kp_stream_destroy)")
kp_kernel_fails(streams copy_destroyed "${st_err}copy_to_device_async on stream 1: stream 1 was destroyed (kp_stream_destroy)")
kp_kernel_fails(streams record_null_event "${st_err}kp_event_record(NULL, the default stream): the event is NULL (create one with kp_event_create())")
kp_kernel_fails(streams record_destroyed_stream "${st_err}kp_event_record(event 1, stream 1): stream 1 was destroyed (kp_stream_destroy)")
kp_kernel_fails(streams query_destroyed_event "${st_err}kp_event_query(event 1): event 1 was destroyed (kp_event_destroy)")
kp_kernel_fails(streams sync_destroyed_event "${st_err}kp_event_synchronize(event 1): event 1 was destroyed (kp_event_destroy)")
kp_kernel_fails(streams elapsed_unrecorded "${st_err}kp_event_elapsed_ms(event 1, event 2): event 2 (the end) was never recorded; record both events with kp_event_record(event, stream) before timing them")
kp_kernel_fails(streams elapsed_null "${st_err}kp_event_elapsed_ms(event 1, NULL): the event is NULL")
kp_kernel_fails(streams not_a_stream "${st_err}kp_stream_synchronize(stream 0x" "is not a stream (not returned by kp_stream_create)")
kp_kernel_fails(streams not_an_event "${st_err}kp_event_record(event 0x" "is not an event (not returned by kp_event_create)")
kp_kernel_fails(streams copy_async_too_much "${st_err}copy_to_host_async on stream 1: 400 bytes at 0x" "run past the end of its device array (400 bytes at" "4 bytes in)")
kp_kernel_fails(streams copy_async_not_device "${st_err}copy_to_device_async on the default stream: 0x" "is not a device array")
kp_kernel_fails(streams copy_async_freed "${st_err}copy_to_host_async on the default stream: device array 0x" "was already freed")
kp_kernel_fails(streams copy_async_null_host "${st_err}copy_to_host_async on stream 1: the host pointer is NULL (400 bytes)")
kp_kernel_expect(streams_return_mode streams_errors_expect EXPECT success ARGS return_mode
                 ENV ${st_cpu} STDOUT "streams_errors return_mode: finished")

# The CUDA path on the fake driver of tests/runtime (no GPU; it runs no kernels): the program
# reads the driver's log and checks that launches, ufunc_stream, asynchronous copies and event
# records carried the CUstream of their stream (the default stream: NULL), that no synchronous
# copy was used, and the fake's deterministic event times; with two fake GPUs, that streams
# and events work in their own device's context and that mixing devices is stopped. Then the
# driver's own errors.
if(TARGET fake_cuda)
  set(st_fake ${kp_fake_cuda_env})
  kp_kernel_expect(streams_fake_cuda streams_errors_expect EXPECT success ARGS fake
    ENV ${st_fake} FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/streams_fake_cuda.log
    STDOUT "streams_errors fake: finished")
  kp_kernel_expect(streams_fake_cuda_two_devices streams_errors_expect EXPECT success
    ARGS fake_two_devices ENV ${st_fake} FAKE_CUDA_DEVICES=2
    FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/streams_fake_cuda_two_devices.log
    STDOUT "streams_errors fake_two_devices: finished")
  kp_kernel_expect(streams_fake_cuda_event_pending streams_errors_expect EXPECT success
    ARGS fake_event_pending ENV ${st_fake} FAKE_CUDA_FAIL=event_pending
    STDOUT "streams_errors fake_event_pending: finished")
  kp_kernel_expect(streams_fake_cuda_create_fails streams_errors_expect EXPECT fail
    ARGS fake_stream_create ENV ${st_fake} FAKE_CUDA_FAIL=stream_create
    STDERR "${st_err}kp_stream_create on CUDA device 0 (Fake GPU sm_90, sm_90): cuStreamCreate returned CUDA_ERROR_OUT_OF_MEMORY (out of memory)")
  kp_kernel_expect(streams_fake_cuda_illegal_address streams_errors_expect EXPECT fail
    ARGS fake_illegal_address ENV ${st_fake} FAKE_CUDA_FAIL=illegal_address
    STDERR "${st_err}kp_stream_synchronize(stream 1): cuStreamSynchronize returned CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered); a kernel failed earlier (the last one launched was 'add_const')")
  kp_kernel_expect(streams_fake_cuda_launch_destroyed streams_errors_expect EXPECT fail
    ARGS launch_destroyed ENV ${st_fake}
    STDERR "${st_err}launch(add_const, ...): stream 1 was destroyed (kp_stream_destroy)")
  kp_kernel_expect(streams_fake_cuda_return_mode streams_errors_expect EXPECT success
    ARGS return_mode ENV ${st_fake} STDOUT "streams_errors return_mode: finished")
endif()
