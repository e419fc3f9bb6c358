/* fork_child.c — fork() after the runtime started. On the CPU backend the child computes
 * like the parent (its workers restart; locks other threads held at the fork do not block
 * it); on the CUDA backend, where CUDA itself forbids it, the child's first call is an error
 * that names fork(). The parent keeps working either way. A child that hangs is killed by an
 * alarm and fails the test. With the argument "no-results" (the fake driver, which runs no
 * kernels) only errors count. A third thread dlopen()s and dlclose()s a library with kernels
 * meanwhile, and the child calls ufunc(), which reads the registry under its lock: the child
 * must not inherit that lock held by a registration in flight. */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel_test.h"

__attribute__((kernel)) void fill(int *a, int n, int add) {
  int i = grid(1);
  if (i < n) a[i] = i + add;
}

/* A registration holds the registry's lock for microseconds of a dlopen's milliseconds: without
 * the fork handler for that lock, 2000 forks left a child hung in 2 runs of 3. */
#ifndef KT_FORKS
#define KT_FORKS 2000
#endif

__attribute__((vectorize("f32(f32)"))) float plus_one(float x) { return x + 1; }

enum { N = 4096 };
static int g_check_results = 1;

/* Launches fill and checks the result; returns the number of wrong elements, or -1 after an
 * error (return mode). */
static int fill_and_check(int *d, int add) {
  static int h[N];
  launch(fill, N / 128, 128)(d, N, add);
  if (kp_last_error()) return -1;
  copy_to_host(h, d, N);
  if (kp_last_error()) return -1;
  int bad = 0;
  for (int i = 0; i < N && g_check_results; i++) bad += h[i] != i + add;
  return bad;
}

/* The child: its own computation, or on CUDA the error; exits with 0 when as expected. */
static void child(int *d, int cuda) {
  alarm(60); /* a hang (the finding) ends as SIGALRM */
  int bad = fill_and_check(d, 7);
  if (cuda) {
    const char *msg = kp_last_error_message();
    printf("child: %s\n", msg);
    fflush(stdout);
    _exit(bad == -1 && strstr(msg, "fork()") ? 0 : 1);
  }
  int *mine = device_array(int, N); /* the allocation table and the pool work too */
  int bad2 = fill_and_check(mine, 9);
  kp_free(mine);
  float in[64], out[64]; /* and the registry, which ufunc() reads under its lock */
  for (int i = 0; i < 64; i++) in[i] = (float)i;
  ufunc(plus_one, 64, out, in);
  for (int i = 0; i < 64; i++) bad2 += out[i] != (float)i + 1;
  printf("child: %d + %d wrong elements\n", bad, bad2);
  fflush(stdout);
  _exit(bad == 0 && bad2 == 0 && kp_last_error() == KP_SUCCESS ? 0 : 1);
}

static void wait_ok(pid_t pid) {
  int st = 0;
  KT_CHECK(waitpid(pid, &st, 0) == pid, "waitpid");
  KT_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child %s %d",
           WIFSIGNALED(st) ? "was killed by signal" : "exited with",
           WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
}

/* Another thread keeps allocating, freeing and launching while the main thread forks: the
 * child must not inherit a lock that thread held. */
static atomic_int g_stop;
static void *churn(void *p) {
  (void)p;
  while (!atomic_load(&g_stop)) {
    int *t = device_array(int, N);
    launch(fill, N / 128, 128)(t, N, 1);
    kp_free(t);
  }
  return NULL;
}

/* Loads and unloads a library with kernels: its constructor registers a module and its
 * destructor unregisters it, each under the registry's lock. */
static void *load_unload(void *p) {
  (void)p;
#ifdef KT_DLCLOSE_LIB
  while (!atomic_load(&g_stop)) {
    void *lib = dlopen(KT_DLCLOSE_LIB, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      fprintf(stderr, "dlopen: %s\n", dlerror());
      exit(1);
    }
    dlclose(lib);
  }
#endif
  return NULL;
}

int main(int argc, char **argv) {
  g_check_results = !(argc > 1 && strcmp(argv[1], "no-results") == 0);
  const char *backend = kt_start("fork_child");
  int cuda = strcmp(backend, "cuda") == 0;
  kp_set_error_mode(KP_ERRORS_RETURN);
  int *d = device_array(int, N);
  KT_CHECK(fill_and_check(d, 1) == 0, "parent before fork: %s", kp_last_error_message());

  fflush(stdout); /* or the child prints the parent's buffered lines again */
  pid_t pid = fork();
  KT_CHECK(pid >= 0, "fork");
  if (pid == 0) child(d, cuda);
  wait_ok(pid);
  KT_CHECK(fill_and_check(d, 2) == 0, "parent after fork: %s", kp_last_error_message());

  if (!cuda) {
    pthread_t t, l;
    KT_CHECK(pthread_create(&t, NULL, churn, NULL) == 0, "pthread_create");
    KT_CHECK(pthread_create(&l, NULL, load_unload, NULL) == 0, "pthread_create");
    for (int k = 0; k < KT_FORKS; k++) {
      pid = fork();
      KT_CHECK(pid >= 0, "fork");
      if (pid == 0) child(d, 0);
      wait_ok(pid);
    }
    atomic_store(&g_stop, 1);
    pthread_join(t, NULL);
    pthread_join(l, NULL);
  }
  KT_CHECK(fill_and_check(d, 3) == 0, "parent at the end: %s", kp_last_error_message());
  kp_free(d);
  printf("fork_child: finished\n");
  return 0;
}
