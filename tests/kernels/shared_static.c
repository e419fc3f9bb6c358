/* shared_static.c — static `shared` arrays of every element type (char, short, int, long long,
 * float, double, a struct) and of 2D and 3D shapes, declared in kernels and in device
 * functions. The usual pattern: each thread writes its slot, syncthreads(), then reads a
 * neighbour's slot, which is right only if the array is one per block and the barrier waits
 * for the whole block. Several blocks run at once, each with its own values. A kernel without
 * barriers uses a shared array as per-thread scratch (only its own slots: without a barrier,
 * reading another thread's slot would be a race). */
#include "kernel_test.h"

enum { MAX_T = 256 };

typedef struct pair {
  int a;
  double b;
} pair;

/* Value of thread t of block b for the type tests; distinct per block and thread. */
#define VALUE(b, t) ((b) * 1000 + (t) * 3 + 1)

/* One array per element type; each thread reads the slot of the next thread (wrapping). */
__attribute__((kernel)) void neighbours(char *oc, short *os, int *oi, long long *ol, float *of,
                                        double *od, pair *op) {
  static __attribute__((shared)) char sc[MAX_T];
  static __attribute__((shared)) short ss[MAX_T];
  static __attribute__((shared)) int si[MAX_T];
  static __attribute__((shared)) long long sl[MAX_T];
  static __attribute__((shared)) float sf[MAX_T];
  static __attribute__((shared)) double sd[MAX_T];
  static __attribute__((shared)) pair sp[MAX_T];
  unsigned t = threadIdx.x, n = blockDim.x;
  int v = VALUE((int)blockIdx.x, (int)t);
  sc[t] = (char)(v % 128);
  ss[t] = (short)(v % 30000);
  si[t] = v;
  sl[t] = (long long)v * 1000000007LL;
  sf[t] = (float)v * 0.5f;
  sd[t] = (double)v * 0.25;
  sp[t] = (pair){-v, (double)v + 0.125};
  syncthreads();
  unsigned u = (t + 1) % n, g = blockIdx.x * n + t;
  oc[g] = sc[u];
  os[g] = ss[u];
  oi[g] = si[u];
  ol[g] = sl[u];
  of[g] = sf[u];
  od[g] = sd[u];
  op[g] = sp[u];
}

/* 2D: a (16, 8) block writes tile[ty][tx] and reads the point-mirrored element. The row is
 * padded to 17 as a bank-conflict-free tile would be. 3D: an (8, 4, 4) block does the same
 * with cube[z][y][x], reading a rotated position. */
__attribute__((kernel)) void shapes(int *out2, double *out3) {
  static __attribute__((shared)) int tile[8][17];
  static __attribute__((shared)) double cube[4][4][8];
  unsigned x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  unsigned linear = x + blockDim.x * (y + blockDim.y * z);
  unsigned base = blockIdx.x * blockDim.x * blockDim.y * blockDim.z;
  if (blockDim.z == 1) {
    tile[y][x] = VALUE((int)blockIdx.x, (int)linear);
    syncthreads();
    out2[base + linear] = tile[7 - y][15 - x];
  } else {
    cube[z][y][x] = (double)VALUE((int)blockIdx.x, (int)linear) + 0.5;
    syncthreads();
    out3[base + linear] = cube[(z + 1) % 4][(y + 2) % 4][7 - x];
  }
}

/* A device function with its own shared array: rotates values by one thread across the
 * block. The second barrier keeps the next call's writes from overtaking this call's reads. */
__attribute__((device)) long long rotate_block(long long v) {
  static __attribute__((shared)) long long ring[MAX_T];
  unsigned t = threadIdx.x, n = blockDim.x;
  ring[t] = v;
  syncthreads();
  long long r = ring[(t + n - 1) % n];
  syncthreads();
  return r;
}

/* A device function with a 2D shared array of structs, used from two kernels. */
__attribute__((device)) pair swap_halves(pair p) {
  static __attribute__((shared)) pair halves[2][MAX_T / 2];
  unsigned t = threadIdx.x, h = blockDim.x / 2;
  halves[t / h][t % h] = p;
  syncthreads();
  pair r = halves[1 - t / h][t % h];
  syncthreads();
  return r;
}

/* Three calls: the same per-block array serves all of them. */
__attribute__((kernel)) void rotations(const long long *in, long long *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  long long v = in[g];
  v = rotate_block(v);
  v = rotate_block(v * 2);
  v = rotate_block(v + 1);
  out[g] = v;
}

