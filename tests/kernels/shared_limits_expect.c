/* shared_limits_expect.c — the CPU backend's limit on dynamic shared memory, driven by
 * shared.cmake: KP_CPU_SHARED_BYTES (default 48 KiB) bounds the bytes a launch asks for, a
 * launch over it stops with a message naming the kernel, the bytes and how to raise the
 * limit, and static shared arrays do not count against it.
 * Usage: shared_limits_expect <dynamic bytes> [static]   ("static": the kernel that also has
 * a 32 KiB static shared array). Prints "shared_limits: <bytes> bytes: finished" on success. */
#include "kernel_test.h"

enum { THREADS = 256, STATIC_INTS = 8192 };

/* Each thread fills and sums its own slice of the dynamic buffer (no barrier needed). */
__attribute__((kernel)) void per_thread_slices(int words_each, long long *out) {
  int *buf = kp_dynamic_shared(int) + threadIdx.x * (unsigned)words_each;
  long long s = 0;
  for (int w = 0; w < words_each; w++) buf[w] = w + (int)threadIdx.x;
  for (int w = 0; w < words_each; w++) s += buf[w];
  out[grid(1)] = s;
}

/* The same next to 32 KiB of static shared memory, of which each thread uses its slice. */
__attribute__((kernel)) void with_static(int words_each, long long *out) {
  static __attribute__((shared)) int s[STATIC_INTS];
  int *buf = kp_dynamic_shared(int) + threadIdx.x * (unsigned)words_each;
  unsigned per = STATIC_INTS / blockDim.x;
  long long sum = 0;
  for (unsigned w = 0; w < per; w++) s[threadIdx.x * per + w] = 1;
  for (int w = 0; w < words_each; w++) buf[w] = w + (int)threadIdx.x;
  for (unsigned w = 0; w < per; w++) sum += s[threadIdx.x * per + w];
  for (int w = 0; w < words_each; w++) sum += buf[w];
  out[grid(1)] = sum;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: shared_limits_expect <dynamic bytes> [static]\n");
    return 2;
  }
  kt_start("shared_limits");
  size_t bytes = strtoull(argv[1], NULL, 10);
  int use_static = argc > 2 && strcmp(argv[2], "static") == 0;
  enum { BLOCKS = 3 };
  int words_each = (int)(bytes / sizeof(int) / THREADS);
  long long out[BLOCKS * THREADS], *d = device_array(long long, BLOCKS * THREADS);
  if (use_static)
    launch(with_static, BLOCKS, THREADS, bytes)(words_each, d);
  else
    launch(per_thread_slices, BLOCKS, THREADS, bytes)(words_each, d);
  copy_to_host(out, d, BLOCKS * THREADS);
  for (int i = 0; i < BLOCKS * THREADS; i++) {
    long long t = i % THREADS, want = use_static ? STATIC_INTS / THREADS : 0;
    for (int w = 0; w < words_each; w++) want += w + t;
    KT_CHECK(out[i] == want, "thread %d got %lld, expected %lld", i, out[i], want);
  }
  kp_free(d);
  printf("shared_limits: %zu bytes: finished\n", bytes);
  return 0;
}
