// Correct: plain %N (including two digits) and %%name contain no modifier; a declared operand
// name ([sum]) changes nothing.
// gpu-good: compiles
__device__ unsigned sum11(const unsigned (&v)[11]) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 %%n1;\n\t"
      "add.u32 %%n1, %1, %2;\n\t"
      "add.u32 %%n1, %%n1, %3;\n\t"
      "add.u32 %%n1, %%n1, %4;\n\t"
      "add.u32 %%n1, %%n1, %5;\n\t"
      "add.u32 %%n1, %%n1, %6;\n\t"
      "add.u32 %%n1, %%n1, %7;\n\t"
      "add.u32 %%n1, %%n1, %8;\n\t"
      "add.u32 %%n1, %%n1, %9;\n\t"
      "add.u32 %%n1, %%n1, %10;\n\t"
      "add.u32 %0, %%n1, %11;\n\t"
      "}"
      : [sum] "=r"(r)
      : "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]), "r"(v[4]), "r"(v[5]), "r"(v[6]),
        "r"(v[7]), "r"(v[8]), "r"(v[9]), "r"(v[10]));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned v[11];
  for (int i = 0; i < 11; ++i) v[i] = in[threadIdx.x + i];
  out[threadIdx.x] = sum11(v);
}
