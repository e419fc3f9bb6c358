// -g gives line directives in the PTX (and ptxas still accepts it at -O3).
#include <kernplug.h>
__attribute__((kernel)) void k(float *out) {
  out[grid(1)] = 1.0f;
}
// PTX-NOT: .debug_info
// PTX-DAG: .loc {{[0-9]+}} 4
// PTX-DAG: .file {{[0-9]+}} "{{.*}}ptx_lineinfo.c"
