// ASan/TSan instrument the host module after the device code is cloned; -fsanitize=function
// puts a type hash before each function, which PTX cannot hold. None of it reaches the PTX.
#include "ptx_ubsan.c"
// PTX-NOT: __asan
// PTX-NOT: __tsan
// PTX: .visible .entry checks(
// PTX-NOT: __asan
// PTX-NOT: __tsan
