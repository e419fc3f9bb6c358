# Kernels under clang's sanitizers. The CPU copies of kernels keep the checks (UBSan's are in
# clang's IR; ASan/TSan instrument the plugin's CPU entries too), the device code gets none.
function(kp_sanitize target flags)
  target_compile_options(${target} PRIVATE ${flags} -fno-omit-frame-pointer)
  target_link_options(${target} PRIVATE ${flags})
endfunction()

# In a KP_SANITIZE build (cmake/Sanitize.cmake) every program has that build's sanitizers
# already: a variant whose sanitizer does not combine with them is not built there.
kp_sanitize(kt_sanitized_kernels -fsanitize=undefined)
foreach(san address thread)
  kp_sanitizer_combines(${san} combines)
  if(NOT combines)
    continue()
  endif()
  kernplug_add_program(kt_sanitized_kernels_${san} sanitized_kernels.c)
  target_include_directories(kt_sanitized_kernels_${san} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  kp_sanitize(kt_sanitized_kernels_${san} -fsanitize=${san},undefined)
  add_test(NAME kernel.sanitized_kernels.${san} COMMAND kt_sanitized_kernels_${san})
  set_tests_properties(kernel.sanitized_kernels.${san} PROPERTIES LABELS cpu
                       ENVIRONMENT "KP_BACKEND=cpu" TIMEOUT 300)
endforeach()

# recovering (a KP_SANITIZE build makes UBSan fatal): the report is what the test checks
kp_sanitize(kt_ubsan_overflow_expect "-fsanitize=undefined;-fsanitize-recover=undefined")
kp_kernel_expect(ubsan_overflow ubsan_overflow_expect EXPECT success ENV KP_BACKEND=cpu
                 STDERR "ubsan_overflow_expect.c:10:"
                        "runtime error: signed integer overflow: 1 + 2147483647")
add_test(NAME kernel.ubsan_overflow.gpu COMMAND kt_ubsan_overflow_expect)
set_tests_properties(kernel.ubsan_overflow.gpu PROPERTIES LABELS gpu
  ENVIRONMENT "KP_BACKEND=cuda" SKIP_RETURN_CODE 77
  PASS_REGULAR_EXPRESSION "ubsan_overflow_expect.c:10:[0-9]+: runtime error in device code: integer overflow in addition")

kp_sanitizer_combines(address combines)
if(combines)
  kp_sanitize(kt_asan_kernel_expect -fsanitize=address)
  if(KP_SANITIZE MATCHES "undefined") # UBSan's bounds check would report the overflow first
    target_compile_options(kt_asan_kernel_expect PRIVATE -fno-sanitize=bounds)
  endif()
  kp_kernel_expect(asan_kernel asan_kernel_expect EXPECT fail ENV KP_BACKEND=cpu
                   STDERR "AddressSanitizer: stack-buffer-overflow" "past_the_end.kp.cpu")
endif()

# An ASan build (cmake/Sanitize.cmake): LLVM 19 cannot compile ASan's instrumented stack
# frames (realigned, with dynamic allocas) in functions of some of the calling conventions of
# calling_conventions.c ("Stack realignment in presence of dynamic allocas is not supported
# with this calling convention"), so that program keeps ASan's heap and global checks only.
if(KP_SANITIZE MATCHES "address")
  # and its builds in barrier_paths.cmake and opt_levels.cmake
  foreach(t kt_calling_conventions kt_calling_conventions_fibers kt_calling_conventions_O0
            kt_calling_conventions_O1 kt_calling_conventions_O3fast)
    if(TARGET ${t})
      target_compile_options(${t} PRIVATE "SHELL:-mllvm -asan-stack=0")
    endif()
  endforeach()
endif()
