/* backend_cuda.c — kernels on an NVIDIA GPU through the CUDA driver API.
 *
 * libcuda.so.1 is opened with dlopen (KP_LIBCUDA overrides the path, which is how the tests
 * load a fake driver), so the runtime links nothing from CUDA and a binary built with
 * kernplug runs on machines without a GPU. Every device the driver reports can be used; each
 * host thread uses one (kp_select_device, device 0 by default), whose primary context is
 * retained on first use and made current on the thread when it changes. A kernel's module is
 * loaded on its first launch on a device — the cubin for that device's arch when the plugin
 * embedded one, else the PTX through the driver's JIT — and the kernel's CUfunction and
 * shared-memory figures are cached per device behind the kernel descriptor, so a launch
 * after the first is a thread-local check, a few atomic loads and cuLaunchKernel: no
 * lookup, no allocation. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_link.h"
#include "core/launch.h"

/* Oldest driver accepted: CUDA 10.0 introduced PTX ISA 6.3, the lowest the plugin emits. */
enum { KP_MIN_DRIVER_VERSION = 10000, KP_OLDEST_SM = 75 };
/* Static + dynamic shared bytes a function may use without an explicit opt-in. */
enum { KP_DEFAULT_SHARED_PER_BLOCK = 48 * 1024 };

/* What the backend keeps per kernel and device, made on the kernel's first launch on that
 * device. kp_kernel_desc.runtime_data holds an array of one pointer per device, and
 * kp_module_desc.runtime_data one CUmodule per device: a module is loaded once per device,
 * with the image that device's arch picks. */
typedef struct cuda_kernel {
  CUfunction fn;
  unsigned long long static_shared; /* the driver's CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
  int max_dynamic_shared; /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as set now; only
                             grows, under g_load_lock; read with atomic loads */
  int occupancy_block, occupancy_grid; /* cuOccupancyMaxPotentialBlockSize without dynamic
                                          shared memory; 0 until first asked (atomics) */
} cuda_kernel;

kp_cuda_driver kp_cu;

/* One per device the driver reports, filled at start-up; only `context` changes later. */
typedef struct cuda_device {
  CUdevice handle;
  int sm; /* compute capability as major * 10 + minor */
  char name[256];
  char owner[320]; /* "CUDA device 1 (NVIDIA H100, sm_90)" */
  kp_limits limits;
  CUcontext context; /* the primary context, retained on first use (atomic; g_context_lock) */
  /* The last cooperative launch (g_coop_lock): its stream and an event recorded after it. */
  CUstream coop_stream;
  CUevent coop_done;
} cuda_device;

static char g_libcuda_path[512];
static int g_device_count, g_driver_version;
static cuda_device *g_devices;
static pthread_mutex_t g_load_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t g_context_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t g_coop_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int tls_device;          /* kp_select_device; 0 by default */
static _Thread_local CUcontext tls_current;   /* the context this thread last made current */
/* Set by an atexit handler: the process is exiting, and the driver may be tearing itself
 * down (its own exit handlers run before the modules' destructors), so modules are left
 * loaded: the process's contexts go with it. */
static atomic_int g_exiting;

/* ---- errors ------------------------------------------------------------------------------ */

static const char *error_name(CUresult r) {
  const char *s = NULL;
  if (kp_cu.cuGetErrorName && kp_cu.cuGetErrorName(r, &s) == CUDA_SUCCESS && s) return s;
  return "CUDA_ERROR_UNRECOGNIZED";
}

static const char *error_string(CUresult r) {
  const char *s = NULL;
  if (kp_cu.cuGetErrorString && kp_cu.cuGetErrorString(r, &s) == CUDA_SUCCESS && s) return s;
  return "no description from the driver";
}

static kp_error code_for(CUresult r, kp_error otherwise) {
  switch (r) {
  case CUDA_ERROR_OUT_OF_MEMORY: return KP_ERROR_OUT_OF_MEMORY;
  case CUDA_ERROR_NO_DEVICE:
  case CUDA_ERROR_INSUFFICIENT_DRIVER: return KP_ERROR_NO_DEVICE;
  default: return otherwise;
  }
}

/* Errors 700-719 are "sticky" kernel faults that surface at the next synchronising call;
 * the call that reports them is innocent, so name the kernel that probably caused it (720,
 * CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, is the refused launch's own). */
static const char *async_note(CUresult r, char *buf, size_t size) {
  const char *k = kp_last_launched_kernel();
  if (r >= 700 && r < CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE && k)
    snprintf(buf, size, "; a kernel failed earlier (the last one launched was '%s')", k);
  else
    buf[0] = '\0';
  return buf;
}

