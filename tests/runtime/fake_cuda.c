/* fake_cuda.c — a fake libcuda.so.1 for testing the runtime's CUDA backend without a GPU.
 *
 * Loaded through KP_LIBCUDA. It implements the driver entry points the runtime uses
 * (runtime/backend/cuda/cuda_driver.h) over host memory, and:
 *  - records every call, one line each, in the file named by FAKE_CUDA_LOG;
 *  - checks what a real driver checks: a current context on the calling thread, grid and
 *    block sizes against the device limits, device pointers against live allocations, and
 *    kernel parameters against the .param list of the kernel's .entry line in the loaded image
 *    (sizes from .u64/.u32/.u16/.u8/.f32/.b8[N]); parameter values are logged as hex;
 *  - injects one failure chosen by FAKE_CUDA_FAIL: no_device, zero_devices, old_driver, oom,
 *    jit, cubin_reject, launch_resources, illegal_address, func_attribute (cuFuncSetAttribute
 *    fails);
 *  - pretends to have FAKE_CUDA_DEVICES devices (default 1): device 0 of compute capability
 *    FAKE_CUDA_CC (default 90, "Fake GPU sm_90"), device i of FAKE_CUDA_CC<i> (default 80,
 *    "Fake GPU <i> sm_80"), each with FAKE_CUDA_SHARED_OPTIN bytes of shared memory per block
 *    after opt-in (default 227 KiB, an H100's) and its own primary context; modules and
 *    functions belong to the context they were loaded in, and using them in another is an
 *    error, as on the real driver. With more than one device every log line starts with
 *    "dev<N>: ", the device of the calling thread's current context ("dev-: " without one),
 *    and cuCtxSetCurrent is logged; FAKE_CUDA_FAIL=retain<N> makes device N's context fail;
 *  - keeps shared memory per function as the driver does: the static size is the sum of the
 *    `.shared ... [N]` declarations inside the entry's body, the dynamic allowance starts at
 *    48 KiB minus that and cuFuncSetAttribute may raise it up to the opt-in limit; a launch
 *    asking for more dynamic bytes than allowed fails with CUDA_ERROR_INVALID_VALUE;
 *  - unloads modules (cuModuleUnload, logged with the module's first .entry name); using an
 *    unloaded module or one of its functions is CUDA_ERROR_INVALID_HANDLE, as on the driver;
 *  - finds a module's `.const` variables for cuModuleGetGlobal (size from the declaration,
 *    memory that copies into it check like a device allocation);
 *  - answers cuOccupancyMaxPotentialBlockSize with FAKE_CUDA_OCC_BLOCK threads (default 768)
 *    and the grid of 132 SMs x (2048 / block) resident blocks, as an H100 would for a small
 *    kernel; FAKE_CUDA_FAIL=occupancy makes it fail;
 *  - answers cuOccupancyMaxActiveBlocksPerMultiprocessor with min(32, 2048 / block) blocks
 *    (less when the dynamic shared memory does not fit 228 KiB per SM) and runs
 *    cuLaunchCooperativeKernel through the checks of cuLaunchKernel, refusing a grid larger
 *    than that times the SMs with CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, as does
 *    FAKE_CUDA_FAIL=coop_too_large for any grid.
 * Kernels are not run: tests check what was launched, not what it computed. */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cuda.h"

pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *g_log;
static int g_initialized;
int fake_sticky_error; /* set by an "illegal_address" launch; returned until exit */
__thread CUcontext fake_tls_current;
struct CUctx_st fake_contexts[FAKE_MAX_DEVICES];

/* A reference to each entry point of the table, so that a fake missing one fails to link. */
#define FAKE_ENTRY(name, symbol, params) (void (*)(void))symbol,
__attribute__((used)) static void (*const fake_entry_points[])(void) = {
    KP_CUDA_DRIVER_FUNCTIONS(FAKE_ENTRY) KP_CUDA_POOL_FUNCTIONS(FAKE_ENTRY)};
#undef FAKE_ENTRY

int fake_failing(const char *what) {
  const char *f = getenv("FAKE_CUDA_FAIL");
  return f && strcmp(f, what) == 0;
}

