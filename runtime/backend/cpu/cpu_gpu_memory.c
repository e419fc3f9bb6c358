/* cpu_gpu_memory.c — a GPU's memory in a process whose kernels run on the CPU backend
 * (KP_BACKEND=cpu on a machine with a GPU, in a program that also calls cudaMalloc or a CUDA
 * library): the CPU cannot read it, so launch, ufunc, gufunc, kp_reduce and the copies refuse
 * such a pointer saying what it is, instead of taking it for host memory and faulting.
 *
 * Only a driver the process has loaded already (its other CUDA code did) is asked: the CPU
 * backend never loads or starts one itself. The values are cuda.h's (ABI): this backend does
 * not include the CUDA backend's headers. */
#include <dlfcn.h>
#include <stdint.h>

#include "backend/cpu/cpu_backend.h"

enum {
  CPU_CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
  CPU_CU_MEMORYTYPE_DEVICE = 2,
  CPU_CU_MEMORYTYPE_UNIFIED = 4
};
typedef int (*pointer_get_attribute_fn)(void *data, int attribute, unsigned long long ptr);

int kp_cpu_is_gpu_memory(const void *p) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return 0; /* no CUDA in the process: no GPU memory either */
  pointer_get_attribute_fn get =
      (pointer_get_attribute_fn)(uintptr_t)dlsym(lib, "cuPointerGetAttribute");
  unsigned type = 0;
  /* Fails (no context on this thread, memory the driver never saw) for anything else. */
  int gpu = get && get(&type, CPU_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (uintptr_t)p) == 0 &&
            (type == CPU_CU_MEMORYTYPE_DEVICE || type == CPU_CU_MEMORYTYPE_UNIFIED);
  dlclose(lib);
  return gpu;
}
