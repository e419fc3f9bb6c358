/* lib.c — the library that tests/kernels/dlclose.c loads and unloads with dlopen/dlclose:
 * a kernel, a vectorize function and a function that runs both (finding 5: a dlclose()d
 * library's module stayed registered and the next ufunc() or bad launch() crashed). */
#include <kernplug.h>

__attribute__((kernel)) void lib_k(int *o, int v) { o[grid(1)] = v + (int)threadIdx.x; }

__attribute__((vectorize("f32(f32)"))) float lib_twice(float x) { return 2 * x; }

/* Launches lib_k and ufunc(lib_twice) once; returns how many results are wrong. */
int run_lib(int v) {
  enum { N = 32 };
  int h[N];
  float in[N], out[N];
  for (int i = 0; i < N; i++) in[i] = (float)i;
  int *d = device_array(int, N);
  launch(lib_k, 1, N)(d, v);
  copy_to_host(h, d, N);
  kp_free(d);
  ufunc(lib_twice, N, out, in);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += (h[i] != v + i) + (out[i] != 2.0f * (float)i);
  return bad;
}
