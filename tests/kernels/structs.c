/* structs.c — structs by value: as kernel arguments of every shape the x86-64 ABI treats
 * differently (one register, two registers of different classes, split into pieces, passed in
 * memory), returned from device functions (in registers and through a hidden pointer), and
 * arrays of structs in device memory. All values are small binary fractions, so the GPU's
 * arithmetic (with fused multiply-adds) and the host's give the same bits. */
#include "kernel_test.h"

typedef struct small8 { /* 8 bytes: float and int in one integer register */
  float x;
  int n;
} small8;
typedef struct tiny { /* 4 bytes: char and short in one register */
  char c;
  short s;
} tiny;
typedef struct vec3 { /* 12 bytes: two SSE pieces, <2 x float> and float */
  float a, b, c;
} vec3;
typedef struct dpair { /* 16 bytes: two doubles, two SSE registers */
  double x, y;
} dpair;
typedef struct mixed24 { /* 24 bytes with a double: in memory (byval) */
  double d;
  int i;
  float f;
  long long l;
} mixed24;
typedef struct with_array { /* an array member */
  int v[5];
  short s;
} with_array;
typedef struct nested { /* a struct of structs */
  small8 head;
  dpair p;
  vec3 dir;
  char tag;
} nested;

/* ---- kernel arguments ---------------------------------------------------------------- */

enum { ARG_FIELDS = 24 };

/* Every field of every argument, converted to double, in a fixed order. */
__attribute__((kernel)) void unpack_args(small8 a, tiny t, vec3 v, dpair p, mixed24 m,
                                         with_array w, nested n, double *out) {
  if (grid(1) != 0) return;
  double f[ARG_FIELDS] = {a.x,      a.n,      t.c,      t.s,       v.a,      v.b,
                          v.c,      p.x,      p.y,      m.d,       m.i,      m.f,
                          (double)m.l, w.v[0], w.v[4],  w.s,       n.head.x, n.head.n,
                          n.p.x,    n.p.y,    n.dir.a,  n.dir.c,   n.tag,    w.v[2]};
  for (int i = 0; i < ARG_FIELDS; i++) out[i] = f[i];
}

/* The same struct arguments used by many threads at once, indexed at run time. */
__attribute__((kernel)) void use_args(with_array w, vec3 v, nested n, float *out, int count) {
  int i = grid(1);
  if (i >= count) return;
  out[i] = (float)w.v[i % 5] * v.b + n.dir.a * (float)(i % 3) + (float)n.head.n;
}

/* ---- device functions returning structs ----------------------------------------------- */

__attribute__((device)) small8 make_small(float x, int n) {
  small8 s = {x * 2.0f, n + 1};
  return s;
}

__attribute__((device)) vec3 cross(vec3 u, vec3 v) {
  vec3 r = {u.b * v.c - u.c * v.b, u.c * v.a - u.a * v.c, u.a * v.b - u.b * v.a};
  return r;
}

/* Large enough to come back through a hidden pointer. */
__attribute__((device)) nested make_nested(int i, vec3 dir) {
  nested n;
  n.head = make_small((float)i * 0.5f, i);
  n.p.x = i * 0.25;
  n.p.y = -(double)i;
  n.dir = dir;
  n.tag = (char)(i % 100);
  return n;
}

__attribute__((device)) with_array fill_array(int base) {
  with_array w;
  for (int k = 0; k < 5; k++) w.v[k] = base + k * k;
  w.s = (short)(base % 1000);
  return w;
}

enum { RET_FIELDS = 14 };
__attribute__((kernel)) void returns(const vec3 *dirs, double *out, int count) {
  int i = grid(1);
  if (i >= count) return;
  vec3 c = cross(dirs[i], dirs[(i + 1) % count]);
  nested n = make_nested(i, c);
  with_array w = fill_array(i);
  double *o = out + (size_t)i * RET_FIELDS;
  double f[RET_FIELDS] = {n.head.x, n.head.n, n.p.x, n.p.y, n.dir.a, n.dir.b, n.dir.c,
                          n.tag,    w.v[0],   w.v[1], w.v[3], w.v[4], w.s,    c.a + c.b};
  for (int k = 0; k < RET_FIELDS; k++) o[k] = f[k];
}

/* ---- arrays of structs in device memory ----------------------------------------------- */

typedef struct particle {
  vec3 pos, vel;
  float mass;
  int id;
  long long steps;
} particle;

__attribute__((device)) particle step(particle p, float dt) {
  p.pos.a += p.vel.a * dt;
  p.pos.b += p.vel.b * dt;
  p.pos.c += p.vel.c * dt;
  p.vel.c -= 2.0f * dt * p.mass;
  p.steps++;
  return p;
}

__attribute__((kernel)) void advance(particle *ps, int count, float dt, int steps) {
  int i = grid(1);
  if (i >= count) return;
  particle p = ps[i];
  for (int s = 0; s < steps; s++) p = step(p, dt);
  ps[i] = p;
}

/* ---- host side ------------------------------------------------------------------------ */

