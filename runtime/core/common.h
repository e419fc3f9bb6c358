/* common.h — what every file of libkernplug_rt uses (never installed): the public API and
 * the ABI shared with the plugin, the export and attribute macros, and pointer hashing. */
#ifndef KP_COMMON_H
#define KP_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define KP_NO_SHORT_NAMES /* the runtime uses only kp_ names; `launch` etc. stay free */
#include "kernplug.h"
#include "kp_abi.h"

/* Everything is built with -fvisibility=hidden; public entry points say so explicitly so that
 * the shared library exports the API of kernplug.h and kp_abi.h and nothing else. */
#define KP_EXPORT __attribute__((visibility("default")))

#if defined(__GNUC__) || defined(__clang__)
#define KP_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define KP_NORETURN __attribute__((noreturn))
#else
#define KP_PRINTF(fmt, args)
#define KP_NORETURN
#endif

/* A pointer's bits mixed so that every bit of the address reaches the low bits (the
 * registry's hash table and the launch path's per-thread caches index with them). */
static inline size_t kp_hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

#endif /* KP_COMMON_H */
