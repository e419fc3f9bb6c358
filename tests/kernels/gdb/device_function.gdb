# A device function called from a kernel: stop in it, step over a line, see its locals.
set pagination off
break debugger_expect.c:7 if v == 300
run
bt 3
next
print doubled
finish
kill
