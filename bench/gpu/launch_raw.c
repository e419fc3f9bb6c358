/* launch_raw.c — the floor for launch cost: cuLaunchKernel called directly from C through
 * the driver API, on the empty kernels of empty_kernels.cu (a cubin built by nvcc), in the
 * primary context of device 0 and the default stream, as kernplug launches. 10^5 launches of
 * <<<1, 32>>> with 0, 4 and 16 pointer arguments, host clock from the first launch to the
 * end of a final synchronize, median of 5; one JSON line per case (impl "raw").
 *
 *   launch_raw empty_kernels.cubin [--check]
 * Built by run.sh: nvcc -O3 -o launch_raw launch_raw.c -lcuda */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define CK(call)                                                                               \
  do {                                                                                         \
    CUresult r_ = (call);                                                                      \
    if (r_ != CUDA_SUCCESS) {                                                                  \
      const char *s_ = "?";                                                                    \
      cuGetErrorName(r_, &s_);                                                                 \
      fprintf(stderr, "launch_raw: %s: %s\n", #call, s_);                                      \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s empty_kernels.cubin [--check]\n", argv[0]);
    return 2;
  }
  int check_only = argc > 2 && strcmp(argv[2], "--check") == 0;
  int launches = check_only ? 1000 : 100000, reps = check_only ? 1 : 5;
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn[3];
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, 0));
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CK(cuModuleLoad(&mod, argv[1]));
  const char *kernels[3] = {"empty0", "empty4", "empty16"};
  for (int k = 0; k < 3; k++) CK(cuModuleGetFunction(&fn[k], mod, kernels[k]));
  CUdeviceptr p[16];
  void *args[16];
  for (int i = 0; i < 16; i++) {
    CK(cuMemAlloc(&p[i], 256 * sizeof(float)));
    args[i] = &p[i];
  }
  const char *names[3] = {"empty kernel, 0 args", "empty kernel, 4 array args",
                          "empty kernel, 16 array args"};
  for (int k = 0; k < 3; k++) {
    void **params = k == 0 ? NULL : args;
    for (int i = 0; i < 1000; i++) CK(cuLaunchKernel(fn[k], 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    CK(cuCtxSynchronize());
    double ms[BENCH_MAX_REPS];
    for (int r = 0; r < reps; r++) {
      double t0 = bench_now_ms();
      for (int i = 0; i < launches; i++)
        CK(cuLaunchKernel(fn[k], 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
      CK(cuCtxSynchronize());
      ms[r] = bench_now_ms() - t0;
    }
    printf("{\"impl\": \"raw\", \"section\": \"launch\", \"case\": \"%s\", \"n\": %d, \"ms\": %.6f, "
           "\"reps\": %d, \"bytes\": 0, \"flops\": 0, \"check\": \"ok\", \"timer\": \"host clock\", "
           "\"note\": \"cuLaunchKernel from C, %d launches of <<<1, 32>>>, per launch\"}\n",
           names[k], launches, bench_median(ms, reps) / launches, reps, launches);
    fflush(stdout);
  }
  for (int i = 0; i < 16; i++) CK(cuMemFree(p[i]));
  CK(cuModuleUnload(mod));
  CK(cuDevicePrimaryCtxRelease(dev));
  return 0;
}
