/* test_errors.c — every user error of the launch and memory API, in KP_ERRORS=return mode:
 * the code from kp_last_error(), the text of kp_last_error_message() (it must name the kernel
 * or the call), that nothing ran, and that the runtime keeps working afterwards. Runs on the
 * CPU backend; tests/runtime/error_scenarios.c checks the default abort mode. */
#include "hand_kernels.h"
#include "test_util.h"

static float h_out[10];
static float *d_in, *d_out;

static void reset_out(void) {
  for (int i = 0; i < 10; i++) h_out[i] = -1;
  copy_to_device(d_out, h_out, 10);
}

/* The kernel did not run: d_out still holds -1 everywhere. */
static void check_not_run(void) {
  float back[10];
  copy_to_host(back, d_out, 10);
  for (int i = 0; i < 10; i++) CHECK_MSG(back[i] == -1, "kernel ran: out[%d] = %g", i, back[i]);
}

static void check_still_works(void) {
  launch(foo, 1, 10)(d_in, d_out);
  CHECK_NO_ERROR();
  float back[10];
  copy_to_host(back, d_out, 10);
  for (int i = 0; i < 10; i++) CHECK(back[i] == (float)i);
  reset_out();
}

static void test_launch_errors(void) {
  foo(d_in, d_out); /* called without launch() */
  CHECK_ERROR(KP_ERROR_NO_LAUNCH_CONFIG, "kernel 'foo' (");
  CHECK(strstr(kp_last_error_message(), "was called without launch(): write launch(foo, "));
  check_not_run();

  kp_launch(foo, 1, 10)(d_in, d_out); /* the kp_ spelling works too */
  CHECK_NO_ERROR();
  reset_out();

  (void)launch(foo, 1, 10); /* configured, never called */
  launch(foo, 1, 10)(d_in, d_out);
  CHECK_ERROR(KP_ERROR_NO_LAUNCH_CONFIG,
              "launch(foo, ...) was configured but foo was never called");
  reset_out();

  /* A configuration is for the kernel it names. scale is called directly while foo's is
   * pending (as if launch(foo, …) were followed by a call of another kernel). */
  kp_configure_launch((const void *)foo, "foo", kp_extent_from_int(1), kp_extent_from_int(10),
                      0, NULL);
  scale(d_out, 2.0f, 10);
  CHECK_ERROR(KP_ERROR_NO_LAUNCH_CONFIG,
              "kernel 'scale' was called while launch(foo, ...) was pending");
  check_not_run();
  scale(d_out, 2.0f, 10); /* the pending configuration was used up by the failed call */
  CHECK_ERROR(KP_ERROR_NO_LAUNCH_CONFIG, "kernel 'scale' (");

  launch(foo, 0, 10)(d_in, d_out);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE,
              "launch(foo, ...): blocks.x is 0; every grid and block size must be at least 1");
  launch(foo, 1, -5)(d_in, d_out);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "launch(foo, ...): threads.x is -5");
  launch(foo, dim3(1, 0), 10)(d_in, d_out);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "launch(foo, ...): blocks.y is 0");
  launch(foo, 1, dim3(10, 1, 0))(d_in, d_out);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "launch(foo, ...): threads.z is 0");
  launch(foo, 1, 1025)(d_in, d_out);
  CHECK_ERROR(KP_ERROR_LAUNCH,
              "launch(foo, ...): threads.x = 1025 exceeds the limit of 1024 of the CPU backend");
  launch(foo, 1, dim3(32, 32, 2))(d_in, d_out);
  CHECK_ERROR(KP_ERROR_LAUNCH, "launch(foo, ...): 2048 threads per block (32 x 32 x 2) exceed "
                               "the limit of 1024 of the CPU backend");
  launch(foo, 1, dim3(1, 1, 65))(d_in, d_out);
  CHECK_ERROR(KP_ERROR_LAUNCH, "launch(foo, ...): threads.z = 65 exceeds the limit of 64");
  launch(foo, dim3(1, 65536), 1)(d_in, d_out);
  CHECK_ERROR(KP_ERROR_LAUNCH, "launch(foo, ...): blocks.y = 65536 exceeds the limit of 65535");
  launch(foo, 2147483648LL, 1)(d_in, d_out);
  CHECK_ERROR(KP_ERROR_LAUNCH,
              "launch(foo, ...): blocks.x = 2147483648 exceeds the limit of 2147483647");
  launch(foo, -1LL, 1)(d_in, d_out);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "launch(foo, ...): blocks.x is -1");
  launch(foo, 1, 10, 48 * 1024 + 1)(d_in, d_out);
  CHECK_ERROR(KP_ERROR_LAUNCH, "launch(foo, ...): 49153 bytes of dynamic shared memory exceed "
                               "the limit of 49152 bytes per block of the CPU backend; set "
                               "KP_CPU_SHARED_BYTES to raise it");
  check_not_run();

  /* Flagged barrier and warp kernels run (as fibers on the CPU backend). */
  launch(with_barrier, 1, 10)(d_out);
  CHECK_NO_ERROR();
  launch(with_warp, 1, 10)((int *)d_out);
  CHECK_NO_ERROR();

  int x = 0;
  launch(not_a_kernel, 1, 1)(&x);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "launch(not_a_kernel, ...): 'not_a_kernel' is not a "
                                      "kernel: mark it __attribute__((kernel))");
  CHECK(x == 0); /* a refused launch runs nothing, not the function on the host */
  void (*not_a_kernel_ptr)(int *) = not_a_kernel; /* through a pointer too */
  launch(not_a_kernel_ptr, 1, 1)(&x);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "'not_a_kernel_ptr' is not a kernel");
  CHECK(x == 0);
  /* nothing pending afterwards: a real launch works */
  check_still_works();
}

