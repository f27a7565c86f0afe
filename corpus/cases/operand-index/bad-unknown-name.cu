// operand-index: %[carry] names no operand.
// gpu: nvcc rejects: invalid symbolic operand name "carry" (measured)
// gpu-bad: nvcc "invalid symbolic operand name"
__device__ unsigned add3(unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "add.u32 t, %[a], %[b];\n\t"  // expect: operand-index
      "add.u32 %[out], t, %[carry];\n\t"  // expect: operand-index
      "}"
      : [out] "=r"(r)
      : [a] "r"(a), [b] "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = add3(v[threadIdx.x], 1u);
}
