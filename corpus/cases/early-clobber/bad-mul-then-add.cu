// early-clobber: the output is written by mul.lo, then add reads input %3.
// gpu-launch: k<<<1, 32>>>(v: u32[32] = 2)
// gpu-bad: v[5] != 11
// gpu-good: v[5] == 11
__device__ unsigned mul_add(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("mul.lo.u32 %0, %1, %2;\n\t"
      "add.u32 %0, %0, %3;"
      : "=r"(r)  // expect: early-clobber(info)
      : "r"(a), "r"(b), "r"(c));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = mul_add(v[t], 3u, t);
}
