// At host -O0 the user's function is optnone: the device code still inlines and optimises it.
#include <kernplug.h>
__attribute__((reduce)) double dsum(double a, double b) { return a + b; }
// PTX-LABEL: .visible .entry __kp_reduce_dsum(
// PTX-NOT: call.uni
// PTX-DAG: ld.global.nc.v2.{{f64|b64}}
// PTX-DAG: add.rn.f64
// PTX-DAG: shfl.sync.down.b32
// PTX-DAG: bar.sync 0;
// PTX-DAG: st.global.{{f64|b64}}
