/* copies.c — the explicit copies and fills: copy_to_device, copy_to_host,
 * copy_device_to_device, their _async forms on a stream, kp_memset and kp_fill
 * (docs/memory.md, "Explicit transfers" and "Fills").
 *
 * Which transfer a driver needs depends on where both sides live: cuMemcpyHtoD given a device
 * pointer as its host source fails (or reads the wrong memory) on a GPU, while the CPU
 * backend, whose device memory is host memory, would not notice. So each side is classified
 * here, the same way on both backends, before a backend sees the copy:
 *   - the side the call names as device memory (copy_to_device's destination, copy_to_host's
 *     source, both of copy_device_to_device, a fill's target) must be device or managed
 *     memory, or device memory other CUDA code allocated (kp_check_device_range);
 *   - the other side may be anything: an allocation the table knows (device and managed are
 *     device memory; pinned and registered host memory; either way its range is checked),
 *     device memory the backend knows of (cuPointerGetAttribute), or else plain host memory,
 *     which the runtime cannot size.
 * Then host to device, device to host or device to device (the backends' hooks); never host
 * to host, since the named side is device memory (pinned host memory there is an error, as it
 * always was: the program took it for device memory). Overlapping ranges are an error, as
 * they are undefined for the driver's copies. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "core/alloc_table.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/stream.h"

typedef enum { KP_SIDE_HOST, KP_SIDE_DEVICE } kp_side;

/* Which sides a call names as device memory. */
enum { KP_NAMED_DST = 1, KP_NAMED_SRC = 2 };

/* Where p, the side of a copy of `bytes` that the call does not name, lives; an error when p
 * is NULL or a range the runtime knows is too short. */
static kp_error classify(const kp_backend *be, const char *what, const void *p, size_t bytes,
                         kp_side *side) {
  *side = KP_SIDE_HOST;
  if (!p) {
    if (!bytes) return KP_SUCCESS;
    return kp_fail(KP_ERROR_INVALID_VALUE, "%s: the host pointer is NULL (%zu bytes)", what,
                   bytes);
  }
  kp_alloc_info e;
  if (kp_alloc_table_lookup(p, &e)) {
    if (e.kind == KP_MEMORY_DEVICE || e.kind == KP_MEMORY_MANAGED) *side = KP_SIDE_DEVICE;
    return kp_check_alloc_range(what, p, bytes, &e);
  }
  if (kp_check_reachable(be, what, p)) return KP_ERROR_INVALID_VALUE;
  if (be->is_foreign_device_memory && be->is_foreign_device_memory(p)) {
    *side = KP_SIDE_DEVICE;
    return kp_check_foreign_range(be, what, p, bytes);
  }
  return KP_SUCCESS;
}

/* Runs a checked copy, one side of which (at least) is device memory: synchronously, or
 * queued on s when `async`. */
static kp_error transfer(const kp_backend *be, void *dst, kp_side to, const void *src,
                         kp_side from, size_t bytes, int async, kp_stream s, const char *what) {
  if (!bytes) return KP_SUCCESS;
  if (to == KP_SIDE_DEVICE && from == KP_SIDE_DEVICE)
    return async ? be->device_to_device_async(dst, src, bytes, s, what)
                 : be->device_to_device(dst, src, bytes, what);
  if (to == KP_SIDE_DEVICE)
    return async ? be->to_device_async(dst, src, bytes, s, what)
                 : be->to_device(dst, src, bytes, what);
  return async ? be->to_host_async(dst, src, bytes, s, what)
               : be->to_host(dst, src, bytes, what);
}

/* "copy_to_host" or "copy_to_host_async on stream 2", into what. */
/* What every copy and fill does first: the backend, the call's name for messages (with its
 * stream when async) in what, and the stream checked; NULL when any of it failed. */
static const kp_backend *begin_call(char *what, size_t size, const char *call, int async,
                                    kp_stream s) {
  const kp_backend *be = kp_backend_get();
  if (!be) return NULL;
  char label[64];
  if (async) snprintf(what, size, "%s on %s", call, kp_stream_label(s, label, sizeof label));
  else snprintf(what, size, "%s", call);
  if (async && kp_stream_check(s, "%s", what)) return NULL;
  return be;
}

static void copy(const char *call, void *dst, const void *src, size_t bytes, unsigned named,
                 int async, kp_stream s) {
  char what[128];
  const kp_backend *be = begin_call(what, sizeof what, call, async, s);
  if (!be) return;
  kp_side to = KP_SIDE_DEVICE, from = KP_SIDE_DEVICE;
  if ((named & KP_NAMED_DST) && kp_check_device_range(what, dst, bytes)) return;
  if ((named & KP_NAMED_SRC) && kp_check_device_range(what, src, bytes)) return;
  if (!(named & KP_NAMED_DST) && classify(be, what, dst, bytes, &to)) return;
  if (!(named & KP_NAMED_SRC) && classify(be, what, src, bytes, &from)) return;
  uintptr_t d = (uintptr_t)dst, f = (uintptr_t)src;
  if (bytes && d != f && d < f + bytes && f < d + bytes) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "%s: the destination %p and the source %p overlap (%zu bytes each), which a GPU "
            "driver's copy leaves undefined; copy through a temporary array",
            what, dst, src, bytes);
    return;
  }
  if (d == f) return; /* a copy onto itself changes nothing */
  transfer(be, dst, to, src, from, bytes, async, s, what);
}

