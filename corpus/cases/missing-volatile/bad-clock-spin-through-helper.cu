// missing-volatile: a spin on the clock through a helper, called in the loop's own condition:
// inlined, the read in `while (clk() - t0 < wait)` is the same pure asm as the read before
// the loop, which nvcc was measured to merge (bad-clock-spin-until.cu).
__device__ __forceinline__ unsigned clk() {
  unsigned v;
  asm("mov.u32 %0, %%clock;" : "=r"(v));  // expect: missing-volatile(warning), prefer-intrinsic(info)
  return v;
}

__global__ void k(unsigned* out, unsigned wait) {
  unsigned t0 = clk();
  while (clk() - t0 < wait) {
  }
  out[0] = t0;
}
