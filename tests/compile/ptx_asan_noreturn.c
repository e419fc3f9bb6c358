// Under -fsanitize=address clang calls __asan_handle_no_return before each call of a
// noreturn function (abort() here): host-only, it must not reach the PTX, where ptxas
// refused it as an unresolved extern function.
#include <kernplug.h>
#include <stdlib.h>

__attribute__((kernel)) void stop_if(const int *x) {
  if (x[threadIdx.x] < 0) abort();
}
// PTX-NOT: __asan
// PTX: .visible .entry stop_if(
// PTX-NOT: __asan