kp_error kp_cuda_fail(CUresult r, kp_error otherwise, const char *call, const char *fmt,
                          ...) {
  char context[1024], note[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(context, sizeof context, fmt, ap);
  va_end(ap);
  return kp_fail(code_for(r, otherwise), "%s: %s returned %s (%s)%s", context, call,
                 error_name(r), error_string(r), async_note(r, note, sizeof note));
}

/* ---- start-up ---------------------------------------------------------------------------- */

/* The dynamic section of the program: absent (NULL) in a statically linked one (-static). */
extern const char _DYNAMIC[] __attribute__((weak, visibility("hidden")));

static int load_driver(char *why, size_t why_size) {
  const char *path = getenv("KP_LIBCUDA");
  if (!path || !*path) path = "libcuda.so.1";
  snprintf(g_libcuda_path, sizeof g_libcuda_path, "%s", path);
  /* dlopen in a static program brings a second libc along, under which the driver crashes
   * (NVIDIA supports only dynamically linked programs). */
  if (!_DYNAMIC) {
    snprintf(why, why_size,
             "this program is statically linked (-static), and the NVIDIA driver %s loads only "
             "into dynamically linked programs: link with kpcc -static-libkernplug instead (the "
             "runtime static, the C library dynamic)",
             path);
    return 0;
  }
  kp_cu.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!kp_cu.lib) {
    const char *e = dlerror();
    snprintf(why, why_size, "cannot load the NVIDIA driver library %s (%s)", path,
             e ? e : "dlopen failed");
    return 0;
  }
#define KP_LOAD_FN(name, symbol, params)                                                       \
  *(void **)&kp_cu.name = dlsym(kp_cu.lib, KP_CUDA_SYMBOL_NAME(symbol));                       \
  if (!kp_cu.name) {                                                                           \
    snprintf(why, why_size, "%s has no %s: the NVIDIA driver is too old", path,                \
             KP_CUDA_SYMBOL_NAME(symbol));                                                     \
    return 0;                                                                                  \
  }
  KP_CUDA_DRIVER_FUNCTIONS(KP_LOAD_FN)
#undef KP_LOAD_FN
  return 1;
}

static int device_attribute(CUdevice dev, CUdevice_attribute a) {
  int v = 0;
  if (kp_cu.cuDeviceGetAttribute(&v, a, dev) != CUDA_SUCCESS) v = 0;
  return v;
}

#define KP_TRY_INIT(call, ...)                                                                 \
  do {                                                                                         \
    CUresult r_ = kp_cu.call;                                                                    \
    if (r_ != CUDA_SUCCESS) {                                                                  \
      snprintf(why, why_size, __VA_ARGS__);                                                    \
      size_t used_ = strlen(why);                                                              \
      snprintf(why + used_, why_size - used_, ": %s returned %s (%s)", #call, error_name(r_),  \
               error_string(r_));                                                              \
      return 0;                                                                                \
    }                                                                                          \
  } while (0)

