/* test_cpu.c — the CPU backend runs hand-built kernels (hand_kernels.c) correctly: indices in
 * 1D/2D/3D, many blocks, atomics with CUDA's wrap-around, dynamic and static shared memory,
 * a struct by value, transfers, and launches from several host threads at once. Run with
 * KP_BACKEND=cpu and several KP_NUM_THREADS values (tests/runtime/CMakeLists.txt). */
#include <pthread.h>
#include <stdint.h>

#include "hand_kernels.h"
#include "test_util.h"

static void test_hello(void) {
  float data[10], out[10];
  for (int i = 0; i < 10; i++) data[i] = (float)(100 + i), out[i] = -1;
  float *d_in = to_device(data, 10);
  float *d_out = device_array(float, 10);
  CHECK(d_in && d_out && d_in != data);
  CHECK(kp_alloc_size(d_in) == sizeof data);
  launch(foo, 1, 10)(d_in, d_out);
  copy_to_host(out, d_out, 10);
  for (int i = 0; i < 10; i++) CHECK_MSG(out[i] == (float)i, "out[%d] = %g", i, out[i]);
  /* to_device made a copy: changing the host array does not change the device one */
  data[0] = 5;
  float back[10];
  copy_to_host(back, d_in, 10);
  CHECK(back[0] == 100);
  kp_free(d_in);
  kp_free(d_out);
  CHECK_NO_ERROR();
}

static void test_scale_many_blocks(void) {
  enum { N = 100000 };
  static float x[N];
  for (int i = 0; i < N; i++) x[i] = (float)i;
  float *d = to_device(x, N);
  int threads = 128, blocks = (N + threads - 1) / threads;
  launch(scale, blocks, threads)(d, 2.0f, N);
  launch(scale, (long long)blocks, (unsigned)threads, 0)(d, 0.5f, N); /* other integer types */
  launch(scale, dim3(blocks), dim3(threads), 0, (kp_stream)0)(d, 3.0f, N);
  copy_to_host(x, d, N);
  for (int i = 0; i < N; i++) CHECK_MSG(x[i] == 3.0f * (float)i, "x[%d] = %g", i, x[i]);
  kp_free(d);
  CHECK_NO_ERROR();
}

static void check_indices(kp_dim3 g, kp_dim3 b) {
  size_t threads = (size_t)g.x * g.y * g.z * b.x * b.y * b.z;
  size_t n = threads * RECORD_FIELDS;
  unsigned *h = malloc(n * sizeof *h);
  for (size_t i = 0; i < n; i++) h[i] = 0xdeadbeefu;
  unsigned *d = to_device(h, n);
  launch(record_indices, g, b)(d);
  copy_to_host(h, d, n);
  size_t id = 0;
  for (unsigned bz = 0; bz < g.z; bz++)
    for (unsigned by = 0; by < g.y; by++)
      for (unsigned bx = 0; bx < g.x; bx++)
        for (unsigned tz = 0; tz < b.z; tz++)
          for (unsigned ty = 0; ty < b.y; ty++)
            for (unsigned tx = 0; tx < b.x; tx++, id++) {
              unsigned lin = tx + b.x * (ty + b.y * tz);
              unsigned want[RECORD_FIELDS] = {tx,  ty,  tz,  bx,  by,  bz,  b.x,
                                              b.y, b.z, g.x, g.y, g.z, lin % 32};
              for (int k = 0; k < RECORD_FIELDS; k++)
                CHECK_MSG(h[id * RECORD_FIELDS + k] == want[k],
                          "grid (%u,%u,%u) block (%u,%u,%u): thread %zu field %d = %u, want %u",
                          g.x, g.y, g.z, b.x, b.y, b.z, id, k, h[id * RECORD_FIELDS + k],
                          want[k]);
            }
  kp_free(d);
  free(h);
  CHECK_NO_ERROR();
}

static void test_indices(void) {
  check_indices(dim3(1), dim3(10));
  check_indices(dim3(100), dim3(64));
  check_indices(dim3(3, 2), dim3(8, 4));
  check_indices(dim3(3, 2, 2), dim3(4, 3, 2));
  check_indices(dim3(1, 1, 5), dim3(1, 1, 64));
  check_indices(dim3(2), dim3(1024));
}

