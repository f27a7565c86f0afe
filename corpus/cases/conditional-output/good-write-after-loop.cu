// Correct: a loop with %= labels, and the "=r" output written once after the loop on every path.
__device__ unsigned count_ones(unsigned n) {
  unsigned ones;
  asm("{\n\t"
      ".reg .u32 x, c, bit;\n\t"
      ".reg .pred done, more;\n\t"
      "mov.u32 x, %1;\n\t"
      "mov.u32 c, 0;\n\t"
      "setp.eq.u32 done, x, 0;\n\t"
      "@done bra ONES_END_%=;\n\t"
      "ONES_LOOP_%=:\n\t"
      "and.b32 bit, x, 1;\n\t"
      "add.u32 c, c, bit;\n\t"
      "bfe.u32 x, x, 1, 31;\n\t"
      "setp.ne.u32 more, x, 0;\n\t"
      "@more bra ONES_LOOP_%=;\n\t"
      "ONES_END_%=:\n\t"
      "mov.u32 %0, c;\n\t"
      "}"
      : "=r"(ones)
      : "r"(n));
  return ones;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = count_ones(threadIdx.x * 2654435761u);
}
