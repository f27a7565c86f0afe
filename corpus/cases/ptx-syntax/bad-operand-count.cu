// ptx-syntax: add takes three operands, not two.
// gpu: nvcc -arch=sm_90 fails: ptxas "Arguments mismatch for instruction 'add'" (measured)
// gpu-bad: ptxas "Arguments mismatch for instruction 'add'"
__device__ unsigned incr(unsigned a) {
  unsigned r;
  asm("add.u32 %0, %1;"  // expect: ptx-syntax
      : "=r"(r)
      : "r"(a));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = incr(v[threadIdx.x]);
}
