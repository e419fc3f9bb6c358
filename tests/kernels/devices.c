/* devices.c — kp_device_count, kp_device_properties_get, kp_select_device and
 * kp_current_device on whatever backend runs: properties must be plausible for every device,
 * the same kernel must run on each device in turn (the first launch on a device loads the
 * module there), and host threads working on different devices at once (all on device 0
 * with one GPU or the CPU) must each get their own results. */
#include <pthread.h>

#include "kernel_test.h"

enum { N = 100000, ROUNDS = 8 };

/* out[i] = i * a + b */
__attribute__((kernel)) void affine(int *out, int a, int b, int n) {
  int i = grid(1);
  if (i < n) out[i] = i * a + b;
}

/* Runs affine on the calling thread's device and checks every element. */
static int run_affine(int a, int b, char *why, size_t why_size) {
  int *h = malloc(N * sizeof *h);
  int *d = device_array(int, N);
  launch(affine, (N + 255) / 256, 256)(d, a, b, N);
  copy_to_host(h, d, N);
  kp_free(d);
  int ok = 1;
  for (int i = 0; i < N && ok; i++)
    if (h[i] != i * a + b) {
      snprintf(why, why_size, "device %d: out[%d] = %d, expected %d", kp_current_device(), i,
               h[i], i * a + b);
      ok = 0;
    }
  free(h);
  return ok;
}

static void check_properties(int device, int cpu) {
  kp_device_properties p;
  KT_CHECK(kp_device_properties_get(device, &p) == KP_SUCCESS, "device %d: %s", device,
           kp_last_error_message());
  printf("device %d: %s, %d.%d, %d multiprocessors, %zu MiB, %zu bytes of shared memory per "
         "block, PCI %s\n",
         device, p.name, p.major, p.minor, p.multiprocessors, p.total_memory >> 20,
         p.max_shared_per_block, p.pci_bus_id[0] ? p.pci_bus_id : "-");
  KT_CHECK(p.name[0] != '\0', "device %d has no name", device);
  KT_CHECK(p.is_cpu == cpu, "device %d: is_cpu %d", device, p.is_cpu);
  KT_CHECK(p.multiprocessors > 0 && p.total_memory > 0, "device %d: %d SMs, %zu bytes", device,
           p.multiprocessors, p.total_memory);
  KT_CHECK(p.warp_size == 32, "device %d: warp size %d", device, p.warp_size);
  KT_CHECK(p.max_threads_per_block >= 1024 && p.max_block[0] >= 1024 && p.max_block[2] >= 64 &&
               p.max_grid[0] >= 65535 && p.max_grid[1] >= 65535,
           "device %d: implausible launch limits", device);
  KT_CHECK(p.max_shared_per_block >= 48 * 1024, "device %d: %zu shared bytes", device,
           p.max_shared_per_block);
  if (!cpu) {
    KT_CHECK(p.major >= 7 && p.minor >= 0, "device %d: compute capability %d.%d", device,
             p.major, p.minor);
    KT_CHECK(strlen(p.pci_bus_id) == 12 && p.pci_bus_id[4] == ':',
             "device %d: PCI bus id '%s'", device, p.pci_bus_id);
    KT_CHECK(p.max_threads_per_multiprocessor >= p.max_threads_per_block && p.clock_khz > 0 &&
                 p.l2_cache_bytes > 0,
             "device %d: implausible SM figures", device);
  }
}

typedef struct worker {
  int device, a, ok;
  char why[256];
} worker;

static void *work(void *arg) {
  worker *w = arg;
  kp_select_device(w->device);
  w->ok = kp_current_device() == w->device;
  for (int r = 0; r < ROUNDS && w->ok; r++) w->ok = run_affine(w->a, r, w->why, sizeof w->why);
  return NULL;
}

int main(void) {
  const char *backend = kt_start("devices");
  const int cpu = strcmp(backend, "cpu") == 0;
  const int count = kp_device_count();
  printf("%d CUDA device(s); this thread uses device %d\n", count, kp_current_device());
  KT_CHECK(cpu ? count == 0 : count >= 1, "%s backend: %d devices", backend, count);
  KT_CHECK(kp_current_device() == 0, "the default device is %d", kp_current_device());
  const int usable = cpu ? 1 : count; /* the CPU backend runs everything as device 0 */
  for (int dev = 0; dev < usable; dev++) check_properties(dev, cpu);

  kp_set_error_mode(KP_ERRORS_RETURN);
  kp_device_properties p;
  KT_CHECK(kp_device_properties_get(usable, &p) == KP_ERROR_INVALID_VALUE,
           "properties of device %d (one past the last)", usable);
  kp_select_device(usable);
  KT_CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE && kp_current_device() == 0,
           "kp_select_device(%d) must fail and leave device 0 selected", usable);
  kp_set_error_mode(KP_ERRORS_ABORT);

  /* each device in turn, then back to the first: its module is still loaded */
  char why[256];
  for (int dev = 0; dev < usable; dev++) {
    kp_select_device(dev);
    KT_CHECK(kp_current_device() == dev, "selected %d, current %d", dev, kp_current_device());
    KT_CHECK(run_affine(3, dev, why, sizeof why), "%s", why);
  }
  kp_select_device(0);
  KT_CHECK(run_affine(-2, 7, why, sizeof why), "%s", why);

  /* one host thread per device (at least two), all at once */
  int threads = usable < 2 ? 2 : usable;
  worker *w = calloc((size_t)threads, sizeof *w);
  pthread_t *t = calloc((size_t)threads, sizeof *t);
  for (int i = 0; i < threads; i++) {
    w[i].device = i % usable;
    w[i].a = i + 1;
    KT_CHECK(pthread_create(&t[i], NULL, work, &w[i]) == 0, "pthread_create");
  }
  for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < threads; i++)
    KT_CHECK(w[i].ok, "host thread %d on device %d: %s", i, w[i].device,
             w[i].why[0] ? w[i].why : "wrong device");
  free(w);
  free(t);
  printf("devices: OK (%d device(s), %d host threads)\n", usable, threads);
  return 0;
}