static void test_atomics(void) {
  enum { N = 1000 };
  unsigned zero = 0, start = 5, counter;
  unsigned olds[N];
  unsigned *d_counter = to_device(&zero, 1);
  unsigned *d_olds = device_array(unsigned, N);
  launch(count_inc, (N + 63) / 64, 64)(d_counter, 9u, d_olds, N);
  copy_to_host(&counter, d_counter, 1);
  copy_to_host(olds, d_olds, N);
  CHECK_MSG(counter == N % 10, "inc: counter = %u", counter); /* wraps to 0 after 9 */
  int hist[10] = {0};
  for (int i = 0; i < N; i++) {
    CHECK(olds[i] <= 9);
    hist[olds[i]]++;
  }
  for (int v = 0; v < 10; v++) CHECK_MSG(hist[v] == N / 10, "inc: %d seen %d times", v, hist[v]);

  copy_to_device(d_counter, &start, 1);
  launch(count_dec, (N + 63) / 64, 64)(d_counter, 9u, d_olds, N);
  copy_to_host(&counter, d_counter, 1);
  CHECK_MSG(counter == 5, "dec: counter = %u", counter); /* (5 - 1000) mod 10 */
  /* dec of a value above the limit stores the limit */
  unsigned big = 50;
  copy_to_device(d_counter, &big, 1);
  launch(count_dec, 1, 1)(d_counter, 9u, d_olds, 1);
  copy_to_host(&counter, d_counter, 1);
  CHECK_MSG(counter == 9, "dec above limit: counter = %u", counter);
  kp_free(d_counter);
  kp_free(d_olds);
  CHECK_NO_ERROR();
}

static void test_dynamic_shared(void) {
  enum { B = 16, T = 64 };
  int out[B * T];
  int *d = device_array(int, B * T);
  launch(dyn_shared, B, T, T * sizeof(int))(d);
  copy_to_host(out, d, B * T);
  for (int i = 0; i < B * T; i++) CHECK_MSG(out[i] == 3 * i, "out[%d] = %d", i, out[i]);
  /* exactly the CPU limit is allowed */
  launch(dyn_shared, 1, 32, 48 * 1024)(d);
  kp_free(d);
  CHECK_NO_ERROR();
}

/* Static shared arrays live in the workers' thread-local storage on the CPU: they do not
 * count against KP_CPU_SHARED_BYTES, which limits the dynamic buffer alone. */
static void test_static_shared(void) {
  enum { B = 8, T = 256 };
  int out[B * T];
  int *d = device_array(int, B * T);
  launch(static_shared, B, T, 48 * 1024)(d);
  copy_to_host(out, d, B * T);
  for (int i = 0; i < B * T; i++) CHECK_MSG(out[i] == i + 1, "out[%d] = %d", i, out[i]);
  CHECK(hand_kernels[HK_STATIC_SHARED].shared_bytes == STATIC_SHARED_INTS * sizeof(int));
  kp_free(d);
  CHECK_NO_ERROR();
}

static void test_byval(void) {
  big_arg s = {1.5, 2.0, 99.0, 10};
  double out[64];
  double *d = device_array(double, 64);
  launch(byval_kernel, 2, 32)(s, d);
  copy_to_host(out, d, 64);
  for (int i = 0; i < 64; i++) CHECK_MSG(out[i] == 1.5 + 2.0 * i + 10, "out[%d] = %g", i, out[i]);
  kp_free(d);
  CHECK_NO_ERROR();
}

/* Several host threads launching at once: each result must be its own. */
enum { HOST_THREADS = 4, ROUNDS = 25, LEN = 4096 };
static void *host_thread(void *arg) {
  float factor = (float)(uintptr_t)arg;
  float *x = malloc(LEN * sizeof *x);
  for (int i = 0; i < LEN; i++) x[i] = 1.0f;
  float *d = to_device(x, LEN);
  for (int r = 0; r < ROUNDS; r++) launch(scale, LEN / 256, 256)(d, r % 2 ? 1.0f / factor : factor, LEN);
  /* ROUNDS is odd: one factor left over */
  copy_to_host(x, d, LEN);
  for (int i = 0; i < LEN; i++) CHECK_MSG(x[i] == factor, "thread %g: x[%d] = %g", factor, i, x[i]);
  kp_free(d);
  free(x);
  return NULL;
}

static void test_host_threads(void) {
  pthread_t t[HOST_THREADS];
  for (uintptr_t i = 0; i < HOST_THREADS; i++)
    CHECK(pthread_create(&t[i], NULL, host_thread, (void *)((uintptr_t)2 << i)) == 0); /* powers of 2: exact */
  for (int i = 0; i < HOST_THREADS; i++) pthread_join(t[i], NULL);
}

int main(void) {
  CHECK(strcmp(kp_backend_name(), "cpu") == 0);
  CHECK(kp_device_count() == 0);
  test_hello();
  test_scale_many_blocks();
  test_indices();
  test_atomics();
  test_dynamic_shared();
  test_static_shared();
  test_byval();
  test_host_threads();
  kp_synchronize();
  CHECK_NO_ERROR();
  puts("test_cpu: OK");
  return 0;
}
