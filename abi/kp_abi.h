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
 * The structs' fields are rows of abi/descriptors.def, from which both this header and the
 * plugin's IR types are generated (the plugin checks at compile time that they agree).
 * Element type codes are the rows of abi/types.def (abi/elem_types.h).
 *
 * Bump KP_ABI_VERSION whenever a layout or a meaning here changes; the runtime refuses a
 * module built for another version with a message that names the object's source file.
 * Every descriptor field is a pointer or a 64-bit integer so that the layout has no padding
 * to get wrong.
 */
#ifndef KP_ABI_H
#define KP_ABI_H

#include <stdint.h>

#include "elem_types.h" /* beside this file: found whatever the include path */

#ifdef __cplusplus
extern "C" {
#endif

/* 2: kp_kernel_desc.cpu_block_entry. 3: KP_KERNEL_VECTORIZE_ARRAYS and _FIRST_ARRAY, and
 * VECTORIZE kernels index with 32 bits (at most 2^30 elements per launch). 4: every module
 * calls __kp_unregister_module from a global destructor before its memory goes away
 * (dlclose), and the runtime relies on it to keep no pointer into an unloaded library.
 * 5: the descriptors are generated from abi/descriptors.def, and kp_kernel_desc.signature
 * points to a kp_signature_desc (type codes, core dimensions) instead of a string the runtime
 * parsed. Earlier versions were never released with a different runtime, so the runtime accepts
 * only the current one (objects built by an older plugin are refused with a message that
 * says to rebuild them). 6: kp_cpu_thread_range names a run of consecutive blocks (block[],
 * num_blocks), so that one call of a block entry runs several small blocks; and
 * kp_kernel_desc.cpu_range_entry (generated kernels' CPU range entries). 7: the primitives
 * kp_dev_clock64 and kp_dev_nanosleep, the element type F16 (_Float16) in signatures,
 * kp_kernel_desc.max_threads and min_blocks (launch_bounds), and kp_module_desc.constants
 * (file-scope `constant` variables, kp_constant_desc). 8: the primitive kp_dev_grid_sync and
 * KP_KERNEL_COOPERATIVE (a kernel that reaches it is launched cooperatively). */
#define KP_ABI_VERSION 8

/* KP_ABI_VERSION covers the kp_dev_* primitives too: objects call the ones their kernplug.h
 * declared, which libkernplug_rt (CPU) and the device bitcode (GPU) define. Beside it, the
 * version that last changed them and a digest of that set (the rows of abi/primitives.def
 * and the declarations of include/kernplug/detail/primitives.h); the CTest
 * header.primitives_abi fails until a change to either bumps KP_ABI_VERSION and renews these
 * two (its message gives the values). */
#define KP_ABI_PRIMITIVES_VERSION 8
#define KP_ABI_PRIMITIVES_SHA256 "e4872ec8c8287f441aacba878d06f6af98e8d3b0fef6446952fd2f3750843be5"

/* kp_param_desc.kind */
enum {
  KP_PARAM_VALUE = 0,   /* a scalar (or a piece of a struct the host ABI split), by value */
  KP_PARAM_POINTER = 1, /* a pointer parameter: may need a transfer */
  KP_PARAM_BYVAL = 2    /* a struct passed in memory: args[i] points at its bytes */
};

/* kp_param_desc.flags */
enum {
  KP_PARAM_CONST = 1u << 0, /* pointer to const: the kernel never writes through it */
  /* VALUE parameters of arithmetic type (ABI 7): floating, or a signed integer (neither: an
   * unsigned integer); gufunc converts a by-value scalar operand with them. */
  KP_PARAM_FLOAT = 1u << 1,
  KP_PARAM_SIGNED = 1u << 2
};

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
  KP_KERNEL_CPU_BLOCK_BARRIERS = 1u << 8,
  /* cpu_block_entry runs a kernel with warp collectives (and maybe barriers) without fibers,
   * its regions warp by warp: call it only with a block's full range, and only when each warp
   * is 32 consecutive x of one row (blockDim.x a multiple of 32, or blockDim.y and z 1); run
   * fibers otherwise. Runtimes that do not know the flag run fibers. */
  KP_KERNEL_CPU_BLOCK_WARPS = 1u << 9,
  /* With _BARRIERS or _WARPS: cpu_block_entry runs every block of the range's run
   * (num_blocks), each whole, one after another. Without it a split entry runs only the
   * first: call it once per block (a runtime that does not know the flag does). */
  KP_KERNEL_CPU_BLOCK_RUNS = 1u << 10,
  /* Reaches grid_sync() (ABI 8): every block of a launch must be resident at once (CUDA's
   * cooperative launch, cuLaunchCooperativeKernel; on the CPU backend every block alive as
   * fibers at once). Set with KP_KERNEL_USES_BARRIER; the kernel has no cpu_block_entry. */
  KP_KERNEL_COOPERATIVE = 1u << 11
};

