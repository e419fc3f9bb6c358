/* memops.c — explicit copies between every pair of memory kinds (plain host, pinned,
 * registered, device, managed) at offsets into the allocations, synchronous and on a stream;
 * copy_device_to_device; kp_memset and kp_fill of each element size; and the asynchronous
 * forms ordered with kernels on streams. Every result is checked against the host's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_test.h"

__attribute__((kernel)) void add_const(float *a, float c, int n) {
  int i = grid(1);
  if (i < n) a[i] += c;
}

__attribute__((kernel)) void scale(float *a, float f, int n) {
  int i = grid(1);
  if (i < n) a[i] *= f;
}

enum { N = 1000, THREADS = 128, BLOCKS = (N + THREADS - 1) / THREADS };
enum { OFF_SRC = 3, OFF_DST = 7, M = 500 }; /* the copied range, inside both arrays */

typedef enum { HOST, PINNED, REGISTERED, DEVICE, MANAGED, KINDS } kind;
static const char *const kind_names[KINDS] = {"host", "pinned", "registered", "device",
                                              "managed"};

static int on_device(kind k) { return k == DEVICE || k == MANAGED; }

static float *make(kind k) {
  float *p = NULL;
  switch (k) {
  case HOST: p = malloc(N * sizeof *p); break;
  case PINNED: p = pinned_array(float, N); break;
  case REGISTERED:
    p = aligned_alloc(4096, 4096 * ((N * sizeof *p + 4095) / 4096));
    KT_CHECK(p && kp_register(p, N * sizeof *p) == p, "kp_register");
    break;
  case DEVICE: p = device_array(float, N); break;
  case MANAGED: p = managed_array(float, N); break;
  default: break;
  }
  KT_CHECK(p != NULL, "allocating a %s array", kind_names[k]);
  return p;
}

static void release(float *p, kind k) {
  if (k == HOST) free(p);
  else if (k == REGISTERED) kp_unregister(p), free(p);
  else kp_free(p);
}

/* Sets / reads the whole array a of kind k through host memory. */
static void put(float *a, kind k, const float *h) {
  if (on_device(k)) copy_to_device(a, h, N);
  else memcpy(a, h, N * sizeof *h);
}
static void get(float *h, const float *a, kind k) {
  if (on_device(k)) copy_to_host(h, a, N);
  else memcpy(h, a, N * sizeof *h);
}

static void pattern(float *h, int seed) {
  for (int i = 0; i < N; i++) h[i] = (float)(seed * 10000 + i);
}

/* dst[OFF_DST + i] == src[OFF_SRC + i] for i < M, the rest of dst untouched. */
static void check_copied(const float *got, int src_seed, int dst_seed, const char *what) {
  for (int i = 0; i < N; i++) {
    float want = i >= OFF_DST && i < OFF_DST + M ? (float)(src_seed * 10000 + i - OFF_DST + OFF_SRC)
                                                 : (float)(dst_seed * 10000 + i);
    KT_CHECK(got[i] == want, "%s: element %d is %g, expected %g", what, i, got[i], want);
  }
}

/* One copy of M elements from src + OFF_SRC to dst + OFF_DST through the call whose named
 * side is on the device, synchronously or on s; how = 1 uses copy_device_to_device. */
static void copy_pair(kind to, kind from, int async, int how, kp_stream s) {
  float h[N], got[N];
  float *src = make(from), *dst = make(to);
  pattern(h, 1);
  put(src, from, h);
  pattern(h, 2);
  put(dst, to, h);
  float *d = dst + OFF_DST, *f = src + OFF_SRC;
  if (how == 1 && async) copy_device_to_device_async(d, f, M, s);
  else if (how == 1) copy_device_to_device(d, f, M);
  else if (on_device(to) && async) copy_to_device_async(d, f, M, s);
  else if (on_device(to)) copy_to_device(d, f, M);
  else if (async) copy_to_host_async(d, f, M, s);
  else copy_to_host(d, f, M);
  if (async) kp_stream_synchronize(s);
  get(got, dst, to);
  char what[128];
  snprintf(what, sizeof what, "%s%s from %s to %s", how ? "copy_device_to_device" : "copy",
           async ? " on a stream" : "", kind_names[from], kind_names[to]);
  check_copied(got, 1, 2, what);
  release(src, from);
  release(dst, to);
}

static void every_pair(void) {
  kp_stream s = kp_stream_create();
  for (int to = 0; to < KINDS; to++)
    for (int from = 0; from < KINDS; from++) {
      if (!on_device((kind)to) && !on_device((kind)from)) continue; /* no call names host twice */
      for (int async = 0; async < 2; async++) {
        copy_pair((kind)to, (kind)from, async, 0, s);
        if (on_device((kind)to) && on_device((kind)from))
          copy_pair((kind)to, (kind)from, async, 1, s);
      }
    }
  kp_stream_destroy(s);
}

