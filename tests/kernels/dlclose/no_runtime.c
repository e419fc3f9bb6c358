/* no_runtime.c — dlopen() of a library with kernels from a program that does not link the
 * runtime (issue 17 item 4: what Python's ctypes does; examples/python_ctypes is the same
 * from python3). Plain C, built without the plugin: libkernplug_rt comes in as the library's
 * dependency. Before the fix dlopen() failed with "cannot allocate memory in static TLS
 * block" (the runtime's initial-exec TLS). Three rounds of dlopen, run_lib and dlclose: the
 * library is unmapped at each dlclose (its module unregistered by its destructor) while the
 * runtime stays loaded (-z nodelete: its worker threads and fault handlers live on), and
 * the library works again when loaded again. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KT_DLCLOSE_LIB
#error "KT_DLCLOSE_LIB: the path of the library built from dlclose/lib.c"
#endif

#define CHECK(cond, ...)                                                                   \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      fprintf(stderr, "dlopen_no_runtime: FAIL: " __VA_ARGS__);                            \
      fputc('\n', stderr);                                                                 \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

/* Whether a file whose path contains `name` is mapped into this process. */
static int mapped(const char *name) {
  FILE *f = fopen("/proc/self/maps", "r");
  CHECK(f, "cannot read /proc/self/maps");
  char line[4096];
  int found = 0;
  while (!found && fgets(line, sizeof line, f)) found = strstr(line, name) != NULL;
  fclose(f);
  return found;
}

int main(void) {
  CHECK(!mapped("libkernplug_rt"), "the runtime is loaded before the library: nothing is tested");
  for (int round = 1; round <= 3; round++) {
    void *h = dlopen(KT_DLCLOSE_LIB, RTLD_NOW | RTLD_LOCAL);
    CHECK(h, "round %d: dlopen: %s", round, dlerror());
    int (*run_lib)(int) = (int (*)(int))dlsym(h, "run_lib");
    CHECK(run_lib, "dlsym(run_lib): %s", dlerror());
    int bad = run_lib(round);
    CHECK(bad == 0, "round %d: %d wrong results from the library", round, bad);
    CHECK(dlclose(h) == 0, "dlclose: %s", dlerror());
    CHECK(!dlopen(KT_DLCLOSE_LIB, RTLD_NOW | RTLD_NOLOAD), "round %d: still loaded", round);
    CHECK(mapped("libkernplug_rt"), "round %d: the runtime was unloaded with the library", round);
    printf("dlopen_no_runtime: round %d ok\n", round);
  }
  printf("dlopen_no_runtime: ok\n");
  return 0;
}