static void check_args(void) {
  small8 a = {1.5f, -7};
  tiny t = {'q', -300};
  vec3 v = {0.25f, -2.5f, 8.0f};
  dpair p = {1e300, -0.125};
  mixed24 m = {3.75, 123456, -0.5f, -9000000000000LL};
  with_array w = {{10, 20, 30, 40, 50}, 77};
  nested n = {{-4.5f, 99}, {2.5, 3.5}, {0.5f, 1.5f, 2.5f}, 'Z'};
  double want[ARG_FIELDS] = {1.5,   -7,   'q',  -300, 0.25, -2.5, 8.0, 1e300,
                             -0.125, 3.75, 123456, -0.5, -9000000000000.0, 10, 50, 77,
                             -4.5,  99,   2.5,  3.5,  0.5,  2.5,  'Z', 30};
  double got[ARG_FIELDS];
  double *d = device_array(double, ARG_FIELDS);
  launch(unpack_args, 1, 32)(a, t, v, p, m, w, n, d);
  copy_to_host(got, d, ARG_FIELDS);
  kp_free(d);
  for (int i = 0; i < ARG_FIELDS; i++)
    KT_CHECK(got[i] == want[i], "unpack_args field %d is %g, expected %g", i, got[i], want[i]);

  enum { COUNT = 1000 };
  float out[COUNT];
  float *dout = device_array(float, COUNT);
  launch(use_args, (COUNT + 127) / 128, 128)(w, v, n, dout, COUNT);
  copy_to_host(out, dout, COUNT);
  kp_free(dout);
  for (int i = 0; i < COUNT; i++) {
    float e = (float)w.v[i % 5] * v.b + n.dir.a * (float)(i % 3) + (float)n.head.n;
    KT_CHECK(out[i] == e, "use_args out[%d] = %g, expected %g", i, out[i], e);
  }
}

static vec3 host_cross(vec3 u, vec3 v) {
  vec3 r = {u.b * v.c - u.c * v.b, u.c * v.a - u.a * v.c, u.a * v.b - u.b * v.a};
  return r;
}

static void check_returns(void) {
  enum { COUNT = 300 };
  vec3 dirs[COUNT];
  for (int i = 0; i < COUNT; i++)
    dirs[i] = (vec3){(float)(i % 7) - 3.0f, (float)(i % 5) * 0.5f, 1.0f - (float)(i % 3)};
  vec3 *d_dirs = to_device(dirs, COUNT);
  double *d_out = device_array(double, COUNT * RET_FIELDS);
  launch(returns, 5, 64)(d_dirs, d_out, COUNT);
  static double out[COUNT * RET_FIELDS];
  copy_to_host(out, d_out, COUNT * RET_FIELDS);
  kp_free(d_dirs);
  kp_free(d_out);
  for (int i = 0; i < COUNT; i++) {
    vec3 c = host_cross(dirs[i], dirs[(i + 1) % COUNT]);
    double want[RET_FIELDS] = {(float)i * 0.5f * 2.0f, i + 1, i * 0.25, -(double)i,
                               c.a, c.b, c.c, (char)(i % 100), i, i + 1, i + 9, i + 16,
                               (short)(i % 1000), c.a + c.b};
    for (int k = 0; k < RET_FIELDS; k++)
      KT_CHECK(out[i * RET_FIELDS + k] == want[k], "returns: thread %d field %d is %g, expected %g",
               i, k, out[i * RET_FIELDS + k], want[k]);
  }
}

static void check_particles(void) {
  enum { COUNT = 513, STEPS = 8 };
  const float dt = 0.125f;
  static particle ps[COUNT], want[COUNT];
  for (int i = 0; i < COUNT; i++) {
    ps[i] = (particle){{(float)i, 0.0f, 10.0f}, {0.5f, (float)(i % 4), 0.0f},
                       0.25f * (float)(i % 8), i, 1000LL * i};
    want[i] = ps[i];
    for (int s = 0; s < STEPS; s++) {
      particle *p = &want[i];
      p->pos.a += p->vel.a * dt, p->pos.b += p->vel.b * dt, p->pos.c += p->vel.c * dt;
      p->vel.c -= 2.0f * dt * p->mass;
      p->steps++;
    }
  }
  particle *d = to_device(ps, COUNT);
  launch(advance, (COUNT + 63) / 64, 64)(d, COUNT, dt, STEPS);
  copy_to_host(ps, d, COUNT);
  kp_free(d);
  for (int i = 0; i < COUNT; i++)
    KT_CHECK(memcmp(&ps[i], &want[i], sizeof ps[i]) == 0,
             "particle %d: pos (%g,%g,%g) vel.c %g steps %lld id %d; expected pos (%g,%g,%g) "
             "vel.c %g steps %lld id %d",
             i, ps[i].pos.a, ps[i].pos.b, ps[i].pos.c, ps[i].vel.c, ps[i].steps, ps[i].id,
             want[i].pos.a, want[i].pos.b, want[i].pos.c, want[i].vel.c, want[i].steps,
             want[i].id);
}

int main(void) {
  kt_start("structs");
  check_args();
  check_returns();
  check_particles();
  puts("structs: OK");
  return 0;
}
