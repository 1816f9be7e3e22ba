MemcpyHtoD,0x0000000010000000,4000
kernel-1.traceg
