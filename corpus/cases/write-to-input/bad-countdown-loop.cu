// write-to-input: a delay loop that counts its input down in place.
__device__ void spin(unsigned n) {
  asm volatile(
      "{\n\t"
      ".reg .pred p;\n\t"
      "SPIN_%=:\n\t"
      "sub.u32 %0, %0, 1;\n\t"  // expect: write-to-input
      "setp.ne.u32 p, %0, 0;\n\t"
      "@p bra SPIN_%=;\n\t"
      "}"
      :: "r"(n));
}

__global__ void k(unsigned* out, unsigned n) {
  spin(n);
  out[threadIdx.x] = n;
}
