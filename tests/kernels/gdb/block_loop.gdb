# A block-loop kernel: break for one GPU thread, print its indices and locals.
set pagination off
break debugger_expect.c:14 if $kp_block_idx(0) == 2 && $kp_thread_idx(0) == 7
run
kp
print i
print x[i]
bt 2
kill
