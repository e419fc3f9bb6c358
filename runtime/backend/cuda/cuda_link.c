/* cuda_link.c — device code across files (CUDA's -rdc, numba's link=).
 *
 * A kernel may call a `device` function that another file defines. The plugin leaves such a
 * call as an `.extern .func` in the caller's PTX and keeps every non-static `device`
 * function of a file `.visible` in its PTX. When a module whose PTX imports functions is
 * loaded, its PTX is linked here, through the driver's JIT linker (cuLinkCreate,
 * cuLinkAddData, cuLinkComplete), with the PTX of the registered modules that define them,
 * found by name, and with theirs in turn: whatever linked the host program (kpcc, plain
 * clang, dlopen) brought the defining files' constructors, and so their modules, along.
 * A function no registered module defines is an error naming it, before the driver runs.
 * PTX libraries (nvcc -rdc -ptx, linked by kpcc) are modules without kernels
 * (__kp_register_ptx_library in core/ptx_library.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/cuda_link.h"
#include "core/registry.h"

/* Functions the driver itself provides to every module (printf, malloc, assert). */
static int driver_provided(const char *name, size_t len) {
  static const char *const names[] = {"vprintf", "malloc", "free", "__assertfail"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0) return 1;
  return 0;
}

static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}

/* The next function declared with `linkage` (".extern", ".visible", ".weak") at the start of
 * a line of PTX at or after *p: its name's start and length; *p moves past it. 0 at the end.
 * The forms: `.extern .func  (.param .b32 func_retval0) name(` and `.visible .func name(`. */
static int next_function(const char **p, const char *linkage, const char **name, size_t *len) {
  size_t llen = strlen(linkage);
  for (const char *s = *p; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL) {
    while (*s == ' ' || *s == '\t') s++;
    if (strncmp(s, linkage, llen) != 0 || (s[llen] != ' ' && s[llen] != '\t')) continue;
    s += llen;
    while (*s == ' ' || *s == '\t') s++;
    if (strncmp(s, ".func", 5) != 0 || ident_char(s[5])) continue;
    s += 5;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '(') { /* the return value's parameter */
      const char *close = strchr(s, ')');
      if (!close) return 0;
      s = close + 1;
      while (*s == ' ' || *s == '\t') s++;
    }
    const char *start = s;
    while (ident_char(*s)) s++;
    if (s == start) continue;
    *name = start;
    *len = (size_t)(s - start);
    *p = s;
    return 1;
  }
  return 0;
}

/* Whether the PTX defines (.visible or .weak) the function name[0..len). */
static int defines(const char *ptx, const char *name, size_t len) {
  for (const char *const *l = (const char *const[]){".visible", ".weak", NULL}; *l; l++) {
    const char *p = ptx, *n;
    size_t nl;
    while (next_function(&p, *l, &n, &nl))
      if (nl == len && memcmp(n, name, len) == 0) return 1;
  }
  return 0;
}

int kp_ptx_has_imports(const char *ptx) {
  const char *p = ptx, *n;
  size_t len;
  while (next_function(&p, ".extern", &n, &len))
    if (!driver_provided(n, len)) return 1;
  return 0;
}

/* The newest PTX of m the device can JIT (not newer than its arch), or NULL. */
static const kp_image_desc *best_ptx(const kp_module_desc *m, int sm) {
  const kp_image_desc *best = NULL;
  for (uint64_t i = 0; i < m->num_images; i++) {
    const kp_image_desc *im = &m->images[i];
    if (im->kind == KP_IMAGE_PTX && (int)im->sm <= sm && (!best || im->sm > best->sm)) best = im;
  }
  return best;
}

/* The inputs of one link: the module being loaded first, then each module that defines a
 * function an earlier input imports. */
typedef struct link_inputs {
  const kp_module_desc **modules;
  const char **ptx;
  size_t count;
} link_inputs;

static const char *source_of(const kp_module_desc *m) { return m->source ? m->source : "?"; }

/* Adds the modules that define what inputs import, transitively; on a function nobody
 * defines, reports it (naming the kernel, the file that calls it and how to fix it). */
