// Front end: an operand list with a missing comma must still bind three operands (nvcc does):
// %2 is in range, so only the comma is reported.
__device__ unsigned add3(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "add.u32 t, %1, %2;\n\t"
      "add.u32 %0, t, %3;\n\t"
      "}"
      : "=r"(r)
      : "r"(a) "r"(b), "r"(c));  // expect: missing-operand-comma
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = add3(v[threadIdx.x], 1u, 2u);
}
