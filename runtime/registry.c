/* registry.c — the modules the plugin's global constructors register.
 *
 * Kept for two questions: "is this function a kernel?" (launch() of a plain function must be
 * an error, not a silent host call) and "which modules exist?" (kp_detect, diagnostics).
 * Modules arrive before main() from constructors and later from dlopen'd libraries, so the
 * tables are guarded by a read-write lock; lookups take the read side only. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"
#include "registry.h"

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;

/* Open-addressing hash from host_fn to kernel descriptor; capacity is a power of two. */
static kp_kernel_desc **g_slots;
static size_t g_capacity, g_count;

static size_t hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

static void insert_slot(kp_kernel_desc **slots, size_t capacity, kp_kernel_desc *k) {
  size_t i = hash_ptr(k->host_fn) & (capacity - 1);
  while (slots[i] && slots[i]->host_fn != k->host_fn) i = (i + 1) & (capacity - 1);
  slots[i] = k; /* the same stub registered twice (a module loaded twice): last one wins */
}

static int grow(void) {
  size_t capacity = g_capacity ? g_capacity * 2 : 64;
  kp_kernel_desc **slots = calloc(capacity, sizeof *slots);
  if (!slots) return 0;
  for (size_t i = 0; i < g_capacity; i++)
    if (g_slots[i]) insert_slot(slots, capacity, g_slots[i]);
  free(g_slots);
  g_slots = slots;
  g_capacity = capacity;
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
    if ((g_count + 1) * 2 > g_capacity && !grow()) ok = 0;
    if (ok) {
      insert_slot(g_slots, g_capacity, &module->kernels[i]);
      g_count++;
    }
  }
  pthread_rwlock_unlock(&g_lock);
  if (!ok) kp_fail(KP_ERROR_OUT_OF_MEMORY, "registering the kernels of %s: out of memory", source);
}

kp_kernel_desc *kp_registry_find(const void *host_fn) {
  kp_kernel_desc *found = NULL;
  pthread_rwlock_rdlock(&g_lock);
  if (g_capacity) {
    size_t i = hash_ptr(host_fn) & (g_capacity - 1);
    while (g_slots[i]) {
      if (g_slots[i]->host_fn == host_fn) {
        found = g_slots[i];
        break;
      }
      i = (i + 1) & (g_capacity - 1);
    }
  }
  pthread_rwlock_unlock(&g_lock);
  return found;
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
