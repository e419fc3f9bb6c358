/* registry.c — the modules the plugin's global constructors register.
 *
 * Kept for two questions: "is this function a kernel?" (launch() of a plain function must be
 * an error, not a silent host call) and "which modules exist?" (kp_detect, diagnostics).
 * Modules arrive before main() from constructors and later from dlopen'd libraries, so the
 * tables are changed under a lock. "Is this a kernel?" is asked on every launch and takes no
 * lock (a shared lock's counter is a cache line every launching thread writes): the hash
 * table is published whole, slots are stored atomically and never move within a table, and a
 * table outgrown by registrations is kept, since a lookup may still be reading it. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"
#include "registry.h"

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;

/* Open-addressing hash from host_fn to kernel descriptor; capacity is a power of two. */
typedef struct slot_table {
  size_t capacity;
  kp_kernel_desc *slots[];
} slot_table;
static _Atomic(slot_table *) g_table; /* written under g_lock, read without it */
static size_t g_count;

static void insert_slot(slot_table *t, kp_kernel_desc *k) {
  size_t mask = t->capacity - 1, i = kp_hash_ptr(k->host_fn) & mask;
  while (t->slots[i] && t->slots[i]->host_fn != k->host_fn) i = (i + 1) & mask;
  /* the same stub registered twice (a module loaded twice): last one wins */
  __atomic_store_n(&t->slots[i], k, __ATOMIC_RELEASE);
}

static int grow(void) {
  slot_table *old = atomic_load_explicit(&g_table, memory_order_relaxed);
  size_t capacity = old ? old->capacity * 2 : 64;
  slot_table *t = calloc(1, sizeof *t + capacity * sizeof t->slots[0]);
  if (!t) return 0;
  t->capacity = capacity;
  for (size_t i = 0; old && i < old->capacity; i++)
    if (old->slots[i]) insert_slot(t, old->slots[i]);
  atomic_store_explicit(&g_table, t, memory_order_release); /* `old` stays: see above */
  return 1;
}

/* Kernels the plugin generates from a vectorize, guvectorize or reduce function: several
 * share one host_fn (the user's function), which is not a stub and cannot be launch()ed. */
static int is_generated(const kp_kernel_desc *k) {
  return (k->flags & (KP_KERNEL_VECTORIZE | KP_KERNEL_GUVECTORIZE | KP_KERNEL_REDUCE)) != 0;
}

static kp_module_desc **g_modules;
static size_t g_num_modules, g_modules_capacity;

KP_EXPORT void __kp_register_module(kp_module_desc *module) {
  if (!module) {
    kp_fail(KP_ERROR_INTERNAL, "__kp_register_module: NULL module");
    return;
  }
  const char *source = module->source ? module->source : "(unknown source)";
  if (module->abi_version != KP_ABI_VERSION) {
    kp_fail(KP_ERROR_INTERNAL,
            "%s was compiled by a kernplug plugin with ABI version %llu, but this "
            "libkernplug_rt speaks version %d: rebuild it with the matching plugin",
            source, (unsigned long long)module->abi_version, KP_ABI_VERSION);
    return;
  }
  for (uint64_t i = 0; i < module->num_kernels; i++) {
    kp_kernel_desc *k = &module->kernels[i];
    if (!k->name || !k->host_fn || !k->cpu_entry) {
      kp_fail(KP_ERROR_INTERNAL, "%s: kernel descriptor %llu has no name, stub or CPU entry",
              source, (unsigned long long)i);
      return;
    }
    if (!k->module) k->module = module;
  }

  pthread_rwlock_wrlock(&g_lock);
  int ok = 1;
  if (g_num_modules == g_modules_capacity) {
    size_t cap = g_modules_capacity ? g_modules_capacity * 2 : 16;
    kp_module_desc **m = realloc(g_modules, cap * sizeof *m);
    if (m) {
      g_modules = m;
      g_modules_capacity = cap;
    } else {
      ok = 0;
    }
  }
  if (ok) g_modules[g_num_modules++] = module;
  for (uint64_t i = 0; ok && i < module->num_kernels; i++) {
    if (is_generated(&module->kernels[i])) continue; /* not launch()-able; see find_all */
    slot_table *t = atomic_load_explicit(&g_table, memory_order_relaxed);
    if ((!t || (g_count + 1) * 2 > t->capacity) && !grow()) ok = 0;
    if (ok) {
      insert_slot(atomic_load_explicit(&g_table, memory_order_relaxed), &module->kernels[i]);
      g_count++;
    }
  }
  pthread_rwlock_unlock(&g_lock);
  if (!ok) kp_fail(KP_ERROR_OUT_OF_MEMORY, "registering the kernels of %s: out of memory", source);
}