/* Name, arch and launch limits of device `i`; its context waits for first use. */
static int describe_device(int i, char *why, size_t why_size) {
  cuda_device *d = &g_devices[i];
  KP_TRY_INIT(cuDeviceGet(&d->handle, i), "cannot open CUDA device %d", i);
  if (kp_cu.cuDeviceGetName(d->name, (int)sizeof d->name, d->handle) != CUDA_SUCCESS)
    snprintf(d->name, sizeof d->name, "unnamed device");
#define attribute(a) device_attribute(d->handle, (a))
  d->sm = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10 +
          attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  snprintf(d->owner, sizeof d->owner, "CUDA device %d (%s, sm_%d)", i, d->name, d->sm);
  kp_limits *l = &d->limits;
  l->max_threads_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  l->max_block[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  l->max_block[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  l->max_block[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  l->max_grid[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  l->max_grid[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  l->max_grid[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  /* Static + dynamic per block, with the opt-in the launch does when it needs it. */
  long long optin = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  long long plain = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  l->max_shared_bytes = optin > plain ? optin : plain;
  l->static_shared_counts = 1;
#undef attribute
  return 1;
}

/* cuInit, a recent enough driver, at least one device. */
static int start_driver(char *why, size_t why_size) {
  KP_TRY_INIT(cuInit(0), "the CUDA driver (%s) does not start", g_libcuda_path);
  KP_TRY_INIT(cuDriverGetVersion(&g_driver_version), "cannot read the driver version");
  if (g_driver_version < KP_MIN_DRIVER_VERSION) {
    snprintf(why, why_size,
             "the NVIDIA driver is too old: it supports CUDA %d.%d, kernplug needs CUDA %d.%d "
             "or newer",
             g_driver_version / 1000, g_driver_version % 1000 / 10, KP_MIN_DRIVER_VERSION / 1000,
             KP_MIN_DRIVER_VERSION % 1000 / 10);
    return 0;
  }
  KP_TRY_INIT(cuDeviceGetCount(&g_device_count), "cannot count CUDA devices");
  if (g_device_count < 1) {
    snprintf(why, why_size, "the CUDA driver reports no device");
    return 0;
  }
  return 1;
}

/* Device 0 is every thread's default: a GPU that cannot give it a context is no GPU to choose
 * in auto mode, so this is checked here (into `why`, never through kp_fail). Other devices get
 * theirs when a thread selects them. */
static int start_device_0(char *why, size_t why_size) {
  cuda_device *d = &g_devices[0];
  CUcontext c;
  KP_TRY_INIT(cuDevicePrimaryCtxRetain(&c, d->handle), "cannot create a context on %s",
              d->owner);
  KP_TRY_INIT(cuCtxSetCurrent(c), "cannot use the context of %s", d->owner);
  __atomic_store_n(&d->context, c, __ATOMIC_RELEASE);
  tls_current = c;
  return 1;
}

static kp_backend g_cuda;

static void note_exit(void) { atomic_store(&g_exiting, 1); }

const kp_backend *kp_cuda_backend_init(char *why, size_t why_size) {
  if (!load_driver(why, why_size)) return NULL;
  if (!start_driver(why, why_size)) return NULL;
  g_devices = calloc((size_t)g_device_count, sizeof *g_devices);
  if (!g_devices) {
    snprintf(why, why_size, "out of host memory describing %d CUDA devices", g_device_count);
    return NULL;
  }
  for (int i = 0; i < g_device_count; i++)
    if (!describe_device(i, why, why_size)) return NULL;
  if (!start_device_0(why, why_size)) return NULL;
  g_cuda.limits = g_devices[0].limits;
  g_cuda.limits_owner = g_devices[0].owner;
  /* After cuInit, so that this runs before the exit handlers the driver registered there. */
  atexit(note_exit);
  return &g_cuda;
}

/* ---- devices ----------------------------------------------------------------------------- */

int kp_cuda_current_device(void) { return tls_device; }

const char *kp_cuda_device_owner(int device) {
  static _Thread_local char unknown[64];
  if (device >= 0 && device < g_device_count) return g_devices[device].owner;
  snprintf(unknown, sizeof unknown, "CUDA device %d", device);
  return unknown;
}

/* The primary context of `d`, retained once per process. */
static kp_error device_context(int device, const char *what, CUcontext *out) {
  cuda_device *d = &g_devices[device];
  CUcontext c = __atomic_load_n(&d->context, __ATOMIC_ACQUIRE);
  if (c) {
    *out = c;
    return KP_SUCCESS;
  }
  kp_error err = KP_SUCCESS;
  pthread_mutex_lock(&g_context_lock);
  if (!(c = d->context)) {
    CUresult r = kp_cu.cuDevicePrimaryCtxRetain(&c, d->handle);
    if (r == CUDA_SUCCESS)
      __atomic_store_n(&d->context, c, __ATOMIC_RELEASE);
    else
      err = kp_cuda_fail(r, KP_ERROR_CUDA, "cuDevicePrimaryCtxRetain",
                         "%s: creating a context on %s", what, d->owner);
  }
  pthread_mutex_unlock(&g_context_lock);
  *out = c;
  return err;
}

kp_error kp_cuda_use_device(int device, const char *what) {
  if (device < 0 || device >= g_device_count)
    return kp_fail(KP_ERROR_INVALID_VALUE, "%s: there is no CUDA device %d (%d device%s)", what,
                   device, g_device_count, g_device_count == 1 ? "" : "s");
  CUcontext c = __atomic_load_n(&g_devices[device].context, __ATOMIC_ACQUIRE);
  if (c && c == tls_current) return KP_SUCCESS;
  kp_error err = device_context(device, what, &c);
  if (err) return err;
  CUresult r = kp_cu.cuCtxSetCurrent(c);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuCtxSetCurrent", "%s: using %s", what,
                        g_devices[device].owner);
  tls_current = c;
  return KP_SUCCESS;
}

/* The primary context of the thread's device must be current on every host thread that calls
 * the driver. */
kp_error kp_cuda_ensure_context(const char *what) {
  return kp_cuda_use_device(tls_device, what);
}

/* kp_cuda_context(): the primary context, which the CUDA runtime (cudart) uses too. */
kp_error kp_cuda_native_context(void **out, const char *what) {
  *out = NULL;
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  *out = __atomic_load_n(&g_devices[tls_device].context, __ATOMIC_ACQUIRE);
  return KP_SUCCESS;
}

int kp_cuda_device_of_context(void *context, const char *what) {
  for (int i = 0; i < g_device_count; i++) {
    CUcontext c = __atomic_load_n(&g_devices[i].context, __ATOMIC_ACQUIRE);
    if (!c) {
      /* A stream lives only in a context someone created: an inactive primary context is not
       * retained (that would create a context on a GPU this process may not use, e.g.
       * another MPI rank's). An active one is retained: using the stream will need it. */
      unsigned flags = 0;
      int active = 0;
      if (kp_cu.cuDevicePrimaryCtxGetState(g_devices[i].handle, &flags, &active) !=
              CUDA_SUCCESS ||
          !active)
        continue;
      if (device_context(i, what, &c)) return -1;
    }
    if (c == (CUcontext)context) return i;
  }
  return -1;
}

/* ---- modules ----------------------------------------------------------------------------- */

/* The newest cubin the device can run (same major arch, minor not above the device's), and
 * the newest PTX not newer than the device (the driver JIT-compiles it forward). */
static void pick_images(const kp_module_desc *m, int g_sm, const kp_image_desc **cubin,
                        const kp_image_desc **ptx, const kp_image_desc **too_new_ptx) {
  *cubin = *ptx = *too_new_ptx = NULL;
  for (uint64_t i = 0; i < m->num_images; i++) {
    const kp_image_desc *im = &m->images[i];
    int sm = (int)im->sm;
    if (im->kind == KP_IMAGE_CUBIN) {
      if (sm / 10 == g_sm / 10 && sm <= g_sm && (!*cubin || sm > (int)(*cubin)->sm)) *cubin = im;
    } else if (im->kind == KP_IMAGE_PTX) {
      if (sm <= g_sm) {
        if (!*ptx || sm > (int)(*ptx)->sm) *ptx = im;
      } else if (!*too_new_ptx || sm < (int)(*too_new_ptx)->sm) {
        *too_new_ptx = im;
      }
    }
  }
}

static kp_error load_module(const kp_kernel_desc *k, CUmodule *out) {
  const kp_module_desc *m = k->module;
  const char *source = m->source ? m->source : "?";
  const kp_image_desc *cubin, *ptx, *too_new;
  const int g_sm = g_devices[tls_device].sm;
  pick_images(m, g_sm, &cubin, &ptx, &too_new);
  /* Calls device functions of other files: linked with theirs (its cubins are relocatable). */
  if (ptx && kp_ptx_has_imports(ptx->data)) return kp_cuda_load_linked(k, ptx->data, g_sm, out);
  CUresult cubin_result = CUDA_SUCCESS;
  if (cubin) {
    cubin_result = kp_cu.cuModuleLoadDataEx(out, cubin->data, 0, NULL, NULL);
    if (cubin_result == CUDA_SUCCESS) return KP_SUCCESS;
    /* Fall back to the PTX: a cubin the driver refuses is not fatal while PTX is there. */
  }
  if (!ptx) {
    if (cubin)
      return kp_cuda_fail(cubin_result, KP_ERROR_LAUNCH, "cuModuleLoadDataEx",
                       "launch(%s, ...): loading the sm_%d cubin of %s (no PTX to fall back to)",
                       k->name, (int)cubin->sm, source);
    if (too_new)
      return kp_fail(KP_ERROR_LAUNCH,
                     "launch(%s, ...): the GPU code of %s was built for sm_%d or newer, but %s "
                     "is sm_%d: rebuild for an older GPU architecture",
                     k->name, source, (int)too_new->sm, kp_cuda_owner, g_sm);
    return kp_fail(KP_ERROR_LAUNCH,
                   "launch(%s, ...): %s has no GPU code (PTX or cubin) for this kernel: was it "
                   "compiled with clang -fplugin=kernplug.so or gcc -fplugin=kernplug-gcc.so?",
                   k->name, source);
  }
  /* The JIT's error log says what is wrong with the PTX; it is the only useful part. */
  char log[8192];
  log[0] = '\0';
  CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[2] = {log, (void *)(uintptr_t)sizeof log};
  CUresult r = kp_cu.cuModuleLoadDataEx(out, ptx->data, 2, opts, vals);
  if (r == CUDA_SUCCESS) return KP_SUCCESS;
  log[sizeof log - 1] = '\0';
  char hint[256] = "";
  if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    snprintf(hint, sizeof hint,
             "; the driver supports CUDA %d.%d, which is older than this PTX needs: update the "
             "NVIDIA driver",
             g_driver_version / 1000, g_driver_version % 1000 / 10);
  /* Written out rather than through cuda_fail: the log must come after the error name. */
  return kp_fail(code_for(r, KP_ERROR_LAUNCH),
                 "launch(%s, ...): JIT-compiling the sm_%d PTX of %s for %s failed: "
                 "cuModuleLoadDataEx returned %s (%s)%s%s%s",
                 k->name, (int)ptx->sm, source, kp_cuda_owner, error_name(r), error_string(r), hint,
                 log[0] ? "\nJIT log:\n" : "", log);
}

/* Copies [offset, offset + bytes) of the host copy of the module's `constant` variable c into
 * its .const symbol in `mod`, whose context is current. */
static kp_error upload_constant(CUmodule mod, const kp_module_desc *m, const kp_constant_desc *c,
                                size_t offset, size_t bytes, const char *what) {
  const char *source = m->source ? m->source : "?", *name = c->source_name ? c->source_name : "?";
  CUdeviceptr d = 0;
  size_t size = 0;
  CUresult r = kp_cu.cuModuleGetGlobal(&d, &size, mod, c->name);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuModuleGetGlobal",
                        "%s: finding the constant variable '%s' in the GPU code of %s", what,
                        name, source);
  if (size != c->size)
    return kp_fail(KP_ERROR_INTERNAL,
                   "%s: the constant variable '%s' of %s has %zu bytes on the GPU but %llu on "
                   "the host",
                   what, name, source, size, (unsigned long long)c->size);
  r = kp_cu.cuMemcpyHtoD(d + offset, (const char *)c->host + offset, bytes);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemcpyHtoD",
                        "%s: copying %zu bytes into the constant variable '%s'", what, bytes,
                        name);
  return KP_SUCCESS;
}

/* A module just loaded gets the current value of each of its constant variables. */
static kp_error upload_constants(CUmodule mod, const kp_kernel_desc *k) {
  const kp_module_desc *m = k->module;
  for (uint64_t i = 0; i < m->num_constants; i++) {
    char what[192];
    snprintf(what, sizeof what, "launch(%s, ...)", k->name);
    kp_error err = upload_constant(mod, m, &m->constants[i], 0, m->constants[i].size, what);
    if (err) return err;
  }
  return KP_SUCCESS;
}

/* kp_copy_to_constant has changed the host copy: every device that loaded the module gets
 * the range (a device that loads it later gets the whole variable then). */
static kp_error cuda_constant_changed(const kp_module_desc *m, const kp_constant_desc *c,
                                      size_t offset, size_t bytes, const char *what) {
  kp_error err = KP_SUCCESS;
  pthread_mutex_lock(&g_load_lock);
  const CUmodule *modules = m->runtime_data;
  for (int d = 0; modules && d < g_device_count && !err; d++)
    if (modules[d] && !(err = kp_cuda_use_device(d, what)))
      err = upload_constant(modules[d], m, c, offset, bytes, what);
  pthread_mutex_unlock(&g_load_lock);
  kp_error back = kp_cuda_ensure_context(what); /* the calling thread's device again */
  return err ? err : back;
}

static int function_attribute(CUfunction f, CUfunction_attribute a, int fallback) {
  int v = 0;
  return kp_cu.cuFuncGetAttribute(&v, a, f) == CUDA_SUCCESS ? v : fallback;
}

/* A table of one zeroed pointer per device, or NULL after reporting. */
static void **per_device_table(const kp_kernel_desc *k) {
  void **t = calloc((size_t)g_device_count, sizeof *t);
  if (!t) kp_fail(KP_ERROR_OUT_OF_MEMORY, "launch(%s, ...): out of host memory", k->name);
  return t;
}

/* The CUfunction and its shared-memory figures on the thread's device, whose context is
 * current; g_load_lock held. */
static kp_error make_kernel_state(kp_kernel_desc *k, cuda_kernel **out) {
  CUmodule *modules = k->module->runtime_data;
  if (!modules) {
    if (!(modules = (CUmodule *)per_device_table(k))) return KP_ERROR_OUT_OF_MEMORY;
    k->module->runtime_data = modules;
  }
  CUmodule mod = modules[tls_device];
  if (!mod) {
    kp_error err = load_module(k, &mod);
    if (!err && (err = upload_constants(mod, k))) kp_cu.cuModuleUnload(mod);
    if (err) return err;
    modules[tls_device] = mod;
  }
  CUfunction f;
  CUresult r = kp_cu.cuModuleGetFunction(&f, mod, k->name);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_LAUNCH, "cuModuleGetFunction",
                     "launch(%s, ...): finding .entry %s in the GPU code of %s", k->name,
                     k->name, k->module->source ? k->module->source : "?");
  cuda_kernel *ck = malloc(sizeof *ck);
  if (!ck)
    return kp_fail(KP_ERROR_OUT_OF_MEMORY, "launch(%s, ...): out of host memory", k->name);
  ck->fn = f;
  ck->occupancy_block = ck->occupancy_grid = 0;
  /* The driver knows the static size after optimisation; the plugin's figure is an upper
   * bound from before it. Without an answer, keep the plugin's. */
  int fallback = k->shared_bytes > INT_MAX ? INT_MAX : (int)k->shared_bytes;
  ck->static_shared = (unsigned)function_attribute(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                                   fallback);
  int default_dynamic = KP_DEFAULT_SHARED_PER_BLOCK - (int)ck->static_shared;
  ck->max_dynamic_shared = function_attribute(
      f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, default_dynamic > 0 ? default_dynamic : 0);
  /* launch.c checks later launches against the exact figure. */
  __atomic_store_n(&k->shared_bytes, (uint64_t)ck->static_shared, __ATOMIC_RELAXED);
  *out = ck;
  return KP_SUCCESS;
}

/* The kernel's state on the thread's device, loading its module there on first use. Fast
 * path: two acquire loads. */
static kp_error get_kernel(kp_kernel_desc *k, cuda_kernel **out) {
  const int dev = tls_device;
  cuda_kernel **table = __atomic_load_n((cuda_kernel ***)&k->runtime_data, __ATOMIC_ACQUIRE);
  cuda_kernel *ck = table ? __atomic_load_n(&table[dev], __ATOMIC_ACQUIRE) : NULL;
  if (ck) {
    *out = ck;
    return KP_SUCCESS;
  }
  kp_error err = KP_SUCCESS;
  pthread_mutex_lock(&g_load_lock);
  if (!(table = k->runtime_data)) {
    if ((table = (cuda_kernel **)per_device_table(k)))
      __atomic_store_n((cuda_kernel ***)&k->runtime_data, table, __ATOMIC_RELEASE);
    else
      err = KP_ERROR_OUT_OF_MEMORY;
  }
  if (table && !(ck = table[dev])) {
    err = make_kernel_state(k, &ck);
    if (!err) __atomic_store_n(&table[dev], ck, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&g_load_lock);
  *out = ck;
  return err;
}

/* The module's library is being dlclose()d: its kernels' CUfunctions and shared-memory
 * figures are freed and its CUmodule unloaded on every device that loaded it, after that
 * device's queued work (which may run its code) has finished. Errors are ignored: nothing can
 * be reported from a destructor, and a sticky error is reported by the next call anyway.
 * At exit nothing is done (g_exiting). Launching one of its kernels meanwhile on another
 * thread is the program's race, as calling any function of a library while closing it. */
static void cuda_unload_module(kp_module_desc *m) {
  if (atomic_load(&g_exiting)) return;
  pthread_mutex_lock(&g_load_lock);
  for (uint64_t i = 0; i < m->num_kernels; i++) {
    cuda_kernel **table = m->kernels[i].runtime_data;
    for (int d = 0; table && d < g_device_count; d++) free(table[d]);
    free(table);
    __atomic_store_n((cuda_kernel ***)&m->kernels[i].runtime_data, NULL, __ATOMIC_RELEASE);
  }
  CUmodule *modules = m->runtime_data;
  for (int d = 0; modules && d < g_device_count; d++) {
    CUcontext c = __atomic_load_n(&g_devices[d].context, __ATOMIC_ACQUIRE);
    if (!modules[d] || !c) continue;
    /* The device's context current on this thread, without kp_cuda_use_device's reports;
     * tls_current keeps the thread's next kp_cuda_ensure_context right. */
    if (c != tls_current) {
      if (kp_cu.cuCtxSetCurrent(c) != CUDA_SUCCESS) continue;
      tls_current = c;
    }
    kp_cu.cuCtxSynchronize();
    kp_cu.cuModuleUnload(modules[d]);
  }
  free(modules);
  m->runtime_data = NULL;
  pthread_mutex_unlock(&g_load_lock);
}

/* ---- the backend operations -------------------------------------------------------------- */

/* Static + dynamic shared memory must fit the device's per-block limit. launch.c checked this
 * with the plugin's static figure before the first load; this is the check with the
 * driver's. */
static kp_error check_shared(const kp_kernel_desc *k, const cuda_kernel *ck, size_t dynamic) {
  unsigned long long limit = (unsigned long long)g_devices[tls_device].limits.max_shared_bytes;
  if (dynamic <= limit && ck->static_shared <= limit - dynamic) return KP_SUCCESS;
  return kp_fail(KP_ERROR_LAUNCH,
                 "launch(%s, ...): %llu bytes of static + %zu bytes of dynamic shared memory "
                 "exceed the limit of %llu bytes per block of %s",
                 k->name, ck->static_shared, dynamic, limit, kp_cuda_owner);
}

/* Beyond the default 48 KiB per block (static + dynamic) a function must be allowed its
 * dynamic size first. Raised only, once per increase; concurrent launches asking for less
 * than the current allowance never wait. */
static kp_error allow_dynamic_shared(const kp_kernel_desc *k, cuda_kernel *ck, size_t dynamic) {
  if ((int)dynamic <= __atomic_load_n(&ck->max_dynamic_shared, __ATOMIC_ACQUIRE))
    return KP_SUCCESS;
  kp_error err = KP_SUCCESS;
  pthread_mutex_lock(&g_load_lock);
  if ((int)dynamic > ck->max_dynamic_shared) {
    CUresult r = kp_cu.cuFuncSetAttribute(ck->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        (int)dynamic);
    if (r == CUDA_SUCCESS)
      __atomic_store_n(&ck->max_dynamic_shared, (int)dynamic, __ATOMIC_RELEASE);
    else
      err = kp_cuda_fail(r, KP_ERROR_LAUNCH, "cuFuncSetAttribute",
                      "launch(%s, ...): allowing %zu bytes of dynamic shared memory (with %llu "
                      "bytes of static) on %s",
                      k->name, dynamic, ck->static_shared, kp_cuda_owner);
  }
  pthread_mutex_unlock(&g_load_lock);
  return err;
}

/* A kernel that reaches grid_sync() (KP_KERNEL_COOPERATIVE): cuLaunchCooperativeKernel, which
 * guarantees every block resident at once (core checked the grid against
 * cuda_cooperative_blocks). The device code's grid barrier (runtime/device/grid_sync.c) is one
 * word per module, which two cooperative grids running at once would share: on a device,
 * each cooperative launch waits for the one before it when that was on another stream (on
 * one stream they are ordered anyway). */
static kp_error launch_cooperative(kp_kernel_desc *k, cuda_kernel *ck, const kp_launch_config *cfg,
                                   CUstream stream, void **args) {
  cuda_device *d = &g_devices[tls_device];
  pthread_mutex_lock(&g_coop_lock);
  CUresult r = CUDA_SUCCESS;
  const char *call = "cuStreamWaitEvent";
  if (d->coop_done && d->coop_stream != stream) r = kp_cu.cuStreamWaitEvent(stream, d->coop_done, 0);
  if (r == CUDA_SUCCESS) {
    call = "cuLaunchCooperativeKernel";
    r = kp_cu.cuLaunchCooperativeKernel(ck->fn, (unsigned)cfg->blocks.x, (unsigned)cfg->blocks.y,
                                        (unsigned)cfg->blocks.z, (unsigned)cfg->threads.x,
                                        (unsigned)cfg->threads.y, (unsigned)cfg->threads.z,
                                        (unsigned)cfg->shared_bytes, stream, args);
  }
  if (r == CUDA_SUCCESS && !d->coop_done) {
    call = "cuEventCreate";
    r = kp_cu.cuEventCreate(&d->coop_done, CU_EVENT_DISABLE_TIMING);
  }
  if (r == CUDA_SUCCESS) {
    call = "cuEventRecord";
    r = kp_cu.cuEventRecord(d->coop_done, stream);
    d->coop_stream = stream;
  }
  pthread_mutex_unlock(&g_coop_lock);
  if (r == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)
    return kp_cuda_fail(r, KP_ERROR_LAUNCH, call,
                        "launch(%s, ...): the kernel calls grid_sync(), so every block must be "
                        "resident at once, and %s cannot hold its grid of (%lld, %lld, %lld) "
                        "blocks of (%lld, %lld, %lld) threads with %zu shared bytes; "
                        "kp_max_cooperative_grid_blocks(%s, ...) gives the limit",
                        k->name, kp_cuda_owner, cfg->blocks.x, cfg->blocks.y, cfg->blocks.z,
                        cfg->threads.x, cfg->threads.y, cfg->threads.z, cfg->shared_bytes,
                        k->name);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_LAUNCH, call,
                        "launch(%s, ...) (cooperative: it calls grid_sync()) with blocks (%lld, "
                        "%lld, %lld), threads (%lld, %lld, %lld), %zu shared bytes",
                        k->name, cfg->blocks.x, cfg->blocks.y, cfg->blocks.z, cfg->threads.x,
                        cfg->threads.y, cfg->threads.z, cfg->shared_bytes);
  return KP_SUCCESS;
}

static kp_error cuda_launch(kp_kernel_desc *k, const kp_launch_config *cfg, void **args) {
  kp_error err = kp_cuda_ensure_context("launch");
  if (err) return err;
  void *stream; /* the CUstream behind cfg->stream (cuda_stream.c) */
  if ((err = kp_cuda_launch_stream(cfg->stream, k->name, &stream))) return err;
  cuda_kernel *ck;
  if ((err = get_kernel(k, &ck))) return err;
  if ((err = check_shared(k, ck, cfg->shared_bytes))) return err;
  if ((err = allow_dynamic_shared(k, ck, cfg->shared_bytes))) return err;
  kp_note_launched_kernel(k->name);
  if (k->flags & KP_KERNEL_COOPERATIVE)
    return launch_cooperative(k, ck, cfg, (CUstream)stream, args);
  CUresult r = kp_cu.cuLaunchKernel(ck->fn, (unsigned)cfg->blocks.x, (unsigned)cfg->blocks.y,
                                  (unsigned)cfg->blocks.z, (unsigned)cfg->threads.x,
                                  (unsigned)cfg->threads.y, (unsigned)cfg->threads.z,
                                  (unsigned)cfg->shared_bytes, (CUstream)stream, args, NULL);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_LAUNCH, "cuLaunchKernel",
                     "launch(%s, ...) with blocks (%lld, %lld, %lld), threads (%lld, %lld, %lld), "
                     "%zu shared bytes",
                     k->name, cfg->blocks.x, cfg->blocks.y, cfg->blocks.z, cfg->threads.x,
                     cfg->threads.y, cfg->threads.z, cfg->shared_bytes);
  return KP_SUCCESS;
}

/* The driver's occupancy calculator; the answer without dynamic shared memory (generated
 * element-wise kernels) is cached so that repeated ufunc() calls ask once. */
static int cuda_occupancy(kp_kernel_desc *k, size_t dynamic_shared, int *min_grid, int *block) {
  cuda_kernel *ck;
  if (kp_cuda_ensure_context("occupancy") || get_kernel(k, &ck)) return 1;
  if (!dynamic_shared) {
    int b = __atomic_load_n(&ck->occupancy_block, __ATOMIC_ACQUIRE);
    if (b) {
      *block = b;
      *min_grid = __atomic_load_n(&ck->occupancy_grid, __ATOMIC_RELAXED);
      return 0;
    }
  }
  int g = 0, b = 0;
  CUresult r = kp_cu.cuOccupancyMaxPotentialBlockSize(&g, &b, ck->fn, NULL, dynamic_shared, 0);
  if (r != CUDA_SUCCESS || g < 1 || b < 1) return 1;
  if (!dynamic_shared) {
    __atomic_store_n(&ck->occupancy_grid, g, __ATOMIC_RELAXED);
    __atomic_store_n(&ck->occupancy_block, b, __ATOMIC_RELEASE);
  }
  *min_grid = g;
  *block = b;
  return 0;
}

/* Every block of a cooperative launch resident at once: the driver's resident blocks per
 * multiprocessor for this block size and shared memory, times the multiprocessors (what
 * cuLaunchCooperativeKernel allows, and numba's max_cooperative_grid_blocks). */
static kp_error cuda_cooperative_blocks(kp_kernel_desc *k, long long threads,
                                        size_t dynamic_shared, long long *blocks) {
  cuda_kernel *ck;
  kp_error err = kp_cuda_ensure_context("kp_max_cooperative_grid_blocks");
  if (err || (err = get_kernel(k, &ck))) return err;
  CUdevice dev = g_devices[tls_device].handle;
  int coop = 0, sms = 0, per_sm = 0;
  CUresult r = kp_cu.cuDeviceGetAttribute(&coop, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, dev);
  if (r == CUDA_SUCCESS && !coop)
    return kp_fail(KP_ERROR_LAUNCH,
                   "kernel '%s' calls grid_sync(), which needs a cooperative launch, and %s "
                   "does not support cooperative launches",
                   k->name, kp_cuda_owner);
  if (r == CUDA_SUCCESS)
    r = kp_cu.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  if (r == CUDA_SUCCESS)
    r = kp_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ck->fn, (int)threads,
                                                          dynamic_shared);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_LAUNCH, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
                        "the co-resident blocks of kernel '%s' (%lld threads, %zu shared bytes)",
                        k->name, threads, dynamic_shared);
  *blocks = (long long)per_sm * sms;
  return KP_SUCCESS;
}

