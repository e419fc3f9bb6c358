// What the kernel collector hands the IR passes: each kernel once, from its definition, however
// often it is declared; the kernels in the order of their definitions, then the kernels
// generated for vectorize functions, even one defined before every kernel.
#include <kernplug.h>

__attribute__((kernel)) void late(float *x); // declared first, defined last

__attribute__((vectorize("float32(float32)"))) float twice(float x) { return 2 * x; }

__attribute__((kernel)) void early(float *x) { x[grid(1)] += 1; }
__attribute__((kernel)) void early(float *x); // declared again after its definition

__attribute__((kernel)) void late(float *x) { x[grid(1)] *= 3; }

// Each row: name, stub, CPU entry, …, file, line (of the definition), …; a vectorize
// signature of one input makes two kernels (the input a scalar or an array; every input an array).
// HOST: @__kp_kernels = internal global [4 x {{.*}}] [{{.*}} { ptr @{{.*}}, ptr @early, {{.*}}, i64 10, {{.*}} }, {{.*}} { ptr @{{.*}}, ptr @late, {{.*}}, i64 13, {{.*}} }, {{.*}} { ptr @{{.*}}, ptr @twice, ptr @__kp_vec_twice_0.kp.cpu, {{.*}} }, {{.*}} { ptr @{{.*}}, ptr @twice, ptr @__kp_vec_twice_0_arrays.kp.cpu, {{.*}} }]
