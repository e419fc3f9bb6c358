/* shared_dynamic.c — dynamic shared memory sized at launch: launch(k, blocks, threads, bytes)
 * with kp_dynamic_shared(float/double/int), a block reverse through it (needs the barrier),
 * sizes from 0 bytes to 40 KiB, several arrays carved from one buffer, static and dynamic
 * shared memory in one kernel without overlap, and the backend's limit: the largest launch
 * allowed works and one byte more is an error that names the kernel and the limit. */
#include "kernel_test.h"

/* out[i] = in[mirror of i within its block]: every thread's store must land before any load. */
#define DEFINE_REVERSE(name, T)                                                                \
  __attribute__((kernel)) void name(const T *in, T *out) {                                     \
    T *buf = kp_dynamic_shared(T);                                                             \
    unsigned t = threadIdx.x, last = blockDim.x - 1;                                           \
    int i = grid(1);                                                                           \
    buf[t] = in[i];                                                                            \
    syncthreads();                                                                             \
    out[i] = buf[last - t];                                                                    \
  }
DEFINE_REVERSE(reverse_float, float)
DEFINE_REVERSE(reverse_double, double)
DEFINE_REVERSE(reverse_int, int)

/* Fills `words` ints of the buffer (strided over the block), then each thread sums the words
 * another thread wrote. */
__attribute__((kernel)) void fill_and_sum(int words, long long *out) {
  int *buf = kp_dynamic_shared(int);
  unsigned t = threadIdx.x, n = blockDim.x;
  for (unsigned w = t; w < (unsigned)words; w += n) buf[w] = (int)(w * 3 + blockIdx.x);
  syncthreads();
  long long s = 0;
  for (unsigned w = n - 1 - t; w < (unsigned)words; w += n) s += buf[w];
  out[blockIdx.x * n + t] = s;
}

/* Launched with 0 bytes: never touches the buffer. */
__attribute__((kernel)) void no_buffer(int *out) {
  int i = grid(1);
  out[i] = i * 2;
}

/* A float array and an int array carved from one buffer, each read at a neighbour's slot. */
__attribute__((kernel)) void carved(float *of, int *oi) {
  float *f = kp_dynamic_shared(float);
  int *k = (int *)(f + blockDim.x);
  unsigned t = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + t;
  f[t] = (float)g * 0.5f;
  k[t] = -(int)g;
  syncthreads();
  of[g] = f[(t + 1) % n];
  oi[g] = k[(t + 2) % n];
}

/* A static array next to the dynamic buffer: writing one must not disturb the other. */
enum { STATIC_INTS = 256 };
__attribute__((kernel)) void static_and_dynamic(int *os, double *od) {
  static __attribute__((shared)) int s[STATIC_INTS];
  double *d = kp_dynamic_shared(double);
  unsigned t = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + t;
  s[t] = (int)g + 7;
  d[t] = (double)g * 0.25;
  syncthreads();
  os[g] = s[(t + 1) % n];
  od[g] = d[(t + 2) % n];
}

/* 16 KiB of static shared memory (fully used) plus whatever the launch gives. */
enum { BIG_STATIC_INTS = 4096 };
__attribute__((kernel)) void big_static(int words, long long *out) {
  static __attribute__((shared)) int s[BIG_STATIC_INTS];
  int *buf = kp_dynamic_shared(int);
  unsigned t = threadIdx.x, n = blockDim.x;
  for (unsigned w = t; w < BIG_STATIC_INTS; w += n) s[w] = (int)w;
  for (unsigned w = t; w < (unsigned)words; w += n) buf[w] = (int)w * 2;
  syncthreads();
  long long sum = 0;
  for (unsigned w = n - 1 - t; w < BIG_STATIC_INTS; w += n) sum += s[w];
  for (unsigned w = n - 1 - t; w < (unsigned)words; w += n) sum += buf[w];
  out[t] = sum;
}

/* ---- host checks ---------------------------------------------------------------------- */