static int cuda_device_count(void) { return g_device_count; }

/* kp_select_device: the context is made current now, so that a device that cannot be used
 * says so here rather than at the next launch; the selection stays as it was then. */
static kp_error cuda_select_device(int device, const char *what) {
  if (device < 0 || device >= g_device_count)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s(%d): there is no CUDA device %d; this process sees %d (numbered 0 to %d; "
                   "CUDA_VISIBLE_DEVICES chooses which)",
                   what, device, device, g_device_count, g_device_count - 1);
  char call[64];
  snprintf(call, sizeof call, "%s(%d)", what, device);
  kp_error err = kp_cuda_use_device(device, call);
  if (!err) tls_device = device;
  return err;
}

static kp_error cuda_device_properties(int device, kp_device_properties *p, const char *what) {
  if (device < 0 || device >= g_device_count)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s(%d): there is no CUDA device %d; this process sees %d (numbered 0 to %d)",
                   what, device, device, g_device_count, g_device_count - 1);
  const cuda_device *d = &g_devices[device];
  snprintf(p->name, sizeof p->name, "%s", d->name);
  p->major = d->sm / 10;
  p->minor = d->sm % 10;
  CUresult r = kp_cu.cuDeviceTotalMem(&p->total_memory, d->handle);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuDeviceTotalMem", "%s(%d): %s", what, device,
                        d->owner);