static void test_memory_errors(void) {
  float h[10] = {0};
  float *d = to_device(h, 10);
  CHECK_NO_ERROR();
  CHECK(kp_alloc_size(d) == 40);
  CHECK(kp_alloc_size(d + 1) == 0); /* sizes are per allocation start */

  copy_to_host(h, d, 11);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "copy_to_host: 44 bytes at");
  CHECK(strstr(kp_last_error_message(), "run past the end of its device array (40 bytes at"));
  copy_to_host(h, d + 5, 5); /* inside: fine */
  CHECK_NO_ERROR();
  copy_to_host(h, d + 5, 6);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "20 bytes in)");
  copy_to_device(d, h, 20);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "copy_to_device: 80 bytes at");
  copy_to_host(h, h, 1); /* a host pointer is not a device array */
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "copy_to_host: ");
  CHECK(strstr(kp_last_error_message(), "is not a device array"));
  copy_to_device(h + 2, h, 1);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "copy_to_device: ");
  kp_copy_to_host_bytes(h, NULL, 4);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "copy_to_host: the device pointer is NULL");
  kp_copy_to_host_bytes(NULL, d, 4);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "copy_to_host: the host pointer is NULL (4 bytes)");
  CHECK(kp_to_device_bytes(NULL, 8) == NULL);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "to_device: the host pointer is NULL (8 bytes)");

  float *like = device_array_like(d);
  CHECK_NO_ERROR();
  CHECK(like && like != d && kp_alloc_size(like) == 40);
  CHECK(device_array_like(&h[0]) == NULL);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "device_array_like: ");
  CHECK(strstr(kp_last_error_message(), "is not the start of an array kernplug knows"));

  float *empty = device_array(float, 0); /* empty arrays exist, as in numpy */
  CHECK_NO_ERROR();
  CHECK(empty && kp_alloc_size(empty) == 0);
  copy_to_host(h, empty, 0);
  CHECK_NO_ERROR();
  kp_free(empty);

  kp_free(like);
  kp_free(d);
  CHECK_NO_ERROR();
  kp_free(d);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_free: array ");
  CHECK(strstr(kp_last_error_message(), "was freed twice"));
  copy_to_host(h, d, 1);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "was already freed");
  kp_free(h);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_free: ");
  CHECK(strstr(kp_last_error_message(), "is not an array kernplug allocated (to_device, "
                                        "device_array, "));
  kp_free(NULL); /* like free(NULL) */
  CHECK_NO_ERROR();
}

