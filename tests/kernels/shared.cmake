# Shared-memory limits on the CPU backend (see shared_limits_expect.c). The GPU's limits are
# checked by shared_dynamic.c (kernel.shared_dynamic.gpu) and, on the fake driver, by
# tests/runtime (rt_cuda_shared_*).
set(shared_cpu KP_BACKEND=cpu)
kp_kernel_expect(shared_limit_cpu_over shared_limits_expect EXPECT fail ARGS 49156 ENV ${shared_cpu}
  STDERR "kernplug: error: launch(per_thread_slices, ...): 49156 bytes of dynamic shared memory exceed the limit of 49152 bytes per block of the CPU backend; set KP_CPU_SHARED_BYTES to raise it")
kp_kernel_expect(shared_limit_cpu_at shared_limits_expect EXPECT success ARGS 49152 ENV ${shared_cpu}
  STDOUT "shared_limits: 49152 bytes: finished")
kp_kernel_expect(shared_limit_cpu_raised shared_limits_expect EXPECT success ARGS 65536
  ENV ${shared_cpu} KP_CPU_SHARED_BYTES=65536 STDOUT "shared_limits: 65536 bytes: finished")
kp_kernel_expect(shared_limit_cpu_raised_over shared_limits_expect EXPECT fail ARGS 66560
  ENV ${shared_cpu} KP_CPU_SHARED_BYTES=65536
  STDERR "kernplug: error: launch(per_thread_slices, ...): 66560 bytes of dynamic shared memory exceed the limit of 65536 bytes per block of the CPU backend")
# 32 KiB of static arrays next to the whole 48 KiB dynamic buffer: static does not count here
kp_kernel_expect(shared_limit_cpu_static shared_limits_expect EXPECT success ARGS 49152|static
  ENV ${shared_cpu} STDOUT "shared_limits: 49152 bytes: finished")
kp_kernel_expect(shared_limit_cpu_static_over shared_limits_expect EXPECT fail ARGS 50176|static
  ENV ${shared_cpu} STDERR "kernplug: error: launch(with_static, ...): 50176 bytes of dynamic shared memory exceed the limit of 49152")
