/* memory_kinds.c — every kind of memory a kernel can take, and the automatic transfer rules
 * (docs/memory.md), checked against host computations on either backend:
 *   device arrays and managed arrays pass as they are (managed: written and read on the host
 *   without copies, after kp_synchronize);
 *   pinned and registered host arrays are copied in before the launch and back after it, but
 *   not back through a pointer-to-const parameter (a kernel that casts const away writes only
 *   the temporary copy, on both backends);
 *   pointers into an allocation count as the allocation; two parameters into one pinned array
 *   share one copy (disjoint writes through both survive); NULL passes;
 *   pinned + device arguments mixed; empty arrays; kinds and sizes the runtime reports. */
#include <stdint.h>

#include "kernel_test.h"

__attribute__((kernel)) void add_one(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] += 1.0f;
}

__attribute__((kernel)) void twice_into(const float *in, float *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = 2.0f * in[i];
}

/* Writes through a pointer to const: the caller promised it would not, so the write reaches
 * only the device copy of a pinned array. */
__attribute__((kernel)) void scribble_const(const float *in, float *out, int n) {
  int i = grid(1);
  if (i < n) {
    out[i] = in[i] + 0.5f;
    ((float *)(uintptr_t)in)[i] = -7.0f;
  }
}

/* a[i] = 1 for i < n, b[i] = 2 for i < n: with b = a + n both halves of one array. */
__attribute__((kernel)) void fill_halves(float *a, float *b, int n) {
  int i = grid(1);
  if (i < n) a[i] = 1.0f, b[i] = 2.0f;
}

/* out[i] = (in ? in[i] : 100) + i */
__attribute__((kernel)) void maybe_null(const float *in, float *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = (in ? in[i] : 100.0f) + (float)i;
}

enum { N = 5000, T = 128 };
#define BLOCKS(n) (((n) + T - 1) / T)

/* Host memory to register: whole pages, since the driver page-locks whole pages and refuses
 * a page that is locked already (two malloc'd arrays can share one). */
static float *page_floats(size_t n) {
  size_t bytes = (n * sizeof(float) + 4095) / 4096 * 4096;
  return aligned_alloc(4096, bytes);
}

static void check_kinds(void) {
  float *d = device_array(float, N), *m = managed_array(float, N), *p = pinned_array(float, N);
  float *h = page_floats(N);
  KT_CHECK(d && m && p && h, "allocations");
  KT_CHECK(kp_memory_kind_of(d) == KP_MEMORY_DEVICE, "device kind");
  KT_CHECK(kp_memory_kind_of(m + 7) == KP_MEMORY_MANAGED, "managed kind (interior)");
  KT_CHECK(kp_memory_kind_of(p + N - 1) == KP_MEMORY_PINNED, "pinned kind (last element)");
  KT_CHECK(kp_memory_kind_of(p + N) == KP_MEMORY_UNKNOWN || p + N == (float *)d ||
               p + N == (float *)m,
           "one past the end is not the array");
  KT_CHECK(kp_memory_kind_of(h) == KP_MEMORY_UNKNOWN, "malloc'd memory is unknown");
  KT_CHECK(kp_register(h, N * sizeof *h) == h, "kp_register returns its pointer");
  KT_CHECK(kp_memory_kind_of(h + 1) == KP_MEMORY_REGISTERED, "registered kind");
  KT_CHECK(kp_alloc_size(d) == N * sizeof(float) && kp_alloc_size(m) == N * sizeof(float) &&
               kp_alloc_size(p) == N * sizeof(float) && kp_alloc_size(h) == N * sizeof(float),
           "sizes");
  KT_CHECK(!strcmp(kp_memory_kind_name(KP_MEMORY_PINNED), "pinned") &&
               !strcmp(kp_memory_kind_name(KP_MEMORY_REGISTERED), "registered"),
           "kind names");
  kp_unregister(h);
  KT_CHECK(kp_memory_kind_of(h) == KP_MEMORY_UNKNOWN, "unregistered");
  float *like = device_array_like(p); /* any array the runtime knows has a size */
  KT_CHECK(kp_memory_kind_of(like) == KP_MEMORY_DEVICE && kp_alloc_size(like) == N * 4,
           "device_array_like of a pinned array");
  float *empty = pinned_array(float, 0);
  KT_CHECK(empty && kp_alloc_size(empty) == 0 && kp_memory_kind_of(empty) == KP_MEMORY_PINNED,
           "empty pinned array");
  launch(add_one, 1, 32)(empty, 0); /* nothing to copy either way */
  kp_free(empty);
  kp_free(like);
  kp_free(d);
  kp_free(m);
  kp_free(p);
  free(h);
}

