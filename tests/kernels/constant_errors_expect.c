/* constant_errors_expect.c — kp_copy_to_constant used wrongly (constant.cmake lists the
 * messages), and the CUDA path on the fake driver, read back from its log: a module gets every
 * constant variable's current value when it loads (copies made before are not lost), and a
 * copy after the load goes to the loaded module's .const symbol, at its offset.
 * Usage: kt_constant_errors_expect <scenario> */
#include <inttypes.h>

#include "kernel_test.h"
#include "../runtime/fake_log.h"

__attribute__((constant)) float weights[16];
float plain_global[16];

__attribute__((kernel)) void apply(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] *= weights[i % 16];
}

/* The address in the last "cuMemcpyHtoD 0x... <bytes>" line with that byte count. */
static unsigned long long last_htod(const char *log, const char *bytes) {
  unsigned long long addr = 0;
  char suffix[32];
  snprintf(suffix, sizeof suffix, " %s\n", bytes);
  for (const char *p = log; (p = strstr(p, "cuMemcpyHtoD 0x")); p++) {
    const char *eol = strchr(p, '\n');
    if (eol && (size_t)(eol - p) > strlen(suffix) - 1 &&
        strncmp(eol - (strlen(suffix) - 1), suffix, strlen(suffix) - 1) == 0)
      addr = strtoull(p + 13, NULL, 16);
  }
  return addr;
}

static void fake(void) {
  float w[16], four[4] = {1, 2, 3, 4};
  for (int k = 0; k < 16; k++) w[k] = (float)k;
  kp_copy_to_constant(weights, w, sizeof w); /* before the module is loaded: host copy only */
  CHECK_LOG_COUNT("cuModuleGetGlobal", 0);
  float *d = device_array(float, 64);
  launch(apply, 1, 64)(d, 64); /* loads the module: uploads all 64 bytes */
  kp_synchronize();
  CHECK_LOG_COUNT("cuModuleGetGlobal weights -> 64 bytes", 1);
  unsigned long long base = last_htod(read_log(), "64");
  KT_CHECK(base != 0, "no 64-byte upload of weights; log:\n%s", read_log());
  kp_copy_to_constant_offset(weights, four, sizeof four, 8 * sizeof(float));
  unsigned long long at = last_htod(read_log(), "16");
  KT_CHECK(at == base + 32, "the offset copy went to 0x%llx, expected 0x%llx; log:\n%s", at,
           base + 32, read_log());
  kp_free(d);
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  /* The fake appends to its log: start this run's afresh, before the driver is loaded. */
  if (!strcmp(what, "fake") && getenv("FAKE_CUDA_LOG")) remove(getenv("FAKE_CUDA_LOG"));
  kt_start("constant_errors");
  float w[32] = {0};
  if (!strcmp(what, "not_constant")) {
    kp_copy_to_constant(plain_global, w, sizeof plain_global);
  } else if (!strcmp(what, "too_big")) {
    kp_copy_to_constant(weights, w, sizeof w);
  } else if (!strcmp(what, "past_end")) {
    kp_copy_to_constant_offset(weights, w, 8 * sizeof(float), 12 * sizeof(float));
  } else if (!strcmp(what, "null_source")) {
    kp_copy_to_constant(weights, NULL, 16);
  } else if (!strcmp(what, "return_mode")) {
    kp_set_error_mode(KP_ERRORS_RETURN);
    KT_CHECK(kp_copy_to_constant(weights, w, sizeof w) == KP_ERROR_INVALID_VALUE, "too big");
    KT_CHECK(kp_copy_to_constant(plain_global, w, 4) == KP_ERROR_INVALID_VALUE, "plain");
    KT_CHECK(kp_copy_to_constant(weights, w, 0) == KP_SUCCESS, "zero bytes");
    KT_CHECK(weights[0] == 0, "a refused copy changed the variable");
  } else if (!strcmp(what, "fake")) {
    fake();
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", what);
    return 2;
  }
  printf("constant_errors %s: finished\n", what);
  return 0;
}
