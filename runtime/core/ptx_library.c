/* ptx_library.c — PTX that another compiler made (nvcc -rdc -ptx), linked into a program so
 * that kernels can call its device functions (docs/compiling.md, "PTX from nvcc").
 *
 * kpcc turns each .ptx input into a small object whose constructor calls
 * __kp_register_ptx_library with the text (and whose destructor unregisters it). It becomes
 * a registered module without kernels, holding one PTX image, which the CUDA backend's
 * device link (backend/cuda/cuda_link.c) finds by the functions it defines. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* The arch of `.target sm_XX` (75 when absent: the oldest the runtime accepts). */
static uint64_t ptx_target(const char *ptx) {
  const char *t = strstr(ptx, ".target");
  if (!t) return 75;
  t += strlen(".target");
  while (*t == ' ' || *t == '\t') t++;
  return strncmp(t, "sm_", 3) == 0 ? strtoull(t + 3, NULL, 10) : 75;
}

KP_EXPORT void *__kp_register_ptx_library(const char *name, const char *ptx) {
  kp_module_desc *m = calloc(1, sizeof *m);
  kp_image_desc *im = calloc(1, sizeof *im);
  if (!m || !im || !ptx) {
    free(m);
    free(im);
    kp_fail(ptx ? KP_ERROR_OUT_OF_MEMORY : KP_ERROR_INTERNAL,
            "registering the PTX library %s: %s", name ? name : "?",
            ptx ? "out of memory" : "no PTX");
    return NULL;
  }
  im->kind = KP_IMAGE_PTX;
  im->sm = ptx_target(ptx);
  im->data = ptx;
  im->size = strlen(ptx) + 1;
  m->abi_version = KP_ABI_VERSION;
  m->source = name;
  m->num_images = 1;
  m->images = im;
  __kp_register_module(m);
  return m;
}

KP_EXPORT void __kp_unregister_ptx_library(void *library) {
  kp_module_desc *m = library;
  if (!m) return;
  __kp_unregister_module(m);
  free((void *)m->images);
  free(m);
}
