// -fno-sanitize-recover: the device reports, then traps (the host build aborts).
#include "ptx_ubsan.c"
// PTX-LABEL: .visible .entry checks(
// PTX: vprintf
// PTX: trap;
