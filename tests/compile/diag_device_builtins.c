// Builtins, atomics and conversions the GPU cannot run (LLVM 19 NVPTX "Cannot select" or a
// missing compiler-rt/libatomic call before), and variadic device functions: located errors.
#include <kernplug.h>
#include <alloca.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>

__attribute__((kernel)) void jumps(int *out, void **jb) {
  if (__builtin_setjmp(jb) == 0) {
    // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:7: error: '__builtin_setjmp' cannot be used in device code: non-local jumps are not supported on the GPU
    out[0] = 1;
    __builtin_longjmp(jb, 1);
    // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:5: error: '__builtin_longjmp' cannot be used in device code: non-local jumps are not supported on the GPU
  }
  jmp_buf buf;
  out[1] = setjmp(buf);
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:12: error: '_setjmp' cannot be used in device code: non-local jumps
}

__attribute__((kernel)) void builtins(long *out, int n) {
  char *p = alloca(n);
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:13: error: '__builtin_alloca' cannot be used in device code: GPU threads have no dynamic stack
  out[0] = p[0];
  __builtin_set_flt_rounds(0);
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:3: error: '__builtin_set_flt_rounds' cannot be used in device code
  out[1] = (long)__builtin_thread_pointer();
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:18: error: '__builtin_thread_pointer' cannot be used in device code
  out[2] = (long)__builtin_canonicalize((double)n);
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:18: error: '__builtin_canonicalize' cannot be used in device code
  __builtin___clear_cache((char *)out, (char *)out + 8);
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:3: error: '__builtin___clear_cache' cannot be used in device code
  out[3] = __builtin_cpu_supports("avx2");
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:12: error: '__builtin_cpu_supports' cannot be used in device code: it asks about the host's x86 processor
}

__attribute__((kernel)) void wide_atomics(__int128 *q, _Atomic __int128 *aq, long *out) {
  out[0] = __sync_fetch_and_add(q, 1);
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:12: error: atomic operations on '__int128' (16 bytes) are not supported in device code; the GPU has atomics of 1, 2, 4 and 8 bytes
  out[1] = __atomic_load_n(q, __ATOMIC_RELAXED);
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:12: error: atomic operations on '__int128' (16 bytes)
  out[2] = *aq;
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:12: error: atomic operations on '__int128' (16 bytes)
  out[3] = __atomic_is_lock_free(16, 0);
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:12: error: '__atomic_is_lock_free' must have a constant answer in device code
  out[4] = __atomic_is_lock_free(8, 0) + __sync_fetch_and_add(out, 1); // fine
}

__attribute__((kernel)) void wide_conversions(__int128 *q, double *d) {
  d[0] = (double)q[0];
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:10: error: conversion from '__int128' to 'double' is not supported in device code; convert through a 64-bit integer
  q[1] = d[1];
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:10: error: conversion from 'double' to '__int128' is not supported in device code
  q[2] = q[0] / q[1] + (long)d[2]; // 128-bit division and 64-bit conversions are fine
}

__attribute__((device)) static int sum(int n, ...) {
  // DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:36: error: variadic function 'sum' is not supported in device code; pass the values in an array or a struct
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}

__attribute__((device)) static int first(va_list ap) { return va_arg(ap, int); }
// DIAG-DAG: diag_device_builtins.c:[[@LINE-1]]:63: error: va_arg is not supported in device code

__attribute__((kernel)) void variadic(int *out, va_list *ap) {
  out[0] = sum(2, out[1], out[2]);
  out[1] = first(*ap);
}
// DIAG-NOT: __builtin_va_end
