/* hand_kernels.c — one translation unit as the kernplug plugin compiles it, written by hand.
 * See hand_kernels.h. Layout and meaning follow abi/kp_abi.h; each part is labelled with
 * the plugin step that produces it. */
#include "hand_kernels.h"

#include <stddef.h>

/* ---- kernel bodies: the host copies the plugin keeps for the CPU backend ------------------ */

static void foo_body(const float *in, float *out) {
  (void)in;
  int i = grid(1);
  out[i] = (float)i;
}

static void scale_body(float *x, float a, int n) {
  int i = grid(1);
  if (i < n) x[i] *= a;
}

static void record_body(unsigned *out) {
  kp_dim3 t = threadIdx, b = blockIdx, bd = blockDim, gd = gridDim;
  unsigned long long block = b.x + (unsigned long long)gd.x * (b.y + (unsigned long long)gd.y * b.z);
  unsigned long long thread = t.x + (unsigned long long)bd.x * (t.y + (unsigned long long)bd.y * t.z);
  unsigned long long id = block * bd.x * bd.y * bd.z + thread;
  unsigned *o = out + id * RECORD_FIELDS;
  unsigned v[RECORD_FIELDS] = {t.x, t.y, t.z, b.x, b.y, b.z, bd.x, bd.y, bd.z,
                               gd.x, gd.y, gd.z, (unsigned)laneid()};
  for (int k = 0; k < RECORD_FIELDS; k++) o[k] = v[k];
}

static void count_inc_body(unsigned *counter, unsigned limit, unsigned *olds, int n) {
  int i = grid(1);
  if (i < n) olds[i] = atomic_inc(counter, limit);
}

static void count_dec_body(unsigned *counter, unsigned limit, unsigned *olds, int n) {
  int i = grid(1);
  if (i < n) olds[i] = atomic_dec(counter, limit);
}

static void dyn_shared_body(int *out) {
  int *s = kp_dynamic_shared(int);
  int i = grid(1);
  s[threadIdx.x] = i * 3;
  threadfence_block();
  out[i] = s[threadIdx.x];
}

/* The plugin makes a `shared` array thread-local on the host: one copy per CPU worker, which
 * runs one block at a time. */
static _Thread_local int static_tile[STATIC_SHARED_INTS];
static void static_shared_body(int *out) {
  int i = grid(1);
  static_tile[threadIdx.x % STATIC_SHARED_INTS] = i + 1;
  out[i] = static_tile[threadIdx.x % STATIC_SHARED_INTS];
}

static void byval_body(big_arg s, double *out) {
  int i = grid(1);
  out[i] = s.a + s.b * i + s.n + s.c * 0;
}

static void with_barrier_body(float *x) {
  x[grid(1)] = 1;
  syncthreads();
}

static void with_warp_body(int *x) { x[grid(1)] = shfl_sync(0xffffffffu, 1, 0); }

static void unflagged_barrier_body(float *x) {
  syncthreads();
  x[grid(1)] = 1;
}

static void missing_entry_body(int *x) { x[grid(1)] = 7; }

void not_a_kernel(int *x) { *x = 42; }

/* ---- CPU trampolines: run one GPU thread's body from void **args --------------------------- */

static void foo_cpu(void **a) { foo_body(*(const float **)a[0], *(float **)a[1]); }
static void scale_cpu(void **a) { scale_body(*(float **)a[0], *(float *)a[1], *(int *)a[2]); }
static void record_cpu(void **a) { record_body(*(unsigned **)a[0]); }
static void count_inc_cpu(void **a) {
  count_inc_body(*(unsigned **)a[0], *(unsigned *)a[1], *(unsigned **)a[2], *(int *)a[3]);
}
static void count_dec_cpu(void **a) {
  count_dec_body(*(unsigned **)a[0], *(unsigned *)a[1], *(unsigned **)a[2], *(int *)a[3]);
}
static void dyn_shared_cpu(void **a) { dyn_shared_body(*(int **)a[0]); }
static void static_shared_cpu(void **a) { static_shared_body(*(int **)a[0]); }
/* byval: args[0] points at the struct's bytes */
static void byval_cpu(void **a) { byval_body(*(big_arg *)a[0], *(double **)a[1]); }
static void with_barrier_cpu(void **a) { with_barrier_body(*(float **)a[0]); }
static void with_warp_cpu(void **a) { with_warp_body(*(int **)a[0]); }
static void unflagged_barrier_cpu(void **a) { unflagged_barrier_body(*(float **)a[0]); }
static void missing_entry_cpu(void **a) { missing_entry_body(*(int **)a[0]); }

/* ---- host stubs: same signature as the kernel; one pointer per IR-level argument ----------- */

