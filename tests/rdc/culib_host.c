/* culib_host.c — the CPU backend's cu_affine: the PTX of culib.cu has no CPU code, so the
 * host needs its own (plain C, no `device`: not exported to the GPU, where culib.ptx's is). */
float cu_affine(float x, float a);
float cu_affine(float x, float a) { return a * x + 1.0f; }
