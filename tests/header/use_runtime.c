// The runtime, devices and errors with kernplug/runtime.h alone.
#include "kernplug/runtime.h"

int use_runtime(void) {
  kp_set_error_mode(KP_ERRORS_RETURN);
  kp_detect();
  kp_select_device(kp_device_count() > 1 ? 1 : 0);
  kp_device_properties props;
  kp_error e = kp_device_properties_get(kp_current_device(), &props);
  kp_synchronize();
  const char *message = kp_last_error_message();
  return (int)e + (int)kp_last_error() + props.warp_size + kp_backend_name()[0] + message[0] +
         KP_VERSION_MAJOR + KP_VERSION_MINOR + KP_VERSION_PATCH;
}
