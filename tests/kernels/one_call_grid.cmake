# one_call_grid.c with one participant: every launch runs on the caller alone, small grids in
# one call of the block entry (backend_cpu.c, one_call).
kp_kernel_expect(one_call_grid_alone one_call_grid EXPECT success ENV KP_BACKEND=cpu KP_NUM_THREADS=1
  STDOUT "fault: kernel 'oc_trap_at', block (7, 0, 0), thread (13, 0, 0)" "one_call_grid: ok")
