/* kernplug/version.h — the kernplug release this header belongs to (kp_detect() prints it).
 * The ABI between compiled objects and libkernplug_rt has its own number, KP_ABI_VERSION
 * (abi/kp_abi.h), which the runtime checks for every module. */
#ifndef KERNPLUG_VERSION_H
#define KERNPLUG_VERSION_H

#define KP_VERSION_MAJOR 0
#define KP_VERSION_MINOR 1
#define KP_VERSION_PATCH 0

#endif /* KERNPLUG_VERSION_H */
