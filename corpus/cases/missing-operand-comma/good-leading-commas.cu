// Correct: operands written with leading commas, one per line.
__device__ unsigned mix3(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "xor.b32 t, %1, %2;\n\t"
      "xor.b32 %0, t, %3;\n\t"
      "}"
      : "=r"(r)
      : "r"(a)
      , "r"(b)
      , "r"(c));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = mix3(v[t], t, 0x9e3779b9u);
}
