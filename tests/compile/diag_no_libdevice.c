// Without libdevice, math in device code is a located error; host math is fine.
#include <kernplug.h>
#include <math.h>
__attribute__((kernel)) void k(float *out) { out[0] = expf(out[1]); }
// DIAG: diag_no_libdevice.c:[[@LINE-1]]:55: error: 'expf' in device code needs libdevice (nvvm/libdevice/libdevice.10.bc of the CUDA toolkit), which was not found; install the CUDA toolkit, set CUDA_PATH, or pass -fplugin-arg-kernplug-libdevice=<path>
float host(float x) { return expf(x); }
// DIAG-NOT: host
