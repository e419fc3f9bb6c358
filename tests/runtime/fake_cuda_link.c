/* fake_cuda_link.c — the fake driver's JIT linker (cuLinkCreate, cuLinkAddData,
 * cuLinkComplete, cuLinkDestroy), for the runtime's device link (backend/cuda/cuda_link.c).
 *
 * Each input is logged ("cuLinkAddData ptx <name>"); cuLinkComplete checks, as nvlink does,
 * that every `.extern .func` of an input (but vprintf, malloc, free, __assertfail) is defined
 * by a `.visible .func` of some input, and writes "error   : Undefined reference to '<f>'" to
 * the error log otherwise. The linked image is the inputs' text one after another, which the
 * fake's cuModuleLoadDataEx takes as PTX (the first input's .target; the loaded module's
 * first .entry is the first input's). FAKE_CUDA_FAIL=link makes cuLinkComplete fail. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cuda.h"

struct CUlinkState_st {
  char *text; /* the inputs, concatenated, NUL-terminated */
  size_t size;
  char *log;
  size_t log_size;
};

FAKE_EXPORT CUresult cuLinkCreate_v2(unsigned n, CUjit_option *opts, void **vals,
                                     CUlinkState *state) {
  NEED_CONTEXT();
  if (!state) return CUDA_ERROR_INVALID_VALUE;
  struct CUlinkState_st *s = calloc(1, sizeof *s);
  if (!s) return CUDA_ERROR_OUT_OF_MEMORY;
  for (unsigned i = 0; i < n; i++) {
    if (opts[i] == CU_JIT_ERROR_LOG_BUFFER) s->log = vals[i];
    if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) s->log_size = (size_t)(uintptr_t)vals[i];
  }
  fake_log("cuLinkCreate");
  *state = s;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuLinkAddData_v2(CUlinkState s, CUjitInputType type, void *data, size_t size,
                                      const char *name, unsigned n, CUjit_option *opts,
                                      void **vals) {
  (void)n, (void)opts, (void)vals;
  NEED_CONTEXT();
  if (!s || !data) return CUDA_ERROR_INVALID_VALUE;
  fake_log("cuLinkAddData %s %s", type == CU_JIT_INPUT_PTX ? "ptx" : "other", name ? name : "?");
  const char *text = data;
  if (type != CU_JIT_INPUT_PTX || !strstr(text, ".version")) return CUDA_ERROR_INVALID_PTX;
  size_t len = strnlen(text, size);
  char *grown = realloc(s->text, s->size + len + 2);
  if (!grown) return CUDA_ERROR_OUT_OF_MEMORY;
  s->text = grown;
  memcpy(s->text + s->size, text, len);
  s->size += len;
  s->text[s->size++] = '\n';
  s->text[s->size] = '\0';
  return CUDA_SUCCESS;
}

/* Whether text has a line "<linkage> .func [(...)] name". */
static int declares(const char *text, const char *linkage, const char *name, size_t len) {
  for (const char *p = strstr(text, linkage); p; p = strstr(p + 1, linkage)) {
    const char *s = p + strlen(linkage);
    s += strspn(s, " \t");
    if (strncmp(s, ".func", 5) != 0) continue;
    s += 5 + strspn(s + 5, " \t");
    if (*s == '(') s = strchr(s, ')') ? strchr(s, ')') + 1 : s;
    s += strspn(s, " \t");
    if (strncmp(s, name, len) == 0 && strchr("( \t\n", s[len])) return 1;
  }
  return 0;
}

FAKE_EXPORT CUresult cuLinkComplete(CUlinkState s, void **image, size_t *size) {
  NEED_CONTEXT();
  if (!s || !s->text || !image || !size) return CUDA_ERROR_INVALID_VALUE;
  if (fake_failing("link")) {
    if (s->log && s->log_size) snprintf(s->log, s->log_size, "nvlink fatal   : injected failure");
    fake_log("cuLinkComplete (injected failure)");
    return CUDA_ERROR_UNKNOWN;
  }
  for (const char *p = strstr(s->text, ".extern"); p; p = strstr(p + 1, ".extern")) {
    const char *f = p + 7 + strspn(p + 7, " \t");
    if (strncmp(f, ".func", 5) != 0) continue;
    f += 5 + strspn(f + 5, " \t");
    if (*f == '(') f = strchr(f, ')') ? strchr(f, ')') + 1 : f;
    f += strspn(f, " \t");
    size_t len = strcspn(f, "( \t\n");
    static const char *const provided[] = {"vprintf", "malloc", "free", "__assertfail"};
    int ok = 0;
    for (size_t i = 0; i < sizeof provided / sizeof *provided; i++)
      ok |= strlen(provided[i]) == len && strncmp(f, provided[i], len) == 0;
    if (ok || declares(s->text, ".visible", f, len) || declares(s->text, ".weak", f, len)) continue;
    if (s->log && s->log_size)
      snprintf(s->log, s->log_size, "error   : Undefined reference to '%.*s'", (int)len, f);
    fake_log("cuLinkComplete undefined %.*s", (int)len, f);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  fake_log("cuLinkComplete %zu bytes", s->size);
  *image = s->text;
  *size = s->size + 1;
  return CUDA_SUCCESS;
}

/* Linked images outlive their link state: a module loaded from one reads it (the fake's
 * modules keep a pointer to their image where the driver keeps a copy). Kept reachable. */
struct kept_image {
  struct kept_image *next;
  char *text;
};
static struct kept_image *g_kept;

FAKE_EXPORT CUresult cuLinkDestroy(CUlinkState s) {
  if (!s) return CUDA_ERROR_INVALID_HANDLE;
  fake_log("cuLinkDestroy");
  struct kept_image *k = malloc(sizeof *k);
  if (k) {
    pthread_mutex_lock(&fake_lock);
    *k = (struct kept_image){g_kept, s->text};
    g_kept = k;
    pthread_mutex_unlock(&fake_lock);
  } else {
    free(s->text);
  }
  free(s);
  return CUDA_SUCCESS;
}
