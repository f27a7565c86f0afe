// missing-volatile: a `.cv` load in a helper that a loop calls to poll a flag: inlined, the
// non-volatile asm is a pure function of the address, which the compiler may hoist out of the
// loop (measured for a non-volatile load polled in a loop: bad-hoisted-poll.cu).
__device__ __forceinline__ unsigned read_flag(const unsigned* flag) {
  unsigned v;
  asm("ld.global.cv.u32 %0, [%1];" : "=r"(v) : "l"(flag));  // expect: missing-volatile(warning), missing-memory-clobber, prefer-intrinsic(info), generic-address(info)
  return v;
}

__global__ void wait_ready(const unsigned* flag, unsigned* spins) {
  unsigned n = 0;
  while (read_flag(flag) == 0 && n < 1000000u) ++n;
  spins[threadIdx.x] = n;
}
