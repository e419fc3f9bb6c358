// clang's own -save-temps writes the .bc with LLVM passes disabled, so the plugin's pass never
// sees the kernels: an error naming the first one, not an object without kernels.
// DIAG: error: kernplug: 'twice' ({{.*}}diag_save_temps.c:6) and the other kernels of this file would not be compiled: LLVM passes are disabled (clang's -save-temps or -Xclang -disable-llvm-passes); use -fplugin-arg-kernplug-save-temps to keep the device code's intermediate files
#include "kernplug.h"

__attribute__((kernel)) void twice(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] *= 2;
}
