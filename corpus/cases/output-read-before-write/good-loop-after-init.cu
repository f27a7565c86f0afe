// Correct: a loop reads the "=r" output, but only after it was written on every path into the
// loop.
__device__ unsigned log2_floor(unsigned x) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 v;\n\t"
      ".reg .pred more;\n\t"
      "shr.u32 v, %1, 1;\n\t"
      "mov.u32 %0, 0;\n\t"
      "setp.eq.u32 more, v, 0;\n\t"
      "@more bra LOG_END_%=;\n\t"
      "LOG_LOOP_%=:\n\t"
      "add.u32 %0, %0, 1;\n\t"
      "shr.u32 v, v, 1;\n\t"
      "setp.ne.u32 more, v, 0;\n\t"
      "@more bra LOG_LOOP_%=;\n\t"
      "LOG_END_%=:\n\t"
      "}"
      : "=r"(r)
      : "r"(x));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = log2_floor(v[threadIdx.x] | 1u);
}