/* Managed memory: the host writes it, the kernel updates it in place, the host reads it. */
static void check_managed(void) {
  float *m = managed_array(float, N);
  for (int i = 0; i < N; i++) m[i] = (float)i;
  launch(add_one, BLOCKS(N), T)(m, N);
  launch(add_one, BLOCKS(N - 10), T)(m + 10, N - 10); /* a pointer into it */
  kp_synchronize();
  for (int i = 0; i < N; i++)
    KT_CHECK(m[i] == (float)i + (i >= 10 ? 2.0f : 1.0f), "managed m[%d] = %g", i, m[i]);
  kp_free(m);
}

/* Pinned and registered: the implicit copies, and the const rule. */
static void check_host_kinds(int registered) {
  const char *kind = registered ? "registered" : "pinned";
  float *in, *out;
  if (registered) {
    in = page_floats(N), out = page_floats(N);
    kp_register(in, N * sizeof *in);
    kp_register(out, N * sizeof *out);
  } else {
    in = pinned_array(float, N), out = pinned_array(float, N);
  }
  for (int i = 0; i < N; i++) in[i] = (float)(i % 97), out[i] = -1;

  launch(add_one, BLOCKS(N), T)(in, N); /* copied in and back */
  for (int i = 0; i < N; i++)
    KT_CHECK(in[i] == (float)(i % 97) + 1, "%s add_one in[%d] = %g", kind, i, in[i]);

  launch(twice_into, BLOCKS(N), T)(in, out, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == 2.0f * in[i], "%s twice_into out[%d] = %g", kind, i, out[i]);

  /* const: not copied back, whatever the kernel did to the copy */
  launch(scribble_const, BLOCKS(N), T)(in, out, N);
  for (int i = 0; i < N; i++) {
    KT_CHECK(in[i] == (float)(i % 97) + 1, "%s const in[%d] = %g was copied back", kind, i,
             in[i]);
    KT_CHECK(out[i] == in[i] + 0.5f, "%s scribble out[%d] = %g", kind, i, out[i]);
  }

  /* interior pointers: the second half only */
  launch(add_one, BLOCKS(N / 2), T)(in + N / 2, N - N / 2);
  for (int i = 0; i < N; i++)
    KT_CHECK(in[i] == (float)(i % 97) + (i >= N / 2 ? 2.0f : 1.0f), "%s interior in[%d] = %g",
             kind, i, in[i]);

  /* one array through two parameters: one device copy, both halves' writes come back */
  launch(fill_halves, BLOCKS(N / 2), T)(out, out + N / 2, N / 2);
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == (i < N / 2 ? 1.0f : 2.0f), "%s halves out[%d] = %g", kind, i, out[i]);

  /* the same array as input and output */
  launch(twice_into, BLOCKS(N), T)(out, out, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == (i < N / 2 ? 2.0f : 4.0f), "%s in place out[%d] = %g", kind, i, out[i]);

  /* mixed with a device array, and NULL */
  float *d = device_array(float, N);
  launch(twice_into, BLOCKS(N), T)(in, d, N);
  float *back = malloc(N * sizeof *back);
  copy_to_host(back, d, N);
  for (int i = 0; i < N; i++) KT_CHECK(back[i] == 2.0f * in[i], "%s to device [%d]", kind, i);
  launch(maybe_null, BLOCKS(N), T)(NULL, out, N);
  for (int i = 0; i < N; i++) KT_CHECK(out[i] == 100.0f + (float)i, "%s NULL in [%d]", kind, i);
  launch(maybe_null, BLOCKS(N), T)(d, out, N); /* device in, host kind out */
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == back[i] + (float)i, "%s device in [%d]", kind, i);
  free(back);
  kp_free(d);

  if (registered) {
    kp_unregister(in);
    kp_unregister(out);
    free(in);
    free(out);
  } else {
    kp_free(in);
    kp_free(out);
  }
}

/* The explicit API on managed and pinned memory: copies to and from a managed array, and a
 * pinned host side for to_device / copy_to_host. */
static void check_explicit(void) {
  float *p = pinned_array(float, N), *m = managed_array(float, N);
  for (int i = 0; i < N; i++) p[i] = (float)(3 * i);
  float *d = to_device(p, N);
  copy_to_device(m, p, N);
  launch(add_one, BLOCKS(N), T)(d, N);
  copy_to_host(p, d, N);
  kp_synchronize();
  for (int i = 0; i < N; i++)
    KT_CHECK(p[i] == (float)(3 * i) + 1 && m[i] == (float)(3 * i), "explicit [%d]", i);
  copy_to_host(p, m + 1, N - 1);
  KT_CHECK(p[0] == 3.0f, "copy_to_host from managed memory");
  kp_free(d);
  kp_free(m);
  kp_free(p);
}

int main(void) {
  kt_start("memory_kinds");
  check_kinds();
  check_managed();
  check_host_kinds(0);
  check_host_kinds(1);
  check_explicit();
  KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
  puts("memory_kinds: OK");
  return 0;
}