__attribute__((kernel)) void swaps(const pair *in, pair *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = swap_halves(in[g]);
}

/* Swaps, then rotates: two device functions' arrays and the kernel's own in one kernel. */
__attribute__((kernel)) void combined(const pair *in, long long *out) {
  static __attribute__((shared)) unsigned char mark[MAX_T];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  mark[t] = (unsigned char)(t * 7);
  pair p = swap_halves(in[g]);
  long long r = rotate_block((long long)p.a);
  out[g] = r * 256 + mark[(t + 3) % blockDim.x];
}

/* No barrier: each thread uses only its own row of a 2D shared array as scratch. */
__attribute__((kernel)) void scratch(const float *in, double *out, int n) {
  static __attribute__((shared)) double rows[MAX_T][4];
  int i = grid(1);
  unsigned t = threadIdx.x;
  if (i >= n) return;
  for (int k = 0; k < 4; k++) rows[t][k] = (double)in[i] * (k + 1);
  double s = 0;
  for (int k = 3; k >= 0; k--) s = s * 0.5 + rows[t][k];
  out[i] = s;
}

/* ---- host checks ---------------------------------------------------------------------- */

static void check_neighbours(unsigned blocks, unsigned threads) {
  unsigned total = blocks * threads;
  char *oc = calloc(total, 1);
  short *os = calloc(total, sizeof *os);
  int *oi = calloc(total, sizeof *oi);
  long long *ol = calloc(total, sizeof *ol);
  float *of = calloc(total, sizeof *of);
  double *od = calloc(total, sizeof *od);
  pair *op = calloc(total, sizeof *op);
  char *dc = device_array(char, total);
  short *ds = device_array(short, total);
  int *di = device_array(int, total);
  long long *dl = device_array(long long, total);
  float *df = device_array(float, total);
  double *dd = device_array(double, total);
  pair *dp = device_array(pair, total);
  launch(neighbours, blocks, threads)(dc, ds, di, dl, df, dd, dp);
  copy_to_host(oc, dc, total);
  copy_to_host(os, ds, total);
  copy_to_host(oi, di, total);
  copy_to_host(ol, dl, total);
  copy_to_host(of, df, total);
  copy_to_host(od, dd, total);
  copy_to_host(op, dp, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < threads; t++) {
      unsigned g = b * threads + t;
      int v = VALUE((int)b, (int)((t + 1) % threads));
      KT_CHECK(oc[g] == (char)(v % 128), "char: block %u thread %u got %d, expected %d", b, t,
               oc[g], v % 128);
      KT_CHECK(os[g] == (short)(v % 30000), "short: block %u thread %u got %d", b, t, os[g]);
      KT_CHECK(oi[g] == v, "int: block %u thread %u got %d, expected %d", b, t, oi[g], v);
      KT_CHECK(ol[g] == (long long)v * 1000000007LL, "long long: block %u thread %u got %lld",
               b, t, ol[g]);
      KT_CHECK(of[g] == (float)v * 0.5f, "float: block %u thread %u got %g", b, t, of[g]);
      KT_CHECK(od[g] == (double)v * 0.25, "double: block %u thread %u got %g", b, t, od[g]);
      KT_CHECK(op[g].a == -v && op[g].b == (double)v + 0.125,
               "struct: block %u thread %u got {%d, %g}, expected {%d, %g}", b, t, op[g].a,
               op[g].b, -v, (double)v + 0.125);
    }
  kp_free(dc), kp_free(ds), kp_free(di), kp_free(dl), kp_free(df), kp_free(dd), kp_free(dp);
  free(oc), free(os), free(oi), free(ol), free(of), free(od), free(op);
}

static void check_shapes(void) {
  enum { BLOCKS = 5, N2 = 16 * 8, N3 = 8 * 4 * 4 };
  int out2[BLOCKS * N2];
  double out3[BLOCKS * N3];
  int *d2 = device_array(int, BLOCKS * N2);
  double *d3 = device_array(double, BLOCKS * N3);
  launch(shapes, BLOCKS, dim3(16, 8))(d2, d3);
  launch(shapes, BLOCKS, dim3(8, 4, 4))(d2, d3);
  copy_to_host(out2, d2, BLOCKS * N2);
  copy_to_host(out3, d3, BLOCKS * N3);
  for (int b = 0; b < BLOCKS; b++) {
    for (int y = 0; y < 8; y++)
      for (int x = 0; x < 16; x++) {
        int want = VALUE(b, (15 - x) + 16 * (7 - y));
        int got = out2[b * N2 + x + 16 * y];
        KT_CHECK(got == want, "2D: block %d (%d,%d) got %d, expected %d", b, x, y, got, want);
      }
    for (int z = 0; z < 4; z++)
      for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++) {
          int sx = 7 - x, sy = (y + 2) % 4, sz = (z + 1) % 4;
          double want = VALUE(b, sx + 8 * (sy + 4 * sz)) + 0.5;
          double got = out3[b * N3 + x + 8 * (y + 4 * z)];
          KT_CHECK(got == want, "3D: block %d (%d,%d,%d) got %g, expected %g", b, x, y, z, got,
                   want);
        }
  }
  kp_free(d2);
  kp_free(d3);
}

