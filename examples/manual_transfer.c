/* manual_transfer.c — seed 003's "Manual Transfer of Objects": the input goes to the device
 * once with to_device, the output is allocated there with device_array_like, and only the
 * output comes back.
 *
 *   @cuda.jit
 *   def doubled_man_copy(arr, out):
 *       x_idx, y_idx = cuda.grid(2)
 *       out[x_idx, y_idx] = arr[x_idx, y_idx] * 2
 *
 *   arr = np.random.randn(3, 3).astype(np.float32)
 *   out = cuda.device_array_like(arr)
 *   arr_gpu = cuda.to_device(arr)
 *   doubled_man_copy[1, (3, 3)](arr_gpu, out)
 *   out = out.copy_to_host()
 *
 * NumPy's device_array_like(arr) takes the host array's shape; a C array carries no size at
 * run time, so device_array_like takes the device copy, which the runtime knows the size of.
 * The same kernel then runs with the implicit copies the seed starts from: `arr` and `out` as
 * pinned host arrays, copied to the device before the launch and `out` back after it (`arr`
 * is a pointer to const, so it is not copied back). */
#include "example_util.h"
#include "kernplug.h"

enum { rows = 3, cols = 3 };
typedef float row[cols]; /* arr[x][y] as NumPy's arr[x, y] */

__attribute__((kernel)) void doubled_man_copy(const row *arr, row *out) {
  kp_int2 idx = grid(2);
  out[idx.x][idx.y] = arr[idx.x][idx.y] * 2;
}

static int check(const char *what, const row *arr, const row *out) {
  int bad = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      if (out[i][j] != arr[i][j] * 2 && bad++ < 3)
        fprintf(stderr, "manual_transfer (%s): out[%d][%d] = %g, want %g\n", what, i, j,
                out[i][j], arr[i][j] * 2);
  return bad;
}

static void print(const char *name, const row *a) {
  printf("%s = [", name);
  for (int i = 0; i < rows; i++)
    printf("%s[%9.5f %9.5f %9.5f]", i ? "\n       " : "", a[i][0], a[i][1], a[i][2]);
  printf("]\n");
}

int main(void) {
  const char *backend = example_start("manual_transfer");
  unsigned long long seed = 3;
  row arr[rows], out[rows];
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) arr[i][j] = (float)example_normal(&seed);

  /* loads the GPU code, so that the timings below are of the transfers and the launch */
  row *warm = to_device(arr, rows);
  launch(doubled_man_copy, 1, 1)((const row *)warm, warm);
  kp_synchronize();
  kp_free(warm);

  /* explicit: one copy in, one copy out */
  double t0 = example_now_ms();
  row *arr_gpu = to_device(arr, rows);
  row *out_gpu = device_array_like(arr_gpu);
  launch(doubled_man_copy, 1, dim3(rows, cols))((const row *)arr_gpu, out_gpu);
  copy_to_host(out, out_gpu, rows);
  double explicit_ms = example_now_ms() - t0;
  print("arr", (const row *)arr);
  print("out", (const row *)out);
  int bad = check("explicit", (const row *)arr, (const row *)out);
  kp_free(arr_gpu);
  kp_free(out_gpu);

  /* implicit: pinned host arrays passed to the kernel */
  row *arr_pinned = pinned_array(row, rows), *out_pinned = pinned_array(row, rows);
  memcpy(arr_pinned, arr, sizeof arr);
  t0 = example_now_ms();
  launch(doubled_man_copy, 1, dim3(rows, cols))((const row *)arr_pinned, out_pinned);
  double implicit_ms = example_now_ms() - t0;
  bad += check("implicit", (const row *)arr_pinned, (const row *)out_pinned);
  kp_free(arr_pinned);
  kp_free(out_pinned);

  printf("explicit (to_device, device_array_like, copy_to_host): %.3f ms\n",
         explicit_ms);
  printf("implicit (pinned arrays passed to the kernel):         %.3f ms\n", implicit_ms);
  printf("manual_transfer: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK",
         explicit_ms);
  return bad ? 1 : 0;
}
