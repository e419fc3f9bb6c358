/* registry.c — the modules the plugin's global constructors register.
 *
 * Kept for two questions: "is this function a kernel?" (launch() of a plain function must be
 * an error, not a silent host call) and "which modules exist?" (kp_detect, diagnostics).
 * Modules arrive before main() from constructors and later from dlopen'd libraries, and leave
 * from the matching destructors (a dlclose()d library's descriptors are about to be unmapped),
 * so the tables are changed under a lock. "Is this a kernel?" is asked on every launch and
 * takes no lock (a shared lock's counter is a cache line every launching thread writes): the
 * hash table is published whole, slots are stored atomically and never move within a table,
 * a removed kernel leaves a tombstone (probes go on past it), and a table replaced by a bigger
 * or cleaner one is kept, since a lookup may still be reading it. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"
#include "core/fork.h"
#include "core/launch.h"
#include "core/registry.h"

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;

/* Open-addressing hash from host_fn to kernel descriptor; capacity is a power of two. A table
 * links the one it replaced: lookups that started before the switch may still read those, so
 * they are never freed, and the chain keeps them reachable (LeakSanitizer counts them as
 * live). They are at most as big as the table itself in total when the registry only grows;
 * loading and unloading libraries in a loop adds a retired table every few dozen rounds. */
typedef struct slot_table {
  struct slot_table *retired;
  size_t capacity, live, tombstones; /* changed under g_lock */
  kp_kernel_desc *slots[];
} slot_table;
static _Atomic(slot_table *) g_table; /* written under g_lock, read without it */

/* What a removed kernel leaves in its slot: not empty, so probes go on; no host_fn matches. */
static kp_kernel_desc g_tombstone;

/* Changed (under g_lock) whenever a module goes away: a per-thread memo of a kernel
 * descriptor (transfers.c) holds only while it is the same, since a library loaded later
 * may put another kernel at the address of one unloaded. */
static atomic_ullong g_generation = 1;

unsigned long long kp_registry_generation(void) {
  return atomic_load_explicit(&g_generation, memory_order_acquire);
}

static void store_slot(slot_table *t, size_t i, kp_kernel_desc *k) {
  __atomic_store_n(&t->slots[i], k, __ATOMIC_RELEASE);
}

static void insert_slot(slot_table *t, kp_kernel_desc *k) {
  size_t mask = t->capacity - 1, i = kp_hash_ptr(k->host_fn) & mask, grave = SIZE_MAX;
  for (kp_kernel_desc *s; (s = t->slots[i]); i = (i + 1) & mask) {
    if (s == &g_tombstone) {
      if (grave == SIZE_MAX) grave = i;
    } else if (s->host_fn == k->host_fn) {
      /* the same stub registered twice (a module loaded twice): last one wins */
      store_slot(t, i, k);
      return;
    }
  }
  if (grave != SIZE_MAX) {
    store_slot(t, grave, k);
    t->tombstones--;
  } else {
    store_slot(t, i, k);
  }
  t->live++;
}

/* Makes room for one more kernel: a new table when live kernels and tombstones would fill
 * more than half of this one, twice as big if the live ones alone fill a quarter. */
static int reserve_slot(void) {
  slot_table *old = atomic_load_explicit(&g_table, memory_order_relaxed);
  if (old && (old->live + old->tombstones + 1) * 2 <= old->capacity) return 1;
  size_t capacity = !old ? 64 : (old->live + 1) * 4 > old->capacity ? old->capacity * 2
                                                                     : old->capacity;
  slot_table *t = calloc(1, sizeof *t + capacity * sizeof t->slots[0]);
  if (!t) return 0;
  t->capacity = capacity;
  t->retired = old;
  for (size_t i = 0; old && i < old->capacity; i++)
    if (old->slots[i] && old->slots[i] != &g_tombstone) insert_slot(t, old->slots[i]);
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
    if (!reserve_slot()) ok = 0;
    if (ok) insert_slot(atomic_load_explicit(&g_table, memory_order_relaxed), &module->kernels[i]);
  }
  pthread_rwlock_unlock(&g_lock);
  if (!ok) kp_fail(KP_ERROR_OUT_OF_MEMORY, "registering the kernels of %s: out of memory", source);
}

/* The latest registered kernel other than `gone` (whose module is leaving) with this stub:
 * the one a module registered twice, or a library's copy of a kernel the program has too,
 * leaves in charge once the newer registration goes. g_lock held. */
static kp_kernel_desc *shadowed_by(const kp_kernel_desc *gone) {
  for (size_t m = g_num_modules; m-- > 0;) {
    kp_module_desc *mod = g_modules[m];
    for (uint64_t i = 0; i < mod->num_kernels; i++) {
      kp_kernel_desc *k = &mod->kernels[i];
      if (k != gone && k->host_fn == gone->host_fn && !is_generated(k)) return k;
    }
  }
  return NULL;
}

/* Takes k out of the hash table if its slot holds it, leaving the kernel it shadowed there
 * or a tombstone. g_lock held. */
static void remove_slot(slot_table *t, const kp_kernel_desc *k) {
  size_t mask = t->capacity - 1;
  kp_kernel_desc *s;
  for (size_t i = kp_hash_ptr(k->host_fn) & mask; (s = t->slots[i]); i = (i + 1) & mask) {
    if (s != k) continue;
    kp_kernel_desc *heir = shadowed_by(k);
    store_slot(t, i, heir ? heir : &g_tombstone);
    if (!heir) t->live--, t->tombstones++;
    return;
  }
}