int fake_device_count(void) {
  const char *s = getenv("FAKE_CUDA_DEVICES");
  int n = s && *s ? atoi(s) : 1;
  return n < 0 ? 0 : n > FAKE_MAX_DEVICES ? FAKE_MAX_DEVICES : n;
}

int fake_device_sm_of(int device) {
  char name[32];
  if (device == 0) snprintf(name, sizeof name, "FAKE_CUDA_CC");
  else snprintf(name, sizeof name, "FAKE_CUDA_CC%d", device);
  const char *s = getenv(name);
  return s && *s ? atoi(s) : device == 0 ? 90 : 80;
}

int fake_current_device(void) { return fake_tls_current ? fake_tls_current->device : -1; }

int fake_device_sm(void) {
  int d = fake_current_device();
  return fake_device_sm_of(d < 0 ? 0 : d);
}

int fake_logging(void) {
  const char *path = getenv("FAKE_CUDA_LOG");
  return path && *path;
}

void fake_log(const char *fmt, ...) {
  pthread_mutex_lock(&fake_lock);
  if (!g_log) {
    const char *path = getenv("FAKE_CUDA_LOG");
    if (path && *path) g_log = fopen(path, "a");
  }
  if (g_log) {
    /* several devices: say whose context the call ran in */
    if (fake_device_count() > 1) {
      if (fake_tls_current) fprintf(g_log, "dev%d: ", fake_tls_current->device);
      else fputs("dev-: ", g_log);
    }
    va_list ap;
    va_start(ap, fmt);
    vfprintf(g_log, fmt, ap);
    va_end(ap);
    fputc('\n', g_log);
    fflush(g_log);
  }
  pthread_mutex_unlock(&fake_lock);
}

/* ---- errors ---- */

static const struct {
  CUresult code;
  const char *name, *text;
} g_errors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
     "too many blocks in cooperative launch"},
};

FAKE_EXPORT CUresult cuGetErrorName(CUresult e, const char **s) {
  for (size_t i = 0; i < sizeof g_errors / sizeof g_errors[0]; i++)
    if (g_errors[i].code == e) {
      *s = g_errors[i].name;
      return CUDA_SUCCESS;
    }
  *s = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult e, const char **s) {
  for (size_t i = 0; i < sizeof g_errors / sizeof g_errors[0]; i++)
    if (g_errors[i].code == e) {
      *s = g_errors[i].text;
      return CUDA_SUCCESS;
    }
  *s = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

/* ---- device ---- */

FAKE_EXPORT CUresult cuInit(unsigned flags) {
  fake_log("cuInit %u", flags);
  if (fake_failing("no_device")) return CUDA_ERROR_NO_DEVICE;
  g_initialized = 1;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDriverGetVersion(int *v) {
  *v = fake_failing("old_driver") ? 9020 : 13000;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetCount(int *n) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  *n = fake_failing("zero_devices") ? 0 : fake_device_count();
  return CUDA_SUCCESS;
}

static int valid_device(CUdevice d) { return d >= 0 && d < fake_device_count(); }

FAKE_EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!valid_device(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
  *d = ordinal;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
  if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
  if (d == 0) snprintf(name, (size_t)len, "Fake GPU sm_%d", fake_device_sm_of(0));
  else snprintf(name, (size_t)len, "Fake GPU %d sm_%d", d, fake_device_sm_of(d));
  return CUDA_SUCCESS;
}

static int max_threads(void) {
  const char *s = getenv("FAKE_CUDA_MAX_THREADS");
  return s && *s ? atoi(s) : 1024;
}

/* Device 0 is an H100 whatever its FAKE_CUDA_CC says (132 SMs, 80 GiB, 227 KiB of shared
 * memory per block: FAKE_CUDA_SHARED_OPTIN), the others A100s (108 SMs, 40 GiB, 163 KiB:
 * FAKE_CUDA_SHARED_OPTIN<i>), so that the runtime's per-device limits show. */
static int shared_optin_of(int device) {
  char name[40];
  if (device == 0) snprintf(name, sizeof name, "FAKE_CUDA_SHARED_OPTIN");
  else snprintf(name, sizeof name, "FAKE_CUDA_SHARED_OPTIN%d", device);
  const char *s = getenv(name);
  return s && *s ? atoi(s) : device == 0 ? 227 * 1024 : 163 * 1024;
}
static int shared_optin(void) { /* the current context's device */
  int d = fake_current_device();
  return shared_optin_of(d < 0 ? 0 : d);
}
enum { DEFAULT_SHARED_PER_BLOCK = 48 * 1024 };
static int sm_count(CUdevice d) { return d == 0 ? 132 : 108; }

FAKE_EXPORT CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
  if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = max_threads(); break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *v = 1024; break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = 64; break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = 2147483647; break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = 65535; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = DEFAULT_SHARED_PER_BLOCK; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = shared_optin_of(d); break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = sm_count(d); break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = 2048; break;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: *v = 65536; break;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *v = 1980000; break;
  case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 2619000; break;
  case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 5120; break;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = sm_count(d) == 132 ? 50 << 20 : 40 << 20; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = fake_device_sm_of(d) / 10; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = fake_device_sm_of(d) % 10; break;
  case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: *v = 7 + 16 * d; break;
  case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: *v = 1; break;
  default: *v = 0; break;
  }
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
  if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
  *bytes = (size_t)(sm_count(d) == 132 ? 80 : 40) << 30;
  return CUDA_SUCCESS;
}

