/* check_prime_gpu.c — seed 000's prime search as a vectorize function: every number of
 * 2 ... 9999 checked by its own GPU thread, the number itself for a prime and 0 otherwise.
 *
 *   @nb.vectorize(['int32(int32)'], target='cuda')
 *   def check_prime_gpu(num):
 *      for i in range(2, (num // 2) + 1):
 *          if (num % i) == 0:
 *              return 0
 *      else:
 *          return num
 *
 *   %timeit check_prime_gpu(np.arange(2, 10000, dtype=np.int32))
 *
 * The NumPy array and its result are host arrays here: ufunc copies them to the device and
 * the result back. There are 1229 primes below 10000. */
#include <stdint.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((vectorize("int32(int32)"))) int check_prime_gpu(int num) {
  for (int i = 2; i < num / 2 + 1; i++)
    if (num % i == 0) return 0;
  return num;
}

int main(void) {
  const char *backend = example_start("check_prime_gpu");
  enum { lo = 2, hi = 10000, n = hi - lo };
  static int32_t nums[n], result[n];
  for (int i = 0; i < n; i++) nums[i] = lo + i; /* np.arange(2, 10000, dtype=np.int32) */

  ufunc(check_prime_gpu, n, result, nums); /* the first call loads the GPU code */
  double t0 = example_now_ms();
  ufunc(check_prime_gpu, n, result, nums);
  double ms = example_now_ms() - t0;

  int primes = 0, largest = 0, bad = 0;
  for (int i = 0; i < n; i++) {
    primes += result[i] != 0;
    if (result[i] > largest) largest = result[i];
    bad += result[i] != check_prime_gpu(nums[i]); /* the same C function on the host */
  }
  printf("%d primes below %d, the largest %d\n", primes, hi, largest);
  bad += primes != 1229 || largest != 9973;
  printf("check_prime_gpu: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
