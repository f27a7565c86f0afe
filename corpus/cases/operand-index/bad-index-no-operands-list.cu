// operand-index: a placeholder in an asm whose only operand list is the output list.
// gpu: nvcc crashes: Internal Compiler Error (codegen): "asm operand index requested is larger than the number of asm operands provided!" (measured)
// gpu-bad: nvcc "asm operand index requested is larger than the number of asm operands provided!"
__device__ unsigned lane_plus(unsigned base) {
  unsigned r = base;
  asm("add.u32 %0, %0, %1;"  // expect: operand-index
      : "+r"(r));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = lane_plus(v[threadIdx.x]);
}
