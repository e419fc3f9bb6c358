# Memory mistakes (memory_errors_expect.c): each stops with a message naming the call, and for
# a launch the kernel and the parameter. The rules do not depend on the backend, so the CPU
# runs them; the fake driver of tests/runtime checks the CUDA path of every memory kind.
set(mem_cpu KP_BACKEND=cpu)
set(mem_err "kernplug: error: ")
kp_kernel_fails(memory host_pointer "${mem_err}launch(add_one, ...): parameter 'x' is 0x"
  "a host pointer kernplug cannot size, so it cannot copy it to the device. Pass (1) a device array: to_device(x, n) or device_array(T, n), and copy_to_host afterwards; (2) a managed array: managed_array(T, n), usable on host and device; or (3) host memory kernplug knows, which launch copies to the device and back: pinned_array(T, n), or kp_register(x, bytes) on existing memory")
kp_kernel_fails(memory host_pointer_const "${mem_err}launch(twice_into, ...): parameter 'in' is 0x" "a host pointer kernplug cannot size")
kp_kernel_fails(memory freed "${mem_err}launch(add_one, ...): parameter 'x' is 0x" ", an array that was freed")
kp_kernel_fails(memory free_registered "${mem_err}kp_free: 0x" "is host memory registered with kp_register: release it with kp_unregister, then free it as it was allocated")
kp_kernel_fails(memory free_interior "${mem_err}kp_free: 0x" "points 4 bytes into the device array at 0x" "free the pointer the allocation returned")
kp_kernel_fails(memory unregister_unknown "${mem_err}kp_unregister: 0x" "is not registered (kp_register)")
kp_kernel_fails(memory unregister_device "${mem_err}kp_unregister: 0x" "is a device array, not registered host memory: free it with kp_free")
kp_kernel_fails(memory register_overlap "${mem_err}kp_register(0x" ", 16): the range overlaps the pinned array of 400 bytes at 0x")
kp_kernel_fails(memory register_twice "${mem_err}kp_register(0x" ", 8): the range overlaps the registered array of 4096 bytes at 0x")
kp_kernel_fails(memory register_null "${mem_err}kp_register((nil), 8): the pointer is NULL")
kp_kernel_fails(memory copy_pinned_as_device "${mem_err}copy_to_host: 0x" "is pinned host memory, not a device array: copy host memory with memcpy, or pass it to the kernel")
kp_kernel_fails(memory like_host "${mem_err}device_array_like: 0x" "is not the start of an array kernplug knows")
# Counts whose size in bytes overflows 64 bits: an out-of-memory error, not a wrapped size.
set(mem_huge "2305843009213693956 elements of 8 bytes: out of memory (the size in bytes does not fit in 64 bits")
foreach(call device_array managed_array pinned_array to_device copy_to_host copy_to_device
             copy_to_host_async copy_to_device_async)
  kp_kernel_fails(memory size_${call} "${mem_err}${call}: ${mem_huge}")
endforeach()
kp_kernel_fails(memory size_negative "${mem_err}device_array: 18446744073709551613 elements of 8 bytes: out of memory" "was the count negative before it became a size_t?")
kp_kernel_expect(memory_return_mode memory_errors_expect EXPECT success ARGS return_mode
                 ENV ${mem_cpu} STDOUT "memory_errors return_mode: finished")

# KP_DEBUG=leaks lists what was never freed at exit, in allocation order
kp_kernel_expect(memory_leaks memory_errors_expect EXPECT success ARGS leaks
  ENV ${mem_cpu} KP_DEBUG=leaks
  STDERR "kernplug: KP_DEBUG=leaks: 3 allocations (6096 bytes) never freed:"
         "kernplug:   #2 pinned, 800 bytes at 0x" "(device 0), from pinned_array"
         "kernplug:   #3 managed, 1200 bytes at 0x" "from managed_array"
         "kernplug:   #4 registered, 4096 bytes at 0x" "from kp_register"
  LACKS "#1 device")
kp_kernel_expect(memory_no_leaks memory_errors_expect EXPECT success ARGS no_leaks
  ENV ${mem_cpu} KP_DEBUG=trace,leaks STDERR "kernplug: KP_DEBUG=leaks: every allocation was freed")
kp_kernel_expect(memory_leaks_off memory_errors_expect EXPECT success ARGS leaks
  ENV ${mem_cpu} LACKS "KP_DEBUG=leaks")

if(TARGET fake_cuda)
  set(mem_fake ${kp_fake_cuda_env})
  set(mem_log ${CMAKE_CURRENT_BINARY_DIR})
  kp_kernel_expect(memory_fake_cuda memory_errors_expect EXPECT success ARGS fake
    ENV ${mem_fake} FAKE_CUDA_LOG=${mem_log}/memory_fake_cuda.log
    STDOUT "memory_errors fake: finished")
  kp_kernel_expect(memory_fake_cuda_no_pool memory_errors_expect EXPECT success ARGS fake_no_pool
    ENV ${mem_fake} FAKE_CUDA_FAIL=no_pool FAKE_CUDA_LOG=${mem_log}/memory_fake_no_pool.log
    STDOUT "memory_errors fake_no_pool: finished")
  kp_kernel_expect(memory_fake_cuda_pool_off memory_errors_expect EXPECT success ARGS fake_no_pool
    ENV ${mem_fake} KP_MEMORY_POOL=0 FAKE_CUDA_LOG=${mem_log}/memory_fake_pool_off.log
    STDOUT "memory_errors fake_no_pool: finished")
  kp_kernel_expect(memory_fake_cuda_host_pointer memory_errors_expect EXPECT fail
    ARGS host_pointer ENV ${mem_fake} STDERR "${mem_err}launch(add_one, ...): parameter 'x' is 0x"
    "a host pointer kernplug cannot size")
  kp_kernel_expect(memory_fake_cuda_oom_managed memory_errors_expect EXPECT fail ARGS oom_managed
    ENV ${mem_fake} FAKE_CUDA_MEMORY=1000 FAKE_CUDA_LOG=/dev/stderr
    STDERR "cuMemPoolTrimTo 0"
    "${mem_err}managed_array: allocating 4000 bytes of managed memory (3.9 KiB) on CUDA device 0 (Fake GPU sm_90, sm_90): out of memory (1000 bytes free of 1000: 1000 bytes of 1000 bytes); cuMemAllocManaged returned CUDA_ERROR_OUT_OF_MEMORY")
  kp_kernel_expect(memory_fake_cuda_register_fails memory_errors_expect EXPECT fail
    ARGS register_fails ENV ${mem_fake} FAKE_CUDA_FAIL=register
    STDERR "${mem_err}kp_register(0x" ", 4096): cuMemHostRegister returned CUDA_ERROR_INVALID_VALUE (invalid argument)")
endif()
