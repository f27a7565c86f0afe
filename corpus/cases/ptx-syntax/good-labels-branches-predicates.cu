// Correct: labels, predicated branches, a negated guard and nested scopes.
// gpu-good: compiles
__device__ unsigned gcd(unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 x, y, t;\n\t"
      ".reg .pred done;\n\t"
      "mov.u32 x, %1;\n\t"
      "mov.u32 y, %2;\n\t"
      "GCD_LOOP_%=:\n\t"
      "setp.eq.u32 done, y, 0;\n\t"
      "@done bra GCD_END_%=;\n\t"
      "rem.u32 t, x, y;\n\t"
      "mov.u32 x, y;\n\t"
      "mov.u32 y, t;\n\t"
      "bra.uni GCD_LOOP_%=;\n\t"
      "GCD_END_%=:\n\t"
      "mov.u32 %0, x;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = gcd(v[threadIdx.x], 360u);
}
