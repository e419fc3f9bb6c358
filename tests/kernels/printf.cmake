# printf in kernels (printf_expect.c). CPU backend: every line, threads in any order.
set(kp_printf_thread0
  "thread 0 of 8: 0.000"
  "int 42, negative -7, unsigned 4000000000, hex 0xff"
  "long 1234567890123, long long -2469135780246"
  "double 0.125 6.02e-23 -2.500000"
  "float 1.5"
  "string kernplug, char k, percent %"
  "no arguments")
kp_kernel_expect(printf printf_expect EXPECT success ENV KP_BACKEND=cpu
                 STDOUT "printf_expect: cpu backend" ${kp_printf_thread0}
                        "thread 3 of 8: 0.750" "thread 7 of 8: 1.750" "printf_expect: done")

# GPU: run directly, so that exit 77 (no GPU) reads as skipped; thread 0's lines must come
# in program order (the lines hold no regex characters but '.', which matches itself too).
add_test(NAME kernel.printf.gpu COMMAND kt_printf_expect)
string(JOIN ".*" kp_printf_in_order ${kp_printf_thread0})
set_tests_properties(kernel.printf.gpu PROPERTIES LABELS gpu ENVIRONMENT "KP_BACKEND=cuda"
  SKIP_RETURN_CODE 77 PASS_REGULAR_EXPRESSION "${kp_printf_in_order}.*printf_expect: done"
  FAIL_REGULAR_EXPRESSION "kernplug: error")
