# -O2 -g: the kernel line and the block, as far as optimised code keeps them.
set pagination off
break debugger_expect.c:14
run
kp
kill
