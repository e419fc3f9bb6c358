# kp_copy_to_constant used wrongly (constant_errors_expect.c): messages naming the variable.
set(cm_err "kernplug: error: kp_copy_to_constant(")
kp_kernel_fails(constant not_constant "${cm_err}plain_global, ...): 'plain_global' is not a constant variable: declare it __attribute__((constant)) at file scope in a file compiled with kernplug")
kp_kernel_fails(constant too_big "${cm_err}weights, ...): 128 bytes at offset 0 run past the end of the constant variable 'weights' (64 bytes)")
kp_kernel_fails(constant past_end "${cm_err}weights, ...): 32 bytes at offset 48 run past the end of the constant variable 'weights' (64 bytes)")
kp_kernel_fails(constant null_source "${cm_err}weights, ...): the source is NULL (16 bytes)")
kp_kernel_expect(constant_return_mode constant_errors_expect EXPECT success ARGS return_mode
                 ENV KP_BACKEND=cpu STDOUT "constant_errors return_mode: finished")
# The CUDA path on the fake driver: the program reads the log back (see the file's comment).
if(TARGET fake_cuda)
  kp_kernel_expect(constant_fake_cuda constant_errors_expect EXPECT success ARGS fake
    ENV ${kp_fake_cuda_env}
        FAKE_CUDA_LOG=${CMAKE_CURRENT_BINARY_DIR}/constant_fake_cuda.log
    STDOUT "constant_errors fake: finished")
endif()