void foo(const float *in, float *out) {
  void *args[] = {&in, &out};
  __kp_launch(&hand_kernels[HK_FOO], args);
}
void scale(float *x, float a, int n) {
  void *args[] = {&x, &a, &n};
  __kp_launch(&hand_kernels[HK_SCALE], args);
}
void record_indices(unsigned *out) {
  void *args[] = {&out};
  __kp_launch(&hand_kernels[HK_RECORD], args);
}
void count_inc(unsigned *counter, unsigned limit, unsigned *olds, int n) {
  void *args[] = {&counter, &limit, &olds, &n};
  __kp_launch(&hand_kernels[HK_COUNT_INC], args);
}
void count_dec(unsigned *counter, unsigned limit, unsigned *olds, int n) {
  void *args[] = {&counter, &limit, &olds, &n};
  __kp_launch(&hand_kernels[HK_COUNT_DEC], args);
}
void dyn_shared(int *out) {
  void *args[] = {&out};
  __kp_launch(&hand_kernels[HK_DYN_SHARED], args);
}
void static_shared(int *out) {
  void *args[] = {&out};
  __kp_launch(&hand_kernels[HK_STATIC_SHARED], args);
}
void shrunk_shared(int *out) {
  void *args[] = {&out};
  __kp_launch(&hand_kernels[HK_SHRUNK_SHARED], args);
}
void byval_kernel(big_arg s, double *out) {
  void *args[] = {&s, &out};
  __kp_launch(&hand_kernels[HK_BYVAL], args);
}
void with_barrier(float *x) {
  void *args[] = {&x};
  __kp_launch(&hand_kernels[HK_WITH_BARRIER], args);
}
void with_warp(int *x) {
  void *args[] = {&x};
  __kp_launch(&hand_kernels[HK_WITH_WARP], args);
}
void unflagged_barrier(float *x) {
  void *args[] = {&x};
  __kp_launch(&hand_kernels[HK_UNFLAGGED_BARRIER], args);
}
void missing_entry(int *x) {
  void *args[] = {&x};
  __kp_launch(&hand_kernels[HK_MISSING_ENTRY], args);
}

/* ---- parameter tables ---------------------------------------------------------------------- */

#define PARAM(name_, kind_, flags_, size_, elem_size_)                                         \
  {.name = name_, .kind = kind_, .flags = flags_, .size = size_, .elem_size = elem_size_}
#define PTR(name_, esize, fl) PARAM(name_, KP_PARAM_POINTER, fl, 8, esize)
#define VAL(name_, size_) PARAM(name_, KP_PARAM_VALUE, 0, size_, 0)
static const kp_param_desc foo_params[] = {PTR("in", 4, KP_PARAM_CONST), PTR("out", 4, 0)};
static const kp_param_desc scale_params[] = {PTR("x", 4, 0), VAL("a", 4), VAL("n", 4)};
static const kp_param_desc record_params[] = {PTR("out", 4, 0)};
static const kp_param_desc count_params[] = {PTR("counter", 4, 0), VAL("limit", 4),
                                             PTR("olds", 4, 0), VAL("n", 4)};
static const kp_param_desc int_out_params[] = {PTR("out", 4, 0)};
static const kp_param_desc byval_params[] = {PARAM("s", KP_PARAM_BYVAL, 0, sizeof(big_arg), 0),
                                             PTR("out", 8, 0)};
static const kp_param_desc float_x_params[] = {PTR("x", 4, 0)};
static const kp_param_desc int_x_params[] = {PTR("x", 4, 0)};

/* ---- descriptors ----------------------------------------------------------------------------- */

/* By field name, as the plugin fills them (abi/descriptors.def); user kernels have no
 * signature, and these none of the optional entries (runtime_data, cpu_block_entry,
 * cpu_range_entry) and no launch_bounds (max_threads, min_blocks). */
#define KERNEL_SHARED(name_, fn, cpu, flags_, params_, shared_bytes_, line_)                   \
  {.name = name_,                                                                              \
   .host_fn = (const void *)fn,                                                                \
   .cpu_entry = cpu,                                                                           \
   .module = &hand_module,                                                                     \
   .flags = flags_,                                                                            \
   .num_params = sizeof params_ / sizeof params_[0],                                           \
   .params = params_,                                                                          \
   .signature = NULL,                                                                          \
   .shared_bytes = shared_bytes_,                                                              \
   .file = __FILE__,                                                                           \
   .line = line_,                                                                              \
   .runtime_data = NULL,                                                                       \
   .cpu_block_entry = NULL,                                                                    \
   .cpu_range_entry = NULL,                                                                    \
   .max_threads = 0,                                                                           \
   .min_blocks = 0}
#define KERNEL(name, fn, cpu, flags, params, line)                                             \
  KERNEL_SHARED(name, fn, cpu, flags, params, 0, line)

