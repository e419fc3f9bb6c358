/* Timing: CUDA's clock64() reads %clock64; __nanosleep suspends the thread (sm_70+). */
#include "kp_device.h"

unsigned long long kp_dev_clock64(void) { return __nvvm_read_ptx_sreg_clock64(); }
void kp_dev_nanosleep(unsigned ns) { __nvvm_nanosleep(ns); }
