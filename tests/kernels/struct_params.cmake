# What the CUDA backend passes for struct parameters that the host ABI passes by reference
# (ms_abi: calling_conventions.c) or as an odd-sized integer (i24, i40, …: struct_odd_sizes.c),
# checked against the fake driver, which reads each parameter with the size its PTX .param
# declares. It runs no kernels, so the programs' own checks fail afterwards.
if(TARGET fake_cuda)
  set(fake ${kp_fake_cuda_env}
      FAKE_CUDA_LOG=/dev/stderr)
  # b = 7, c = 20.5, then the bytes of rgb {1, 2, 3}, s12 {100, -5, 300} and s40 {0, 1, 2, 3, 4}.
  kp_kernel_expect(calling_conventions_fake_cuda calling_conventions EXPECT fail ENV ${fake}
    STDERR "cuLaunchKernel k_ms_abi grid=4,1,1 block=64,1,1 shared=0 stream=(nil) params=0x"
           ",0x7,0x4034800000000000,010203,64000000fbffffff2c010000,0000000000000000000000000000f03f000000000000004000000000000008400000000000001040,0xc8\n")
  # .u32/.u64 parameters holding the structs zero-extended; the 13-byte one went in memory.
  kp_kernel_expect(struct_odd_sizes_fake_cuda struct_odd_sizes EXPECT fail ENV ${fake}
    STDERR "cuLaunchKernel k grid=4,1,1 block=32,1,1 shared=0 stream=(nil) params=0x30201,0x700000064,0x140000000000,0x1e000000000000,0x5a,0x280000,3200000000000000000000003c,0x")
endif()