/* kp_memset and kp_fill of 1, 2, 4 and 8-byte elements, at an offset, synchronously and on a
 * stream; the elements around the range keep their values. */
static void fills(void) {
  kp_stream s = kp_stream_create();
  for (int async = 0; async < 2; async++) {
    unsigned char *b = device_array(unsigned char, N), hb[N];
    memset(hb, 7, N);
    copy_to_device(b, hb, N);
    if (async) kp_memset_async(b + 10, 0xab, 100, s), kp_stream_synchronize(s);
    else kp_memset(b + 10, 0xab, 100);
    copy_to_host(hb, b, N);
    for (int i = 0; i < N; i++)
      KT_CHECK(hb[i] == (i >= 10 && i < 110 ? 0xab : 7), "kp_memset%s: byte %d is %d",
               async ? "_async" : "", i, hb[i]);
    kp_free(b);

    short *sh = managed_array(short, N);
    for (int i = 0; i < N; i++) sh[i] = 1;
    if (async) kp_fill_async(sh + 1, -2, N - 2, s), kp_stream_synchronize(s);
    else kp_fill(sh + 1, -2, N - 2);
    for (int i = 0; i < N; i++)
      KT_CHECK(sh[i] == (i == 0 || i == N - 1 ? 1 : -2), "kp_fill short: element %d is %d", i,
               sh[i]);
    kp_free(sh);

    float *f = device_array(float, N), hf[N];
    for (int i = 0; i < N; i++) hf[i] = -1.0f;
    copy_to_device(f, hf, N);
    if (async) kp_fill_async(f, 2.5f, N / 2, s), kp_stream_synchronize(s);
    else kp_fill(f, 2.5f, N / 2);
    copy_to_host(hf, f, N);
    for (int i = 0; i < N; i++)
      KT_CHECK(hf[i] == (i < N / 2 ? 2.5f : -1.0f), "kp_fill float: element %d is %g", i, hf[i]);
    kp_free(f);

    double *dd = device_array(double, N), hd[N];
    for (int i = 0; i < N; i++) hd[i] = 9.0;
    copy_to_device(dd, hd, N);
    if (async) kp_fill_async(dd + 5, 0.0, 10, s), kp_stream_synchronize(s);
    else kp_fill(dd + 5, 0.0, 10);
    copy_to_host(hd, dd, N);
    for (int i = 0; i < N; i++)
      KT_CHECK(hd[i] == (i >= 5 && i < 15 ? 0.0 : 9.0), "kp_fill double: element %d is %g", i,
               hd[i]);
    kp_free(dd);
  }
  kp_stream_destroy(s);
}

/* On one stream: copy in, a kernel, a device-to-device copy of its result, a second kernel
 * (which the copy must not see), a fill over part of the first array, copies out. Each step
 * depends on the one before, so any other order gives other values. */
static void ordered_on_stream(void) {
  kp_stream s = kp_stream_create();
  float *in = pinned_array(float, N), *a_out = pinned_array(float, N),
        *b_out = pinned_array(float, N);
  for (int i = 0; i < N; i++) in[i] = (float)i;
  float *a = device_array(float, N), *b = device_array(float, N);
  copy_to_device_async(a, in, N, s);
  launch(add_const, BLOCKS, THREADS, 0, s)(a, 1.0f, N);
  copy_device_to_device_async(b, a, N, s);
  launch(scale, BLOCKS, THREADS, 0, s)(a, 3.0f, N);
  kp_fill_async(a + 100, -5.0f, 50, s);
  launch(add_const, BLOCKS, THREADS, 0, s)(b, 0.5f, N);
  copy_to_host_async(a_out, a, N, s);
  copy_to_host_async(b_out, b, N, s);
  kp_stream_synchronize(s);
  for (int i = 0; i < N; i++) {
    float wa = i >= 100 && i < 150 ? -5.0f : ((float)i + 1.0f) * 3.0f;
    float wb = (float)i + 1.5f;
    KT_CHECK(a_out[i] == wa, "stream order: a[%d] is %g, expected %g", i, a_out[i], wa);
    KT_CHECK(b_out[i] == wb, "stream order: b[%d] is %g, expected %g", i, b_out[i], wb);
  }
  kp_free(a), kp_free(b), kp_free(in), kp_free(a_out), kp_free(b_out);
  kp_stream_destroy(s);
}

int main(void) {
  kt_start("memops");
  every_pair();
  fills();
  ordered_on_stream();
  printf("memops: all checks passed\n");
  return 0;
}
