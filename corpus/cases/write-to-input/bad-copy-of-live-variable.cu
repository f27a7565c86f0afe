// write-to-input: the input is a copy of `x`, which is read after the asm; the compiler may give
// the copy x's register, so the write would change x. Measured on an H100 with nvcc 13.0
// (docs/confirmations.md): out[0] = 22 instead of 21; with ptxguard's fix, 21.
// gpu-launch: k<<<1, 1>>>(in: u32[1] = 10, out: u32[1] = 0)
// gpu-bad: out[0] != 21
__global__ void k(const unsigned* in, unsigned* out) {
  unsigned x = in[0];
  unsigned t = x;
  unsigned r;
  asm volatile("add.u32 %1, %1, 1;\n\t"  // expect: write-to-input
               "mov.u32 %0, %1;"
               : "=r"(r)
               : "r"(t));
  out[0] = r + x;
}
