# KP_CHECK, the CPU backend's checked mode (runtime/backend/cpu/cpu_check.c,
# plugin/cpu/CheckedAccess.cpp, docs/debugging.md "Checked mode"): planted bugs of each kind
# fail the launch with the kernel, block, thread, parameter or array, offset and size; correct
# kernels pass checked; a program built without the option says so; a bad value is an error.
if(TARGET kt_checked_expect)
  target_compile_options(kt_checked_expect PRIVATE -fplugin-arg-kernplug-check -g)
endif()
function(kp_checked_fails scenario)
  kp_kernel_expect(checked_${scenario} checked_expect EXPECT fail ARGS ${scenario}
                   ENV KP_BACKEND=cpu KP_CHECK=1 KP_NUM_THREADS=1 STDERR ${ARGN})
endfunction()
kp_checked_fails(write_past_end
  "kernel 'write_past_end', block (3, 0, 0), thread (232, 0, 0): checked mode (KP_CHECK): write of 4 bytes at offset 4000 of parameter 'y' at "
  "checked_expect.c:16, past the end of its allocation of 4000 bytes")
kp_checked_fails(read_before_start
  "kernel 'read_before_start', block (0, 0, 0), thread (0, 0, 0): checked mode (KP_CHECK): read of 4 bytes at offset -4 of parameter 'x'"
  "before the start of its allocation of 4000 bytes")
kp_checked_fails(helper_interior
  "kernel 'helper_past_end', block (3, 0, 0), thread (132, 0, 0): checked mode (KP_CHECK): write of 4 bytes at offset 3600 of parameter 'y' at "
  "checked_expect.c:27, past the end of its allocation of 4000 bytes (the argument points 400 bytes into it)")
kp_checked_fails(shared_static
  "kernel 'shared_static_past_end', block (0, 0, 0), thread (64, 0, 0): checked mode (KP_CHECK): write of 4 bytes at offset 256 of shared array '"
  "tile' at " "checked_expect.c:37, past the end of the array of 256 bytes")
kp_checked_fails(shared_dynamic
  "kernel 'shared_dynamic_past_end', block (0, 0, 0), thread (32, 0, 0): checked mode (KP_CHECK): write of 4 bytes at offset 128 of the dynamic shared memory at "
  "checked_expect.c:45, past the end of the 128 bytes the launch asked for")
kp_checked_fails(shuffle
  "kernel 'reduce7_tail', block (0, 0, 0): thread (0, 0, 0): checked mode (KP_CHECK): shfl_down_sync() with mask 0x000000ff and lane operand 16 reads lane 16, which is not in the mask")
kp_kernel_expect(checked_clean checked_expect EXPECT success ARGS clean
                 ENV KP_BACKEND=cpu KP_CHECK=1 STDOUT "checked_expect: clean ran through")
# The same binary without KP_CHECK runs its normal entries.
kp_kernel_expect(checked_unchecked checked_expect EXPECT success ARGS clean
                 ENV KP_BACKEND=cpu STDOUT "checked_expect: clean ran through")
# Bounds checks need the checked build; shuffles alone can be checked without it (the
# runtime's fiber scheduler checks them).
kp_kernel_expect(checked_not_built schedule_expect EXPECT fail ARGS ordered
                 ENV KP_BACKEND=cpu KP_CHECK=bounds
                 STDERR "KP_CHECK=bounds: kernel 'record_order' (" "was not built checked; compile it with -fplugin-arg-kernplug-check")
# warp_intrinsics.c shuffles with masks of a partial warp's existing lanes and expects a read
# of a lane outside them to return the caller's own value, which a GPU leaves undefined.
kp_kernel_expect(checked_shuffle_only warp_intrinsics EXPECT fail
                 ENV KP_BACKEND=cpu KP_CHECK=shuffle KP_NUM_THREADS=1
                 STDERR "kernel 'shfl_i32', block (0, 0, 0): thread (43, 0, 0): checked mode (KP_CHECK): shfl_down_sync() with mask 0x0000ffff and lane operand 5 reads lane 16, which is not in the mask")
kp_kernel_expect(checked_bad_value schedule_expect EXPECT fail ARGS ordered
                 ENV KP_BACKEND=cpu KP_CHECK=everything
                 STDERR "KP_CHECK=everything: expected 1 (or all), 0, or a comma-separated list of 'bounds' and 'shuffle'")
# At -O0 every pointer lives in a local variable: the checked copy promotes them to registers
# first, so the same accesses are checked.
if(TARGET kt_checked_expect)
  kernplug_add_program(kt_checked_expect_O0 checked_expect.c)
  target_compile_options(kt_checked_expect_O0 PRIVATE -O0 -g -fplugin-arg-kernplug-check)
  target_include_directories(kt_checked_expect_O0 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  kp_kernel_expect(checked_O0_clean checked_expect_O0 EXPECT success ARGS clean
                   ENV KP_BACKEND=cpu KP_CHECK=1 STDOUT "checked_expect: clean ran through")
  kp_kernel_expect(checked_O0_helper_interior checked_expect_O0 EXPECT fail
    ARGS helper_interior ENV KP_BACKEND=cpu KP_CHECK=1 KP_NUM_THREADS=1
    STDERR "kernel 'helper_past_end', block (3, 0, 0), thread (132, 0, 0): checked mode (KP_CHECK): write of 4 bytes at offset 3600 of parameter 'y' at "
           "checked_expect.c:27, past the end of its allocation of 4000 bytes (the argument points 400 bytes into it)")
  kp_kernel_expect(checked_O0_shared_static checked_expect_O0 EXPECT fail
    ARGS shared_static ENV KP_BACKEND=cpu KP_CHECK=1 KP_NUM_THREADS=1
    STDERR "thread (64, 0, 0): checked mode (KP_CHECK): write of 4 bytes at offset 256 of shared array '")
endif()
