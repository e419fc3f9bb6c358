// -fsanitize-trap=undefined: llvm.ubsantrap, which NVPTX cannot select, becomes trap.
#include "ptx_ubsan.c"
// PTX-LABEL: .visible .entry checks(
// PTX-NOT: vprintf
// PTX: trap;
