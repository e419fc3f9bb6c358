/* grid_sync(): a grid-wide barrier written here rather than CUDA's cudadevrt
 * (cudaCGSynchronizeGrid): the runtime loads PTX with the driver alone and needs no CUDA
 * toolkit library at run time, and the barrier is a few instructions.
 *
 * One 32-bit word per device module (the plugin links this file into each module and
 * internalises it; the driver zeroes it at load). Each block arrives once: block (0, 0, 0)
 * adds 0x80000000 - (blocks - 1), every other block 1, so when all have arrived the word has
 * grown by exactly 0x80000000: its top bit flips and its low bits are back where they were.
 * A block waits for that flip, so the word never needs resetting, and back-to-back launches
 * (or grid syncs) of any grid size reuse it. It requires every block resident at once, which
 * the cooperative launch guarantees (the runtime launches every kernel that reaches
 * grid_sync with cuLaunchCooperativeKernel), and one cooperative launch of the module at a
 * time, which the CUDA backend enforces by ordering them (backend_cuda.c). The fences make
 * the writes of every thread before the barrier visible to every thread after it: the block
 * barrier gathers the block's writes, membar.gl publishes them before the arrival (release)
 * and orders the read of the flip before what follows (acquire). */
#include "kp_device.h"

static unsigned __kp_grid_barrier_word;

KP_CONVERGENT void kp_dev_grid_sync(void) {
  __syncthreads();
  if ((__nvvm_read_ptx_sreg_tid_x() | __nvvm_read_ptx_sreg_tid_y() |
       __nvvm_read_ptx_sreg_tid_z()) == 0) {
    unsigned blocks = __nvvm_read_ptx_sreg_nctaid_x() * __nvvm_read_ptx_sreg_nctaid_y() *
                      __nvvm_read_ptx_sreg_nctaid_z();
    int first = (__nvvm_read_ptx_sreg_ctaid_x() | __nvvm_read_ptx_sreg_ctaid_y() |
                 __nvvm_read_ptx_sreg_ctaid_z()) == 0;
    unsigned add = first ? 0x80000000u - (blocks - 1u) : 1u;
    volatile unsigned *word = &__kp_grid_barrier_word;
    __nvvm_membar_gl(); /* release: this block's writes before its arrival */
    unsigned old = __nvvm_atom_add_gen_i((int *)&__kp_grid_barrier_word, (int)add);
    while (((old ^ *word) & 0x80000000u) == 0)
      __nvvm_nanosleep(32);
    __nvvm_membar_gl(); /* acquire: the others' writes before what follows */
  }
  __syncthreads();
}
