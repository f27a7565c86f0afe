// Correct: an operand the template updates in place is declared "+r".
__device__ unsigned countdown(unsigned n) {
  asm volatile(
      "{\n\t"
      ".reg .pred p;\n\t"
      "SPIN_%=:\n\t"
      "sub.u32 %0, %0, 1;\n\t"
      "setp.ne.u32 p, %0, 0;\n\t"
      "@p bra SPIN_%=;\n\t"
      "}"
      : "+r"(n));
  return n;
}

__global__ void k(unsigned* out, unsigned n) {
  out[threadIdx.x] = countdown(n | 1u);
}