/* Generated kernels, found by the runtime through host_fn (the user's scalar function), with
 * what they compute in their kp_signature_desc (abi/descriptors.def):
 *   VECTORIZE    __kp_vec_<f>_<k>(i64 n, R *out, T0 *in0, T0 s0, ..., i32 scalar_mask)
 *                signature types {R, T0, ...}, text "f32(f32,f32)" (one kernel per signature);
 *                out[i] = f(x0, ...) for i < n, xj = sj if bit j of scalar_mask else inj[i].
 *                n <= 2^30 and at most n + blockDim.x threads per launch: the index is 32-bit.
 *                Variants with the same signature and parameters ignore the mask: for calls
 *                without broadcast scalars __kp_vec_<f>_<k>_arrays (VECTORIZE | _ARRAYS) reads
 *                every inj[i]; for calls whose first input is the only array (two inputs or
 *                more) __kp_vec_<f>_<k>_first_array (VECTORIZE | _FIRST_ARRAY) reads in0[i]
 *                and takes sj for every other input.
 *   GUVECTORIZE  __kp_guvec_<f>(i64 n, <f's parameters>) with signature the layout (operands,
 *                core dimensions; text e.g. "(i)->()"): for k < n calls f on operand j at
 *                pj + k * (product of operand j's core dimensions), passing the core
 *                dimensions as given.
 *   REDUCE       __kp_reduce_<f>(i64 n, const T *in, T *out) with signature types {T} (text
 *                "f32", "i64", ...): launched with a multiple of 32 threads per block, each
 *                block folds one contiguous range of `in` in index order and writes
 *                out[blockIdx.x] (the geometry: abi/reduce_geometry.h), so f need only be
 *                associative. */

/* The descriptor structs, declared from abi/descriptors.def (the plugin builds its IR types
 * from the same rows). */
#define KP_ABI_STRUCT_BEGIN(S) typedef struct S S;
#define KP_ABI_FIELD(S, Name, Kind, CType)
#define KP_ABI_ARRAY(S, Name, Kind, CType, N)
#define KP_ABI_STRUCT_END(S)
#include "descriptors.def"
#undef KP_ABI_STRUCT_BEGIN
#undef KP_ABI_FIELD
#undef KP_ABI_ARRAY
#undef KP_ABI_STRUCT_END

/* CPU entry: runs the kernel body once for the calling worker's current thread indices. */
typedef void (*kp_cpu_entry_fn)(void **args);

/* CPU block entry: one loop over the range's blocks and threads with the kernel body inlined
 * and the thread indices as loop variables, so that element-wise kernels compile to vectorisable
 * loops. Kernels with barriers have one only with KP_KERNEL_CPU_BLOCK_BARRIERS; those with
 * warp collectives only with KP_KERNEL_CPU_BLOCK_WARPS (else they run as fibers). */
typedef void (*kp_cpu_block_fn)(void **args, const kp_cpu_thread_range *threads);

/* CPU range entry of a generated VECTORIZE or GUVECTORIZE kernel: with the kernel's arguments
 * (args[i] points at IR parameter i, as for cpu_entry), does what the kernel's loop does for
 * every index i with begin <= i < end (0 <= begin, end <= n), in order, with no thread
 * indices: out[i] = f(...) for VECTORIZE (any n up to 2^63 - 1: the index is 64-bit), f on
 * block i of every operand for GUVECTORIZE. Ranges that do not overlap may run at the same
 * time on different threads. */
typedef void (*kp_cpu_range_fn)(void **args, int64_t begin, int64_t end);

#define KP_ABI_STRUCT_BEGIN(S) struct S {
#define KP_ABI_FIELD(S, Name, Kind, CType) CType Name;
#define KP_ABI_ARRAY(S, Name, Kind, CType, N) CType Name[N];
#define KP_ABI_STRUCT_END(S) };
#include "descriptors.def"
#undef KP_ABI_STRUCT_BEGIN
#undef KP_ABI_FIELD
#undef KP_ABI_ARRAY
#undef KP_ABI_STRUCT_END

/* kp_image_desc.kind */
enum {
  KP_IMAGE_PTX = 0,  /* NUL-terminated PTX text; size counts the NUL */
  KP_IMAGE_CUBIN = 1 /* ELF from ptxas */
};

/* Called from the module's global constructor. */
void __kp_register_module(kp_module_desc *module);
/* Called from the module's global destructor (llvm.global_dtors, the mirror of the
 * constructor): at dlclose() of its library, or at exit. Afterwards the runtime holds no
 * pointer into the module: its kernels are no longer registered (launch() of one is the
 * "not a kernel" error, not a crash) and their GPU code is unloaded. */
void __kp_unregister_module(kp_module_desc *module);
/* PTX made by another compiler (nvcc -rdc -ptx), registered by the object kpcc makes of a
 * .ptx input: a module without kernels whose device functions other modules link with
 * (runtime/core/ptx_library.c). Returns the handle __kp_unregister_ptx_library takes. */
void *__kp_register_ptx_library(const char *name, const char *ptx);
void __kp_unregister_ptx_library(void *library);

/* Called by a kernel's host stub with the configuration pushed by launch(). */
void __kp_launch(kp_kernel_desc *kernel, void **args);

/* Checked mode (docs/debugging.md "Checked mode"), only in objects built with
 * -fplugin-arg-kernplug-check. The module's constructor and destructor register and
 * unregister its table of checked entries. A checked entry compares each access through a
 * pointer parameter with args[n][param] = {lo, hi} inline and calls __kp_check_param only to
 * report a failure; accesses to shared memory call __kp_check_shared (a static `shared` array
 * of array_bytes at base) or __kp_check_dynamic_shared. flags: bit 0 a write; where:
 * "file:line" (with -g) or NULL. The three check calls do not return on a failure: the launch
 * fails naming kernel, block, thread and what was accessed. */
void __kp_register_checked(const kp_checked_entry *rows, uint64_t count);
void __kp_unregister_checked(const kp_checked_entry *rows);
void __kp_check_param(int param, const char *p, uint64_t bytes, int flags, const char *where);
void __kp_check_shared(const char *base, uint64_t array_bytes, const char *name, const char *p,
                       uint64_t bytes, int flags, const char *where);
void __kp_check_dynamic_shared(const char *p, uint64_t bytes, int flags, const char *where);

#ifdef __cplusplus
}
#endif

#endif /* KP_ABI_H */
