/* reduce_errors_expect.c — kp_reduce calls that must fail with a message naming the reduce
 * function and the argument; reduce.cmake checks each message.
 *   reduce_errors_expect <scenario>   (scenarios: see main) */
#include "kernel_test.h"

__attribute__((reduce)) float fsum(float a, float b) { return a + b; }
/* The right shape, but not marked reduce: no kernel exists for it. */
int plain_max(int a, int b) { return a > b ? a : b; }
/* The right shape and a kernplug function, but of another kind. */
__attribute__((vectorize("int32(int32, int32)"))) int vmax(int a, int b) { return a > b ? a : b; }

int main(int argc, char **argv) {
  const char *scenario = argc > 1 ? argv[1] : "";
  kt_start("reduce_errors");
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int ints[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (strcmp(scenario, "not_reduce") == 0) {
    kp_reduce(plain_max, ints, 8);
  } else if (strcmp(scenario, "vectorize") == 0) {
    kp_reduce(vmax, ints, 8);
  } else if (strcmp(scenario, "type_mismatch") == 0) {
    /* The compiler refuses fsum for an int array; casts get past it (through void (*)(void),
     * which -Wcast-function-type allows), the runtime check not. */
    typedef int (*int_op)(int, int);
    int_op wrong = (int_op)(void (*)(void))fsum;
    kp_reduce(wrong, ints, 8);
  } else if (strcmp(scenario, "launched") == 0) {
    launch(fsum, 1, 32)(1.0f, 2.0f); /* a reduce function is no kernel */
  } else if (strcmp(scenario, "negative_n") == 0) {
    kp_reduce(fsum, x, -3);
  } else if (strcmp(scenario, "null_in") == 0) {
    kp_reduce(fsum, (const float *)NULL, 8);
  } else if (strcmp(scenario, "short_device_array") == 0) {
    float *d = to_device(x, 8);
    kp_reduce(fsum, d, 9);
  } else if (strcmp(scenario, "staged") == 0) {
    /* For the fake driver (which runs no kernels): what a host array of a million floats
     * costs on the CUDA path — staging, two passes, one value back. */
    float *big = calloc(1000000, sizeof *big);
    KT_CHECK(big, "out of memory");
    printf("result %g\n", kp_reduce(fsum, big, 1000000));
    free(big);
  } else if (strcmp(scenario, "return_mode") == 0) {
    /* KP_ERRORS_RETURN: the call returns init (or 0) and the error stays for kp_last_error. */
    kp_set_error_mode(KP_ERRORS_RETURN);
    float r = kp_reduce_init(fsum, x, -1, 5.0f);
    KT_CHECK(r == 5.0f && kp_last_error() == KP_ERROR_INVALID_VALUE, "got %g", r);
    KT_CHECK(kp_reduce(fsum, x, 8) == 36.0f && kp_last_error() == KP_SUCCESS, "no recovery");
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", scenario);
    return 2;
  }
  printf("reduce_errors %s: finished\n", scenario);
  return 0;
}
