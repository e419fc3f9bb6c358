/* kp_abi.h — the private interface between the kernplug plugin and libkernplug_rt.
 *
 * The plugin emits, per translation unit, one kp_module_desc with its kernel and image
 * tables as IR globals laid out exactly as these structs, a global constructor that calls
 * __kp_register_module() and a global destructor that calls __kp_unregister_module(). Each
 * kernel's host stub fills `void *args[]` (one pointer per IR-level argument; a byval
 * argument passes its own pointer) and calls __kp_launch().
 *
 * The tables are writable: the runtime keeps its per-module and per-kernel state in the
 * `runtime_data` slots, so the launch path needs no lookup and no allocation.
 *
 * Bump KP_ABI_VERSION whenever a layout or a meaning here changes; the runtime refuses a
 * module built for another version with a message that names the object's source file.
 * Every field is a pointer or a 64-bit integer so that the layout has no padding to get wrong.
 */
#ifndef KP_ABI_H
#define KP_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2: kp_kernel_desc.cpu_block_entry. 3: KP_KERNEL_VECTORIZE_ARRAYS and _FIRST_ARRAY, and
 * VECTORIZE kernels index with 32 bits (at most 2^30 elements per launch). 4: every module
 * calls __kp_unregister_module from a global destructor before its memory goes away
 * (dlclose), and the runtime relies on it to keep no pointer into an unloaded library.
 * Earlier versions were never released with a different runtime, so the runtime accepts
 * only the current one (objects built by an older plugin are refused with a message that
 * says to rebuild them). */
#define KP_ABI_VERSION 4

/* KP_ABI_VERSION covers the kp_dev_* primitives too: objects call the ones their kernplug.h
 * declared, which libkernplug_rt (CPU) and the device bitcode (GPU) define. Beside it, the
 * version that last changed them and a digest of that set (the rows of abi/primitives.def
 * and the declarations of include/kernplug/detail/primitives.h); the CTest
 * header.primitives_abi fails until a change to either bumps KP_ABI_VERSION and renews these
 * two (its message gives the values). */
#define KP_ABI_PRIMITIVES_VERSION 4
#define KP_ABI_PRIMITIVES_SHA256 "5327e55f7d323cb76597142e239b1e59c1f1f788378eb5dd74040e4ffb6b0460"

/* kp_param_desc.kind */
enum {
  KP_PARAM_VALUE = 0,   /* a scalar (or a piece of a struct the host ABI split), by value */
  KP_PARAM_POINTER = 1, /* a pointer parameter: may need a transfer */
  KP_PARAM_BYVAL = 2    /* a struct passed in memory: args[i] points at its bytes */
};

/* kp_param_desc.flags */
enum {
  KP_PARAM_CONST = 1u << 0 /* pointer to const: the kernel never writes through it */
};

typedef struct kp_param_desc {
  const char *name;   /* the C parameter name ("x", or "s.1" for the second piece of s) */
  uint64_t kind;      /* KP_PARAM_* */
  uint64_t flags;     /* KP_PARAM_CONST … */
  uint64_t size;      /* bytes of the IR-level argument (of the struct for BYVAL) */
  uint64_t elem_size; /* POINTER: bytes of the pointee type (0 if void or incomplete) */
} kp_param_desc;

/* kp_kernel_desc.flags */
enum {
  KP_KERNEL_USES_BARRIER = 1u << 0, /* calls syncthreads* (transitively) */
  KP_KERNEL_USES_WARP = 1u << 1,    /* calls shfl/ballot/vote/syncwarp (transitively) */
  KP_KERNEL_VECTORIZE = 1u << 2,    /* element-wise kernel generated from a vectorize function */
  KP_KERNEL_USES_DYNAMIC_SHARED = 1u << 3,
  KP_KERNEL_GUVECTORIZE = 1u << 4,  /* loop kernel generated from a guvectorize function */
  KP_KERNEL_REDUCE = 1u << 5,       /* block-reduction kernel generated from a reduce function */
  KP_KERNEL_VECTORIZE_ARRAYS = 1u << 6,      /* with VECTORIZE: the variant for all-array inputs */
  KP_KERNEL_VECTORIZE_FIRST_ARRAY = 1u << 7, /* with VECTORIZE: input 0 an array, the rest scalars */
  /* cpu_block_entry runs a kernel with barriers without fibers (split at its barriers into
   * loops over the block's threads): call it only with a block's full range. Runtimes that do
   * not know the flag run such kernels as fibers through cpu_entry, which stays correct. */
  KP_KERNEL_CPU_BLOCK_BARRIERS = 1u << 8
};