kp_kernel_desc hand_kernels[HK_NUM_KERNELS] = {
    [HK_FOO] = KERNEL("foo", foo, foo_cpu, 0, foo_params, 10),
    [HK_SCALE] = KERNEL("scale", scale, scale_cpu, 0, scale_params, 16),
    [HK_RECORD] = KERNEL("record_indices", record_indices, record_cpu, 0, record_params, 21),
    [HK_COUNT_INC] = KERNEL("count_inc", count_inc, count_inc_cpu, 0, count_params, 33),
    [HK_COUNT_DEC] = KERNEL("count_dec", count_dec, count_dec_cpu, 0, count_params, 38),
    [HK_DYN_SHARED] = KERNEL("dyn_shared", dyn_shared, dyn_shared_cpu,
                             KP_KERNEL_USES_DYNAMIC_SHARED, int_out_params, 43),
    [HK_BYVAL] = KERNEL("byval_kernel", byval_kernel, byval_cpu, 0, byval_params, 51),
    [HK_WITH_BARRIER] = KERNEL("with_barrier", with_barrier, with_barrier_cpu,
                               KP_KERNEL_USES_BARRIER, float_x_params, 56),
    [HK_WITH_WARP] = KERNEL("with_warp", with_warp, with_warp_cpu, KP_KERNEL_USES_WARP,
                            int_x_params, 61),
    [HK_UNFLAGGED_BARRIER] = KERNEL("unflagged_barrier", unflagged_barrier,
                                    unflagged_barrier_cpu, 0, float_x_params, 63),
    [HK_MISSING_ENTRY] = KERNEL("missing_entry", missing_entry, missing_entry_cpu, 0,
                                int_x_params, 68),
    [HK_STATIC_SHARED] = KERNEL_SHARED("static_shared", static_shared, static_shared_cpu, 0,
                                       int_out_params, STATIC_SHARED_INTS * sizeof(int), 53),
    [HK_SHRUNK_SHARED] = KERNEL_SHARED("shrunk_shared", shrunk_shared, static_shared_cpu, 0,
                                       int_out_params, 16 * 1024, 53),
};

/* ---- embedded images ------------------------------------------------------------------------
 * Not real GPU code: the fake libcuda (fake_cuda.c) reads the .entry lines to learn each
 * kernel's parameter sizes and checks the values cuLaunchKernel receives against them. */
#define ENTRIES                                                                                \
  ".visible .entry foo(.param .u64 foo_0, .param .u64 foo_1)\n{ ret; }\n"                     \
  ".visible .entry scale(.param .u64 scale_0, .param .f32 scale_1, .param .u32 scale_2)\n"    \
  "{ ret; }\n"                                                                                 \
  ".visible .entry record_indices(.param .u64 r_0)\n{ ret; }\n"                               \
  ".visible .entry count_inc(.param .u64 c_0, .param .u32 c_1, .param .u64 c_2, "             \
  ".param .u32 c_3)\n{ ret; }\n"                                                               \
  ".visible .entry count_dec(.param .u64 c_0, .param .u32 c_1, .param .u64 c_2, "             \
  ".param .u32 c_3)\n{ ret; }\n"                                                               \
  ".visible .entry dyn_shared(.param .u64 d_0)\n{ ret; }\n"                                   \
  ".visible .entry byval_kernel(.param .align 8 .b8 b_0[32], .param .u64 b_1)\n{ ret; }\n"    \
  ".visible .entry with_barrier(.param .u64 w_0)\n{ ret; }\n"                                 \
  ".visible .entry with_warp(.param .u64 w_0)\n{ ret; }\n"                                    \
  ".visible .entry unflagged_barrier(.param .u64 u_0)\n{ ret; }\n"                           \
  ".visible .entry static_shared(.param .u64 s_0)\n"                                         \
  "{ .shared .align 4 .b8 tile[4096]; ret; }\n"                                               \
  ".visible .entry shrunk_shared(.param .u64 s_0)\n"                                         \
  "{ .shared .align 4 .b8 tile[4096]; ret; }\n"

static const char hand_ptx[] = "// fake PTX for the kernplug runtime tests\n"
                               ".version 6.3\n.target sm_75\n.address_size 64\n" ENTRIES;
static const char hand_cubin_sm90[] = "\x7f" "ELF fake cubin arch=sm_90\n" ENTRIES;
static const char hand_cubin_sm80[] = "\x7f" "ELF fake cubin arch=sm_80\n" ENTRIES;

static const kp_image_desc hand_images[] = {
    {.kind = KP_IMAGE_PTX, .sm = 75, .data = hand_ptx, .size = sizeof hand_ptx},
    {.kind = KP_IMAGE_CUBIN, .sm = 80, .data = hand_cubin_sm80,
     .size = sizeof hand_cubin_sm80 - 1},
    {.kind = KP_IMAGE_CUBIN, .sm = 90, .data = hand_cubin_sm90,
     .size = sizeof hand_cubin_sm90 - 1},
};

kp_module_desc hand_module = {.abi_version = KP_ABI_VERSION,
                              .source = __FILE__,
                              .num_kernels = HK_NUM_KERNELS,
                              .kernels = hand_kernels,
                              .num_images = sizeof hand_images / sizeof hand_images[0],
                              .images = hand_images,
                              .num_constants = 0,
                              .constants = NULL,
                              .runtime_data = NULL};

/* ---- registration: the plugin's global constructor and destructor (ABI 4 on) ---------------- */

__attribute__((constructor)) static void register_hand_module(void) {
  __kp_register_module(&hand_module);
}

__attribute__((destructor)) static void unregister_hand_module(void) {
  __kp_unregister_module(&hand_module);
}