#define CHECK_REVERSE(kernel, T, fmt)                                                          \
  do {                                                                                         \
    size_t total = (size_t)blocks * threads;                                                   \
    T *in = malloc(total * sizeof(T)), *out = malloc(total * sizeof(T));                       \
    for (size_t i = 0; i < total; i++) in[i] = (T)((double)i * 1.5 - 100);                     \
    T *d_in = to_device(in, total), *d_out = device_array(T, total);                           \
    launch(kernel, blocks, threads, threads * sizeof(T))(d_in, d_out);                         \
    copy_to_host(out, d_out, total);                                                           \
    for (unsigned b = 0; b < blocks; b++)                                                      \
      for (unsigned t = 0; t < threads; t++) {                                                 \
        T want = in[b * threads + threads - 1 - t], got = out[b * threads + t];                \
        KT_CHECK(got == want, #kernel " (%u threads): block %u thread %u got " fmt             \
                 ", expected " fmt, threads, b, t, got, want);                                 \
      }                                                                                        \
    kp_free(d_in), kp_free(d_out), free(in), free(out);                                        \
  } while (0)

static void check_reverse(unsigned blocks, unsigned threads) {
  CHECK_REVERSE(reverse_float, float, "%g");
  CHECK_REVERSE(reverse_double, double, "%g");
  CHECK_REVERSE(reverse_int, int, "%d");
}

/* fill_and_sum with `bytes` of dynamic shared memory. */
static void check_fill(unsigned blocks, unsigned threads, size_t bytes) {
  int words = (int)(bytes / sizeof(int));
  size_t total = (size_t)blocks * threads;
  long long *out = malloc(total * sizeof *out), *d = device_array(long long, total);
  launch(fill_and_sum, blocks, threads, bytes)(words, d);
  copy_to_host(out, d, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < threads; t++) {
      long long want = 0;
      for (unsigned w = threads - 1 - t; w < (unsigned)words; w += threads) want += w * 3 + b;
      KT_CHECK(out[b * threads + t] == want, "fill_and_sum (%zu bytes): block %u thread %u got "
               "%lld, expected %lld", bytes, b, t, out[b * threads + t], want);
    }
  kp_free(d);
  free(out);
}

static void check_no_buffer(void) {
  enum { N = 640 };
  int out[N];
  int *d = device_array(int, N);
  launch(no_buffer, N / 64, 64, 0)(d);
  copy_to_host(out, d, N);
  for (int i = 0; i < N; i++) KT_CHECK(out[i] == 2 * i, "no_buffer: out[%d] = %d", i, out[i]);
  kp_free(d);
}

static void check_carved(unsigned blocks, unsigned threads) {
  size_t total = (size_t)blocks * threads;
  float *of = malloc(total * sizeof *of), *dof = device_array(float, total);
  int *oi = malloc(total * sizeof *oi), *doi = device_array(int, total);
  launch(carved, blocks, threads, threads * (sizeof(float) + sizeof(int)))(dof, doi);
  copy_to_host(of, dof, total);
  copy_to_host(oi, doi, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < threads; t++) {
      unsigned g = b * threads + t;
      float wf = (float)(b * threads + (t + 1) % threads) * 0.5f;
      int wi = -(int)(b * threads + (t + 2) % threads);
      KT_CHECK(of[g] == wf && oi[g] == wi, "carved: block %u thread %u got %g, %d; expected "
               "%g, %d", b, t, of[g], oi[g], wf, wi);
    }
  kp_free(dof), kp_free(doi), free(of), free(oi);
}

static void check_static_and_dynamic(unsigned blocks, unsigned threads) {
  size_t total = (size_t)blocks * threads;
  int *os = malloc(total * sizeof *os), *dos = device_array(int, total);
  double *od = malloc(total * sizeof *od), *dod = device_array(double, total);
  launch(static_and_dynamic, blocks, threads, threads * sizeof(double))(dos, dod);
  copy_to_host(os, dos, total);
  copy_to_host(od, dod, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < threads; t++) {
      unsigned g = b * threads + t;
      int ws = (int)(b * threads + (t + 1) % threads) + 7;
      double wd = (double)(b * threads + (t + 2) % threads) * 0.25;
      KT_CHECK(os[g] == ws && od[g] == wd, "static_and_dynamic: block %u thread %u got %d, "
               "%g; expected %d, %g", b, t, os[g], od[g], ws, wd);
    }
  kp_free(dos), kp_free(dod), free(os), free(od);
}

