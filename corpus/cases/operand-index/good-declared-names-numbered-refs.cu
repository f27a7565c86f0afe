// Correct: named and numbered placeholders mixed; names count in the numbering.
__device__ unsigned clamp_add(unsigned a, unsigned b, unsigned hi) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "add.u32 t, %[a], %2;\n\t"
      "min.u32 %[r], t, %3;\n\t"
      "}"
      : [r] "=r"(r)
      : [a] "r"(a), "r"(b), [hi] "r"(hi));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = clamp_add(v[t], t, 1000u);
}
