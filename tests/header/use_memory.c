// Host memory with kernplug/memory.h alone.
#include "kernplug/memory.h"

size_t use_memory(const float *host, float *back, int n) {
  float *d = kp_to_device(host, n);
  float *e = kp_device_array(float, n);
  double *m = kp_managed_array(double, n);
  int *p = kp_pinned_array(int, n);
  float *like = kp_device_array_like(d);
  kp_copy_to_device(e, host, n);
  kp_copy_to_host(back, d, n);
  kp_register(back, sizeof *back * (size_t)n);
  kp_unregister(back);
  size_t bytes = kp_alloc_size(d) + (kp_memory_kind_of(m) == KP_MEMORY_MANAGED);
  bytes += kp_memory_kind_name(KP_MEMORY_PINNED)[0] + kp_memory_kind_name(kp_memory_kind_of(p))[0];
  kp_free(d);
  kp_free(e);
  kp_free(m);
  kp_free(p);
  kp_free(like);
  return bytes;
}