/* Generated kernels, found by the runtime through host_fn (the user's scalar function):
 *   VECTORIZE    __kp_vec_<f>_<k>(i64 n, R *out, T0 *in0, T0 s0, ..., i32 scalar_mask)
 *                signature "f32(f32,f32)" (canonical short names, one kernel per signature);
 *                out[i] = f(x0, ...) for i < n, xj = sj if bit j of scalar_mask else inj[i].
 *                n <= 2^30 and at most n + blockDim.x threads per launch: the index is 32-bit.
 *                Variants with the same signature and parameters ignore the mask: for calls
 *                without broadcast scalars __kp_vec_<f>_<k>_arrays (VECTORIZE | _ARRAYS) reads
 *                every inj[i]; for calls whose first input is the only array (two inputs or
 *                more) __kp_vec_<f>_<k>_first_array (VECTORIZE | _FIRST_ARRAY) reads in0[i]
 *                and takes sj for every other input.
 *   GUVECTORIZE  __kp_guvec_<f>(i64 n, <f's parameters>) with signature the layout, e.g.
 *                "(i)->()": for k < n calls f on operand j at pj + k * (product of operand j's
 *                core dimensions), passing the core dimensions as given.
 *   REDUCE       __kp_reduce_<f>(i64 n, const T *in, T *out) with signature the element type
 *                ("f32", "i64", ...): launched with a multiple of 32 threads per block, each
 *                block folds one contiguous range of `in` in index order and writes
 *                out[blockIdx.x] (the geometry is in runtime/device/reduce_template.c and
 *                runtime/ufunc/reduce.c), so f need only be associative. */

typedef struct kp_module_desc kp_module_desc;

/* CPU entry: runs the kernel body once for the calling worker's current thread indices. */
typedef void (*kp_cpu_entry_fn)(void **args);

/* The threads of the current block (kp_cpu_state.ctaid) a CPU block entry runs: every
 * (x, y, z) with begin[d] <= d < end[d], x fastest. Built by the runtime; the plugin reads
 * it as six i32s. */
typedef struct kp_cpu_thread_range {
  uint32_t begin[3];
  uint32_t end[3];
} kp_cpu_thread_range;

/* CPU block entry: one loop over the range's threads with the kernel body inlined and the
 * thread indices as loop variables, so that element-wise kernels compile to vectorisable
 * loops. Kernels with barriers have one only with KP_KERNEL_CPU_BLOCK_BARRIERS; those with
 * warp collectives have none (they run as fibers). */
typedef void (*kp_cpu_block_fn)(void **args, const kp_cpu_thread_range *threads);

typedef struct kp_kernel_desc {
  const char *name;           /* C name; also the PTX .entry name */
  const void *host_fn;        /* the stub users call; for generated kernels the user's function */
  kp_cpu_entry_fn cpu_entry;  /* host copy of the body behind a void** trampoline */
  kp_module_desc *module;     /* the module this kernel belongs to */
  uint64_t flags;             /* KP_KERNEL_* */
  uint64_t num_params;        /* IR-level parameters */
  const kp_param_desc *params;
  const char *signature;      /* generated kernels: see above; else NULL */
  uint64_t shared_bytes;      /* bytes of static `shared` arrays the kernel reaches */
  const char *file;           /* where the kernel is defined, for messages */
  uint64_t line;
  void *runtime_data;         /* owned by the runtime (cached CUfunction, …) */
  kp_cpu_block_fn cpu_block_entry; /* ABI 2; NULL where the kernel needs fibers */
} kp_kernel_desc;

/* kp_image_desc.kind */
enum {
  KP_IMAGE_PTX = 0,  /* NUL-terminated PTX text; size counts the NUL */
  KP_IMAGE_CUBIN = 1 /* ELF from ptxas */
};

typedef struct kp_image_desc {
  uint64_t kind;     /* KP_IMAGE_* */
  uint64_t sm;       /* the arch as a number: 75 for sm_75, 90 for sm_90 */
  const void *data;
  uint64_t size;
} kp_image_desc;

struct kp_module_desc {
  uint64_t abi_version; /* KP_ABI_VERSION */
  const char *source;   /* the translation unit's main file */
  uint64_t num_kernels;
  kp_kernel_desc *kernels;
  uint64_t num_images;  /* the PTX first, then one cubin per arch */
  const kp_image_desc *images;
  void *runtime_data;   /* owned by the runtime (the loaded CUmodule, …) */
};

/* Called from the module's global constructor. */
void __kp_register_module(kp_module_desc *module);
/* Called from the module's global destructor (llvm.global_dtors, the mirror of the
 * constructor): at dlclose() of its library, or at exit. Afterwards the runtime holds no
 * pointer into the module: its kernels are no longer registered (launch() of one is the
 * "not a kernel" error, not a crash) and their GPU code is unloaded. */
void __kp_unregister_module(kp_module_desc *module);

/* Called by a kernel's host stub with the configuration pushed by launch(). */
void __kp_launch(kp_kernel_desc *kernel, void **args);

#ifdef __cplusplus
}
#endif

#endif /* KP_ABI_H */
