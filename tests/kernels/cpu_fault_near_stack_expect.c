/* cpu_fault_near_stack_expect.c — telling a stack overflow from a wild access next to a stack
 * (cpu_fault_near_stack.cmake). The kernel runs on a host thread whose stack this program maps
 * itself, with an inaccessible region below it, as a device array mapped next to a worker's
 * stack would be (KP_NUM_THREADS=1: the launching thread runs every block).
 *   below_stack  a write into that region, 192 KiB below the stack, from a kernel whose stack
 *                pointer is high in its stack: an invalid memory access, not a stack overflow
 *                (it used to be reported as one: the address alone was judged).
 *   recursion    a kernel that recurses until the stack ends: a stack overflow.
 *   fiber_guard  a kernel on fibers writes into the guard below its own fiber stack, with its
 *                stack pointer near the top of that stack: an invalid memory access.
 *   fiber_recursion  the same kernel recursing on its fiber: a stack overflow.
 *   worker_neighbour  the report itself (KP_NUM_THREADS=2): device arrays allocated after the
 *                worker started, until one ends within 1 MiB below the worker's stack (mmap
 *                fills the space from the top down: the second one, here); a write one element
 *                past its end from a block the worker runs faults on the array's guard page
 *                there. It used to be reported as the worker's stack overflow. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, pthread_attr_setstack */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "kernel_test.h"

enum {
  BELOW_BYTES = 256 * 1024, /* the inaccessible region under the stack */
  STACK_BYTES = 512 * 1024,
  TARGET_BELOW = 192 * 1024 /* how far below the stack the wild write lands */
};

/* target: an address as an integer (a pointer parameter would have to be device memory). */
__attribute__((kernel)) void write_to(long long target, int *out) {
  int i = grid(1);
  if (i == 0) *(volatile char *)(uintptr_t)target = 1;
  out[i] = i;
}

/* 1 KiB of stack per level. */
__attribute__((device)) int deep(int depth, int seed) {
  volatile char frame[1024];
  frame[depth % 1024] = (char)seed;
  int below = depth > 0 ? deep(depth - 1, seed + 1) : 0;
  return below + frame[depth % 1024];
}

__attribute__((kernel)) void recurse(int depth, int *out) {
  int i = grid(1);
  out[i] = deep(depth, i);
}

/* With a barrier, built with cpu-barriers=fibers: each thread on a fiber stack of
 * KP_CPU_STACK_SIZE bytes. `below` > 0: thread 0 writes that many bytes below the fiber
 * stack's low end (a local lies within a few KiB of the stack's top): into its guard. */
__attribute__((kernel)) void fiber_write_below(long long stack_bytes, long long below,
                                              int depth, int *out) {
  volatile char here = 1;
  int v = depth ? deep(depth, (int)threadIdx.x) : here;
  syncthreads();
  if (threadIdx.x == 0 && below > 0) {
    char *top = (char *)(((uintptr_t)&here + 4095) & ~(uintptr_t)4095);
    *(volatile char *)(top - stack_bytes - below) = 1;
  }
  out[threadIdx.x] = v;
}

/* Writes x[n], one past the end, but only on a thread whose stack is not the launching
 * thread's (64 MiB away from `host_sp`): a worker. Records where that thread's stack is. */
__attribute__((kernel)) void past_end_on_worker(int *x, int n, long long host_sp,
                                               long long *worker_sp) {
  volatile int local = 0;
  long long sp = (long long)(uintptr_t)&local, d = sp - host_sp;
  if (d < -(1ll << 26) || d > (1ll << 26)) {
    *worker_sp = sp;
    if (n > 0) x[n] = local;
  }
}

/* The lowest address of the mapping that holds addr (/proc/self/maps), or 0. */
static uintptr_t mapping_start(uintptr_t addr) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[512];
  uintptr_t found = 0;
  while (f && fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && addr >= lo && addr < hi) found = lo;
  }
  if (f) fclose(f);
  return found;
}

