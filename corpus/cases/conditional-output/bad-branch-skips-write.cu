// conditional-output: a branch jumps over the only write of an "=r" output.
__device__ unsigned divide_or_keep(unsigned a, unsigned b) {
  unsigned q = a;
  asm("{\n\t"
      ".reg .pred zero;\n\t"
      "setp.eq.u32 zero, %2, 0;\n\t"
      "@zero bra DIV_SKIP_%=;\n\t"
      "div.u32 %0, %1, %2;\n\t"  // expect: conditional-output
      "DIV_SKIP_%=:\n\t"
      "}"
      : "=r"(q)
      : "r"(a), "r"(b));
  return q;
}

__global__ void k(const unsigned* num, const unsigned* den, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = divide_or_keep(num[t], den[t]);
}
