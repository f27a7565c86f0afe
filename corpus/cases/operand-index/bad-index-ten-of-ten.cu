// operand-index: %10 with ten operands (%0..%9): an off-by-one in a long list.
// gpu: nvcc crashes: Internal Compiler Error (codegen): "asm operand index requested is larger than the number of asm operands provided!" (measured)
// gpu-bad: nvcc "asm operand index requested is larger than the number of asm operands provided!"
__device__ unsigned sum9(const unsigned (&v)[9]) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 s;\n\t"
      "add.u32 s, %1, %2;\n\t"
      "add.u32 s, s, %3;\n\t"
      "add.u32 s, s, %4;\n\t"
      "add.u32 s, s, %5;\n\t"
      "add.u32 s, s, %6;\n\t"
      "add.u32 s, s, %7;\n\t"
      "add.u32 s, s, %8;\n\t"
      "add.u32 s, s, %9;\n\t"
      "add.u32 %0, s, %10;\n\t"  // expect: operand-index
      "}"
      : "=r"(r)
      : "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]), "r"(v[4]), "r"(v[5]), "r"(v[6]),
        "r"(v[7]), "r"(v[8]));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned v[9];
  for (int i = 0; i < 9; ++i) v[i] = in[threadIdx.x + i];
  out[threadIdx.x] = sum9(v);
}
