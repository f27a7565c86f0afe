// Correct: a .uni branch, a `{` opened and closed in one statement, and
// a label defined with %= inside the braces (the output is early-clobber: it is written
// before the last read of an input).
// gpu: compiles for sm_90 (measured, nvcc 13.0.88)
// gpu-good: compiles
__device__ unsigned clamp_to(unsigned v, unsigned hi) {
  unsigned r;
  asm("{\n\t"
      ".reg .pred big;\n\t"
      "mov.u32 %0, %1;\n\t"
      "setp.gt.u32 big, %1, %2;\n\t"
      "@!big bra.uni DONE_%=;\n\t"
      "mov.u32 %0, %2;\n\t"
      "DONE_%=:\n\t"
      "}"
      : "=&r"(r)
      : "r"(v), "r"(hi));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = clamp_to(v[threadIdx.x], 100u);
}
