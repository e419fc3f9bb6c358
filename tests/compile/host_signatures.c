// Generated kernels carry what they compute as data (kp_signature_desc, abi/descriptors.def),
// so the runtime parses no text: element type codes from abi/types.def (i64 3, u8 4, f32 8,
// f64 9) for vectorize, result first; operands and core dimensions for guvectorize (a named
// size as its index, a fixed size as -size). A vectorize function's general kernel and its
// two variants share their signature's descriptor.
#include <kernplug.h>

__attribute__((vectorize("f32(f32, f64)", "int64(int64,uint8)")))
double addf(double a, double b) { return a + b; }

__attribute__((guvectorize("(m, n), (n) -> (m), (3)")))
void mv(const float *a, const float *x, float *y, float *t, int m, int n) {
  for (int i = 0; i < m; i++) {
    y[i] = 0;
    for (int j = 0; j < n; j++) y[i] += a[i * n + j] * x[j];
  }
  t[0] = t[1] = t[2] = 0;
}

// HOST: @__kp_kernels = internal global [7 x {{.*}}] [{{.*}} { ptr @{{.*}}, ptr @addf, {{.*}}, ptr @[[SIG0:__kp_sig[.0-9]*]], {{.*}} }, {{.*}} { ptr @{{.*}}, ptr @addf, {{.*}}, ptr @[[SIG0]], {{.*}} }, {{.*}} { ptr @{{.*}}, ptr @addf, {{.*}}, ptr @[[SIG0]], {{.*}} }, {{.*}} { ptr @{{.*}}, ptr @addf, {{.*}}, ptr @[[SIG1:__kp_sig[.0-9]*]], {{.*}} }, {{.*}} { ptr @{{.*}}, ptr @addf, {{.*}}, ptr @[[SIG1]], {{.*}} }, {{.*}} { ptr @{{.*}}, ptr @addf, {{.*}}, ptr @[[SIG1]], {{.*}} }, {{.*}} { ptr @{{.*}}, ptr @mv, {{.*}}, ptr @[[SIG2:__kp_sig[.0-9]*]], {{.*}} }]
// HOST: c"f32(f32,f64)\00"
// HOST: [3 x i64] [i64 8, i64 8, i64 9]
// HOST: @[[SIG0]] = private constant { ptr, i64, ptr, i64, i64, ptr, ptr, i64, ptr } { ptr @{{.*}}, i64 3, ptr @{{.*}}, i64 0, i64 0, ptr null, ptr null, i64 0, ptr null }
// HOST: c"i64(i64,u8)\00"
// HOST: [3 x i64] [i64 3, i64 3, i64 4]
// HOST: @[[SIG1]] = private constant {{.*}} { ptr @{{.*}}, i64 3, ptr @{{.*}}, i64 0, i64 0, ptr null, ptr null, i64 0, ptr null }
// HOST: c"(m,n),(n)->(m),(3)\00"
// HOST: @[[OPS:__kp_sig_operands[.0-9]*]] = private constant [4 x i64] [i64 2, i64 1, i64 1, i64 1]
// HOST: @[[DIMS:__kp_sig_dims[.0-9]*]] = private constant [5 x i64] [i64 0, i64 1, i64 1, i64 0, i64 -3]
// HOST: @[[NAMES:__kp_sig_names[.0-9]*]] = private constant [2 x ptr]
// HOST: @[[SIG2]] = private constant {{.*}} { ptr @{{.*}}, i64 0, ptr null, i64 2, i64 4, ptr @[[OPS]], ptr @[[DIMS]], i64 2, ptr @[[NAMES]] }