kp_kernel_desc *kp_registry_find(const void *host_fn) {
  slot_table *t = atomic_load_explicit(&g_table, memory_order_acquire);
  if (!t) return NULL;
  size_t mask = t->capacity - 1;
  kp_kernel_desc *k;
  for (size_t i = kp_hash_ptr(host_fn) & mask; (k = __atomic_load_n(&t->slots[i], __ATOMIC_ACQUIRE));
       i = (i + 1) & mask)
    if (k->host_fn == host_fn) return k;
  return NULL;
}

size_t kp_registry_kernel_count(void) {
  pthread_rwlock_rdlock(&g_lock);
  size_t n = g_count;
  pthread_rwlock_unlock(&g_lock);
  return n;
}

/* A scan of the modules: programs have tens of kernels, and the calls that need this
 * (ufunc, gufunc, reduce) do far more work than the scan. */
size_t kp_registry_find_all(const void *f, uint64_t flag, kp_kernel_desc **out, size_t max) {
  size_t found = 0;
  pthread_rwlock_rdlock(&g_lock);
  for (size_t m = 0; m < g_num_modules; m++) {
    kp_module_desc *mod = g_modules[m];
    for (uint64_t i = 0; i < mod->num_kernels; i++) {
      kp_kernel_desc *k = &mod->kernels[i];
      if (k->host_fn != f || (k->flags & flag) != flag) continue;
      if (found < max) out[found] = k;
      found++;
    }
  }
  pthread_rwlock_unlock(&g_lock);
  return found;
}

/* ---- what a function is ------------------------------------------------------------------- */

/* Per kind: its name in messages, how to call one and how to make a function one; the last
 * two are formats of the function's spelling (used as often as they need). */
static const struct {
  const char *noun, *call, *make;
} g_kinds[] = {
    [KP_FUNCTION_KERNEL] = {"a kernel", "launch(%1$s, blocks, threads)(args...)",
                            "mark it __attribute__((kernel)) and compile it with "
                            "-fplugin=kernplug.so"},
    [KP_FUNCTION_VECTORIZE] = {"a vectorize function", "ufunc(%1$s, n, out, in...)",
                               "mark it __attribute__((vectorize(\"f32(f32)\", ...))) with its "
                               "signatures and compile its file with -fplugin=kernplug.so"},
    [KP_FUNCTION_GUVECTORIZE] = {"a guvectorize function", "gufunc(%1$s, n, args...)",
                                 "mark it __attribute__((guvectorize(\"(n)->()\"))) with its "
                                 "layout and compile its file with -fplugin=kernplug.so"},
    [KP_FUNCTION_REDUCE] = {"a reduce function", "kp_reduce(%1$s, in, n)",
                            "declare it as __attribute__((reduce)) T %1$s(T, T) and compile it "
                            "with -fplugin=kernplug.so"},
};

kp_function_kind kp_registry_kind_of(const void *f) {
  if (!f) return KP_FUNCTION_PLAIN;
  if (kp_registry_find(f)) return KP_FUNCTION_KERNEL;
  /* Generated kernels share their host_fn, the user's function. */
  static const struct {
    uint64_t flag;
    kp_function_kind kind;
  } generated[] = {{KP_KERNEL_VECTORIZE, KP_FUNCTION_VECTORIZE},
                   {KP_KERNEL_GUVECTORIZE, KP_FUNCTION_GUVECTORIZE},
                   {KP_KERNEL_REDUCE, KP_FUNCTION_REDUCE}};
  kp_kernel_desc *k;
  for (size_t i = 0; i < sizeof generated / sizeof generated[0]; i++)
    if (kp_registry_find_all(f, generated[i].flag, &k, 1)) return generated[i].kind;
  return KP_FUNCTION_PLAIN;
}

kp_error kp_registry_wrong_kind(const char *call, const void *f, const char *fx,
                                kp_function_kind wanted) {
  kp_function_kind is = kp_registry_kind_of(f);
  char how[512];
  if (is == KP_FUNCTION_PLAIN || is == wanted) {
    snprintf(how, sizeof how, g_kinds[wanted].make, fx);
    return kp_fail(KP_ERROR_INVALID_VALUE, "%s(%s, ...): '%s' is not %s: %s", call, fx, fx,
                   g_kinds[wanted].noun, how);
  }
  snprintf(how, sizeof how, g_kinds[is].call, fx);
  return kp_fail(KP_ERROR_INVALID_VALUE, "%s(%s, ...): '%s' is %s, not %s: call it with %s", call,
                 fx, fx, g_kinds[is].noun, g_kinds[wanted].noun, how);
}
