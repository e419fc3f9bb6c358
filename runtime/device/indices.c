/* Thread, block and grid indices: each is one read of a PTX special register. */
#include "kp_device.h"

unsigned kp_dev_tid_x(void) { return __nvvm_read_ptx_sreg_tid_x(); }
unsigned kp_dev_tid_y(void) { return __nvvm_read_ptx_sreg_tid_y(); }
unsigned kp_dev_tid_z(void) { return __nvvm_read_ptx_sreg_tid_z(); }

unsigned kp_dev_ctaid_x(void) { return __nvvm_read_ptx_sreg_ctaid_x(); }
unsigned kp_dev_ctaid_y(void) { return __nvvm_read_ptx_sreg_ctaid_y(); }
unsigned kp_dev_ctaid_z(void) { return __nvvm_read_ptx_sreg_ctaid_z(); }

unsigned kp_dev_ntid_x(void) { return __nvvm_read_ptx_sreg_ntid_x(); }
unsigned kp_dev_ntid_y(void) { return __nvvm_read_ptx_sreg_ntid_y(); }
unsigned kp_dev_ntid_z(void) { return __nvvm_read_ptx_sreg_ntid_z(); }

unsigned kp_dev_nctaid_x(void) { return __nvvm_read_ptx_sreg_nctaid_x(); }
unsigned kp_dev_nctaid_y(void) { return __nvvm_read_ptx_sreg_nctaid_y(); }
unsigned kp_dev_nctaid_z(void) { return __nvvm_read_ptx_sreg_nctaid_z(); }

/* %laneid, not tid.x % 32: the two differ for blocks whose x extent is not a multiple of 32
 * in 2D/3D launches, and CUDA's laneid is the hardware lane. */
unsigned kp_dev_laneid(void) { return __nvvm_read_ptx_sreg_laneid(); }
