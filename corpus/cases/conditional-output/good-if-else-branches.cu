// Correct: an if/else built from branches writes the output on both paths.
__device__ unsigned safe_div(unsigned a, unsigned b) {
  unsigned q;
  asm("{\n\t"
      ".reg .pred zero;\n\t"
      "setp.eq.u32 zero, %2, 0;\n\t"
      "@zero bra ZERO_%=;\n\t"
      "div.u32 %0, %1, %2;\n\t"
      "bra.uni DONE_%=;\n\t"
      "ZERO_%=:\n\t"
      "mov.u32 %0, 0xffffffff;\n\t"
      "DONE_%=:\n\t"
      "}"
      : "=r"(q)
      : "r"(a), "r"(b));
  return q;
}

__global__ void k(const unsigned* a, const unsigned* b, unsigned* out) {
  out[threadIdx.x] = safe_div(a[threadIdx.x], b[threadIdx.x]);
}