#define KP_ABI_STRING_(v) #v
#define KP_ABI_STRING_X(v) KP_ABI_STRING_(v)
#define KP_ABI_STRING KP_ABI_STRING_X(KP_ABI_VERSION)
static void test_registry_errors(void) {
  static kp_module_desc wrong = {99, "old_object.c", 0, NULL, 0, NULL, 0, NULL, NULL};
  __kp_register_module(&wrong);
  CHECK_ERROR(KP_ERROR_INTERNAL, "old_object.c was compiled by a kernplug plugin with ABI "
                                 "version 99, but this libkernplug_rt speaks version "
                                 KP_ABI_STRING);
  __kp_unregister_module(&wrong); /* its destructor: it was never registered */
  CHECK_NO_ERROR();
}

/* A library with its own copy of a kernel the program has (the same stub, e.g. a static
 * library linked into both) shadows the program's while loaded; when it is unloaded the
 * program's is the kernel again (launch(foo) would otherwise be "not a kernel"). The copy's
 * trampoline is scale's, so that a launch through it shows which descriptor ran. */
static void test_unregister_shadowed(void) {
  static kp_kernel_desc copy[1];
  static kp_module_desc lib = {KP_ABI_VERSION, "library_copy.c", 1, copy, 0, NULL, 0, NULL, NULL};
  copy[0] = hand_kernels[HK_FOO];
  copy[0].module = &lib;
  copy[0].cpu_entry = hand_kernels[HK_SCALE].cpu_entry; /* only to tell the two apart */
  copy[0].cpu_block_entry = NULL;
  copy[0].params = hand_kernels[HK_SCALE].params;
  __kp_register_module(&lib);
  CHECK_NO_ERROR();
  float ones[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, back[10];
  copy_to_device(d_out, ones, 10);
  float two = 2.0f;
  int ten = 10;
  void *args[] = {&d_out, &two, &ten};
  kp_configure_launch((const void *)foo, "foo", kp_extent_from_int(1), kp_extent_from_int(10),
                      0, NULL);
  __kp_launch(&copy[0], args); /* what the copy's stub does */
  CHECK_NO_ERROR();
  copy_to_host(back, d_out, 10);
  CHECK(back[9] == 2.0f); /* scaled */
  __kp_unregister_module(&lib);
  CHECK_NO_ERROR();
  check_still_works(); /* foo is the program's again */
  __kp_unregister_module(&lib);
  check_still_works();
}

static void test_error_state(void) {
  CHECK(kp_last_error() == KP_SUCCESS); /* cleared by reading */
  launch(foo, 0, 1)(d_in, d_out);
  CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE);
  CHECK(kp_last_error() == KP_SUCCESS);                   /* read once */
  CHECK(strstr(kp_last_error_message(), "blocks.x is 0")); /* the message stays */
  kp_set_error_mode((kp_error_mode)7);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_set_error_mode: 7 is not");
}

int main(void) {
  kp_set_error_mode(KP_ERRORS_RETURN);
  CHECK(strcmp(kp_backend_name(), "cpu") == 0);
  float zeros[10] = {0};
  d_in = to_device(zeros, 10);
  d_out = device_array(float, 10);
  reset_out();
  CHECK_NO_ERROR();
  test_launch_errors();
  test_memory_errors();
  test_registry_errors();
  test_unregister_shadowed();
  test_error_state();
  check_still_works();
  puts("test_errors: OK");
  return 0;
}
