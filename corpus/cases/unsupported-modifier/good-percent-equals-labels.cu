// Correct: %= is the unique-id escape, not a modifier.
// gpu-good: compiles
__device__ unsigned clamp_to(unsigned x, unsigned hi) {
  unsigned r = x;
  asm("{\n\t"
      ".reg .pred ok;\n\t"
      "setp.le.u32 ok, %0, %1;\n\t"
      "@ok bra CLAMP_DONE_%=;\n\t"
      "mov.u32 %0, %1;\n\t"
      "CLAMP_DONE_%=:\n\t"
      "}"
      : "+r"(r)
      : "r"(hi));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = clamp_to(v[threadIdx.x], 100u) + clamp_to(v[threadIdx.x], 7u);
}
