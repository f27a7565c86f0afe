// Front end: a PTX // comment without a newline runs on into the next concatenated literal, so
// the add below is commented out and the "=r" output is never written.
__device__ unsigned weighted(unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "mul.lo.u32 t, %1, %2;  // t = a * b"
      "add.u32 %0, t, 1;\n\t"
      "}"
      : "=r"(r)  // expect: unused-operand(warning)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = weighted(v[threadIdx.x], 7u);
}
