/* elem_types.h — the element types of abi/types.def as C (and C++): codes and what each is.
 *
 * Header-only so that the plugin (C++) and the runtime (C17) compile the same definitions. */
#ifndef KP_ABI_ELEM_TYPES_H
#define KP_ABI_ELEM_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum kp_elem_class { KP_ELEM_CLASS_SINT, KP_ELEM_CLASS_UINT, KP_ELEM_CLASS_FLOAT };

/* KP_ELEM_I8 … KP_ELEM_F64: the type codes of descriptors and of the header's kp_type. */
enum kp_elem_type {
#define KP_ELEM_TYPE(Code, Short, Long, CType, Size, Class) KP_ELEM_##Code,
#include "types.def"
#undef KP_ELEM_TYPE
  KP_ELEM_COUNT
};

/* Codes out of range give "?", "?", 0 and -1. */
static inline const char *kp_elem_short_name(int64_t code) {
  switch (code) {
#define KP_ELEM_TYPE(Code, Short, Long, CType, Size, Class)                                    \
  case KP_ELEM_##Code: return #Short;
#include "types.def"
#undef KP_ELEM_TYPE
  default: return "?";
  }
}

static inline const char *kp_elem_long_name(int64_t code) {
  switch (code) {
#define KP_ELEM_TYPE(Code, Short, Long, CType, Size, Class)                                    \
  case KP_ELEM_##Code: return #Long;
#include "types.def"
#undef KP_ELEM_TYPE
  default: return "?";
  }
}

static inline size_t kp_elem_size(int64_t code) {
  switch (code) {
#define KP_ELEM_TYPE(Code, Short, Long, CType, Size, Class)                                    \
  case KP_ELEM_##Code: return Size;
#include "types.def"
#undef KP_ELEM_TYPE
  default: return 0;
  }
}

/* A kp_elem_class, or -1. */
static inline int kp_elem_class_of(int64_t code) {
  switch (code) {
#define KP_ELEM_TYPE(Code, Short, Long, CType, Size, Class)                                    \
  case KP_ELEM_##Code: return KP_ELEM_CLASS_##Class;
#include "types.def"
#undef KP_ELEM_TYPE
  default: return -1;
  }
}

/* The code of the type with this class and size, or -1. */
static inline int kp_elem_of(int elem_class, size_t size) {
#define KP_ELEM_TYPE(Code, Short, Long, CType, Size, Class)                                    \
  if (elem_class == KP_ELEM_CLASS_##Class && size == Size) return KP_ELEM_##Code;
#include "types.def"
#undef KP_ELEM_TYPE
  return -1;
}

#ifdef __cplusplus
}
#endif

#endif /* KP_ABI_ELEM_TYPES_H */