static int g_retained[FAKE_MAX_DEVICES]; /* atomic: the primary context was retained */

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
  char fail[32];
  snprintf(fail, sizeof fail, "retain%d", d);
  if (fake_device_count() > 1) fake_log("cuDevicePrimaryCtxRetain device %d", d);
  else fake_log("cuDevicePrimaryCtxRetain");
  if (fake_failing(fail)) return CUDA_ERROR_OUT_OF_MEMORY;
  fake_contexts[d].device = d;
  *ctx = &fake_contexts[d];
  __atomic_store_n(&g_retained[d], 1, __ATOMIC_RELEASE);
  return CUDA_SUCCESS;
}

/* Active once retained (the fake never releases a primary context). */
FAKE_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned *flags, int *active) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
  *flags = 0;
  *active = __atomic_load_n(&g_retained[d], __ATOMIC_ACQUIRE);
  fake_log("cuDevicePrimaryCtxGetState device %d -> %s", d, *active ? "active" : "inactive");
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) {
  if (ctx && (ctx < fake_contexts || ctx >= fake_contexts + fake_device_count()))
    return CUDA_ERROR_INVALID_CONTEXT;
  fake_tls_current = ctx;
  if (fake_device_count() > 1) fake_log("cuCtxSetCurrent");
  return CUDA_SUCCESS;
}


FAKE_EXPORT CUresult cuCtxSynchronize(void) {
  NEED_CONTEXT();
  fake_log("cuCtxSynchronize");
  return fake_sticky_error;
}

/* ---- modules and launches ---- */

enum { FAKE_MAX_GLOBALS = 16 };
struct CUmod_st {
  struct {
    char name[128];
    CUdeviceptr ptr;
    size_t size;
  } globals[FAKE_MAX_GLOBALS]; /* cuModuleGetGlobal's answers, so each asks for memory once */
  const char *image;    /* the embedded text: alive until the program unloads the module */
  CUcontext context;    /* the context it was loaded in */
  char first_entry[128]; /* the first .entry's name, for the log (the image may be unmapped) */
  int unloaded;         /* by cuModuleUnload: the handle and its functions are dead */
  struct CUmod_st *next; /* every module ever loaded (g_modules): handles stay readable */
};
enum { MAX_PARAMS = 32 };
struct CUfunc_st {
  char name[128];
  int num_params;
  int param_size[MAX_PARAMS];
  int static_shared;      /* bytes of the .shared declarations in the entry's body */
  int max_dynamic_shared; /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
  CUcontext context;      /* its module's */
  struct CUmod_st *module;
  struct CUfunc_st *next; /* every function ever made (g_functions) */
};
/* Never freed, so that a stale handle is an error, not a crash; reachable for LeakSanitizer. */
static struct CUmod_st *g_modules;
static struct CUfunc_st *g_functions;