static kp_error resolve(const kp_kernel_desc *k, int sm, kp_module_desc **all, size_t n_all,
                        link_inputs *in) {
  for (size_t i = 0; i < in->count; i++) {
    const char *p = in->ptx[i], *name;
    size_t len;
    while (next_function(&p, ".extern", &name, &len)) {
      if (driver_provided(name, len)) continue;
      int found = 0;
      for (size_t j = 0; j < in->count && !found; j++) found = defines(in->ptx[j], name, len);
      for (size_t m = 0; m < n_all && !found; m++) {
        const kp_image_desc *im = best_ptx(all[m], sm);
        int used = 0;
        for (size_t j = 0; j < in->count; j++) used |= in->modules[j] == all[m];
        if (used || !im || !defines(im->data, name, len)) continue;
        in->modules[in->count] = all[m];
        in->ptx[in->count++] = im->data;
        found = 1;
      }
      if (!found)
        return kp_fail(KP_ERROR_LAUNCH,
                       "launch(%s, ...): the device code of %s calls the device function "
                       "'%.*s', which no file linked into the program defines for the GPU: "
                       "compile the file that defines it with kernplug (kpcc -c, or clang "
                       "-fplugin=kernplug.so) with `device` on its definition, or link the "
                       "PTX that defines it (kpcc app.o lib.ptx); see docs/compiling.md",
                       k->name, source_of(in->modules[i]), (int)len, name);
    }
  }
  return KP_SUCCESS;
}

/* Runs the driver's linker over the inputs and loads the result. */
static kp_error link_and_load(const kp_kernel_desc *k, const link_inputs *in, CUmodule *out) {
  char log[8192];
  log[0] = '\0';
  CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[2] = {log, (void *)(uintptr_t)sizeof log};
  CUlinkState state = NULL;
  CUresult r = kp_cu.cuLinkCreate(2, opts, vals, &state);
  const char *call = "cuLinkCreate";
  for (size_t i = 0; r == CUDA_SUCCESS && i < in->count; i++) {
    call = "cuLinkAddData";
    r = kp_cu.cuLinkAddData(state, CU_JIT_INPUT_PTX, (void *)in->ptx[i], strlen(in->ptx[i]) + 1,
                            source_of(in->modules[i]), 0, NULL, NULL);
  }
  void *image = NULL;
  size_t size = 0;
  if (r == CUDA_SUCCESS) {
    call = "cuLinkComplete";
    r = kp_cu.cuLinkComplete(state, &image, &size);
  }
  if (r == CUDA_SUCCESS) {
    call = "cuModuleLoadDataEx";
    r = kp_cu.cuModuleLoadDataEx(out, image, 0, NULL, NULL); /* before the state owns it no more */
  }
  if (state) kp_cu.cuLinkDestroy(state);
  if (r == CUDA_SUCCESS) return KP_SUCCESS;
  log[sizeof log - 1] = '\0';
  char files[512] = "";
  for (size_t i = 1; i < in->count; i++) {
    size_t used = strlen(files);
    snprintf(files + used, sizeof files - used, "%s%s", i > 1 ? ", " : "", source_of(in->modules[i]));
  }
  return kp_cuda_fail(r, KP_ERROR_LAUNCH, call,
                      "launch(%s, ...): linking the device code of %s with that of %s for %s%s%s",
                      k->name, source_of(in->modules[0]), files, kp_cuda_owner,
                      log[0] ? " (JIT log: " : "", log[0] ? log : "");
}

kp_error kp_cuda_load_linked(const kp_kernel_desc *k, const char *ptx, int sm, CUmodule *out) {
  size_t n_all = kp_registry_modules(NULL, 0);
  kp_module_desc **all = calloc(n_all + 1, sizeof *all);
  link_inputs in = {calloc(n_all + 1, sizeof *in.modules), calloc(n_all + 1, sizeof *in.ptx), 0};
  kp_error err = KP_SUCCESS;
  if (!all || !in.modules || !in.ptx) {
    err = kp_fail(KP_ERROR_OUT_OF_MEMORY, "launch(%s, ...): out of host memory", k->name);
  } else {
    size_t now = kp_registry_modules(all, n_all); /* a library may have come or gone since */
    if (now < n_all) n_all = now;
    in.modules[0] = k->module;
    in.ptx[0] = ptx;
    in.count = 1;
    for (size_t m = 0; m < n_all; m++) /* at most n_all + 1 inputs: the arrays' size */
      if (all[m] == k->module) all[m] = all[--n_all], m--;
    err = resolve(k, sm, all, n_all, &in);
    if (!err) err = link_and_load(k, &in, out);
  }
  free(all);
  free(in.modules);
  free(in.ptx);
  return err;
}
