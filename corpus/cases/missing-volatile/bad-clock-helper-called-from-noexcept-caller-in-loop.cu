// missing-volatile: the clock helper's caller has a `noexcept(true)` after its parameters and
// is called in a loop: the read runs every turn, and the callers' walk must read the caller's
// name past the specifier.
__device__ __forceinline__ unsigned clk() {
  unsigned v;
  asm("mov.u32 %0, %%clock;" : "=r"(v));  // expect: missing-volatile(warning), prefer-intrinsic(info)
  return v;
}

__device__ void stamp(unsigned* out) noexcept(true) { out[0] = clk(); }

__global__ void k(unsigned* out, int n) {
  for (int i = 0; i < n; ++i) {
    stamp(out + i);
  }
}