#define attribute(a) device_attribute(d->handle, (a))
  p->multiprocessors = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  p->max_threads_per_block = (int)d->limits.max_threads_per_block;
  p->max_threads_per_multiprocessor = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  for (int a = 0; a < 3; a++) {
    p->max_block[a] = (int)d->limits.max_block[a];
    p->max_grid[a] = (int)d->limits.max_grid[a];
  }
  p->max_shared_per_block = (size_t)d->limits.max_shared_bytes;
  p->warp_size = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  p->registers_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
  p->clock_khz = attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  p->memory_clock_khz = attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  p->memory_bus_width = attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  p->l2_cache_bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  p->integrated = attribute(CU_DEVICE_ATTRIBUTE_INTEGRATED);
  p->pci_domain = attribute(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
  p->pci_bus = attribute(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
  p->pci_device = attribute(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
#undef attribute
  snprintf(p->pci_bus_id, sizeof p->pci_bus_id, "%04x:%02x:%02x.0", p->pci_domain & 0xffff,
           p->pci_bus & 0xff, p->pci_device & 0xff);
  return KP_SUCCESS;
}

/* A child of fork() inherits the parent's CUDA context, which the driver does not support:
 * every driver call there fails (CUDA_ERROR_INITIALIZATION_ERROR at best, a hang at worst),
 * and the device memory behind the parent's pointers is not the child's. */
static kp_error cuda_after_fork_child(char *why, size_t why_size) {
  snprintf(why, why_size,
           "this process was created by fork() after kernplug started the CUDA backend in its "
           "parent, and CUDA cannot be used in such a child (the driver fails with "
           "CUDA_ERROR_INITIALIZATION_ERROR); fork before the first kernplug call, or exec a "
           "new program in the child");
  return KP_ERROR_CUDA;
}

static const kp_limits *cuda_thread_limits(const char **owner) {
  const cuda_device *d = &g_devices[tls_device];
  *owner = d->owner;
  return &d->limits;
}

/* Like numba.cuda.detect(): one paragraph per device, then a summary. */
static void cuda_detect(void) {
  printf("Found %d CUDA devices\n", g_device_count);
  int supported = 0;
  for (int i = 0; i < g_device_count; i++) {
    CUdevice dev;
    if (kp_cu.cuDeviceGet(&dev, i) != CUDA_SUCCESS) continue;
#undef attribute
#define attribute(a) device_attribute(dev, (a))
    char name[256] = "unnamed device";
    kp_cu.cuDeviceGetName(name, (int)sizeof name, dev);
    int major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    int minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    int ok = major * 10 + minor >= KP_OLDEST_SM;
    supported += ok;
    size_t mem = 0;
    kp_cu.cuDeviceTotalMem(&mem, dev);
    printf("id %d    %-40s [%s]\n", i, name, ok ? "SUPPORTED" : "NOT SUPPORTED (needs sm_75+)");
    printf("%40s: %d.%d\n", "Compute Capability", major, minor);
    printf("%40s: %d\n", "PCI Device ID", attribute(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
    printf("%40s: %d\n", "PCI Bus ID", attribute(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID));
    printf("%40s: %d\n", "Multiprocessors", attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
    printf("%40s: %zu\n", "Memory (MiB)", mem >> 20);
    printf("%40s: %s\n", "Watchdog",
           attribute(CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT) ? "Enabled" : "Disabled");
  }
  printf("Summary:\n\t%d/%d devices are supported\n", supported, g_device_count);
  printf("kernplug %d.%d.%d: kernels run on the cuda backend, device %d on this thread (%s); "
         "driver CUDA %d.%d (%s)\n",
         KP_VERSION_MAJOR, KP_VERSION_MINOR, KP_VERSION_PATCH, tls_device,
         g_devices[tls_device].name, g_driver_version / 1000, g_driver_version % 1000 / 10,
         g_libcuda_path);
}

static kp_backend g_cuda = {
    .name = "cuda",
    .launch_impl = cuda_launch,
    .alloc = kp_cuda_alloc,
    .release = kp_cuda_release,
    .alloc_kind = kp_cuda_alloc_kind,
    .release_kind = kp_cuda_release_kind,
    .register_host = kp_cuda_register_host,
    .unregister_host = kp_cuda_unregister_host,
    .is_foreign_device_memory = kp_cuda_is_foreign_device_memory,
    .foreign_device_range = kp_cuda_foreign_device_range,
    .to_device = kp_cuda_to_device,
    .to_host = kp_cuda_to_host,
    .device_to_device = kp_cuda_device_to_device,
    .fill = kp_cuda_fill,
    .synchronize = kp_cuda_synchronize,
    .detect = cuda_detect,
    .device_count = cuda_device_count,
    .select_device = cuda_select_device,
    .current_device = kp_cuda_current_device,
    .device_properties = cuda_device_properties,
    .thread_limits = cuda_thread_limits,
    .occupancy = cuda_occupancy,
    .cooperative_blocks = cuda_cooperative_blocks,
    .constant_changed = cuda_constant_changed,
#define KP_CUDA_STREAM_HOOK_INIT(Ret, Name, Params) .Name = kp_cuda_##Name,
    KP_BACKEND_STREAM_HOOKS(KP_CUDA_STREAM_HOOK_INIT)
#undef KP_CUDA_STREAM_HOOK_INIT
    .native_context = kp_cuda_native_context,
    .stream_wrap = kp_cuda_stream_wrap,
    .unload_module = cuda_unload_module,
    .after_fork_child = cuda_after_fork_child,
};