/* A module or function used while another device's context is current. */
static int foreign(CUcontext owner, const char *call, const char *name) {
  if (owner == fake_tls_current) return 0;
  fake_log("%s %s: belongs to device %d's context", call, name, owner->device);
  return 1;
}

/* A module or a function of one that was unloaded: CUDA_ERROR_INVALID_HANDLE. */
static int unloaded(const struct CUmod_st *m, const char *call, const char *name) {
  if (!m->unloaded) return 0;
  fake_log("%s %s: its module was unloaded", call, name);
  return 1;
}

FAKE_EXPORT CUresult cuModuleLoadDataEx(CUmodule *mod, const void *image, unsigned n,
                                        CUjit_option *opts, void **vals) {
  NEED_CONTEXT();
  const char *text = image;
  char *log = NULL;
  size_t log_size = 0;
  for (unsigned i = 0; i < n; i++) {
    if (opts[i] == CU_JIT_ERROR_LOG_BUFFER) log = vals[i];
    if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) log_size = (size_t)(uintptr_t)vals[i];
  }
  if (text[0] == '\x7f') { /* "cubin": the arch follows "arch=sm_" */
    const char *a = strstr(text, "arch=sm_");
    if (!a) { /* a real ELF from ptxas (plugin-built programs): the fake cannot read it */
      fake_log("cuModuleLoadDataEx cubin (real ELF, refused)");
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    int sm = atoi(a + 8);
    fake_log("cuModuleLoadDataEx cubin sm_%d", sm);
    if (fake_failing("cubin_reject") || sm / 10 != fake_device_sm() / 10 || sm > fake_device_sm())
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
  } else {
    const char *t = strstr(text, ".target sm_");
    int sm = t ? atoi(t + 11) : 0;
    fake_log("cuModuleLoadDataEx ptx sm_%d options=%u", sm, n);
    if (fake_failing("jit") || sm > fake_device_sm() || !strstr(text, ".version")) {
      if (log && log_size)
        snprintf(log, log_size, "ptxas application ptx input, line 9; error   : Unknown symbol "
                                "'kp_bogus'\nptxas fatal   : Ptx assembly aborted due to errors");
      return CUDA_ERROR_INVALID_PTX;
    }
  }
  struct CUmod_st *m = calloc(1, sizeof *m);
  m->image = text;
  m->context = fake_tls_current;
  const char *entry = strstr(text, ".entry ");
  if (entry) {
    entry += 7;
    snprintf(m->first_entry, sizeof m->first_entry, "%.*s", (int)strcspn(entry, "( \n"), entry);
  }
  pthread_mutex_lock(&fake_lock);
  m->next = g_modules;
  g_modules = m;
  pthread_mutex_unlock(&fake_lock);
  *mod = m;
  return CUDA_SUCCESS;
}

/* Logged as "cuModuleUnload <first .entry of the module>". */
FAKE_EXPORT CUresult cuModuleUnload(CUmodule mod) {
  NEED_CONTEXT();
  if (!mod) return CUDA_ERROR_INVALID_HANDLE;
  if (unloaded(mod, "cuModuleUnload", mod->first_entry)) return CUDA_ERROR_INVALID_HANDLE;
  if (foreign(mod->context, "cuModuleUnload", mod->first_entry)) return CUDA_ERROR_INVALID_HANDLE;
  fake_log("cuModuleUnload %s", mod->first_entry);
  mod->unloaded = 1;
  mod->image = NULL;
  return CUDA_SUCCESS;
}

/* Bytes of `.const .align A .<type> name[N]` (or a scalar without [N]) declared in the
 * image, or -1. */
