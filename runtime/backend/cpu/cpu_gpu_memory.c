/* cpu_gpu_memory.c — a GPU's memory in a process whose kernels run on the CPU backend
 * (KP_BACKEND=cpu on a machine with a GPU, in a program that also calls cudaMalloc or a CUDA
 * library): the CPU cannot read it, so launch, ufunc, gufunc, kp_reduce and the copies refuse
 * such a pointer saying what it is, instead of taking it for host memory and faulting.
 *
 * Only a driver the process has loaded already (its other CUDA code did) is asked: the CPU
 * backend never loads or starts one itself. The question comes for every host array a ufunc
 * is given, so it stays cheap without a driver: the loader's count of objects ever added
 * (dl_iterate_phdr's dlpi_adds) is compared with the count at the last miss, and only a change
 * looks for libcuda.so.1 again. Once found, the driver is kept (a reference that is never
 * dropped; nothing unloads a CUDA driver). The values are cuda.h's (ABI): this backend does
 * not include the CUDA backend's headers. dl_iterate_phdr needs _GNU_SOURCE, which the
 * runtime's build defines. In a child of fork() the answer is always no, without asking: CUDA
 * cannot run there, and the child may have inherited the loader's locks held by another
 * thread of the parent (a dlopen in flight), on which dl_iterate_phdr would hang. */
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/cpu/cpu_backend.h"

enum {
  CPU_CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
  CPU_CU_MEMORYTYPE_DEVICE = 2,
  CPU_CU_MEMORYTYPE_UNIFIED = 4
};
typedef int (*pointer_get_attribute_fn)(void *data, int attribute, unsigned long long ptr);

static pointer_get_attribute_fn g_get; /* atomic: the loaded driver's, once found */
static int g_fork_child;               /* set in a child of fork(), before its threads start */
static unsigned long long g_adds_at_miss = ~0ull; /* atomic: dlpi_adds when last not found */

static int read_adds(struct dl_phdr_info *info, size_t size, void *out) {
  if (size >= offsetof(struct dl_phdr_info, dlpi_adds) + sizeof info->dlpi_adds)
    *(unsigned long long *)out = info->dlpi_adds;
  return 1; /* the first object says it */
}

static pointer_get_attribute_fn loaded_driver(void) {
  pointer_get_attribute_fn get = __atomic_load_n(&g_get, __ATOMIC_ACQUIRE);
  if (get) return get;
  unsigned long long adds = ~0ull;
  dl_iterate_phdr(read_adds, &adds);
  if (adds != ~0ull && adds == __atomic_load_n(&g_adds_at_miss, __ATOMIC_ACQUIRE)) return NULL;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (lib) get = (pointer_get_attribute_fn)(uintptr_t)dlsym(lib, "cuPointerGetAttribute");
  if (!get) {
    if (lib) dlclose(lib);
    __atomic_store_n(&g_adds_at_miss, adds, __ATOMIC_RELEASE);
    return NULL;
  }
  __atomic_store_n(&g_get, get, __ATOMIC_RELEASE); /* lib's reference is kept */
  return get;
}

void kp_cpu_gpu_memory_after_fork_child(void) { g_fork_child = 1; }

int kp_cpu_is_gpu_memory(const void *p) {
  if (g_fork_child) return 0;
  pointer_get_attribute_fn get = loaded_driver();
  unsigned type = 0;
  /* Fails (no context on this thread, memory the driver never saw) for anything else. */
  return get && get(&type, CPU_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (uintptr_t)p) == 0 &&
         (type == CPU_CU_MEMORYTYPE_DEVICE || type == CPU_CU_MEMORYTYPE_UNIFIED);
}
