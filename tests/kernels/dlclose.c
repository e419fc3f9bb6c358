/* dlclose.c — kernels of a library loaded with dlopen and unloaded with dlclose (finding 5).
 *
 * The library (dlclose/lib.c) registers its module from its constructor and unregisters it
 * from its destructor. After dlclose the program's own ufunc and launch still work, and its
 * stale pointers to the library's kernel and vectorize function are the "not a kernel" /
 * "not a vectorize function" errors (return mode: nothing runs, nothing crashes), where the
 * registry used to read the unmapped descriptors. Loading the library again works, several
 * times. With the argument `fake` (the fake driver, which runs no kernels) results are not
 * checked; instead the driver log (FAKE_CUDA_LOG) must show the library's module unloaded
 * once per dlclose, and nothing used after its unload. */
#include <dlfcn.h>

#include "kernel_test.h"

#ifndef KT_DLCLOSE_LIB
#error "KT_DLCLOSE_LIB: the path of the library built from dlclose/lib.c"
#endif

enum { N = 32, ROUNDS = 3 };

__attribute__((kernel)) void main_k(int *o) { o[grid(1)] = 7; }
__attribute__((vectorize("f32(f32)"))) float sq(float x) { return x * x; }
static void plain(int *x) { *x = 42; }

/* Lines of the fake driver's log that contain `text`. */
static int log_count(const char *text) {
  const char *path = getenv("FAKE_CUDA_LOG");
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) return -1;
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof line, f)) n += strstr(line, text) != NULL;
  fclose(f);
  return n;
}

static void check_program_still_works(int fake) {
  float in[N], out[N];
  for (int i = 0; i < N; i++) in[i] = (float)i;
  ufunc(sq, N, out, in);
  int o[N];
  int *d = device_array(int, N);
  launch(main_k, 1, N)(d);
  copy_to_host(o, d, N);
  kp_free(d);
  for (int i = 0; i < N && !fake; i++) {
    KT_CHECK(out[i] == (float)(i * i), "ufunc(sq): out[%d] = %g", i, out[i]);
    KT_CHECK(o[i] == 7, "main_k: o[%d] = %d", i, o[i]);
  }
}

int main(int argc, char **argv) {
  const int fake = argc > 1 && strcmp(argv[1], "fake") == 0;
  if (fake && getenv("FAKE_CUDA_LOG")) remove(getenv("FAKE_CUDA_LOG")); /* this run's log only */
  kt_start("dlclose");
  for (int round = 1; round <= ROUNDS; round++) {
    void *h = dlopen(KT_DLCLOSE_LIB, RTLD_NOW | RTLD_LOCAL);
    KT_CHECK(h, "dlopen: %s", dlerror());
    int (*run_lib)(int) = (int (*)(int))dlsym(h, "run_lib");
    void (*stale_k)(int *, int) = (void (*)(int *, int))dlsym(h, "lib_k");
    float (*stale_twice)(float) = (float (*)(float))dlsym(h, "lib_twice");
    KT_CHECK(run_lib && stale_k && stale_twice, "dlsym: %s", dlerror());
    int bad = run_lib(round);
    KT_CHECK(fake || bad == 0, "round %d: %d wrong results from the library", round, bad);
    KT_CHECK(dlclose(h) == 0, "dlclose: %s", dlerror());
    /* really unmapped (dlopen with RTLD_NOLOAD finds only loaded libraries) */
    KT_CHECK(!dlopen(KT_DLCLOSE_LIB, RTLD_NOW | RTLD_NOLOAD), "round %d: still loaded", round);

    check_program_still_works(fake);
    kp_set_error_mode(KP_ERRORS_RETURN);
    int x = 0;
    launch(plain, 1, 1)(&x);
    CHECK_ERROR(KP_ERROR_INVALID_VALUE, "launch(plain, ...): 'plain' is not a kernel");
    KT_CHECK(x == 0, "a refused launch ran the function");
    int *d = device_array(int, N);
    launch(stale_k, 1, N)(d, round); /* jumping to it would crash: it is unmapped */
    CHECK_ERROR(KP_ERROR_INVALID_VALUE, "launch(stale_k, ...): 'stale_k' is not a kernel");
    float in[N] = {0}, out[N];
    ufunc(stale_twice, N, out, in);
    CHECK_ERROR(KP_ERROR_INVALID_VALUE, "ufunc(stale_twice, ...): 'stale_twice' is not a "
                                        "vectorize function");
    kp_free(d);
    kp_set_error_mode(KP_ERRORS_ABORT);
    if (fake) {
      int unloads = log_count("cuModuleUnload lib_k");
      KT_CHECK(unloads == round, "round %d: the library's module was unloaded %d times", round,
               unloads);
      KT_CHECK(log_count("module was unloaded") == 0, "a stale module or function was used");
    }
    printf("dlclose: round %d ok\n", round);
  }
  if (fake)
    KT_CHECK(log_count("cuModuleUnload") == ROUNDS, "the program's own module was unloaded");
  printf("dlclose: ok\n");
  return 0;
}
