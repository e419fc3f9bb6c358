/* fast_matmul.c — the numba-cuda documentation's tiled matrix product: each block of
 * (TPB, TPB) threads computes a TPB x TPB tile of C, staging TPB x TPB tiles of A and B in
 * shared memory so that each element is read from global memory once per block, not once
 * per thread. Run on sizes that are not multiples of TPB.
 *
 *   TPB = 16
 *   @cuda.jit
 *   def fast_matmul(A, B, C):
 *       sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
 *       sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
 *       x, y = cuda.grid(2)
 *       tx = cuda.threadIdx.x
 *       ty = cuda.threadIdx.y
 *       bpg = cuda.gridDim.x    # blocks per grid
 *       tmp = float32(0.)
 *       for i in range(bpg):
 *           sA[ty, tx] = 0
 *           sB[ty, tx] = 0
 *           if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
 *               sA[ty, tx] = A[y, tx + i * TPB]
 *           if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
 *               sB[ty, tx] = B[ty + i * TPB, x]
 *           cuda.syncthreads()    # wait until all threads finish preloading
 *           for j in range(TPB):
 *               tmp += sA[ty, j] * sB[j, tx]
 *           cuda.syncthreads()    # wait until all threads finish computing
 *       if y < C.shape[0] and x < C.shape[1]:
 *           C[y, x] = tmp
 *
 * x runs along the columns of C and y along its rows. The documentation loops over gridDim.x
 * tiles, which covers the inner dimension only when the grid is sized for it; here the loop
 * runs over the ceil(k / TPB) tiles of the inner dimension, so any grid that covers C works.
 * Every thread of a block reaches both barriers, including threads outside C: they load
 * zeros and skip only the final store. */
#include "example_util.h"
#include "kernplug.h"
#include "matmul_check.h"

enum { TPB = 16 };

/* A is m x k, B is k x n, C is m x n, all row-major. */
__attribute__((kernel)) void fast_matmul(const float *A, const float *B, float *C, int m, int k,
                                         int n) {
  static __attribute__((shared)) float sA[TPB][TPB];
  static __attribute__((shared)) float sB[TPB][TPB];

  kp_int2 g = grid(2);
  int x = g.x, y = g.y;
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  int tiles = (k + TPB - 1) / TPB;

  float tmp = 0.0f;
  for (int i = 0; i < tiles; i++) {
    int a_col = (int)tx + i * TPB, b_row = (int)ty + i * TPB;
    sA[ty][tx] = y < m && a_col < k ? A[y * k + a_col] : 0.0f;
    sB[ty][tx] = x < n && b_row < k ? B[b_row * n + x] : 0.0f;
    syncthreads(); /* the tiles are complete */
    for (int j = 0; j < TPB; j++) tmp += sA[ty][j] * sB[j][tx];
    syncthreads(); /* nobody still reads them when the next iteration overwrites them */
  }
  if (y < m && x < n) C[y * n + x] = tmp;
}

/* Runs one product on the backend; returns the number of wrong elements of C. */
static int run_case(int m, int k, int n, double *ms) {
  float *A = random_matrix(m, k, -1.0f, 1.0f), *B = random_matrix(k, n, -1.0f, 1.0f);
  float *C = malloc(sizeof *C * (size_t)m * (size_t)n);

  /* x covers the columns of C, y its rows */
  kp_dim3 blocks = dim3((unsigned)(n + TPB - 1) / TPB, (unsigned)(m + TPB - 1) / TPB);

  double t0 = example_now_ms();
  float *d_A = to_device(A, m * k), *d_B = to_device(B, k * n);
  float *d_C = device_array(float, m * n);
  launch(fast_matmul, blocks, dim3(TPB, TPB))(d_A, d_B, d_C, m, k, n);
  copy_to_host(C, d_C, m * n);
  *ms += example_now_ms() - t0;

  int bad = count_matmul_mismatches(A, B, C, m, k, n);
  printf("%dx%d @ %dx%d on %ux%u blocks: C[0][0] = %.4f, C[%d][%d] = %.4f, %d wrong\n", m, k,
         k, n, blocks.x, blocks.y, C[0], m - 1, n - 1, C[m * n - 1], bad);
  kp_free(d_A);
  kp_free(d_B);
  kp_free(d_C);
  free(A);
  free(B);
  free(C);
  return bad;
}

int main(void) {
  const char *backend = example_start("fast_matmul");
  srand(16);
  double ms = 0;
  int bad = run_case(5, 23, 7, &ms);      /* the documentation's non-square case */
  bad += run_case(16, 16, 16, &ms);       /* exactly one tile */
  bad += run_case(300, 200, 170, &ms);    /* many tiles, ragged on every side */
  printf("fast_matmul: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
