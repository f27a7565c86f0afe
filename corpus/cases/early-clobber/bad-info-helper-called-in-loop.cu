// early-clobber: the same `mov %0, 7; add %0, %0, %1` as bad-warning-loop-carried-mov-add.cu,
// but inside a helper: the asm alone does not show that a caller feeds the result back in
// (`y = add_seven(y)` in a loop), so this is info; once inlined into such a loop it is the same bug.
// gpu: launch k<<<1,32>>>(out, 2) with out[*] = 8; 22 expected, 14 when output and input share a register
// gpu-launch: k<<<1, 32>>>(out: u32[32] = 8, n: u32 = 2)
// gpu-bad: out[0] == 14
// gpu-good: out[0] == 22 && out[31] == 22

__device__ __forceinline__ unsigned add_seven(unsigned y) {
  unsigned x;
  asm("mov.u32 %0, 7;\n\t"
      "add.u32 %0, %0, %1;"
      : "=r"(x)  // expect: early-clobber(info)
      : "r"(y));
  return x;
}

__global__ void k(unsigned* out, unsigned n) {
  unsigned y = out[threadIdx.x];
  for (unsigned i = 0; i < n; ++i) y = add_seven(y);
  out[threadIdx.x] = y;
}