static void worker_neighbour(void) {
  volatile int here = 0;
  long long host_sp = (long long)(uintptr_t)&here;
  long long *worker_sp = device_array(long long, 1);
  int *none = device_array(int, 1);
  /* Large grids until the worker has run a block: its stack is mapped and known then. */
  *worker_sp = 0;
  for (int k = 0; k < 1000 && !*worker_sp; k++) {
    launch(past_end_on_worker, 4096, 256)(none, 0, host_sp, worker_sp);
    kp_synchronize();
  }
  KT_CHECK(*worker_sp, "no block ran on the worker in 1000 launches");
  uintptr_t low = mapping_start((uintptr_t)*worker_sp);
  /* Arrays of 64 ints (256 bytes: each ends at its guard page), until one ends within 1 MiB
   * below the worker's stack: mmap fills the space from the top down, so one gets there. */
  enum { TRIES = 4000 };
  static int *arrays[TRIES];
  int *x = NULL, count = 0;
  while (count < TRIES && !x) {
    int *a = arrays[count++] = device_array(int, 64);
    uintptr_t end = (uintptr_t)(a + 64);
    if (end < low && low - end < (1u << 20)) x = a;
  }
  KT_CHECK(x, "none of %d device arrays ended within 1 MiB below the worker's stack at %#lx",
           count, (unsigned long)low);
  printf("device array number %d ends %lu KiB below the worker's stack\n", count,
         (unsigned long)((low - (uintptr_t)(x + 64)) / 1024));
  kp_error e = KP_SUCCESS; /* kp_last_error() clears it: read it once per launch */
  for (int k = 0; k < 1000 && e == KP_SUCCESS; k++) {
    launch(past_end_on_worker, 4096, 256)(x, 64, host_sp, worker_sp);
    e = kp_last_error();
  }
  KT_CHECK(e == KP_ERROR_LAUNCH, "no block ran on the worker in 1000 launches (error %d)", (int)e);
  fprintf(stderr, "%s\n", kp_last_error_message());
  for (int k = 0; k < count; k++) kp_free(arrays[k]);
  kp_free(none);
  kp_free(worker_sp);
}

typedef struct job {
  const char *scenario;
  char *target;
  kp_error error;
} job;

static void *run_job(void *p) {
  job *j = p;
  int *out = device_array(int, 64);
  if (!strcmp(j->scenario, "below_stack"))
    launch(write_to, 2, 32)((long long)(uintptr_t)j->target, out);
  else
    launch(recurse, 2, 32)(100000, out);
  j->error = kp_last_error();
  if (j->error) fprintf(stderr, "%s\n", kp_last_error_message());
  kp_free(out);
  return NULL;
}

/* Runs the scenario on a thread whose stack lies right above BELOW_BYTES of inaccessible
 * memory. */
static kp_error on_mapped_stack(const char *scenario) {
  char *region = mmap(NULL, BELOW_BYTES + STACK_BYTES, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  KT_CHECK(region != MAP_FAILED, "mmap");
  char *stack = region + BELOW_BYTES;
  KT_CHECK(mprotect(stack, STACK_BYTES, PROT_READ | PROT_WRITE) == 0, "mprotect");
  job j = {scenario, stack - TARGET_BELOW, KP_SUCCESS};
  printf("stack at %p, %d bytes; inaccessible from %p; target %p\n", (void *)stack,
         STACK_BYTES, (void *)region, (void *)j.target);
  fflush(stdout);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  KT_CHECK(pthread_attr_setstack(&attr, stack, STACK_BYTES) == 0, "pthread_attr_setstack");
  pthread_t t;
  KT_CHECK(pthread_create(&t, &attr, run_job, &j) == 0, "pthread_create");
  pthread_join(t, NULL);
  pthread_attr_destroy(&attr);
  munmap(region, BELOW_BYTES + STACK_BYTES);
  return j.error;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  const char *s = argv[1];
  kt_start("cpu_fault_near_stack");
  kp_set_error_mode(KP_ERRORS_RETURN);
  kp_error e;
  if (!strcmp(s, "below_stack") || !strcmp(s, "recursion")) {
    e = on_mapped_stack(s);
  } else if (!strcmp(s, "worker_neighbour")) {
    worker_neighbour();
    e = KP_ERROR_LAUNCH; /* checked there */
  } else if (!strcmp(s, "fiber_guard") || !strcmp(s, "fiber_recursion")) {
    const long long stack_bytes = 128 * 1024; /* KP_CPU_STACK_SIZE in the test */
    int *out = device_array(int, 32);
    if (!strcmp(s, "fiber_guard"))
      launch(fiber_write_below, 1, 32)(stack_bytes, 4096, 0, out);
    else
      launch(fiber_write_below, 1, 32)(stack_bytes, 0, 1000, out);
    e = kp_last_error();
    if (e) fprintf(stderr, "%s\n", kp_last_error_message());
    kp_free(out);
  } else {
    fprintf(stderr, "unknown scenario %s\n", s);
    return 2;
  }
  KT_CHECK(e == KP_ERROR_LAUNCH, "expected a launch error, got %d", (int)e);
  printf("cpu_fault_near_stack %s: finished\n", s);
  return 0;
}
