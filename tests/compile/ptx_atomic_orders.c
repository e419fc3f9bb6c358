// C11 atomics and fences in device code (LLVM 19 NVPTX selected no fence and only relaxed
// loads and stores): relaxed accesses with membar.sys where the ordering needs it.
#include <kernplug.h>
#include <stdatomic.h>

__attribute__((kernel)) void orders(_Atomic int *flag, int *data, int *out) {
  data[0] = 42;
  atomic_store_explicit(flag, 1, memory_order_release);
  out[0] = atomic_load_explicit(flag, memory_order_acquire);
  atomic_thread_fence(memory_order_seq_cst);
  out[1] = atomic_fetch_add(flag, 2);
  atomic_signal_fence(memory_order_seq_cst);
  out[2] = atomic_load_explicit(flag, memory_order_relaxed);
}
// PTX-LABEL: .visible .entry orders(
// PTX: st.global.{{u32|b32}}
// PTX-NEXT: membar.sys;
// PTX-NOT: membar
// PTX: st.{{volatile|relaxed.sys}}.global.{{u32|b32}}
// PTX-NEXT: ld.{{volatile|relaxed.sys}}.global.{{u32|b32}}
// PTX-NEXT: membar.sys;
// PTX: membar.sys;
// PTX-NEXT: membar.sys;
// PTX-NEXT: atom.global.add.u32
// PTX-NEXT: membar.sys;
// PTX-NOT: membar
// PTX: ret;

__attribute__((kernel)) void sync_builtins(int *lock, int *out) {
  while (__sync_lock_test_and_set(lock, 1)) {
  }
  out[0]++;
  __sync_synchronize();
  __sync_lock_release(lock);
}
// PTX-LABEL: .visible .entry sync_builtins(
// PTX: atom.global.exch.b32
// PTX: membar.sys;
// PTX: st.{{volatile|relaxed.sys}}.global.{{u32|b32}}
