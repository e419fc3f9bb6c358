// culib.cu — a CUDA C device function for kernplug kernels (tests/rdc): culib.ptx is
//   nvcc -rdc=true -ptx -arch=sm_75 culib.cu -o culib.ptx
// extern "C": the C name, which the kernel's prototype declares.
extern "C" __device__ float cu_affine(float x, float a) { return a * x + 1.0f; }
