// operand-index: %2 with only two operands (%0 and %1).
// gpu: nvcc crashes: Internal Compiler Error (codegen): "asm operand index requested is larger than the number of asm operands provided!"
// gpu-bad: nvcc "asm operand index requested is larger than the number of asm operands provided!"
__device__ unsigned add_pair(unsigned a) {
  unsigned r;
  asm("add.u32 %0, %1, %2;"  // expect: operand-index
      : "=r"(r)
      : "r"(a));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = add_pair(v[threadIdx.x]);
}
