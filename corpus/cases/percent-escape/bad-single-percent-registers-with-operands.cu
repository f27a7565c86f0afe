// percent-escape (warning for clang): PTX register names spelled with a single % inside an asm that has
// operands. nvcc passes them through, clang and GCC-style front ends read %t as an operand
// modifier and reject the file: write %%.
// Built by clang too (a warning; info where only nvcc builds the file):
// portability: clang
__device__ unsigned weighted(unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 %tmp;\n\t"  // expect: percent-escape(warning)
      "add.u32 %tmp, %1, %2;\n\t"  // expect: percent-escape(warning)
      "mul.lo.u32 %0, %tmp, 3;\n\t"  // expect: percent-escape(warning)
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = weighted(in[threadIdx.x], in[threadIdx.x + 1]);
}
