/* pool.c — the CPU backend's worker threads.
 *
 * One participant per core (KP_NUM_THREADS overrides): the launching host thread is
 * participant 0 and participant-1 background threads do the rest, so KP_NUM_THREADS=1 runs
 * everything on the caller. Grids run one at a time (g_run_lock): launches from several host
 * threads are safe and complete in some order, as on one CUDA stream per thread would.
 * After fork() the child has only the thread that forked: kp_pool_after_fork_child makes the
 * pool's locks anew and the child's first launch starts the workers again. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "backend/cpu/cpu_backend.h"

static pthread_mutex_t g_run_lock = PTHREAD_MUTEX_INITIALIZER; /* one grid at a time */
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_work_cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t g_done_cv = PTHREAD_COND_INITIALIZER;

static int g_participants = 1;
static unsigned long long g_generation; /* bumped for each task; workers wait for a change */
static int g_unfinished;                /* background workers still running the current task */
static kp_pool_task g_task;
static void *g_ctx;

typedef struct worker_arg {
  int index;
} worker_arg;
static worker_arg *g_args;
static size_t g_stack_bytes;
static int g_restart; /* participants to start again (in a child of fork()), else 0 */

static void *worker_main(void *p) {
  int index = ((worker_arg *)p)->index;
  unsigned long long seen = 0;
  for (;;) {
    pthread_mutex_lock(&g_mu);
    while (g_generation == seen) pthread_cond_wait(&g_work_cv, &g_mu);
    seen = g_generation;
    kp_pool_task task = g_task;
    void *ctx = g_ctx;
    pthread_mutex_unlock(&g_mu);

    task(ctx, index);

    pthread_mutex_lock(&g_mu);
    if (--g_unfinished == 0) pthread_cond_signal(&g_done_cv);
    pthread_mutex_unlock(&g_mu);
  }
  return NULL;
}

int kp_pool_start(int participants, size_t stack_bytes, char *why, size_t why_size) {
  static worker_arg args[1024];
  if (participants < 1) participants = 1;
  if (participants > (int)(sizeof args / sizeof args[0]))
    participants = (int)(sizeof args / sizeof args[0]);
  g_args = args;
  g_stack_bytes = stack_bytes;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  /* A guard as large as a fiber's (fiber.c), so that a big frame faults on it, and
   * cpu_fault.c reports a stack overflow, rather than landing in another mapping. */
  pthread_attr_setguardsize(&attr, 64 * 1024);
  int started = 1;
  for (int i = 1; i < participants; i++) {
    args[i].index = i;
    pthread_t t;
    int rc = pthread_create(&t, &attr, worker_main, &args[i]);
    if (rc) {
      /* Fewer workers still compute the right result; only say so if none started. */
      if (started == 1) snprintf(why, why_size, "pthread_create: %s", strerror(rc));
      break;
    }
    pthread_detach(t);
    started++;
  }
  pthread_attr_destroy(&attr);
  g_participants = started;
  return started;
}

int kp_pool_size(void) { return g_participants; }

void kp_pool_after_fork_child(void) {
  /* Another thread may have held them at the fork; it does not exist here. */
  g_run_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
  g_mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
  g_work_cv = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
  g_done_cv = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
  if (g_participants > 1) g_restart = g_participants;
  g_participants = 1; /* the caller alone until the workers are back */
  g_unfinished = 0;
}

/* In a child of fork(): starts the workers again (the forking thread is participant 0). A
 * child that only execs never pays for them. */
static void restart_workers(void) {
  char why[256] = "";
  int want = g_restart;
  g_restart = 0;
  g_generation = 0;
  kp_pool_start(want, g_stack_bytes, why, sizeof why); /* fewer workers still compute right */
}

void kp_pool_run(kp_pool_task task, void *ctx) {
  pthread_mutex_lock(&g_run_lock);
  if (__builtin_expect(g_restart != 0, 0)) restart_workers();
  if (g_participants > 1) {
    pthread_mutex_lock(&g_mu);
    g_task = task;
    g_ctx = ctx;
    g_unfinished = g_participants - 1;
    g_generation++;
    pthread_cond_broadcast(&g_work_cv);
    pthread_mutex_unlock(&g_mu);
  }
  task(ctx, 0);
  if (g_participants > 1) {
    pthread_mutex_lock(&g_mu);
    while (g_unfinished > 0) pthread_cond_wait(&g_done_cv, &g_mu);
    pthread_mutex_unlock(&g_mu);
  }
  pthread_mutex_unlock(&g_run_lock);
}
