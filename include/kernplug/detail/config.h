/* kernplug/detail/config.h — attribute macros the other headers build on. */
#ifndef KERNPLUG_DETAIL_CONFIG_H
#define KERNPLUG_DETAIL_CONFIG_H

#if defined(__GNUC__) || defined(__clang__)
#define KP_PURE_INDEX __attribute__((const, nothrow))
#define KP_ALWAYS_INLINE __attribute__((always_inline, unused)) static inline
#else
#define KP_PURE_INDEX
#define KP_ALWAYS_INLINE static inline
#endif

/* Barriers and warp collectives (the Convergent column of abi/primitives.def): no optimisation
 * may make a call of one depend on more or other control flow. runtime/device/ defines them
 * convergent; declaring them so keeps the property on every call, on both targets, before the
 * plugin links the definitions in. GCC has no such attribute (and no NVPTX target).
 * tests/header/check_primitives.cmake predefines it empty to see the device definitions' own
 * attributes. */
#ifndef KP_DEV_CONVERGENT
#if defined(__has_attribute)
#if __has_attribute(convergent)
#define KP_DEV_CONVERGENT __attribute__((convergent))
#endif
#endif
#endif
#ifndef KP_DEV_CONVERGENT
#define KP_DEV_CONVERGENT
#endif

#endif /* KERNPLUG_DETAIL_CONFIG_H */
