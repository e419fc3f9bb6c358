/* stream_pipeline.c — overlapping transfers with computation: a large array is cut into
 * chunks that go round-robin to a few streams; on each stream a chunk is copied in, evaluated
 * by a kernel and copied back, all asynchronously, so that while the kernel works on chunk k
 * the copy engines move chunk k+1 in and chunk k-1 out. The same work done synchronously, one
 * chunk after another on the default stream, is timed against it with events.
 *
 *   streams = [cuda.stream() for _ in range(S)]
 *   for k in range(CHUNKS):
 *       s = streams[k % S]
 *       d_in[k % S].copy_to_device(x[k*C:(k+1)*C], stream=s)
 *       poly[blocks, threads, s](d_in[k % S], d_out[k % S])
 *       d_out[k % S].copy_to_host(y[k*C:(k+1)*C], stream=s)
 *
 * The host arrays are pinned (pinned_array): CUDA copies from pageable memory synchronously
 * with the host, which would serialise the pipeline. Each stream reuses its two device
 * buffers for its next chunk; the stream's own order makes that safe. On the CPU backend every
 * call finishes before it returns, so both versions take about the same time there. */
#include "example_util.h"
#include "kernplug.h"

/* A degree-12 polynomial per element (Horner): enough arithmetic that the kernel's time is
 * comparable to the transfers'. */
enum { DEGREE = 12 };
static float poly_host(float x) {
  float p = 0.0f;
  for (int k = DEGREE; k >= 0; k--) p = p * x + 1.0f / (float)(k + 1);
  return p;
}

__attribute__((kernel)) void poly(const float *x, float *y, int n) {
  int i = grid(1);
  if (i >= n) return;
  float v = x[i], p = 0.0f;
  for (int k = DEGREE; k >= 0; k--) p = p * v + 1.0f / (float)(k + 1);
  y[i] = p;
}

enum { N = 1 << 24, CHUNKS = 16, CHUNK = N / CHUNKS, STREAMS = 3, THREADS = 256 };

/* GPUs contract p * v + c to an fma: compare with a relative tolerance. */
static int count_bad(const float *x, const float *y) {
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float want = poly_host(x[i]);
    bad += !(fabsf(y[i] - want) <= 1e-5f * fabsf(want) + 1e-6f);
  }
  return bad;
}

int main(void) {
  const char *backend = example_start("stream_pipeline");
  float *x = pinned_array(float, N), *y = pinned_array(float, N);
  for (int i = 0; i < N; i++) x[i] = (float)(i % 2001) / 1000.0f - 1.0f; /* in [-1, 1] */
  const int blocks = (CHUNK + THREADS - 1) / THREADS;
  kp_event start = kp_event_create(), end = kp_event_create();

  /* Synchronous: copy in, kernel, copy out, one chunk at a time. */
  float *d_in = device_array(float, CHUNK), *d_out = device_array(float, CHUNK);
  memset(y, 0, (size_t)N * sizeof *y);
  kp_event_record(start, NULL);
  for (int k = 0; k < CHUNKS; k++) {
    copy_to_device(d_in, x + k * CHUNK, CHUNK);
    launch(poly, blocks, THREADS)(d_in, d_out, CHUNK);
    copy_to_host(y + k * CHUNK, d_out, CHUNK);
  }
  kp_event_record(end, NULL);
  float sync_ms = kp_event_elapsed_ms(start, end);
  int bad_sync = count_bad(x, y);
  kp_free(d_in);
  kp_free(d_out);

  /* Pipelined: each stream has its own buffers and takes every STREAMS-th chunk. */
  kp_stream s[STREAMS];
  float *in[STREAMS], *out[STREAMS];
  for (int j = 0; j < STREAMS; j++) {
    s[j] = kp_stream_create();
    in[j] = device_array(float, CHUNK);
    out[j] = device_array(float, CHUNK);
  }
  memset(y, 0, (size_t)N * sizeof *y);
  /* Events on the default stream bracket the work of every stream: it waits for them all. */
  kp_event_record(start, NULL);
  for (int k = 0; k < CHUNKS; k++) {
    int j = k % STREAMS;
    copy_to_device_async(in[j], x + k * CHUNK, CHUNK, s[j]);
    launch(poly, blocks, THREADS, 0, s[j])(in[j], out[j], CHUNK);
    copy_to_host_async(y + k * CHUNK, out[j], CHUNK, s[j]);
  }
  kp_event_record(end, NULL);
  kp_event_synchronize(end);
  float pipe_ms = kp_event_elapsed_ms(start, end);
  int bad_pipe = count_bad(x, y);

  printf("%d floats in %d chunks: synchronous %.2f ms, %d streams %.2f ms (%.2fx)\n", N, CHUNKS,
         sync_ms, STREAMS, pipe_ms, pipe_ms > 0 ? sync_ms / pipe_ms : 0.0);
  printf("stream_pipeline: %s backend, %s, %.3f ms\n", backend,
         bad_sync || bad_pipe ? "FAIL" : "OK", pipe_ms);
  if (bad_sync || bad_pipe)
    printf("%d wrong elements synchronous, %d pipelined\n", bad_sync, bad_pipe);

  for (int j = 0; j < STREAMS; j++) {
    kp_free(in[j]);
    kp_free(out[j]);
    kp_stream_destroy(s[j]);
  }
  kp_event_destroy(start);
  kp_event_destroy(end);
  kp_free(x);
  kp_free(y);
  return bad_sync || bad_pipe ? 1 : 0;
}