/* fork() (fork.c): a child must not inherit g_lock held by a thread that was registering or
 * unregistering a module (a dlopen or dlclose on another thread): taken before the fork,
 * released in the parent, made anew in the child, whose tables are then consistent. */
void kp_registry_fork(kp_fork_phase phase) {
  if (phase == KP_FORK_PREPARE) pthread_rwlock_wrlock(&g_lock);
  else if (phase == KP_FORK_PARENT) pthread_rwlock_unlock(&g_lock);
  else g_lock = (pthread_rwlock_t)PTHREAD_RWLOCK_INITIALIZER;
}

/* Called from the module's global destructor: at dlclose() of the library it belongs to,
 * or at exit. Everything that points into the module goes, since its memory is about to be
 * unmapped: the registry's entries, the name of the last kernel launched, per-thread memos
 * (through the generation) and the backend's state (loaded GPU code). Nothing is reported:
 * a destructor has no one to report to. */
KP_EXPORT void __kp_unregister_module(kp_module_desc *module) {
  if (!module || module->abi_version != KP_ABI_VERSION) return; /* refused when registered */
  pthread_rwlock_wrlock(&g_lock);
  size_t at = g_num_modules, copies = 0;
  for (size_t m = 0; m < g_num_modules; m++)
    if (g_modules[m] == module) at = m, copies++;
  if (at == g_num_modules) { /* never registered (it failed), or gone already */
    pthread_rwlock_unlock(&g_lock);
    return;
  }
  memmove(&g_modules[at], &g_modules[at + 1], (g_num_modules - at - 1) * sizeof *g_modules);
  g_num_modules--;
  slot_table *t = atomic_load_explicit(&g_table, memory_order_relaxed);
  /* A module registered twice stays registered until its last copy leaves. */
  for (uint64_t i = 0; copies == 1 && t && i < module->num_kernels; i++)
    if (!is_generated(&module->kernels[i])) remove_slot(t, &module->kernels[i]);
  atomic_fetch_add_explicit(&g_generation, 1, memory_order_release);
  pthread_rwlock_unlock(&g_lock);
  if (copies != 1) return;

  for (uint64_t i = 0; i < module->num_kernels; i++)
    kp_forget_launched_kernel(module->kernels[i].name);
  const kp_backend *be = kp_backend_chosen();
  if (be && be->unload_module) be->unload_module(module);
}

kp_kernel_desc *kp_registry_find(const void *host_fn) {
  slot_table *t = atomic_load_explicit(&g_table, memory_order_acquire);
  if (!t || !host_fn) return NULL; /* NULL: the tombstone's host_fn */
  size_t mask = t->capacity - 1;
  kp_kernel_desc *k;
  for (size_t i = kp_hash_ptr(host_fn) & mask; (k = __atomic_load_n(&t->slots[i], __ATOMIC_ACQUIRE));
       i = (i + 1) & mask)
    if (k->host_fn == host_fn) return k;
  return NULL;
}

size_t kp_registry_kernel_count(void) {
  pthread_rwlock_rdlock(&g_lock);
  slot_table *t = atomic_load_explicit(&g_table, memory_order_relaxed);
  size_t n = t ? t->live : 0;
  pthread_rwlock_unlock(&g_lock);
  return n;
}

size_t kp_registry_modules(kp_module_desc **out, size_t max) {
  pthread_rwlock_rdlock(&g_lock);
  size_t n = g_num_modules;
  for (size_t i = 0; i < n && i < max; i++) out[i] = g_modules[i];
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

const kp_constant_desc *kp_registry_find_constant(const void *host, kp_module_desc **module) {
  const kp_constant_desc *found = NULL;
  pthread_rwlock_rdlock(&g_lock);
  for (size_t m = 0; m < g_num_modules && !found; m++) {
    kp_module_desc *mod = g_modules[m];
    for (uint64_t i = 0; i < mod->num_constants && !found; i++)
      if (mod->constants[i].host == host) found = &mod->constants[i], *module = mod;
  }
  pthread_rwlock_unlock(&g_lock);
  return found;
}

/* ---- what a function is ------------------------------------------------------------------- */

/* Both compilers' plugins: clang's, and GCC's (gcc-plugin/, which runs clang's for kernels). */
#define KP_PLUGINS "clang -fplugin=kernplug.so or gcc -fplugin=kernplug-gcc.so"

/* Per kind: its name in messages, how to call one and how to make a function one; the last
 * two are formats of the function's spelling (used as often as they need). */
static const struct {
  const char *noun, *call, *make;
} g_kinds[] = {
    [KP_FUNCTION_KERNEL] = {"a kernel", "launch(%1$s, blocks, threads)(args...)",
                            "mark it __attribute__((kernel)) and compile it with "
                            KP_PLUGINS},
    [KP_FUNCTION_VECTORIZE] = {"a vectorize function", "ufunc(%1$s, n, out, in...)",
                               "mark it __attribute__((vectorize(\"f32(f32)\", ...))) with its "
                               "signatures and compile its file with " KP_PLUGINS},
    [KP_FUNCTION_GUVECTORIZE] = {"a guvectorize function", "gufunc(%1$s, n, args...)",
                                 "mark it __attribute__((guvectorize(\"(n)->()\"))) with its "
                                 "layout and compile its file with " KP_PLUGINS},
    [KP_FUNCTION_REDUCE] = {"a reduce function", "kp_reduce(%1$s, in, n)",
                            "declare it as __attribute__((reduce)) T %1$s(T, T) and compile it "
                            "with " KP_PLUGINS},
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
