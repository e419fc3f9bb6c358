// printf becomes vprintf with the arguments packed (C promotes float to double).
#include <kernplug.h>
#include <stdio.h>
__attribute__((kernel)) void hello(const float *x) {
  printf("thread %d sees %f\n", grid(1), (double)x[0]);
  printf("no arguments\n");
}
// PTX: .extern .func (.param .b32 func_retval0) vprintf
// PTX-LABEL: .visible .entry hello(
// PTX: st.local.{{u32|b32}}
// PTX: st.local.{{f64|b64}}
// PTX: call.uni (retval0),{{[[:space:]]+}}vprintf,
// PTX: call.uni (retval0),{{[[:space:]]+}}vprintf,
