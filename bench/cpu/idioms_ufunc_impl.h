/* idioms_ufunc_impl.h — the ufunc rows: add and seed 002's gaussian_pdf as vectorize
 * functions run by ufunc() at 2^27 floats, against the same loops (ufunc_loops_impl.h).
 * Included by idioms_ufunc.c (default flags) and idioms_ufunc_mvec.c (-fno-math-errno
 * -fveclib=libmvec, like its loops), which define UF_SUFFIX (the functions' name suffix),
 * UF_LOOP(name) (the loops' names) and UF_LABEL (the rows' note). */
#include <math.h>
#include <stdio.h>

#include "bench_util.h"
#include "groups.h"
#include "kernplug.h"
#include "loops.h"

#define UF_CAT_(a, b) a##b
#define UF_CAT(a, b) UF_CAT_(a, b)
#define UF(name) UF_CAT(name, UF_SUFFIX)

__attribute__((vectorize("float32(float32, float32)"))) float UF(uf_add)(float a, float b) {
  return a + b;
}

__attribute__((vectorize("float32(float32, float32, float32)")))
float UF(uf_gaussian_pdf)(float x, float mean, float sigma) {
  float z = (x - mean) / sigma;
  return expf(-0.5f * z * z) / (sigma * 2.50662827463f);
}

typedef struct ufunc_ctx {
  float *x, *y, *out;
  long n;
  int threads;
} ufunc_ctx;

static void kp_uf_add(void *p) {
  ufunc_ctx *c = p;
  ufunc(UF(uf_add), c->n, c->out, c->x, c->y);
  kp_synchronize();
}
static void mp_uf_add(void *p) {
  ufunc_ctx *c = p;
  UF_LOOP(omp_, uf_add)(c->x, c->y, c->out, c->n, c->threads);
}
static void se_uf_add(void *p) {
  ufunc_ctx *c = p;
  UF_LOOP(serial_, uf_add)(c->x, c->y, c->out, c->n, c->threads);
}
static void kp_uf_gauss(void *p) {
  ufunc_ctx *c = p;
  ufunc(UF(uf_gaussian_pdf), c->n, c->out, c->x, 0.0f, 1.0f);
  kp_synchronize();
}
static void mp_uf_gauss(void *p) {
  ufunc_ctx *c = p;
  UF_LOOP(omp_, gaussian_pdf)(c->x, 0.0f, 1.0f, c->out, c->n, c->threads);
}
static void se_uf_gauss(void *p) {
  ufunc_ctx *c = p;
  UF_LOOP(serial_, gaussian_pdf)(c->x, 0.0f, 1.0f, c->out, c->n, c->threads);
}

void UF_ROWS(const bench_opts *o) {
  if (!harness_wants("ufunc add" UF_LABEL) && !harness_wants("ufunc gaussian_pdf" UF_LABEL))
    return;
  long n = o->check_only ? 100003 : 1l << 27;
  ufunc_ctx c = {.n = n, .threads = o->threads};
  c.x = bench_device_uniform(n, 1, -1.0f, 1.0f);
  c.y = bench_device_uniform(n, 2, -1.0f, 1.0f);
  c.out = device_array(float, n);
  char size[64];
  if (o->check_only)
    snprintf(size, sizeof size, "%ld floats", n);
  else
    snprintf(size, sizeof size, "2^27 floats");
  harness_row(&(idiom_row){"ufunc add" UF_LABEL, size, 1, kp_uf_add, mp_uf_add, se_uf_add, &c,
                           c.out, (size_t)n, OUT_F32, 1e-6, 0, 0, 0});
  harness_row(&(idiom_row){"ufunc gaussian_pdf" UF_LABEL, size, 1, kp_uf_gauss, mp_uf_gauss,
                           se_uf_gauss, &c, c.out, (size_t)n, OUT_F32, 1e-6, 0, 0, 0});
  kp_free(c.x), kp_free(c.y), kp_free(c.out);
}