static long const_size(const char *image, const char *name) {
  size_t len = strlen(name);
  for (const char *d = image; (d = strstr(d, ".const ")); d += 7) {
    const char *eol = strchr(d, '\n'), *t = strstr(d, " .");
    t = t ? strstr(t + 2, " .") : NULL; /* past ".align A" to the type */
    if (!t || (eol && t > eol)) continue;
    t += 1;
    long elem = strncmp(t, ".b8", 3) == 0 || strncmp(t, ".u8", 3) == 0 || strncmp(t, ".s8", 3) == 0 ? 1
                : strstr(t, "16 ") == t + 2 ? 2
                : strstr(t, "32 ") == t + 2 ? 4
                : strstr(t, "64 ") == t + 2 ? 8
                                            : -1;
    const char *n = strchr(t, ' ');
    if (elem < 0 || !n || strncmp(n + 1, name, len) != 0) continue;
    const char *after = n + 1 + len;
    if (*after == '[') return elem * atol(after + 1);
    if (*after == ';' || *after == ' ' || *after == '=') return elem;
  }
  return -1;
}

FAKE_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule mod,
                                          const char *name) {
  NEED_CONTEXT();
  if (unloaded(mod, "cuModuleGetGlobal", name)) return CUDA_ERROR_INVALID_HANDLE;
  if (foreign(mod->context, "cuModuleGetGlobal", name)) return CUDA_ERROR_INVALID_HANDLE;
  long size = const_size(mod->image, name);
  fake_log("cuModuleGetGlobal %s -> %ld bytes", name, size);
  if (size < 0) return CUDA_ERROR_NOT_FOUND;
  pthread_mutex_lock(&fake_lock);
  int slot = -1;
  for (int i = 0; i < FAKE_MAX_GLOBALS && slot < 0; i++)
    if (!mod->globals[i].name[0] || strcmp(mod->globals[i].name, name) == 0) slot = i;
  if (slot >= 0 && !mod->globals[slot].name[0]) {
    snprintf(mod->globals[slot].name, sizeof mod->globals[slot].name, "%s", name);
    mod->globals[slot].size = (size_t)size;
    mod->globals[slot].ptr = 0;
  }
  pthread_mutex_unlock(&fake_lock);
  if (slot < 0) return CUDA_ERROR_OUT_OF_MEMORY;
  if (!mod->globals[slot].ptr) mod->globals[slot].ptr = fake_module_global((size_t)size);
  if (!mod->globals[slot].ptr) return CUDA_ERROR_OUT_OF_MEMORY;
  if (dptr) *dptr = mod->globals[slot].ptr;
  if (bytes) *bytes = mod->globals[slot].size;
  return CUDA_SUCCESS;
}

static int param_size(const char *p) {
  if (strncmp(p, ".align", 6) == 0) { /* .align N .b8 name[SIZE] */
    const char *br = strchr(p, '[');
    return br ? atoi(br + 1) : -1;
  }
  if (strncmp(p, ".u64", 4) == 0 || strncmp(p, ".s64", 4) == 0 || strncmp(p, ".f64", 4) == 0)
    return 8;
  if (strncmp(p, ".u32", 4) == 0 || strncmp(p, ".s32", 4) == 0 || strncmp(p, ".f32", 4) == 0)
    return 4;
  if (strncmp(p, ".u16", 4) == 0 || strncmp(p, ".s16", 4) == 0 || strncmp(p, ".b16", 4) == 0)
    return 2;
  if (strncmp(p, ".u8", 3) == 0 || strncmp(p, ".s8", 3) == 0 || strncmp(p, ".b8", 3) == 0)
    return 1; /* ufunc's scalars of 1-byte signatures */
  return -1;
}

/* Bytes of the ".shared ... name[N];" declarations in the body that follows `p`, up to the
 * closing brace. */
static int body_shared_bytes(const char *p) {
  const char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
  int bytes = 0;
  for (const char *d = open; close && (d = strstr(d, ".shared")) && d < close; d += 7) {
    const char *br = strchr(d, '[');
    if (br && br < close) bytes += atoi(br + 1);
  }
  return bytes;
}

