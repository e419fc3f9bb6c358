/* kernplug/timing.h — time inside kernels: CUDA's clock64() and __nanosleep(ns) (numba-cuda:
 * cuda.nanosleep). clock64() is a 64-bit counter that only grows: the SM's clock cycles on
 * the GPU, nanoseconds (CLOCK_MONOTONIC) on the CPU backend; compare two readings of one
 * thread, never readings of two SMs. kp_nanosleep(ns) suspends the thread for about ns
 * nanoseconds (the GPU sleeps between 0 and 2 ns, at most 1 ms; the CPU backend's worker
 * sleeps ns, at most 1 ms): a back-off in a spin loop. There is no short name nanosleep, which
 * is POSIX's; the CUDA spelling __nanosleep is in cuda_names.h. */
#ifndef KERNPLUG_TIMING_H
#define KERNPLUG_TIMING_H

#include "detail/primitives.h"

#define kp_clock64() kp_dev_clock64()
#define kp_nanosleep(ns) kp_dev_nanosleep(ns)

#endif /* KERNPLUG_TIMING_H */
