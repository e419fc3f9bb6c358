# Kernels under clang's sanitizers. The CPU copies of kernels keep the checks (UBSan's are in
# clang's IR; ASan/TSan instrument the plugin's CPU entries too), the device code gets none.
function(kp_sanitize target flags)
  target_compile_options(${target} PRIVATE ${flags} -fno-omit-frame-pointer)
  target_link_options(${target} PRIVATE ${flags})
endfunction()

kp_sanitize(kt_sanitized_kernels -fsanitize=undefined)
foreach(san address thread)
  kernplug_add_program(kt_sanitized_kernels_${san} sanitized_kernels.c)
  target_include_directories(kt_sanitized_kernels_${san} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  kp_sanitize(kt_sanitized_kernels_${san} -fsanitize=${san},undefined)
  add_test(NAME kernel.sanitized_kernels.${san} COMMAND kt_sanitized_kernels_${san})
  set_tests_properties(kernel.sanitized_kernels.${san} PROPERTIES LABELS cpu
                       ENVIRONMENT "KP_BACKEND=cpu" TIMEOUT 300)
endforeach()

kp_sanitize(kt_ubsan_overflow_expect -fsanitize=undefined)
kp_kernel_expect(ubsan_overflow ubsan_overflow_expect EXPECT success ENV KP_BACKEND=cpu
                 STDERR "ubsan_overflow_expect.c:10:"
                        "runtime error: signed integer overflow: 1 + 2147483647")
add_test(NAME kernel.ubsan_overflow.gpu COMMAND kt_ubsan_overflow_expect)
set_tests_properties(kernel.ubsan_overflow.gpu PROPERTIES LABELS gpu
  ENVIRONMENT "KP_BACKEND=cuda" SKIP_RETURN_CODE 77
  PASS_REGULAR_EXPRESSION "ubsan_overflow_expect.c:10:[0-9]+: runtime error in device code: integer overflow in addition")

kp_sanitize(kt_asan_kernel_expect -fsanitize=address)
kp_kernel_expect(asan_kernel asan_kernel_expect EXPECT fail ENV KP_BACKEND=cpu
                 STDERR "AddressSanitizer: stack-buffer-overflow" "past_the_end.kp.cpu")
