// A vectorize function's CPU range entries: each generated kernel's descriptor names its
// <k>.kp.cpu_range, a loop over [begin, end) that the vectoriser turns into vector code; with
// -fno-math-errno -fveclib=libmvec (and AVX2) expf becomes glibc's 8-wide _ZGVdN8v_expf.
// Kernels with a range entry get no block entry.
#include <kernplug.h>
#include <math.h>

__attribute__((vectorize("f32(f32, f32, f32)"))) float gaussian(float x, float mean, float sigma) {
  float z = (x - mean) / sigma;
  return expf(-0.5f * z * z) / (sigma * 2.5066283f);
}

// HOST: @__kp_kernels = internal global [3 x {{.*}}] [{{.*}} { ptr @{{.*}}, ptr @gaussian, ptr @__kp_vec_gaussian_0.kp.cpu, {{.*}}, ptr null, ptr @__kp_vec_gaussian_0.kp.cpu_range, i64 0, i64 0 }, {{.*}} { ptr @{{.*}}, ptr @gaussian, ptr @__kp_vec_gaussian_0_arrays.kp.cpu, {{.*}}, ptr null, ptr @__kp_vec_gaussian_0_arrays.kp.cpu_range, i64 0, i64 0 }, {{.*}} { ptr @{{.*}}, ptr @gaussian, ptr @__kp_vec_gaussian_0_first_array.kp.cpu, {{.*}}, ptr null, ptr @__kp_vec_gaussian_0_first_array.kp.cpu_range, i64 0, i64 0 }]
// HOST-LABEL: define internal void @__kp_vec_gaussian_0_arrays.kp.cpu_range(
// HOST: call <8 x float> @_ZGVdN8v_expf(
// HOST-LABEL: define internal void @__kp_vec_gaussian_0_first_array.kp.cpu_range(
// HOST: call <8 x float> @_ZGVdN8v_expf(
// HOST-NOT: .kp.cpu_block