/* The limit the backend reports for an impossible request. */
static unsigned long long shared_limit(void) {
  kp_set_error_mode(KP_ERRORS_RETURN);
  long long *d = device_array(long long, 1024);
  launch(big_static, 1, 1024, (size_t)1 << 40)(0, d);
  kp_error e = kp_last_error();
  const char *msg = kp_last_error_message();
  KT_CHECK(e == KP_ERROR_LAUNCH, "1 TiB of dynamic shared memory: error %d (%s)", (int)e, msg);
  KT_CHECK(strstr(msg, "launch(big_static, ...): ") != NULL, "message: %s", msg);
  const char *at = strstr(msg, "exceed the limit of ");
  KT_CHECK(at != NULL, "message without the limit: %s", msg);
  kp_free(d);
  kp_set_error_mode(KP_ERRORS_ABORT);
  return strtoull(at + strlen("exceed the limit of "), NULL, 10);
}

/* big_static with all the dynamic memory the backend allows works; one byte more fails. A
 * GPU counts the 16 KiB static array against its per-block limit, the CPU backend does not. */
static void check_at_limit(const char *backend) {
  unsigned long long limit = shared_limit();
  unsigned long long static_bytes = strcmp(backend, "cpu") ? BIG_STATIC_INTS * sizeof(int) : 0;
  KT_CHECK(limit >= static_bytes + 1024, "limit %llu", limit);
  size_t bytes = (size_t)(limit - static_bytes);
  int words = (int)(bytes / sizeof(int));
  enum { T = 1024 };
  long long out[T], *d = device_array(long long, T);
  launch(big_static, 1, T, bytes)(words, d);
  copy_to_host(out, d, T);
  for (unsigned t = 0; t < T; t++) {
    long long want = 0;
    for (unsigned w = T - 1 - t; w < BIG_STATIC_INTS; w += T) want += w;
    for (unsigned w = T - 1 - t; w < (unsigned)words; w += T) want += 2 * (long long)w;
    KT_CHECK(out[t] == want, "big_static with %zu dynamic bytes: thread %u got %lld, expected "
             "%lld", bytes, t, out[t], want);
  }
  kp_set_error_mode(KP_ERRORS_RETURN);
  launch(big_static, 1, T, bytes + 1)(words, d);
  kp_error e = kp_last_error();
  const char *msg = kp_last_error_message();
  KT_CHECK(e == KP_ERROR_LAUNCH && strstr(msg, "launch(big_static, ...)") &&
               strstr(msg, "exceed the limit of"),
           "%zu dynamic bytes: error %d (%s)", bytes + 1, (int)e, msg);
  kp_set_error_mode(KP_ERRORS_ABORT);
  kp_free(d);
  printf("shared_dynamic: %zu dynamic bytes next to %llu static bytes fit the limit of %llu\n",
         bytes, static_bytes, limit);
}

int main(void) {
  const char *backend = kt_start("shared_dynamic");
  check_reverse(4, 256);
  check_reverse(9, 1);
  check_reverse(3, 100);
  check_reverse(2, 1024);
  check_no_buffer();
  check_fill(5, 128, 0);
  check_fill(5, 128, 4);
  check_fill(3, 256, 1000);
  check_fill(4, 512, 40 * 1024);
  check_fill(2, 64, 48 * 1024);
  check_carved(6, 96);
  check_static_and_dynamic(5, STATIC_INTS);
  check_static_and_dynamic(3, 33);
  check_at_limit(backend);
  puts("shared_dynamic: OK");
  return 0;
}
