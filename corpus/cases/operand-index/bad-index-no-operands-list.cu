// operand-index: a placeholder in an asm whose only operand list is the output list.
__device__ unsigned lane_plus(unsigned base) {
  unsigned r = base;
  asm("add.u32 %0, %0, %1;"  // expect: operand-index
      : "+r"(r));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = lane_plus(v[threadIdx.x]);
}