FAKE_EXPORT CUresult cuModuleGetFunction(CUfunction *fn, CUmodule mod, const char *name) {
  NEED_CONTEXT();
  if (unloaded(mod, "cuModuleGetFunction", name)) return CUDA_ERROR_INVALID_HANDLE;
  char pattern[160];
  snprintf(pattern, sizeof pattern, ".entry %s(", name);
  const char *e = strstr(mod->image, pattern);
  if (foreign(mod->context, "cuModuleGetFunction", name)) return CUDA_ERROR_INVALID_HANDLE;
  fake_log("cuModuleGetFunction %s%s", name, e ? "" : " NOT_FOUND");
  if (!e) return CUDA_ERROR_NOT_FOUND;
  struct CUfunc_st *f = calloc(1, sizeof *f);
  snprintf(f->name, sizeof f->name, "%s", name);
  f->context = mod->context;
  f->module = mod;
  pthread_mutex_lock(&fake_lock);
  f->next = g_functions;
  g_functions = f;
  pthread_mutex_unlock(&fake_lock);
  const char *p = e + strlen(pattern);
  const char *end = strchr(p, ')');
  while (p && p < end && f->num_params < MAX_PARAMS) {
    p = strstr(p, ".param ");
    if (!p || p > end) break;
    p += 7;
    f->param_size[f->num_params++] = param_size(p);
  }
  f->static_shared = body_shared_bytes(end);
  f->max_dynamic_shared = DEFAULT_SHARED_PER_BLOCK - f->static_shared;
  *fn = f;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f) {
  NEED_CONTEXT();
  if (a == CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) *v = f->static_shared;
  else if (a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) *v = f->max_dynamic_shared;
  else return CUDA_ERROR_INVALID_VALUE;
  fake_log("cuFuncGetAttribute %s %d -> %d", f->name, a, *v);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) {
  NEED_CONTEXT();
  fake_log("cuFuncSetAttribute %s %d %d", f->name, a, v);
  if (fake_failing("func_attribute")) return CUDA_ERROR_INVALID_VALUE;
  if (a != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) return CUDA_ERROR_INVALID_VALUE;
  if (v < 0 || f->static_shared + v > shared_optin()) {
    fake_log("cuFuncSetAttribute %s: %d + %d bytes exceed the opt-in limit", f->name,
          f->static_shared, v);
    return CUDA_ERROR_INVALID_VALUE;
  }
  f->max_dynamic_shared = v;
  return CUDA_SUCCESS;
}

/* Resident blocks per SM of the fake GPU: 2048 threads, 32 blocks and 228 KiB of shared
 * memory per SM. */
static int active_blocks(CUfunction f, int threads, size_t dynamic) {
  int by_threads = threads > 0 ? 2048 / threads : 0;
  int n = by_threads < 32 ? by_threads : 32;
  size_t per_block = (size_t)f->static_shared + dynamic;
  if (per_block && (size_t)n * per_block > 228 * 1024) n = (int)(228 * 1024 / per_block);
  return n;
}

FAKE_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction f,
                                                                 int threads, size_t dynamic) {
  NEED_CONTEXT();
  *blocks = active_blocks(f, threads, dynamic);
  fake_log("cuOccupancyMaxActiveBlocksPerMultiprocessor %s block=%d dynamic=%zu -> %d", f->name,
           threads, dynamic, *blocks);
  return CUDA_SUCCESS;
}

static CUresult launch_checked(const char *entry, CUfunction f, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by, unsigned bz,
                               unsigned shared, CUstream stream, void **params);

FAKE_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy,
                                               unsigned gz, unsigned bx, unsigned by,
                                               unsigned bz, unsigned shared, CUstream stream,
                                               void **params) {
  NEED_CONTEXT();
  const char *entry = "cuLaunchCooperativeKernel";
  if (unloaded(f->module, entry, f->name)) return CUDA_ERROR_INVALID_HANDLE;
  if (foreign(f->context, entry, f->name)) return CUDA_ERROR_INVALID_HANDLE;
  unsigned long long limit = (unsigned long long)active_blocks(f, (int)(bx * by * bz), shared) *
                             (unsigned long long)sm_count(fake_tls_current->device);
  if (fake_failing("coop_too_large") || (unsigned long long)gx * gy * gz > limit) {
    fake_log("%s %s grid=%u,%u,%u TOO LARGE (limit %llu)", entry, f->name, gx, gy, gz, limit);
    return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
  }
  return launch_checked(entry, f, gx, gy, gz, bx, by, bz, shared, stream, params);
}

