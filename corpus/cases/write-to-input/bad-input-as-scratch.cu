// write-to-input: the input %1 is used as scratch space; the caller's copy of x may change.
// gpu: launch k<<<1,1>>>(in, out) with in[0] = 10, in[1] = 3; out[0] is 26 instead of (x + d) + x = 23: the register holding x was overwritten (measured)
// gpu-launch: k<<<1, 1>>>(in: u32[2] = {10, 3}, out: u32[1] = 0)
// gpu-bad: out[0] != 23
__global__ void k(const unsigned* in, unsigned* out) {
  unsigned x = in[0];
  unsigned d = in[1];
  unsigned r;
  asm volatile("add.u32 %1, %1, %2;\n\t"  // expect: write-to-input
               "mov.u32 %0, %1;"
               : "=r"(r)
               : "r"(x), "r"(d));
  out[0] = r + x;
}
