/* test_abi.c — the plugin/runtime contract of abi/: descriptor layouts, element types and the
 * signature-matching rule that both the runtime and the plugin compile.
 *
 * An object of the previous ABI version is refused at registration.
 *
 * The layout checks are compile-time: every field of abi/descriptors.def has the size of its
 * Kind column (the IR type the plugin builds from the same row) and the structs have no
 * padding, so the C struct and the plugin's IR struct place every field alike (the plugin
 * checks offsets itself, plugin/host/AbiTypes.cpp). */
#include <stddef.h>

#include "kernplug.h"
#include "kp_abi.h"
#include "reduce_geometry.h"
#include "signature_match.h"
#include "test_util.h"

/* ---- layouts, at compile time ----------------------------------------------------------- */

#define KP_KIND_BYTES_PTR sizeof(void *)
#define KP_KIND_BYTES_U64 8
#define KP_KIND_BYTES_U32 4

#define KP_ABI_STRUCT_BEGIN(S)
#define KP_ABI_FIELD(S, Name, Kind, CType)                                                     \
  _Static_assert(sizeof(((S *)0)->Name) == KP_KIND_BYTES_##Kind,                               \
                 #S "." #Name ": the C type's size is not its IR kind's");                     \
  _Static_assert(offsetof(S, Name) % KP_KIND_BYTES_##Kind == 0, #S "." #Name " is misaligned");
#define KP_ABI_ARRAY(S, Name, Kind, CType, N)                                                  \
  _Static_assert(sizeof(((S *)0)->Name) == (N) * KP_KIND_BYTES_##Kind,                         \
                 #S "." #Name ": the C array's size is not its IR type's");                    \
  _Static_assert(offsetof(S, Name) % KP_KIND_BYTES_##Kind == 0, #S "." #Name " is misaligned");
#define KP_ABI_STRUCT_END(S)
#include "descriptors.def"
#undef KP_ABI_STRUCT_BEGIN
#undef KP_ABI_FIELD
#undef KP_ABI_ARRAY
#undef KP_ABI_STRUCT_END

/* sizeof(S) == the sum of its fields: no padding anywhere, so offsets are running sums. */
#define KP_ABI_STRUCT_BEGIN(S) _Static_assert(sizeof(S) == 0
#define KP_ABI_FIELD(S, Name, Kind, CType) +KP_KIND_BYTES_##Kind
#define KP_ABI_ARRAY(S, Name, Kind, CType, N) +(N) * KP_KIND_BYTES_##Kind
#define KP_ABI_STRUCT_END(S) , #S " has padding or fields the table does not list");
#include "descriptors.def"
#undef KP_ABI_STRUCT_BEGIN
#undef KP_ABI_FIELD
#undef KP_ABI_ARRAY
#undef KP_ABI_STRUCT_END

_Static_assert(offsetof(kp_cpu_thread_range, end) == 3 * sizeof(uint32_t),
               "kp_cpu_thread_range: end[] follows begin[3]");

/* ---- element types ---------------------------------------------------------------------- */

static void test_elem_types(void) {
  CHECK((int)KP_ELEM_COUNT == (int)KP_TYPE_COUNT); /* per row: runtime/ufunc/ufunc_common.c */
  for (int c = 0; c < KP_ELEM_COUNT; c++) {
    size_t size = kp_elem_size(c);
    CHECK(size == 1 || size == 2 || size == 4 || size == 8);
    CHECK(kp_elem_of(kp_elem_class_of(c), size) == c); /* class and size name one type */
  }
  CHECK(kp_elem_size(KP_ELEM_F32) == sizeof(float) && kp_elem_size(KP_ELEM_U16) == 2);
  CHECK(kp_elem_class_of(KP_ELEM_I64) == KP_ELEM_CLASS_SINT);
  CHECK(strcmp(kp_elem_long_name(KP_ELEM_U8), "uint8") == 0);
  CHECK(kp_elem_size(KP_ELEM_COUNT) == 0 && kp_elem_class_of(-1) == -1);
  CHECK(strcmp(kp_elem_short_name(KP_ELEM_COUNT), "?") == 0);
  CHECK(kp_elem_of(KP_ELEM_CLASS_FLOAT, 2) == KP_ELEM_F16 && KP_ELEM_F16 == KP_ELEM_F64 + 1);
  CHECK(strcmp(kp_elem_long_name(KP_ELEM_F16), "float16") == 0);
  CHECK(kp_elem_of(KP_ELEM_CLASS_FLOAT, 16) == -1);
}

/* ---- the signature-matching rule -------------------------------------------------------- */

static const uint64_t f32_f32_f32[] = {KP_ELEM_F32, KP_ELEM_F32, KP_ELEM_F32};
static const uint64_t f64_f64_f64[] = {KP_ELEM_F64, KP_ELEM_F64, KP_ELEM_F64};
static const uint64_t f32_f32_i32[] = {KP_ELEM_F32, KP_ELEM_F32, KP_ELEM_I32};
static const uint64_t f32_f32[] = {KP_ELEM_F32, KP_ELEM_F32};

static kp_signature_desc sig(const uint64_t *types, uint64_t n) {
  kp_signature_desc s;
  memset(&s, 0, sizeof s);
  s.num_types = n;
  s.types = types;
  return s;
}

#define ARR(t) ((kp_match_arg){KP_ELEM_##t, 1})
#define SCL(t) ((kp_match_arg){KP_ELEM_##t, 0})

static void test_signature_match(void) {
  kp_signature_desc a = sig(f32_f32_f32, 3), b = sig(f64_f64_f64, 3), c = sig(f32_f32_i32, 3),
                    unary = sig(f32_f32, 2);
  const kp_signature_desc *sigs[] = {&a, &b, &c};

  /* Arrays must match exactly; the output picks among signatures. */
  kp_match_arg f64s[] = {ARR(F64), ARR(F64), ARR(F64)};
  CHECK(kp_signature_fit(&a, f64s, 3) == -1);
  CHECK(kp_signature_pick(sigs, 3, f64s, 3) == 1);
  kp_match_arg mixed[] = {ARR(F32), ARR(F32), ARR(F64)};
  CHECK(kp_signature_pick(sigs, 3, mixed, 3) == -1);

  /* Scalars convert; the signature matching more scalar types exactly wins. */
  kp_match_arg int_scalar[] = {ARR(F32), ARR(F32), SCL(I32)};
  CHECK(kp_signature_fit(&a, int_scalar, 3) == 0);
  CHECK(kp_signature_fit(&c, int_scalar, 3) == 1);
  CHECK(kp_signature_pick(sigs, 3, int_scalar, 3) == 2);
  /* A tie goes to the first declared. */
  kp_match_arg long_scalar[] = {ARR(F32), ARR(F32), SCL(I64)};
  CHECK(kp_signature_pick(sigs, 3, long_scalar, 3) == 0);

  /* The output must be an array of the result type; the arity must match. */
  kp_match_arg scalar_out[] = {SCL(F32), ARR(F32), ARR(F32)};
  CHECK(kp_signature_pick(sigs, 3, scalar_out, 3) == -1);
  kp_match_arg two[] = {ARR(F32), ARR(F32)};
  CHECK(kp_signature_pick(sigs, 3, two, 2) == -1);
  CHECK(kp_signature_fit(&unary, two, 2) == 0);
  CHECK(kp_signature_pick(sigs, 0, two, 2) == -1);

  /* Variants are found by their types, not by where their descriptor lives. */
  kp_signature_desc a_copy = sig(f32_f32_f32, 3);
  CHECK(kp_signature_same_types(&a, &a_copy) && kp_signature_same_types(&a, &a));
  CHECK(!kp_signature_same_types(&a, &c) && !kp_signature_same_types(&a, &unary));
  CHECK(!kp_signature_same_types(&a, NULL));
}

/* ---- reduce geometry -------------------------------------------------------------------- */

static void test_reduce_geometry(void) {
  /* A warp step reads KP_REDUCE_WARP lanes of KP_REDUCE_LANE_BYTES: 1 KiB for every width. */
  for (long long esize = 1; esize <= 8; esize *= 2)
    CHECK(KP_REDUCE_TILE(esize) * esize == KP_REDUCE_WARP * KP_REDUCE_LANE_BYTES);
  CHECK(KP_REDUCE_CEIL_DIV(1025LL, 1024LL) == 2 && KP_REDUCE_CEIL_DIV(1024LL, 1024LL) == 1);
  CHECK(KP_REDUCE_TILES_PER_WARP(100LL, 32LL) == 4);
  CHECK(KP_REDUCE_WARP * KP_REDUCE_MAX_WARPS == 1024);
}

/* ---- objects of the previous ABI --------------------------------------------------------- */

/* A module from the plugin before the primitive grid_sync and KP_KERNEL_COOPERATIVE (ABI 7)
 * is refused, never run with a primitive set it was not built against. */
static void test_previous_abi_refused(void) {
  _Static_assert(KP_ABI_VERSION == 8, "update this test and hand_kernels.c with the ABI");
  static kp_module_desc abi7 = {.abi_version = 7, .source = "abi7_object.c"};
  __kp_register_module(&abi7);
  CHECK_ERROR(KP_ERROR_INTERNAL, "abi7_object.c was compiled by a kernplug plugin with ABI "
                                 "version 7, but this libkernplug_rt speaks version 8");
  __kp_unregister_module(&abi7);
}

int main(void) {
  kp_set_error_mode(KP_ERRORS_RETURN);
  test_previous_abi_refused();
  test_elem_types();
  test_signature_match();
  test_reduce_geometry();
  printf("abi: ok\n");
  return 0;
}
