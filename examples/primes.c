/* primes.c — seed 000's prime numbers, the three ways the tutorial times them: all primes
 * below `upper` (10000) found by a loop on the CPU, by the same loop launching a one-thread
 * kernel per number, and by a vectorize function checking every number at once.
 *
 *   def find_all_primes_cpu(upper):            # %timeit: 378 ms; with @jit(nopython=True): 165 ms
 *       all_prime_numbers = []
 *       for num in range(2, upper):
 *           for i in range(2, (num // 2) + 1):
 *               if (num % i) == 0:
 *                   break
 *           else:
 *               all_prime_numbers.append(num)
 *       return all_prime_numbers
 *
 *   @cuda.jit
 *   def check_prime_gpu_kernel(num, result):
 *      result[0] =  0
 *      for i in range(2, (num // 2) + 1):
 *          if (num % i) == 0:
 *              break
 *      else:
 *          result[0] = num
 *
 *   result = np.zeros((1), np.int32)
 *   check_prime_gpu_kernel[1, 1](11, result)   # 11
 *   check_prime_gpu_kernel[1, 1](12, result)   # 0
 *
 *   def find_all_primes_cpu_and_gpu(upper):    # %timeit: 6.62 s
 *       all_prime_numbers = []
 *       for num in range(2, upper):
 *           result = np.zeros((1), np.int32)
 *           check_prime_gpu_kernel[1,1](num, result)
 *           if result[0] > 0:
 *               all_prime_numbers.append(num)
 *       return all_prime_numbers
 *
 *   @nb.vectorize(['int32(int32)'], target='cuda')
 *   def check_prime_gpu(num):
 *      for i in range(2, (num // 2) + 1):
 *          if (num % i) == 0:
 *              return 0
 *      else:
 *          return num
 *
 *   %timeit check_prime_gpu(np.arange(2, 10000, dtype=np.int32))   # 3.25 ms
 *
 * find_all_primes_cpu is plain C here (compiled ahead of time: what @jit did). `result` is a
 * one-element pinned array: launch copies it to the device and back around each launch, as
 * Numba does with the NumPy array (and each launch waits for its kernel). It is allocated once
 * instead of once per number, since pinned allocations are costly. The vectorize call takes
 * host arrays, which ufunc copies to the device and back. Each way's list is checked against a
 * sieve of Eratosthenes (1229 primes below 10000).
 *
 * Usage: primes [upper]   (default 10000) */
#include <stdint.h>

#include "example_util.h"
#include "kernplug.h"

static int find_all_primes_cpu(int upper, int *all_prime_numbers) {
  int count = 0;
  for (int num = 2; num < upper; num++) {
    int i;
    for (i = 2; i < num / 2 + 1; i++)
      if (num % i == 0) break;
    if (i == num / 2 + 1) /* Python's for ... else: the loop ran to its end */
      all_prime_numbers[count++] = num;
  }
  return count;
}

__attribute__((kernel)) void check_prime_gpu_kernel(int num, int32_t *result) {
  result[0] = 0;
  for (int i = 2; i < num / 2 + 1; i++)
    if (num % i == 0) return;
  result[0] = num;
}

static int find_all_primes_cpu_and_gpu(int upper, int *all_prime_numbers, int32_t *result) {
  int count = 0;
  for (int num = 2; num < upper; num++) {
    launch(check_prime_gpu_kernel, 1, 1)(num, result);
    if (result[0] > 0) all_prime_numbers[count++] = num;
  }
  return count;
}

__attribute__((vectorize("int32(int32)"))) int check_prime_gpu(int num) {
  for (int i = 2; i < num / 2 + 1; i++)
    if (num % i == 0) return 0;
  return num;
}

/* Compares a list of primes with the sieve's; prints the first difference. */
static int check_list(const char *what, const int *list, int count, const int *sieve_list,
                      int sieve_count) {
  int bad = count != sieve_count;
  for (int k = 0; k < count && k < sieve_count; k++)
    if (list[k] != sieve_list[k]) {
      fprintf(stderr, "primes (%s): prime #%d is %d, want %d\n", what, k, list[k], sieve_list[k]);
      return 1;
    }
  if (bad) fprintf(stderr, "primes (%s): %d primes, want %d\n", what, count, sieve_count);
  return bad;
}

