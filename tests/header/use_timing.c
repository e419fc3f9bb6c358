// clock64 and nanosleep with kernplug/timing.h alone.
#include "kernplug/timing.h"

unsigned long long use_timing(unsigned ns) {
  unsigned long long t = kp_clock64();
  kp_nanosleep(ns);
  return kp_clock64() - t;
}
