// Streams, events and asynchronous copies with kernplug/stream.h alone.
#include "kernplug/stream.h"

float use_stream(float *device, const float *host, float *back, int n) {
  kp_stream s = kp_stream_create();
  kp_event start = kp_event_create(), end = kp_event_create();
  kp_event_record(start, s);
  kp_copy_to_device_async(device, host, n, s);
  kp_copy_to_host_async(back, device, n, s);
  kp_event_record(end, s);
  kp_event_synchronize(end);
  float ms = kp_event_elapsed_ms(start, end) + (float)kp_event_query(end);
  kp_stream_synchronize(s);
  kp_event_destroy(start);
  kp_event_destroy(end);
  kp_stream_destroy(s);
  return ms;
}