int main(int argc, char **argv) {
  const char *backend = example_start("primes");
  int upper = argc > 1 ? atoi(argv[1]) : 10000;
  if (upper < 3 || upper > 100000000) {
    fprintf(stderr, "primes: upper must be between 3 and 1e8\n");
    return 2;
  }
  int n = upper - 2;
  char *composite = calloc((size_t)upper, 1);
  int *sieve_list = malloc(sizeof(int) * (size_t)n), *list = malloc(sizeof(int) * (size_t)n);
  int32_t *nums = malloc(sizeof *nums * (size_t)n), *res = malloc(sizeof *res * (size_t)n);
  if (!composite || !sieve_list || !list || !nums || !res) {
    fprintf(stderr, "primes: out of host memory\n");
    return 1;
  }
  int sieve_count = 0; /* the host's reference: a sieve of Eratosthenes */
  for (long long p = 2; p < upper; p++) {
    if (composite[p]) continue;
    sieve_list[sieve_count++] = (int)p;
    for (long long q = p * p; q < upper; q += p) composite[q] = 1;
  }
  int bad = 0;

  /* 1. the CPU loop */
  int count = 0;
  double t0 = example_now_ms();
  for (int r = 0; r < 7; r++) count = find_all_primes_cpu(upper, list);
  double cpu_ms = (example_now_ms() - t0) / 7; /* %timeit's mean */
  bad += check_list("find_all_primes_cpu", list, count, sieve_list, sieve_count);
  printf("find_all_primes_cpu(%d):         %d primes, %10.3f ms per loop (mean of 7)\n", upper,
         count, cpu_ms);

  /* 2. the scalar kernel, launched [1, 1] */
  int32_t *result = pinned_array(int32_t, 1); /* np.zeros((1), np.int32) */
  result[0] = -1;
  launch(check_prime_gpu_kernel, 1, 1)(11, result);
  printf("check_prime_gpu_kernel[1, 1](11, result): %d\n", result[0]);
  bad += result[0] != 11;
  launch(check_prime_gpu_kernel, 1, 1)(12, result);
  printf("check_prime_gpu_kernel[1, 1](12, result): %d\n", result[0]);
  bad += result[0] != 0;

  /* 3. one launch per number */
  t0 = example_now_ms();
  count = find_all_primes_cpu_and_gpu(upper, list, result);
  double slow_ms = example_now_ms() - t0;
  bad += check_list("find_all_primes_cpu_and_gpu", list, count, sieve_list, sieve_count);
  printf("find_all_primes_cpu_and_gpu(%d): %d primes, %10.3f ms (%d launches, %.1f us each)\n",
         upper, count, slow_ms, n, slow_ms * 1e3 / n);
  kp_free(result);

  /* 4. the vectorize function over np.arange(2, upper) */
  for (int i = 0; i < n; i++) nums[i] = 2 + i;
  ufunc(check_prime_gpu, n, res, nums); /* the first call loads the GPU code */
  t0 = example_now_ms();
  for (int r = 0; r < 7; r++) ufunc(check_prime_gpu, n, res, nums);
  double vec_ms = (example_now_ms() - t0) / 7;
  count = 0;
  for (int i = 0; i < n; i++)
    if (res[i] != 0) list[count++] = res[i];
  bad += check_list("check_prime_gpu", list, count, sieve_list, sieve_count);
  for (int i = 0; i < n; i++) bad += res[i] != (composite[nums[i]] ? 0 : nums[i]);
  printf("check_prime_gpu(np.arange(2, %d)): %d primes, %10.3f ms per loop (mean of 7)\n", upper,
         count, vec_ms);
  printf("vectorize vs the CPU loop: %.1fx; vs one launch per number: %.1fx\n", cpu_ms / vec_ms,
         slow_ms / vec_ms);

  printf("primes: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", vec_ms);
  free(composite);
  free(sieve_list);
  free(list);
  free(nums);
  free(res);
  return bad ? 1 : 0;
}
