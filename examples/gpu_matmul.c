/* gpu_matmul.c — the matrix product of seed 004 on a 2D grid: C = A @ B for 256x256 float32
 * matrices, one thread per element of C, blocks of (16, 16) threads.
 *
 *   @cuda.jit
 *   def gpu_matmul(A, B, C):
 *     row = cuda.grid(0)
 *     col = cuda.grid(1)
 *     if row < C.shape[0] and col < C.shape[1]:
 *       tmp_sum = 0.0
 *       for k in range(A.shape[1]):
 *         tmp_sum += A[row,k] * B[k,col]
 *       C[row, col] = tmp_sum
 *
 *   threadsperblock = (16,16)
 *   blockspergrid_x = (C.shape[0] + (threadsperblock[0] - 1)) // threadsperblock[0]
 *   blockspergrid_y = (C.shape[1] + (threadsperblock[1] - 1)) // threadsperblock[1]
 *   gpu_matmul[(blockspergrid_x, blockspergrid_y), threadsperblock](A, B, C)
 *
 * cuda.grid takes the number of dimensions, so the seed's grid(0)/grid(1) pair is read as
 * what it means: `row, col = cuda.grid(2)`, x along the rows of C as in the seed's grid. C has
 * no array shapes: the matrices are flat row-major arrays and their sizes are arguments.
 * After the seed's 256x256 case, a 70x45 @ 45x33 product checks the bounds test. */
#include "example_util.h"
#include "kernplug.h"
#include "matmul_check.h"

/* A is m x k, B is k x n, C is m x n, all row-major. */
__attribute__((kernel)) void gpu_matmul(const float *A, const float *B, float *C, int m, int k,
                                        int n) {
  kp_int2 idx = grid(2);
  int row = idx.x, col = idx.y;
  if (row < m && col < n) {
    float tmp_sum = 0.0f;
    for (int i = 0; i < k; i++) tmp_sum += A[row * k + i] * B[i * n + col];
    C[row * n + col] = tmp_sum;
  }
}

/* Runs one product on the backend; returns the number of wrong elements of C. */
static int run_case(int m, int k, int n, double *ms) {
  float *A = random_matrix(m, k, 0.0f, 1.0f), *B = random_matrix(k, n, 0.0f, 1.0f);
  float *C = malloc(sizeof *C * (size_t)m * (size_t)n);

  kp_dim3 threadsperblock = dim3(16, 16);
  unsigned blockspergrid_x = ((unsigned)m + threadsperblock.x - 1) / threadsperblock.x;
  unsigned blockspergrid_y = ((unsigned)n + threadsperblock.y - 1) / threadsperblock.y;

  double t0 = example_now_ms();
  float *d_A = to_device(A, m * k), *d_B = to_device(B, k * n);
  float *d_C = device_array(float, m * n);
  launch(gpu_matmul, dim3(blockspergrid_x, blockspergrid_y), threadsperblock)(d_A, d_B, d_C, m,
                                                                              k, n);
  copy_to_host(C, d_C, m * n);
  *ms += example_now_ms() - t0;

  int bad = count_matmul_mismatches(A, B, C, m, k, n);
  printf("%dx%d @ %dx%d: top left 2x2 of result: [[%.4f %.4f] [%.4f %.4f]], %d wrong\n", m, k,
         k, n, C[0], C[1], C[n], C[n + 1], bad);
  kp_free(d_A);
  kp_free(d_B);
  kp_free(d_C);
  free(A);
  free(B);
  free(C);
  return bad;
}

int main(void) {
  const char *backend = example_start("gpu_matmul");
  srand(4);
  double ms = 0;
  int bad = run_case(256, 256, 256, &ms);
  bad += run_case(70, 45, 33, &ms);
  printf("gpu_matmul: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