FAKE_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                    unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                    CUstream stream, void **params, void **extra) {
  NEED_CONTEXT();
  if (unloaded(f->module, "cuLaunchKernel", f->name)) return CUDA_ERROR_INVALID_HANDLE;
  if (foreign(f->context, "cuLaunchKernel", f->name)) return CUDA_ERROR_INVALID_HANDLE;
  if (extra) return CUDA_ERROR_INVALID_VALUE;
  return launch_checked("cuLaunchKernel", f, gx, gy, gz, bx, by, bz, shared, stream, params);
}

/* What cuLaunchKernel and cuLaunchCooperativeKernel check and log (entry: which). */
static CUresult launch_checked(const char *entry, CUfunction f, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by, unsigned bz,
                               unsigned shared, CUstream stream, void **params) {
  if (!gx || !gy || !gz || !bx || !by || !bz || bx > 1024 || by > 1024 || bz > 64 ||
      gy > 65535 || gz > 65535 || (unsigned long long)bx * by * bz > (unsigned)max_threads()) {
    fake_log("%s %s BAD SIZES", entry, f->name);
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (shared > (unsigned)f->max_dynamic_shared) {
    fake_log("%s %s shared=%u over the function's allowance of %d", entry, f->name, shared,
          f->max_dynamic_shared);
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (fake_failing("launch_resources")) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  if (!fake_logging()) { /* benchmarks (kp_bench): the checks, not the formatting */
    for (int i = 0; i < f->num_params; i++)
      if (!params || !params[i]) return CUDA_ERROR_INVALID_VALUE;
    if (fake_failing("illegal_address")) fake_sticky_error = CUDA_ERROR_ILLEGAL_ADDRESS;
    return CUDA_SUCCESS;
  }
  char line[2048];
  int used = snprintf(line, sizeof line, "%s %s grid=%u,%u,%u block=%u,%u,%u "
                                         "shared=%u stream=%p params=",
                      entry, f->name, gx, gy, gz, bx, by, bz, shared, (void *)stream);
  for (int i = 0; i < f->num_params && used < (int)sizeof line - 64; i++) {
    if (!params || !params[i]) {
      fake_log("%s %s: parameter %d is NULL", entry, f->name, i);
      return CUDA_ERROR_INVALID_VALUE;
    }
    const unsigned char *b = params[i];
    used += snprintf(line + used, sizeof line - (size_t)used, "%s", i ? "," : "");
    if (f->param_size[i] == 8) {
      unsigned long long v;
      memcpy(&v, b, 8);
      used += snprintf(line + used, sizeof line - (size_t)used, "0x%llx", v);
    } else if (f->param_size[i] == 4) {
      unsigned v;
      memcpy(&v, b, 4);
      used += snprintf(line + used, sizeof line - (size_t)used, "0x%x", v);
    } else { /* bytes, lowest address first */
      for (int k = 0; k < f->param_size[i] && used < (int)sizeof line - 4; k++)
        used += snprintf(line + used, sizeof line - (size_t)used, "%02x", b[k]);
    }
  }
  fake_log("%s", line);
  if (fake_failing("illegal_address")) fake_sticky_error = CUDA_ERROR_ILLEGAL_ADDRESS;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, CUfunction f,
                                                      CUoccupancyB2DSize dynamic_of,
                                                      size_t dynamic, int block_limit) {
  NEED_CONTEXT();
  const char *s = getenv("FAKE_CUDA_OCC_BLOCK");
  int b = s && *s ? atoi(s) : 768;
  if (block_limit > 0 && b > block_limit) b = block_limit;
  if (dynamic_of) dynamic = dynamic_of(b);
  fake_log("cuOccupancyMaxPotentialBlockSize %s dynamic=%zu -> block=%d min_grid=%d", f->name,
        dynamic, b, 132 * (2048 / b));
  if (fake_failing("occupancy")) return CUDA_ERROR_INVALID_VALUE;
  *block = b;
  *min_grid = 132 * (2048 / b);
  return CUDA_SUCCESS;
}
