# fno_builtin.c is built with -fno-builtin, which leaves memset/memcpy/memmove calls in
# device code (DeviceLowering.cpp turns them into intrinsics).
target_compile_options(kt_fno_builtin PRIVATE -fno-builtin)
