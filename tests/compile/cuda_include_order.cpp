// The C++ side of cuda_include_order.c: a host file with kernplug.h and <cuda_runtime.h> in
// either order (KP_CUDA_FIRST) launches a C kernel; CUDA's dim3 constructor must survive the
// dim3(...) short name.
#ifdef KP_CUDA_FIRST
#include <cuda_runtime.h>
#include <kernplug.h>
#else
#include <kernplug.h>
#include <cuda_runtime.h>
#endif

extern "C" void dims(unsigned *out);

int main() {
  ::dim3 cuda_dims(4, 2); // CUDA's own dim3 (a C++ constructor)
  unsigned *out = managed_array(unsigned, 2);
  launch(dims, dim3(3), 32)(out);
  kp_synchronize();
  int ok = out[0] == 3 && out[1] == 32 && cuda_dims.x == 4 && cuda_dims.z == 1;
  kp_free(out);
  return ok ? 0 : 1;
}
