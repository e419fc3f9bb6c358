/* constant.c — kp_copy_to_constant(): the file-scope `constant` variables of the registered
 * modules (kp_module_desc.constants). The host variable is the CPU backend's copy and the
 * master of the GPU copies: a copy waits for the device's queued work (kernels may be
 * reading the variable), writes the host variable, then lets the backend update the copies
 * it has loaded (the CUDA backend uploads the whole variable when it loads a module). */
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"
#include "core/registry.h"

KP_EXPORT kp_error kp_copy_to_constant_bytes(void *symbol, size_t symbol_size,
                                             const char *symbol_expr, const void *src,
                                             size_t bytes, size_t offset) {
  if (!symbol_expr) symbol_expr = "?";
  kp_module_desc *m = NULL;
  const kp_constant_desc *c = kp_registry_find_constant(symbol, &m);
  if (!c)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "kp_copy_to_constant(%s, ...): '%s' is not a constant variable: declare it "
                   "__attribute__((constant)) at file scope in a file compiled with kernplug",
                   symbol_expr, symbol_expr);
  const char *name = c->source_name ? c->source_name : symbol_expr;
  if (offset > c->size || bytes > c->size - offset || symbol_size != c->size)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "kp_copy_to_constant(%s, ...): %zu bytes at offset %zu run past the end of "
                   "the constant variable '%s' (%llu bytes)",
                   symbol_expr, bytes, offset, name, (unsigned long long)c->size);
  if (bytes && !src)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "kp_copy_to_constant(%s, ...): the source is NULL (%zu bytes)", symbol_expr,
                   bytes);
  if (!bytes) return KP_SUCCESS;
  const kp_backend *be = kp_backend_get();
  if (!be) return KP_ERROR_NO_DEVICE; /* kp_backend_get reported why */
  kp_error err = be->synchronize("kp_copy_to_constant");
  if (err) return err;
  memmove((char *)c->host + offset, src, bytes);
  return be->constant_changed ? be->constant_changed(m, c, offset, bytes, "kp_copy_to_constant")
                              : KP_SUCCESS;
}
