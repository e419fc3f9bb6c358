# kernplug beside other CUDA code (cuda_interop_expect.c, docs/cuda-libraries.md): device
# memory other code allocated through the driver, the driver objects behind kernplug's, wrapped
# streams. The CUDA path runs on the fake driver of tests/runtime; the CPU backend says why it
# has no driver objects.
set(ci_err "kernplug: error: ")
set(ci_cpu "the cpu backend, which has no CUDA driver objects")
kp_kernel_expect(cuda_interop_cpu cuda_interop_expect EXPECT fail ARGS mistakes_cpu
  ENV KP_BACKEND=cpu
  STDOUT "cpu_stream: kp_cuda_stream(the default stream): kernels run on ${ci_cpu}"
         "CUDA libraries need the CUDA backend (a GPU, KP_BACKEND=cuda)"
         "cpu_context: kp_cuda_context(): kernels run on ${ci_cpu}"
         "cpu_wrap: kp_stream_from_cuda(0x"
         "): kernels run on the cpu backend, which has no CUDA streams"
  STDERR "${ci_err}kp_cuda_stream(the default stream): kernels run on ${ci_cpu}")

# On a GPU (skipped without one): the same with the results checked.
add_test(NAME kernel.cuda_interop.gpu COMMAND kt_cuda_interop_expect gpu)
set_tests_properties(kernel.cuda_interop.gpu PROPERTIES LABELS gpu ENVIRONMENT "KP_BACKEND=cuda"
                     SKIP_RETURN_CODE 77)

if(TARGET fake_cuda)
  set(ci_fake ${kp_fake_cuda_env})
  foreach(scenario foreign foreign_managed handles wrap)
    set(ci_more "")
    if(scenario MATCHES "^foreign")
      set(ci_more "free_foreign: kp_free: 0x" "is device memory other CUDA code allocated (cudaMalloc, cudaMallocManaged, cuMemAlloc): free it the way it was allocated (cudaFree)"
        "ufunc_past_end: ufunc(add, ...): input 1 ('a', 257 x f32): 1028 bytes at 0x" "run past the end of the device memory other CUDA code allocated there (1024 bytes at 0x" ", 0 bytes in)"
        "reduce_past_end: kp_reduce(fsum, ...): argument 'in': 1024 bytes at 0x" ", 4 bytes in)"
        "copy_past_end: copy_to_host: 1024 bytes at 0x")
    endif()
    kp_kernel_expect(cuda_interop_fake_${scenario} cuda_interop_expect EXPECT success
      ARGS ${scenario}
      ENV ${ci_fake} FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/cuda_interop_${scenario}.log
      STDOUT "cuda_interop ${scenario}: finished" ${ci_more})
  endforeach()
  kp_kernel_expect(cuda_interop_fake_wrap_other_device cuda_interop_expect EXPECT success
    ARGS wrap_other_device ENV ${ci_fake} FAKE_CUDA_DEVICES=2
    STDOUT "other_device: launch(add_one, ...): stream 1 belongs to CUDA device 1"
           "but this thread launches on CUDA device 0"
           "cuda_interop wrap_other_device: finished")
  kp_kernel_expect(cuda_interop_fake_wrap_skips_inactive cuda_interop_expect EXPECT success
    ARGS wrap_skips_inactive ENV ${ci_fake} FAKE_CUDA_DEVICES=3
    FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/cuda_interop_wrap_skips_inactive.log
    STDOUT "cuda_interop wrap_skips_inactive: finished")
  # The CPU backend in a process with a GPU's memory (the fake driver loaded by the program).
  set(ci_gpu_mem "is memory of a CUDA GPU (cudaMalloc, cudaMallocManaged, cuMemAlloc), but kernels run on the cpu backend, which cannot use it: allocate it with device_array or managed_array, or run on the CUDA backend (KP_BACKEND=cuda)")
  kp_kernel_expect(cuda_interop_cpu_gpu_memory cuda_interop_expect EXPECT success
    ARGS cpu_gpu_memory ENV KP_BACKEND=cpu "KP_LIBCUDA=$<TARGET_FILE_DIR:fake_cuda>/libcuda.so.1"
    STDOUT "cpu_launch: launch(add_one, ...): parameter 'x': 0x" "cpu_ufunc: ufunc(add, ...): input 1 ('a', 256 x f32): 0x"
           "cpu_reduce: kp_reduce(fsum, ...): argument 'in': 0x" "cpu_copy_to_host: copy_to_host: 0x"
           "cpu_copy_dtod: copy_device_to_device: 0x" "${ci_gpu_mem}"
           "cuda_interop cpu_gpu_memory: finished")
  kp_kernel_expect(cuda_interop_fake_mistakes cuda_interop_expect EXPECT success
    ARGS mistakes_fake ENV ${ci_fake}
    STDOUT "wrap_null: kp_stream_from_cuda((nil)): NULL is CUDA's legacy default stream, which is kernplug's default stream already"
           "wrap_garbage: kp_stream_from_cuda(0x10): 0x10 is not a stream the CUDA driver knows"
           "cuStreamGetCtx returned CUDA_ERROR_INVALID_HANDLE"
           "stream_destroyed: kp_cuda_stream(stream " "was destroyed (kp_stream_destroy)"
           "cuda_interop mistakes_fake: finished")
  kp_kernel_expect(cuda_interop_fake_other_context cuda_interop_expect EXPECT fail
    ARGS wrap_other_context ENV ${ci_fake} FAKE_CUDA_FAIL=stream_ctx
    STDERR "${ci_err}kp_stream_from_cuda(0x" "which is not the primary context of any device"
           "create the stream with cudaStreamCreate, or in kp_cuda_context()")
endif()
