// missing-volatile: a `.cv` load in a helper that a named lambda calls, and the lambda is the
// condition of a polling loop: inlined, the non-volatile asm may be hoisted out of the loop.
__device__ __forceinline__ unsigned read_flag(const unsigned* flag) {
  unsigned v;
  asm("ld.global.cv.u32 %0, [%1];" : "=r"(v) : "l"(flag));  // expect: missing-volatile(warning), missing-memory-clobber, prefer-intrinsic(info), generic-address(info)
  return v;
}

__global__ void wait_lambda(const unsigned* flag, unsigned* spins) {
  auto ready = [&]() { return read_flag(flag) != 0; };
  unsigned n = 0;
  while (!ready() && n < 1000000u) ++n;
  spins[threadIdx.x] = n;
}
