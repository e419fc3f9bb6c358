/* Memory fences: CUDA's __threadfence* are membar at the matching scope. */
#include "kp_device.h"

void kp_dev_threadfence(void) { __nvvm_membar_gl(); }        /* the whole device */
void kp_dev_threadfence_block(void) { __nvvm_membar_cta(); } /* the thread block */
void kp_dev_threadfence_system(void) { __nvvm_membar_sys(); } /* device, host, peers */
