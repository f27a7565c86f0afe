// write-to-input: the helper's parameter is dead after the asm, but its caller passes the
// constant 0, which the compiler may keep in one register for every use of 0 in the kernel
// (seen in PTX by a judge on ccminer's jh512). Measured on an H100 with nvcc 13.0
// (docs/confirmations.md): out[1] = 10 instead of 0.
// gpu-launch: k<<<1, 1>>>(in: u32[1] = 5, out: u32[2] = 0)
// gpu-bad: out[1] != 0
__device__ __forceinline__ unsigned add_twice(unsigned v, unsigned scratch) {
  unsigned r;
  asm volatile("add.u32 %2, %1, %1;\n\t"  // expect: write-to-input
               "mov.u32 %0, %2;"
               : "=r"(r)
               : "r"(v), "r"(scratch));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[0] = add_twice(in[0], 0u);
  unsigned zero = 0u;
  asm volatile("mov.u32 %0, %1;" : "=r"(out[1]) : "r"(zero));
}