/* The value rotations() leaves in thread t of a block of n, from that block's inputs. */
static long long host_rotations(const long long *in, unsigned t, unsigned n) {
  long long v[MAX_T], w[MAX_T];
  for (unsigned k = 0; k < n; k++) v[k] = in[k];
  for (unsigned k = 0; k < n; k++) w[k] = v[(k + n - 1) % n];
  for (unsigned k = 0; k < n; k++) v[k] = w[(k + n - 1) % n] * 2;
  for (unsigned k = 0; k < n; k++) w[k] = v[(k + n - 1) % n] + 1;
  return w[t];
}

static void check_device_functions(unsigned blocks, unsigned threads) {
  unsigned total = blocks * threads, h = threads / 2;
  long long *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  pair *pin = malloc(total * sizeof *pin), *pout = malloc(total * sizeof *pout);
  for (unsigned g = 0; g < total; g++) {
    in[g] = (long long)g * 31 - 500;
    pin[g] = (pair){(int)g * 3, g * 0.5};
  }
  long long *d_in = to_device(in, total), *d_out = device_array(long long, total);
  pair *dp_in = to_device(pin, total), *dp_out = device_array(pair, total);

  launch(rotations, blocks, threads)(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < threads; t++) {
      long long want = host_rotations(in + b * threads, t, threads);
      KT_CHECK(out[b * threads + t] == want, "rotations: block %u thread %u got %lld, expected "
               "%lld", b, t, out[b * threads + t], want);
    }

  launch(swaps, blocks, threads)(dp_in, dp_out);
  copy_to_host(pout, dp_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < threads; t++) {
      pair want = pin[b * threads + (t < h ? t + h : t - h)];
      pair got = pout[b * threads + t];
      KT_CHECK(got.a == want.a && got.b == want.b, "swaps: block %u thread %u got {%d, %g}, "
               "expected {%d, %g}", b, t, got.a, got.b, want.a, want.b);
    }

  launch(combined, blocks, threads)(dp_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < threads; t++) {
      unsigned from = (t + threads - 1) % threads; /* rotate_block reads the previous thread */
      unsigned swapped = from < h ? from + h : from - h;
      long long want = (long long)pin[b * threads + swapped].a * 256 +
                       (unsigned char)(((t + 3) % threads) * 7);
      KT_CHECK(out[b * threads + t] == want, "combined: block %u thread %u got %lld, expected "
               "%lld", b, t, out[b * threads + t], want);
    }
  kp_free(d_in), kp_free(d_out), kp_free(dp_in), kp_free(dp_out);
  free(in), free(out), free(pin), free(pout);
}

static void check_scratch(int n) {
  float *in = malloc((size_t)n * sizeof *in);
  double *out = malloc((size_t)n * sizeof *out);
  for (int i = 0; i < n; i++) in[i] = (float)(i % 97) - 40.0f;
  float *d_in = to_device(in, n);
  double *d_out = device_array(double, n);
  launch(scratch, (n + MAX_T - 1) / MAX_T, MAX_T)(d_in, d_out, n);
  copy_to_host(out, d_out, n);
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 3; k >= 0; k--) s = s * 0.5 + (double)in[i] * (k + 1);
    KT_CHECK(out[i] == s, "scratch: out[%d] = %g, expected %g", i, out[i], s);
  }
  kp_free(d_in);
  kp_free(d_out);
  free(in);
  free(out);
}

int main(void) {
  kt_start("shared_static");
  check_scratch(5000); /* no barrier: runs on every backend */
  check_neighbours(7, 256);
  check_neighbours(13, 32);
  check_neighbours(3, 5);
  check_shapes();
  check_device_functions(6, 256);
  check_device_functions(11, 64);
  check_device_functions(2, 2);
  puts("shared_static: OK");
  return 0;
}
