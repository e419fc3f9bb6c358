# A kernel with a barrier (-O0 -g: on fibers): break after the barrier for one thread, step.
set pagination off
break debugger_expect.c:24 if $kp_block_idx(0) == 1 && $kp_thread_idx(0) == 5
run
kp
print t
next
print v
kill
