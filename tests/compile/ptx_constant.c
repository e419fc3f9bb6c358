// `constant` variables are visible .const symbols (the runtime finds them with
// cuModuleGetGlobal), read with ld.const, with the host's initial value; a static one keeps
// its C name.
#include <kernplug.h>

__attribute__((constant)) float coeffs[16];
static __attribute__((constant)) int offset = 5;
__attribute__((constant)) struct { float scale; int n; } cfg;
// PTX-DAG: .visible .const .align {{[0-9]+}} .b8 coeffs[64];
// PTX-DAG: .visible .const .align 4 .u32 offset = 5;
// PTX-DAG: .visible .const .align 4 .b8 cfg[8];

__attribute__((kernel)) void use(float *out) {
  int i = grid(1);
  if (i < cfg.n) out[i] = coeffs[i % 16] * cfg.scale + (float)offset;
}
// PTX-LABEL: .entry use(
// PTX-DAG: ld.const.{{u32|b32}} {{.*}}[cfg+4]
// PTX-DAG: mov.{{u64|b64}} {{.*}}coeffs;
// PTX-DAG: ld.const.{{f32|b32}} {{.*}}[cfg]
// PTX-DAG: ld.const.{{u32|b32}} {{.*}}[offset]
