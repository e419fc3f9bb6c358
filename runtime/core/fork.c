/* fork.c — what a child of fork() gets from the runtime.
 *
 * The child of a multi-threaded process has one thread: the one that called fork(). Without
 * help, its first launch waited forever for worker threads that do not exist, and any lock
 * another thread held at the fork stayed held. pthread_atfork handlers fix both: before the
 * fork the runtime takes its data-structure locks (the registry, allocation table,
 * freed-pointer ring, stream and event handles, and the backend's own through its fork_locks
 * hook: the CPU backend's cache of mappings), so that the child's copies are consistent; the
 * parent releases them; the child makes them anew and resets the backend through its
 * after_fork_child hook — the CPU backend's pool restarts its workers on the child's first
 * launch, the CUDA backend becomes an error that says why (backend.c). Per-thread caches need
 * nothing: the forking thread's are valid in the child, and new workers start with empty
 * ones. The registry's lock (held while a library with kernels is dlopen()ed or dlclose()d)
 * is taken too. */
#include <pthread.h>

#include "backend/backend.h"
#include "core/fork.h"

/* The backend whose locks prepare() took: parent() and child() release exactly those, even
 * if another thread finished choosing a backend in between. */
static const kp_backend *g_forking_backend;

static void backend_fork_locks(kp_fork_phase phase) {
  if (g_forking_backend && g_forking_backend->fork_locks) g_forking_backend->fork_locks(phase);
}

static void prepare(void) {
  kp_registry_fork(KP_FORK_PREPARE);
  g_forking_backend = kp_backend_chosen();
  backend_fork_locks(KP_FORK_PREPARE);
  kp_stream_fork(KP_FORK_PREPARE);
  kp_memory_fork(KP_FORK_PREPARE);
  kp_alloc_table_fork(KP_FORK_PREPARE);
}

static void parent(void) {
  kp_alloc_table_fork(KP_FORK_PARENT);
  kp_memory_fork(KP_FORK_PARENT);
  kp_stream_fork(KP_FORK_PARENT);
  backend_fork_locks(KP_FORK_PARENT);
  kp_registry_fork(KP_FORK_PARENT);
}

static void child(void) {
  kp_alloc_table_fork(KP_FORK_CHILD);
  kp_memory_fork(KP_FORK_CHILD);
  kp_stream_fork(KP_FORK_CHILD);
  backend_fork_locks(KP_FORK_CHILD);
  kp_registry_fork(KP_FORK_CHILD);
  kp_backend_after_fork_child();
}

static void install(void) { pthread_atfork(prepare, parent, child); }

void kp_fork_install(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, install);
}
