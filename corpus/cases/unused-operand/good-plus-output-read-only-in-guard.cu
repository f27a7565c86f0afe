// Correct: a "+r" operand that is written only when the guard holds is still used.
__device__ unsigned saturate(unsigned v, unsigned hi) {
  asm("{\n\t"
      ".reg .pred over;\n\t"
      "setp.gt.u32 over, %0, %1;\n\t"
      "@over mov.u32 %0, %1;\n\t"
      "}"
      : "+r"(v)
      : "r"(hi));
  return v;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = saturate(v[threadIdx.x], 255u);
}
