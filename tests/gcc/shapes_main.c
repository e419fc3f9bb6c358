/* gcc -fplugin=kernplug_gcc.so link shapes (run by link_shapes.sh at each option set): a
 * static kernel k and a static twice like those of shapes_part.c (twice in a shared library)
 * and shapes_kpcc.c (built by kpcc); an extern kernel with launch_bounds; a vectorize function
 * called from host code too; a reduce function; a user constructor, which must run once;
 * `constant` variables, an extern one filled by kp_copy_to_constant and a static one with an
 * initial value (GCC defines both, kernels read GCC's copies). */
#include <kernplug.h>
#include <stdio.h>

void run_part2(float *x, int n);
void run_part3(float *x, int n);
void run_kpcc(float *x, int n);

static int constructor_runs;
__attribute__((constructor)) static void count_constructor(void) { constructor_runs++; }

static const float offsets[4] = {0.5f, 1.5f, 2.5f, 3.5f};
static float twice(float x) { return 2 * x; }
__attribute__((constant)) float offsets_c[4];
static __attribute__((constant)) float one = 1.0f;

__attribute__((kernel)) static void k(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] = twice(x[i]) + offsets_c[i % 4];
}

__attribute__((kernel, launch_bounds(64))) void k_extern(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] -= one;
}

__attribute__((vectorize("f32(f32, f32)"))) float axpb(float x, float b) { return 3 * x + b; }

__attribute__((reduce)) static int add_int(int a, int b) { return a + b; }

enum { N = 64 };

int main(void) {
  float x[N], y[N], z[N], w[N], v[N], u[N];
  int ints[N], sum = 0, want = 0, bad = 0;
  for (int i = 0; i < N; i++) {
    x[i] = y[i] = z[i] = w[i] = v[i] = (float)i;
    ints[i] = i;
    want += i;
  }
  kp_copy_to_constant(offsets_c, offsets, sizeof offsets);
  float *d = kp_to_device_bytes(x, sizeof x);
  launch(k, 1, N)(d, N);
  launch(k_extern, 1, N)(d, N);
  kp_copy_to_host_bytes(x, d, sizeof x);
  kp_free(d);
  run_part2(y, N);
  run_part3(z, N);
  run_kpcc(w, N);
  ufunc(axpb, N, u, v, 1.0f);
  sum = kp_reduce(add_int, ints, N);
  for (int i = 0; i < N; i++) {
    bad += x[i] != 2.0f * (float)i + offsets[i % 4] - 1;
    bad += y[i] != 4.0f * (float)i;
    bad += z[i] != 6.0f * (float)i;
    bad += w[i] != (float)i + 1;
    bad += u[i] != axpb((float)i, 1.0f);
  }
  bad += sum != want;
  bad += constructor_runs != 1;
  bad += offsets_c[3] != offsets[3] || one != 1.0f; /* host code reads the same copies */
  printf("%s: %d mismatches, sum %d (want %d), constructor ran %d time(s)\n",
         bad ? "FAIL" : "PASS", bad, sum, want, constructor_runs);
  return bad != 0;
}