KP_EXPORT void kp_copy_to_device_bytes(void *device_ptr, const void *host, size_t bytes) {
  copy("copy_to_device", device_ptr, host, bytes, KP_NAMED_DST, 0, NULL);
}

KP_EXPORT void kp_copy_to_host_bytes(void *host, const void *device_ptr, size_t bytes) {
  copy("copy_to_host", host, device_ptr, bytes, KP_NAMED_SRC, 0, NULL);
}

KP_EXPORT void kp_copy_device_to_device_bytes(void *dst, const void *src, size_t bytes) {
  copy("copy_device_to_device", dst, src, bytes, KP_NAMED_DST | KP_NAMED_SRC, 0, NULL);
}

KP_EXPORT void kp_copy_to_device_async_bytes(void *device_ptr, const void *host, size_t bytes,
                                             kp_stream s) {
  copy("copy_to_device_async", device_ptr, host, bytes, KP_NAMED_DST, 1, s);
}

KP_EXPORT void kp_copy_to_host_async_bytes(void *host, const void *device_ptr, size_t bytes,
                                           kp_stream s) {
  copy("copy_to_host_async", host, device_ptr, bytes, KP_NAMED_SRC, 1, s);
}

KP_EXPORT void kp_copy_device_to_device_async_bytes(void *dst, const void *src, size_t bytes,
                                                    kp_stream s) {
  copy("copy_device_to_device_async", dst, src, bytes, KP_NAMED_DST | KP_NAMED_SRC, 1, s);
}

/* ---- fills ------------------------------------------------------------------------------- */

static void fill(const char *call, void *d, const void *value, size_t count, size_t elem_size,
                 int async, kp_stream s) {
  char what[128];
  const kp_backend *be = begin_call(what, sizeof what, call, async, s);
  if (!be) return;
  size_t bytes;
  if (__builtin_mul_overflow(count, elem_size, &bytes)) {
    kp_fail(KP_ERROR_INVALID_VALUE, "%s: %zu elements of %zu bytes do not fit in 64 bits", what,
            count, elem_size);
    return;
  }
  if (!value) {
    kp_fail(KP_ERROR_INVALID_VALUE, "%s: the value pointer is NULL", what);
    return;
  }
  uint32_t pattern = 0;
  size_t unit = elem_size, units = count;
  if (elem_size == 8) { /* two 32-bit fills of the same value, when the halves agree */
    uint32_t half[2];
    memcpy(half, value, sizeof half);
    if (half[0] != half[1]) {
      kp_fail(KP_ERROR_INVALID_VALUE,
              "%s: 8-byte elements can be filled only with a value whose two 4-byte halves are "
              "equal (0, 0.0, -1), as a GPU fills 1, 2 or 4 bytes at a time; fill the array "
              "in a kernel instead",
              what);
      return;
    }
    unit = 4, units = count * 2, pattern = half[0];
  } else if (elem_size == 1 || elem_size == 2 || elem_size == 4) {
    memcpy((char *)&pattern, value, elem_size); /* the low bytes on a little-endian host */
  } else {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "%s: elements of %zu bytes cannot be filled (1, 2, 4 or 8 bytes can); fill the "
            "array in a kernel instead",
            what, elem_size);
    return;
  }
  if ((uintptr_t)d % unit) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "%s: %p is not aligned to its %zu-byte elements (a GPU fills only aligned memory)",
            what, d, elem_size);
    return;
  }
  if (kp_check_device_range(what, d, bytes) || !bytes) return;
  if (async) be->fill_async(d, pattern, unit, units, s, what);
  else be->fill(d, pattern, unit, units, what);
}

KP_EXPORT void kp_memset(void *d, int value, size_t bytes) {
  unsigned char byte = (unsigned char)value;
  fill("kp_memset", d, &byte, bytes, 1, 0, NULL);
}

KP_EXPORT void kp_memset_async(void *d, int value, size_t bytes, kp_stream s) {
  unsigned char byte = (unsigned char)value;
  fill("kp_memset_async", d, &byte, bytes, 1, 1, s);
}

KP_EXPORT void kp_fill_elems(void *d, const void *value, size_t count, size_t elem_size) {
  fill("kp_fill", d, value, count, elem_size, 0, NULL);
}

KP_EXPORT void kp_fill_async_elems(void *d, const void *value, size_t count, size_t elem_size,
                                   kp_stream s) {
  fill("kp_fill_async", d, value, count, elem_size, 1, s);
}
