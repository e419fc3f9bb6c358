// empty_kernels.cu — the empty kernels of the launch-cost benchmark for launch_raw.c, built
// by run.sh into a cubin with `nvcc -cubin -arch=native` (extern "C": unmangled names).
extern "C" __global__ void empty0() {}
extern "C" __global__ void empty4(float *, float *, float *, float *) {}
extern "C" __global__ void empty16(float *, float *, float *, float *, float *, float *, float *,
                                   float *, float *, float *, float *, float *, float *, float *,
                                   float *, float *) {}
